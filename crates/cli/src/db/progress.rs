//! The bars of `perfectplay solve`, drawn on standard error from the build's live figures.
//!
//! The solver draws nothing: it keeps a [`BuildProgress`] up to date, and a thread here reads
//! it a few times a second and moves an overall bar and the current unit's bar.

use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use indicatif::{MultiProgress, ProgressBar, ProgressDrawTarget, ProgressState, ProgressStyle};
use perfectplay_solver::{BuildProgress, ProgressSnapshot, UnitStage};

/// How often the figures are read: often enough that a bar moves smoothly, and the bars'
/// own rate limit keeps the terminal from being drawn more often than it can show.
const POLL: Duration = Duration::from_millis(50);

/// Runs `build`, which reports to `figures`, while its bars (and a note when it waits for the
/// build lock of `out`) are drawn on standard error. The bars are cleared when it succeeds and
/// left as they stood when it fails, above the error.
pub(crate) fn with_bars<T, E>(
    figures: &BuildProgress,
    out: &Path,
    build: impl FnOnce() -> Result<T, E>,
) -> Result<T, E> {
    let returned = AtomicBool::new(false);
    let succeeded = AtomicBool::new(false);
    std::thread::scope(|scope| {
        let drawer = scope.spawn(|| {
            let mut bars = Bars::new(out);
            loop {
                // The flag before the figures: the last figures drawn are the final ones.
                let last = returned.load(Ordering::Acquire);
                bars.show(&figures.snapshot());
                if last {
                    break;
                }
                std::thread::park_timeout(POLL);
            }
            bars.end(succeeded.load(Ordering::Relaxed));
        });
        let result = build();
        succeeded.store(result.is_ok(), Ordering::Relaxed);
        returned.store(true, Ordering::Release);
        // Not a poll's wait more before the command goes on.
        drawer.thread().unpark();
        result
    })
}

/// The bars drawn so far.
struct Bars<'a> {
    out: &'a Path,
    told_wait: bool,
    multi: Option<MultiProgress>,
    overall: Option<ProgressBar>,
    /// The current unit's number ([`ProgressSnapshot::unit_number`]) and bar.
    unit: Option<(u64, ProgressBar)>,
}

impl<'a> Bars<'a> {
    fn new(out: &'a Path) -> Self {
        Bars {
            out,
            told_wait: false,
            multi: None,
            overall: None,
            unit: None,
        }
    }

    fn show(&mut self, seen: &ProgressSnapshot) {
        if !self.told_wait && !seen.waited_for.is_empty() {
            self.told_wait = true;
            to_stderr!(
                "waiting for the build lock of {}, held by {}",
                self.out.display(),
                seen.waited_for
            );
        }
        if seen.total == 0 {
            // Not planned yet (or nothing to build): no bars.
            return;
        }
        let multi = self
            .multi
            .get_or_insert_with(|| MultiProgress::with_draw_target(ProgressDrawTarget::stderr()));
        let overall = self
            .overall
            .get_or_insert_with(|| overall_bar(multi, seen.total));
        overall.set_position(seen.finished);
        if self
            .unit
            .as_ref()
            .is_some_and(|(n, _)| *n != seen.unit_number || seen.unit.is_empty())
        {
            if let Some((_, bar)) = self.unit.take() {
                bar.finish_and_clear();
            }
        }
        if seen.unit.is_empty() {
            return;
        }
        let (_, bar) = self.unit.get_or_insert_with(|| {
            (
                seen.unit_number,
                unit_bar(multi, &seen.unit, seen.unit_positions),
            )
        });
        bar.set_position(seen.unit_initialised);
        bar.set_message(match seen.stage {
            UnitStage::Initialising => "initialising".to_owned(),
            UnitStage::Layers => format!("layer {} of at least {}", seen.layer, seen.longest_known),
            UnitStage::Writing => "writing".to_owned(),
        });
    }

    /// Clears the bars after a build that succeeded; leaves them after one that failed.
    fn end(self, succeeded: bool) {
        for bar in self.unit.map(|(_, bar)| bar).iter().chain(&self.overall) {
            if succeeded {
                bar.finish_and_clear();
            } else {
                bar.abandon();
            }
        }
    }
}

fn overall_bar(multi: &MultiProgress, total: u64) -> ProgressBar {
    let bar = multi.add(ProgressBar::new(total));
    bar.set_style(
        ProgressStyle::with_template(
            "{prefix:>12} [{bar:30}] {human_pos}/{human_len} positions, {elapsed} elapsed, eta {eta}",
        )
        .expect("valid template")
        .progress_chars("=> "),
    );
    bar.set_prefix("all");
    bar.enable_steady_tick(Duration::from_millis(500));
    bar
}

fn unit_bar(multi: &MultiProgress, name: &str, positions: u64) -> ProgressBar {
    let bar = multi.add(ProgressBar::new(positions));
    bar.set_style(
        ProgressStyle::with_template(
            "{prefix:>12} [{bar:30}] {human_pos}/{human_len} {rate}, eta {eta} {msg}",
        )
        .expect("valid template")
        .with_key(
            "rate",
            |state: &ProgressState, w: &mut dyn std::fmt::Write| {
                let _ = write!(w, "{}", rate(state.per_sec()));
            },
        )
        .progress_chars("=> "),
    );
    bar.set_prefix(name.to_owned());
    bar.set_message("initialising");
    bar
}

/// Positions per second, as `1.25 M/s`.
fn rate(per_second: f64) -> String {
    if per_second >= 1e6 {
        format!("{:.2} M/s", per_second / 1e6)
    } else {
        format!("{:.0} k/s", per_second / 1e3)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rates_read_in_millions_or_thousands() {
        assert_eq!(rate(1_250_000.0), "1.25 M/s");
        assert_eq!(rate(42_400.0), "42 k/s");
    }

    #[test]
    fn the_bars_follow_a_build_and_hand_back_its_result() {
        let figures = BuildProgress::default();
        let dir = std::env::temp_dir();
        let ok: Result<u32, ()> = with_bars(&figures, &dir, || Ok(7));
        assert_eq!(ok, Ok(7));
        let failed: Result<u32, &str> = with_bars(&figures, &dir, || Err("no"));
        assert_eq!(failed, Err("no"));
    }
}
