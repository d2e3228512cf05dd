//! The position as an SVG picture, for notebooks.

use std::fmt::Write as _;

use super::{Checkers, CheckersPosition, Square};
use crate::Color;

const CELL: u32 = 40;

impl Checkers {
    /// An SVG drawing of `pos`: the 8x8 board with Black at the top as in checkers books,
    /// square numbers on the dark squares, men as discs and kings as discs with a ring.
    ///
    /// ```
    /// use perfectplay_core::checkers::Checkers;
    /// use perfectplay_core::Game;
    /// let game = Checkers::default();
    /// let svg = game.svg(&game.start_position());
    /// assert!(svg.starts_with("<svg") && svg.ends_with("</svg>"));
    /// assert_eq!(svg.matches("class=\"man").count(), 24);
    /// ```
    #[must_use]
    pub fn svg(&self, pos: &CheckersPosition) -> String {
        let size = 8 * CELL;
        let mut out = String::new();
        let _ = write!(
            out,
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="{size}" height="{size}" viewBox="0 0 {size} {size}">"#
        );
        for row in 0..8u32 {
            for column in (0..8u32).filter(|column| (row + column) % 2 == 0) {
                let (x, y) = (column * CELL, row * CELL);
                let _ = write!(
                    out,
                    r##"<rect x="{x}" y="{y}" width="{CELL}" height="{CELL}" fill="#f0d9b5"/>"##
                );
            }
        }
        for sq in Square::all() {
            let (x, y) = (u32::from(sq.column()) * CELL, u32::from(sq.row()) * CELL);
            // `data-point` names the square for scripts that find what was clicked (the
            // notebook board) or where a piece is drawn.
            let _ = write!(
                out,
                r##"<rect class="square" data-point="{}" x="{x}" y="{y}" width="{CELL}" height="{CELL}" fill="#8b5a2b"/>"##,
                sq.number()
            );
            let _ = write!(
                out,
                r##"<text x="{}" y="{}" font-size="8" font-family="sans-serif" fill="#f0d9b5">{}</text>"##,
                // In the square's corner, outside the piece's disc (radius 13).
                x + 1,
                y + 7,
                sq.number()
            );
            let Some(piece) = pos.piece_at(sq) else {
                continue;
            };
            let (fill, stroke) = match piece.color {
                Color::Black => ("#1a1a1a", "#cccccc"),
                Color::White => ("#f4f4f4", "#333333"),
            };
            let (cx, cy) = (x + CELL / 2, y + CELL / 2);
            let kind = if piece.king { "king" } else { "man" };
            let _ = write!(
                out,
                r#"<circle class="{kind} {}" data-point="{}" cx="{cx}" cy="{cy}" r="13" fill="{fill}" stroke="{stroke}" stroke-width="2"/>"#,
                piece.color,
                sq.number()
            );
            if piece.king {
                let _ = write!(
                    out,
                    r#"<circle cx="{cx}" cy="{cy}" r="7" fill="none" stroke="{stroke}" stroke-width="2"/>"#
                );
            }
        }
        out.push_str("</svg>");
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::svg_layout::labels_clear_of_pieces;
    use crate::Game;

    #[test]
    fn every_dark_square_and_piece_is_named() {
        let game = Checkers::default();
        let svg = game.svg(&game.start_position());
        for n in 1..=32 {
            let square = format!(r#"class="square" data-point="{n}" "#);
            assert_eq!(svg.matches(&square).count(), 1, "square {n}");
        }
        // 24 pieces, each named by its square: 1 to 12 and 21 to 32.
        for n in (1..=12).chain(21..=32) {
            assert!(
                svg.contains(&format!(r#"data-point="{n}" cx="#)),
                "piece on {n}"
            );
        }
        assert_eq!(svg.matches("data-point=").count(), 32 + 24);
    }

    #[test]
    fn square_numbers_are_clear_of_the_pieces() {
        let game = Checkers::default();
        // The 32 square numbers, checked against the pieces drawn.
        let checked = labels_clear_of_pieces(&game.svg(&game.start_position())).unwrap();
        assert_eq!(checked, (32, 24));
        // Between them, a piece on every square, kings among them.
        for (fen, pieces) in [
            (
                "B:WK1,K2,K3,K4,5,6,7,8,9,10,11,12:B21,22,23,24,25,26,27,28,K29,K30,K31,K32",
                24,
            ),
            ("B:W13,14,15,16:B17,18,19,20", 8),
        ] {
            let pos = super::super::fen::parse(fen).unwrap();
            assert_eq!(
                labels_clear_of_pieces(&game.svg(&pos)).unwrap(),
                (32, pieces)
            );
        }
    }
}
