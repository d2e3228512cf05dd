//! The position as an ASCII diagram (Black at the top, as in checkers books).

use std::fmt;

use super::{CheckersPosition, Square};
use crate::Color;

impl fmt::Display for CheckersPosition {
    /// Eight rows, Black's side at the top. `b`/`w` are men, `B`/`W` kings, `.` an empty dark
    /// square; each row ends with the numbers of its squares.
    ///
    /// ```text
    ///     b   b   b   b     1  2  3  4
    /// ```
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for row in 0..8u8 {
            let mut line = String::with_capacity(40);
            line.push(' ');
            for column in 0..8u8 {
                line.push(' ');
                let dark = (row + column) % 2 == 1;
                if !dark {
                    line.push(' ');
                    continue;
                }
                let sq = Square::from_bit(row * 4 + column / 2);
                line.push(match self.piece_at(sq) {
                    None => '.',
                    Some(p) => match (p.color, p.king) {
                        (Color::Black, false) => 'b',
                        (Color::Black, true) => 'B',
                        (Color::White, false) => 'w',
                        (Color::White, true) => 'W',
                    },
                });
            }
            line.push_str("   ");
            for k in 0..4 {
                line.push_str(&format!("{:>3}", row * 4 + k + 1));
            }
            writeln!(f, "{line}")?;
        }
        write!(f, "{} to move", self.side_to_move())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_diagram() {
        let text = CheckersPosition::start(Color::Black).to_string();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], "    b   b   b   b     1  2  3  4");
        assert_eq!(lines[3], "  .   .   .   .      13 14 15 16");
        assert_eq!(lines[7], "  w   w   w   w      29 30 31 32");
        assert_eq!(lines[8], "black to move");
    }
}
