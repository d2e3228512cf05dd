//! Times bulk-counted checkers perft from the start: `cargo run --release --example perft_speed -- 12`.

use std::time::Instant;

use perfectplay_core::checkers::Checkers;
use perfectplay_core::{perft, Game};

fn main() {
    let depth = std::env::args()
        .nth(1)
        .and_then(|d| d.parse().ok())
        .unwrap_or(12);
    let game = Checkers::default();
    let start = Instant::now();
    let leaves = perft(&game, &game.start_position(), depth);
    let secs = start.elapsed().as_secs_f64();
    println!(
        "perft {depth}: {leaves} leaves in {secs:.3} s ({:.1} M leaves/s)",
        leaves as f64 / secs / 1e6
    );
}
