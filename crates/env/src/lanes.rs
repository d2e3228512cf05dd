//! `Lanes`: the chunks of envs of one step dealt out to the threads that step them.
//!
//! Each thread works through a lane of consecutive chunks of its own, from the front, and
//! when its lane is empty takes chunks from the back of the others'. Dealt the same way at
//! every step, a thread steps nearly the same envs each time, so their rows stay in its core's
//! caches (rayon's work stealing split the batch differently from one step to the next, and
//! an env's kilobyte and a half of state and rows then moved between the cores); and a chunk
//! is claimed with one atomic operation, where rayon's splitting cost a few microseconds per
//! step.

use std::sync::atomic::{AtomicU64, Ordering};

/// Chunks `front..back` of a lane, as one word: `front << 32 | back`.
fn pack(front: usize, back: usize) -> u64 {
    (front as u64) << 32 | back as u64
}

fn unpack(lane: u64) -> (usize, usize) {
    ((lane >> 32) as usize, (lane & 0xffff_ffff) as usize)
}

/// One lane's chunks not yet claimed, on a cache line of its own: a claim in one lane then
/// takes no line from the threads working in the others.
#[derive(Debug, Default)]
#[repr(align(64))]
struct Lane(AtomicU64);

/// The chunks not yet claimed, in one lane per thread.
#[derive(Debug, Default)]
pub(crate) struct Lanes {
    lanes: Vec<Lane>,
}

impl Clone for Lanes {
    /// An empty deal: lanes are dealt afresh for every step.
    fn clone(&self) -> Self {
        Lanes::default()
    }
}

impl Lanes {
    /// Deals chunks `0..chunks` out to `threads` lanes, lane `t` the `t`-th run of about
    /// `chunks / threads` consecutive chunks (allocating only when the number of threads
    /// changes).
    pub(crate) fn deal(&mut self, chunks: usize, threads: usize) {
        let threads = threads.max(1);
        if self.lanes.len() != threads {
            self.lanes = (0..threads).map(|_| Lane::default()).collect();
        }
        let chunks = chunks.min(u32::MAX as usize);
        for (t, lane) in self.lanes.iter_mut().enumerate() {
            *lane.0.get_mut() = pack(t * chunks / threads, (t + 1) * chunks / threads);
        }
    }

    /// The next chunk for thread `me`: the front of its own lane, else the back of another
    /// (the next lanes first); `None` once every chunk is claimed. Each chunk of a deal is
    /// claimed once.
    pub(crate) fn claim(&self, me: usize) -> Option<usize> {
        let count = self.lanes.len();
        for k in 0..count {
            let own = k == 0;
            let lane = &self.lanes[(me + k) % count].0;
            let mut seen = lane.load(Ordering::Relaxed);
            loop {
                let (front, back) = unpack(seen);
                if front >= back {
                    break;
                }
                let (rest, chunk) = if own {
                    (pack(front + 1, back), front)
                } else {
                    (pack(front, back - 1), back - 1)
                };
                // Relaxed suffices: the claim only decides who steps a chunk; the envs' data
                // is handed between threads by the pool's own synchronisation.
                match lane.compare_exchange_weak(seen, rest, Ordering::Relaxed, Ordering::Relaxed) {
                    Ok(_) => return Some(chunk),
                    Err(now) => seen = now,
                }
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_thread_claims_its_lane_in_order_then_the_others_from_the_back() {
        let mut lanes = Lanes::default();
        lanes.deal(10, 3);
        let order: Vec<usize> = std::iter::from_fn(|| lanes.claim(1)).collect();
        // Lane 1 is chunks 3..6; then lane 2 (6..10) and lane 0 (0..3) from the back.
        assert_eq!(order, [3, 4, 5, 9, 8, 7, 6, 2, 1, 0]);
        // Two chunks in four lanes: lanes 1 and 3 hold one each.
        lanes.deal(2, 4);
        assert_eq!(
            lanes.claim(0),
            Some(0),
            "lane 0 is empty: the back of lane 1"
        );
        assert_eq!(lanes.claim(7), Some(1), "thread 7 of 4 lanes: lane 3");
        assert_eq!(lanes.claim(2), None);
    }

    #[test]
    fn threads_claiming_at_once_claim_every_chunk_exactly_once() {
        let mut lanes = Lanes::default();
        for threads in 1..=5 {
            for chunks in [0, 1, 3, 32, 1000] {
                lanes.deal(chunks, threads);
                let claimed: Vec<Vec<usize>> = std::thread::scope(|scope| {
                    let lanes = &lanes;
                    let handles: Vec<_> = (0..threads)
                        .map(|me| {
                            scope.spawn(move || std::iter::from_fn(|| lanes.claim(me)).collect())
                        })
                        .collect();
                    handles.into_iter().map(|h| h.join().unwrap()).collect()
                });
                let mut all: Vec<usize> = claimed.concat();
                all.sort_unstable();
                assert_eq!(
                    all,
                    (0..chunks).collect::<Vec<_>>(),
                    "{threads} threads, {chunks} chunks"
                );
            }
        }
    }
}
