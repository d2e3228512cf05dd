//! The position as an SVG picture, for notebooks.

use std::fmt::Write as _;

use super::{Morris, MorrisPosition};
use crate::Color;

const UNIT: u32 = 50;
const MARGIN: u32 = 30;

impl Morris {
    /// An SVG drawing of `pos`: the board's lines, its points, and the men as discs, with
    /// files and ranks along the edges and the men in hand written below.
    ///
    /// ```
    /// use perfectplay_core::morris::Morris;
    /// use perfectplay_core::Game;
    /// let game = Morris::preset("nine_mens_morris").unwrap();
    /// let svg = game.svg(&game.start_position());
    /// assert!(svg.starts_with("<svg") && svg.ends_with("</svg>"));
    /// assert_eq!(svg.matches("class=\"point\"").count(), 24);
    /// ```
    #[must_use]
    pub fn svg(&self, pos: &MorrisPosition) -> String {
        let board = self.board();
        let span = u32::from(board.grid_span());
        let board_width = 2 * MARGIN + span * UNIT;
        // Wide enough for the line of text below the small boards.
        let width = board_width.max(340);
        let left = (width - board_width) / 2 + MARGIN;
        // The files' line and the men in hand's line below the board.
        let height = board_width + 40;
        let place = |point: u8| {
            let (x, y) = board.grid_position(point);
            (
                left + u32::from(x) * UNIT,
                MARGIN + (span - u32::from(y)) * UNIT,
            )
        };
        let mut out = String::new();
        let _ = write!(
            out,
            r##"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}"><rect width="{width}" height="{height}" fill="#e8cfa0"/>"##
        );
        for a in 0..board.point_count() as u8 {
            for b in board.neighbours(a).indices().filter(|&b| b > a) {
                let ((x1, y1), (x2, y2)) = (place(a), place(b));
                let _ = write!(
                    out,
                    r##"<line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" stroke="#3b2a14" stroke-width="3"/>"##
                );
            }
        }
        for i in 0..=span {
            let file = char::from(b'a' + i as u8);
            let rank = span + 1 - i;
            let _ = write!(
                out,
                r#"<text x="{}" y="{}" font-size="12" font-family="sans-serif" text-anchor="middle">{file}</text><text x="{}" y="{}" font-size="12" font-family="sans-serif" text-anchor="end">{rank}</text>"#,
                left + i * UNIT,
                // Below and left of the men (radius 16) on the outer points, clear of them.
                MARGIN + span * UNIT + 30,
                left - 19,
                MARGIN + i * UNIT + 4
            );
        }
        for point in 0..board.point_count() as u8 {
            let (cx, cy) = place(point);
            // `data-point` names the point for scripts that find what was clicked (the
            // notebook board) or where a man is drawn.
            let name = board.name(point);
            let _ = write!(
                out,
                r##"<circle class="point" data-point="{name}" cx="{cx}" cy="{cy}" r="5" fill="#3b2a14"/>"##
            );
            for (color, fill, stroke) in [
                (Color::White, "#f4f4f4", "#333333"),
                (Color::Black, "#1a1a1a", "#cccccc"),
            ] {
                if pos.men(color).contains_index(point) {
                    let _ = write!(
                        out,
                        r#"<circle class="man {color}" data-point="{name}" cx="{cx}" cy="{cy}" r="16" fill="{fill}" stroke="{stroke}" stroke-width="2"/>"#
                    );
                }
            }
        }
        let _ = write!(
            out,
            r#"<text x="{}" y="{}" font-size="13" font-family="sans-serif" text-anchor="middle">{}</text></svg>"#,
            width / 2,
            height - 6,
            super::display::hands_and_turn(pos)
        );
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::svg_layout::labels_clear_of_pieces;

    #[test]
    fn every_point_and_man_is_named() {
        let game = Morris::preset("nine_mens_morris").unwrap();
        let board = game.board();
        let pos = MorrisPosition::from_parts_unchecked(
            crate::Bitboard(0b101),
            crate::Bitboard(0b10),
            0,
            0,
            Color::White,
        );
        let svg = game.svg(&pos);
        for point in 0..board.point_count() as u8 {
            let name = board.name(point);
            let marker = format!(r#"class="point" data-point="{name}" "#);
            assert_eq!(svg.matches(&marker).count(), 1, "point {name}");
        }
        for (point, color) in [(0, "white"), (1, "black"), (2, "white")] {
            let name = board.name(point);
            let man = format!(r#"class="man {color}" data-point="{name}" "#);
            assert_eq!(svg.matches(&man).count(), 1, "man on {name}");
        }
    }

    #[test]
    fn labels_are_clear_of_the_men_on_every_point() {
        for id in crate::morris::ONE_PRESET_PER_BOARD {
            let game = Morris::preset(id).unwrap();
            let n = game.board().point_count() as u8;
            // Every point filled: White on even points, Black on odd ones.
            let (mut white, mut black) = (0u32, 0u32);
            for p in 0..n {
                *(if p % 2 == 0 { &mut white } else { &mut black }) |= 1 << p;
            }
            let pos = MorrisPosition::from_parts_unchecked(
                crate::Bitboard(white),
                crate::Bitboard(black),
                0,
                0,
                Color::White,
            );
            let full = game.svg(&pos);
            let (labels, men) =
                labels_clear_of_pieces(&full).unwrap_or_else(|e| panic!("{id}: {e}"));
            // The board's coordinates (a letter and a digit a line) and the men on every point.
            assert!(
                labels >= 6 && men == usize::from(n),
                "{id}: {labels} labels, {men} men"
            );
            let start = game.svg(&crate::Game::start_position(&game));
            assert_eq!(labels_clear_of_pieces(&start).unwrap(), (labels, 0), "{id}");
        }
    }
}
