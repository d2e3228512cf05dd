//! Writes sample SVG boards to standard output, one per line: `cargo run --example svg_dump`.

use perfectplay_core::checkers::Checkers;
use perfectplay_core::morris::Morris;
use perfectplay_core::Game;

fn main() {
    let checkers = Checkers::default();
    let pos = "B:W18,24,27,28,K10,K15:B12,16,20,K22,K25,K29"
        .parse()
        .expect("valid FEN");
    println!("{}", checkers.svg(&pos));
    for id in [
        "nine_mens_morris",
        "twelve_mens_morris",
        "six_mens_morris",
        "three_mens_morris",
    ] {
        let game = Morris::preset(id).expect("preset");
        println!("{}", game.svg(&game.start_position()));
    }
}
