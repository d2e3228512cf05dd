//! The Rust example that README.md ("The library") and docs/rust.md ("An example") show: run
//! here, and checked to be the code those documents show, so that they never show code that
//! does not build or does not do what they say.

use std::path::Path;

#[test]
fn the_library_example_runs() -> Result<(), Box<dyn std::error::Error>> {
    // example start
    use perfectplay_core::checkers::{Checkers, CheckersPosition};
    use perfectplay_core::{perft, Game, GameState};

    let game = Checkers::default();
    assert_eq!(perft(&game, &game.start_position(), 6), 36_768);

    let mut state = GameState::new(game);
    let mv = state.position().parse_move("11-15")?;
    state.play(&mv)?; // an illegal move is an error, nothing changes
    let pos: CheckersPosition = "B:W18,24,27,28,K10,K15:B12,16,20,K22,K25,K29".parse()?;
    println!("{pos}\n{}", pos.fen());
    // example end
    Ok(())
}

/// The lines between the markers of `the_library_example_runs`, without its indent.
fn example() -> String {
    let source = include_str!("doc_examples.rs");
    let (start_marker, end_marker) = ("    // example start\n", "    // example end\n");
    let start = source.find(start_marker).expect("the start marker") + start_marker.len();
    let end = source.find(end_marker).expect("the end marker");
    source[start..end]
        .lines()
        .map(|line| line.strip_prefix("    ").unwrap_or(line))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The bodies of the ```rust blocks of a Markdown text.
fn rust_blocks(text: &str) -> Vec<String> {
    let mut blocks = Vec::new();
    let mut current: Option<Vec<&str>> = None;
    for line in text.lines() {
        match &mut current {
            None if line.trim_end() == "```rust" => current = Some(Vec::new()),
            Some(lines) if line.trim_end() == "```" => {
                blocks.push(lines.join("\n"));
                current = None;
            }
            Some(lines) => lines.push(line),
            None => {}
        }
    }
    blocks
}

#[test]
fn the_documents_show_the_example_that_runs() {
    let example = example();
    assert!(example.contains("perft(&game"), "{example}");
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    for document in ["README.md", "docs/rust.md"] {
        let text = std::fs::read_to_string(root.join(document)).expect(document);
        let blocks = rust_blocks(&text);
        assert_eq!(blocks.len(), 1, "{document}: one Rust example");
        assert_eq!(
            blocks[0], example,
            "{document} shows another example than runs here"
        );
    }
}
