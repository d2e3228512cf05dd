//! The position as an ASCII drawing of its board.

use super::{Morris, MorrisPosition};
use crate::Color;

impl Morris {
    /// Draws the board with `W`, `B` and `.` for white men, black men and empty points, ranks on
    /// the left and files below, then the men in hand and the side to move.
    ///
    /// ```text
    /// 7 .-----------.-----------.
    ///   |           |           |
    /// 6 |   .-------.-------.   |
    /// ```
    #[must_use]
    pub fn diagram(&self, pos: &MorrisPosition) -> String {
        let board = self.board();
        let size = usize::from(board.grid_span()) + 1;
        let rows = 2 * (size - 1) + 1;
        let cols = 4 * (size - 1) + 1;
        let mut canvas = vec![vec![' '; cols]; rows];
        let place = |point: u8| {
            let (x, y) = board.grid_position(point);
            (2 * (size - 1 - usize::from(y)), 4 * usize::from(x))
        };
        for a in 0..board.point_count() as u8 {
            for b in board.neighbours(a).indices().filter(|&b| b > a) {
                let ((r1, c1), (r2, c2)) = (place(a), place(b));
                if r1 == r2 {
                    for cell in &mut canvas[r1][c1.min(c2) + 1..c1.max(c2)] {
                        *cell = '-';
                    }
                } else if c1 == c2 {
                    for row in &mut canvas[r1.min(r2) + 1..r1.max(r2)] {
                        row[c1] = '|';
                    }
                } else {
                    let (top, bottom) = if r1 < r2 {
                        ((r1, c1), (r2, c2))
                    } else {
                        ((r2, c2), (r1, c1))
                    };
                    let mark = if bottom.1 > top.1 { '\\' } else { '/' };
                    for (r, row) in canvas.iter_mut().enumerate().take(bottom.0).skip(top.0 + 1) {
                        let step = (r - top.0) * top.1.abs_diff(bottom.1) / (bottom.0 - top.0);
                        let c = if bottom.1 > top.1 {
                            top.1 + step
                        } else {
                            top.1 - step
                        };
                        row[c] = mark;
                    }
                }
            }
        }
        for point in 0..board.point_count() as u8 {
            let (r, c) = place(point);
            canvas[r][c] = if pos.men(Color::White).contains_index(point) {
                'W'
            } else if pos.men(Color::Black).contains_index(point) {
                'B'
            } else {
                '.'
            };
        }
        let mut out = String::new();
        for (r, row) in canvas.iter().enumerate() {
            let label = if r % 2 == 0 {
                char::from(b'0' + (size - r / 2) as u8)
            } else {
                ' '
            };
            let line: String = row.iter().collect();
            out.push(label);
            out.push(' ');
            out.push_str(line.trim_end());
            out.push('\n');
        }
        out.push_str("  ");
        for x in 0..size {
            out.push(char::from(b'a' + x as u8));
            if x + 1 < size {
                out.push_str("   ");
            }
        }
        out.push('\n');
        out.push_str(&hands_and_turn(pos));
        out
    }
}

/// The line under a picture of `pos`: the men in hand and the side to move.
pub(super) fn hands_and_turn(pos: &MorrisPosition) -> String {
    format!(
        "in hand: white {}, black {}; {} to move",
        pos.in_hand(Color::White),
        pos.in_hand(Color::Black),
        pos.side_to_move()
    )
}

#[cfg(test)]
mod tests {
    use crate::morris::Morris;
    use crate::Game;

    #[test]
    fn nine_mens_morris_diagram() {
        let game = Morris::preset("nine_mens_morris").unwrap();
        let (pos, _) = game
            .parse_fen("W.B/.../.../....../.../.../..W b 7 8")
            .unwrap();
        let text = game.diagram(&pos);
        let expected = "\
7 W-----------.-----------B
  |           |           |
6 |   .-------.-------.   |
  |   |       |       |   |
5 |   |   .---.---.   |   |
  |   |   |       |   |   |
4 .---.---.       .---.---.
  |   |   |       |   |   |
3 |   |   .---.---.   |   |
  |   |       |       |   |
2 |   .-------.-------.   |
  |           |           |
1 .-----------.-----------W
  a   b   c   d   e   f   g
in hand: white 7, black 8; black to move";
        assert_eq!(text, expected);
        let small = Morris::preset("three_mens_morris").unwrap();
        let text = small.diagram(&small.start_position());
        assert!(
            text.starts_with("3 .---.---.\n  | \\ | / |\n2 .---.---.\n"),
            "{text}"
        );
    }
}
