//! The tables a query read, each noted once, to be checked when its reads are done
//! ([`Table::check_recent`]): a table changed on disk then fails the query instead of handing
//! out what was read from it.
//!
//! Noting costs a few nanoseconds a read and allocates nothing for a query of one table (a
//! probe): a batch of a million probes across hundreds of tables notes each table once, in a
//! small hashed set, and checks each once.

use std::sync::Arc;

use crate::error::DbError;
use crate::table::{Resolved, Table};

/// Tables read by one query.
#[derive(Default)]
pub(crate) struct Touched<'a> {
    /// The table read last (most reads of a query, or all of them, are of one table).
    last: Option<&'a Resolved>,
    /// Every other table read, by address.
    others: TableSet<'a>,
    /// Tables shared out of a tablebase's map (domains without slot numbers), each held.
    shared: Vec<Arc<Table>>,
}

impl<'a> Touched<'a> {
    /// Notes a read of `table`, borrowed for the query's life.
    #[inline]
    pub(crate) fn note(&mut self, table: &'a Resolved) {
        if self.last.is_some_and(|last| std::ptr::eq(last, table)) {
            return;
        }
        if let Some(previous) = self.last.replace(table) {
            self.others.insert(previous);
        }
    }

    /// Notes a read of a table shared out of a map.
    pub(crate) fn note_shared(&mut self, table: &Arc<Table>) {
        if !self.shared.iter().any(|t| Arc::ptr_eq(t, table)) {
            self.shared.push(Arc::clone(table));
        }
    }

    /// Checks every table noted, each once.
    pub(crate) fn check(mut self) -> Result<(), DbError> {
        if let Some(last) = self.last.take() {
            if self.others.len == 0 {
                // A query of one table: no set was made.
                return last.check_recent().and_then(|()| self.check_shared());
            } else {
                self.others.insert(last);
            }
        }
        self.others.iter().try_for_each(Resolved::check_recent)?;
        self.check_shared()
    }

    fn check_shared(&self) -> Result<(), DbError> {
        self.shared.iter().try_for_each(|t| t.check_recent())
    }
}

/// A set of tables by address: open addressing, linear probing, grown at half full.
#[derive(Default)]
struct TableSet<'a> {
    slots: Vec<Option<&'a Resolved>>,
    len: usize,
}

impl<'a> TableSet<'a> {
    fn insert(&mut self, table: &'a Resolved) {
        if 2 * (self.len + 1) > self.slots.len() {
            self.grow();
        }
        if Self::place(&mut self.slots, table) {
            self.len += 1;
        }
    }

    /// Puts `table` in `slots` unless it is there; whether it was put.
    fn place(slots: &mut [Option<&'a Resolved>], table: &'a Resolved) -> bool {
        let mask = slots.len() - 1;
        // Fibonacci hashing of the address (tables are heap blocks: the low bits are zeros).
        let mut at =
            ((table as *const Resolved as usize).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 20) & mask;
        loop {
            match slots[at] {
                None => {
                    slots[at] = Some(table);
                    return true;
                }
                Some(t) if std::ptr::eq(t, table) => return false,
                Some(_) => at = (at + 1) & mask,
            }
        }
    }

    fn grow(&mut self) {
        let mut bigger = vec![None; (2 * self.slots.len()).max(16)];
        for table in self.slots.iter().flatten() {
            Self::place(&mut bigger, table);
        }
        self.slots = bigger;
    }

    fn iter(&self) -> impl Iterator<Item = &'a Resolved> + '_ {
        self.slots.iter().flatten().copied()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tables(n: usize) -> Vec<Resolved> {
        (0..n)
            .map(|_| Resolved::new(Arc::new(Table::in_memory_for_tests(&[0]))))
            .collect()
    }

    #[test]
    fn every_table_noted_is_kept_once() {
        let all = tables(300);
        let mut touched = Touched::default();
        for round in 0..3 {
            for (i, t) in all.iter().enumerate() {
                touched.note(t);
                if (i + round) % 7 == 0 {
                    touched.note(t);
                }
            }
        }
        touched.others.insert(touched.last.unwrap());
        let mut seen: Vec<*const Resolved> =
            touched.others.iter().map(std::ptr::from_ref).collect();
        assert_eq!(seen.len(), 300);
        seen.sort_unstable();
        seen.dedup();
        assert_eq!(seen.len(), 300);
    }
}
