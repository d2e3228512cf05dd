//! Chunks of positions as parallel tasks, one task a chunk.
//!
//! Rayon's default splitting of a range gives each thread a few long runs of items, split
//! further only when another thread steals one before it starts. A pass whose work gathers in
//! a few places (a retrograde layer: its positions lie in a few subspaces of the unit, often in
//! a stretch of a few hundred chunks) then leaves one thread with a run that holds most of the
//! work while the others wait: on Twelve Men's Morris's 3-10 unit, one of two threads was
//! idle for two minutes on end. A task per chunk lets an idle thread take the next chunk; a
//! task costs rayon about a microsecond, beside the 16,384 positions of a chunk.

use rayon::prelude::*;

/// The chunks numbered `chunks`, each its own task.
pub(crate) fn each_chunk(chunks: std::ops::Range<u64>) -> impl IndexedParallelIterator<Item = u64> {
    // Chunk numbers are positions / 2^14 at least: a unit would need 2^46 positions to
    // overflow a 32-bit usize.
    let number = |c: u64| usize::try_from(c).expect("chunk numbers fit in usize");
    (number(chunks.start)..number(chunks.end))
        .into_par_iter()
        .with_max_len(1)
        .map(|c| c as u64)
}

/// The chunks of `chunks`, each its own task.
pub(crate) fn each_listed(chunks: &[u64]) -> impl IndexedParallelIterator<Item = u64> + '_ {
    chunks.par_iter().with_max_len(1).copied()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicU64, Ordering};

    #[test]
    fn every_chunk_once() {
        let seen: Vec<AtomicU64> = (0..1000).map(|_| AtomicU64::new(0)).collect();
        each_chunk(17..1000).for_each(|c| {
            seen[c as usize].fetch_add(1, Ordering::Relaxed);
        });
        for (c, n) in seen.iter().enumerate() {
            assert_eq!(n.load(Ordering::Relaxed), u64::from(c >= 17), "chunk {c}");
        }
        assert_eq!(each_chunk(5..5).count(), 0);
    }

    #[test]
    fn every_listed_chunk_once() {
        let list = [3, 9, 10, 400];
        let mut seen: Vec<u64> = each_listed(&list).collect();
        seen.sort_unstable();
        assert_eq!(seen, list);
        assert_eq!(each_listed(&[]).count(), 0);
    }

    #[test]
    fn an_idle_thread_takes_the_chunks_left_behind_a_long_one() {
        // Two threads; chunk 0 waits (up to a minute) for every other chunk to have run. In
        // runs of chunks as rayon splits them by default, the chunks after 0 in its run could
        // only start after it.
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(2)
            .build()
            .unwrap();
        let others = AtomicU64::new(0);
        let seen_by_chunk_0 = AtomicU64::new(0);
        pool.install(|| {
            each_chunk(0..64).for_each(|c| {
                if c == 0 {
                    let start = std::time::Instant::now();
                    while others.load(Ordering::Acquire) < 63
                        && start.elapsed() < std::time::Duration::from_secs(60)
                    {
                        std::thread::yield_now();
                    }
                    seen_by_chunk_0.store(others.load(Ordering::Acquire), Ordering::Relaxed);
                } else {
                    others.fetch_add(1, Ordering::Release);
                }
            });
        });
        assert_eq!(seen_by_chunk_0.load(Ordering::Relaxed), 63);
    }
}
