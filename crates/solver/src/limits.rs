//! What a request may ask for, checked the same way whichever front (the command line, Python)
//! made it: thread counts, and how many men or pieces a build covers.
//!
//! A thread count is at most [`THREADS_PER_CPU`] times the CPUs the process may use, unless
//! the caller forces it: more threads than that only share the same cores, and a mistyped
//! `100000` would otherwise start that many threads (each with its stack) and stall the
//! machine. Forced, a count is still at most [`MAX_FORCED_THREADS`]: past a few thousand,
//! starting the pool alone takes minutes, ignores signals and can end in an abort. Zero is
//! refused.

use crate::error::{RequestError, SolveError};

/// How many threads per CPU a request may ask for without forcing.
pub const THREADS_PER_CPU: usize = 4;

/// The most threads a request may ask for even when forced (or 4 per CPU, where that is more):
/// far more than most machines' CPUs (a test of many threads on few cores still fits), far
/// below where starting them stalls.
pub const MAX_FORCED_THREADS: usize = 4096;

/// The CPUs this process may run on (1 where the system does not say).
#[must_use]
pub fn available_cpus() -> usize {
    std::thread::available_parallelism().map_or(1, usize::from)
}

/// The memory the system says it can give without swapping (`MemAvailable` in
/// `/proc/meminfo`); `None` where it does not say.
#[must_use]
pub fn available_memory() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    parse_mem_available(&text)
}

/// `MemAvailable` of a `/proc/meminfo` text, in bytes.
fn parse_mem_available(meminfo: &str) -> Option<u64> {
    let line = meminfo.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let mut fields = line.split_whitespace().skip(1);
    let kib: u64 = fields.next()?.parse().ok()?;
    (fields.next() == Some("kB")).then(|| kib.saturating_mul(1024))
}

/// Checks a thread count asked for: at least 1, and at most [`THREADS_PER_CPU`] times
/// [`available_cpus`] unless `force`, and at most [`MAX_FORCED_THREADS`] in any case. Returns
/// the count.
pub fn check_threads(requested: usize, force: bool) -> Result<usize, RequestError> {
    let cpus = available_cpus();
    let max = cpus.saturating_mul(THREADS_PER_CPU);
    if requested == 0 {
        return Err(RequestError::NoThreads);
    }
    // On a machine of more than a thousand CPUs the unforced bound is the higher.
    let most = MAX_FORCED_THREADS.max(max);
    if requested > most {
        return Err(RequestError::FarTooManyThreads { requested, most });
    }
    if requested > max && !force {
        return Err(RequestError::TooManyThreads {
            requested,
            cpus,
            max,
        });
    }
    Ok(requested)
}

/// A pool of `threads` workers for a build or a verification (every core for `None`; a
/// number is checked as [`check_threads`] does with `force`, since a front has bounded what
/// its user asked for), and its size.
pub fn worker_pool(threads: Option<usize>) -> Result<(rayon::ThreadPool, usize), SolveError> {
    let threads = match threads {
        Some(t) => check_threads(t, true)?,
        None => rayon::current_num_threads(),
    };
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| SolveError::ThreadPool {
            threads,
            why: e.to_string(),
        })?;
    Ok((pool, threads))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn available_memory_is_read_from_meminfo() {
        let text = "MemTotal:       24576000 kB\nMemFree:  100 kB\nMemAvailable:   12000000 kB\n";
        assert_eq!(parse_mem_available(text), Some(12_000_000 * 1024));
        assert_eq!(parse_mem_available("MemTotal: 5 kB\n"), None);
        assert_eq!(parse_mem_available("MemAvailable: lots kB\n"), None);
        assert_eq!(parse_mem_available("MemAvailable: 5 MB\n"), None);
        if cfg!(target_os = "linux") {
            assert!(available_memory().is_some_and(|m| m > 0));
        }
    }

    #[test]
    fn thread_counts_are_bounded_by_the_cpus_unless_forced() {
        let max = available_cpus() * THREADS_PER_CPU;
        assert_eq!(check_threads(1, false), Ok(1));
        assert_eq!(check_threads(max, false), Ok(max));
        let err = check_threads(max + 1, false).unwrap_err();
        assert!(matches!(err, RequestError::TooManyThreads { .. }));
        assert!(err.to_string().contains(&format!("at most {max}")), "{err}");
        assert_eq!(check_threads(4096, true), Ok(4096));
        for far in [4097, 100_000, usize::MAX] {
            let err = check_threads(far, true).unwrap_err();
            let most = max.max(4096);
            assert_eq!(
                err,
                RequestError::FarTooManyThreads {
                    requested: far,
                    most
                }
            );
            assert!(
                err.to_string().contains(&format!("at most {most}")),
                "{err}"
            );
        }
        assert_eq!(check_threads(0, true), Err(RequestError::NoThreads));
        assert!(RequestError::NoThreads.to_string().contains("at least 1"));
    }
}
