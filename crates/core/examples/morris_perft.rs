//! Prints morris perft: `cargo run --release --example morris_perft -- nine_mens_morris 6 ["<position>"]`.

use std::time::Instant;

use perfectplay_core::morris::Morris;
use perfectplay_core::{perft, Game};

fn main() {
    let mut args = std::env::args().skip(1);
    let id = args.next().unwrap_or_else(|| "nine_mens_morris".to_owned());
    let depth: u32 = args.next().and_then(|d| d.parse().ok()).unwrap_or(5);
    let game = Morris::preset(&id).expect("a preset id");
    let pos = match args.next() {
        Some(text) => game.parse_fen(&text).expect("a valid position").0,
        None => game.start_position(),
    };
    for d in 1..=depth {
        let start = Instant::now();
        let n = perft(&game, &pos, d);
        let secs = start.elapsed().as_secs_f64();
        println!("{id} perft {d}: {n} ({:.1} M/s)", n as f64 / secs / 1e6);
    }
}
