//! The human player's console: lines typed on standard input, read on their own thread so
//! that a per-move time limit can expire while the player thinks.

use std::io::{self, BufRead, BufReader, Write};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::thread;
use std::time::{Duration, Instant};

use crate::choice::{Choice, QuitReason};
use crate::cli_game::CliGame;
use crate::moves;

/// What the console's `values` command prints for a position: every move with its value.
pub(crate) type MoveValues<'a, G> = dyn Fn(&<G as perfectplay_core::Game>::Position) -> String + 'a;

/// Reads moves for the human players, all of whom share standard input.
///
/// The reader thread starts on the first read, so games without a human never touch standard
/// input. Lines typed after a turn was forfeited stay queued for the next turn.
#[derive(Debug)]
pub(crate) struct Console {
    lines: Option<Receiver<String>>,
    move_time: Option<Duration>,
    /// The time a chess clock leaves the player of the next read, if shorter.
    clock_left: Option<Duration>,
}

impl Console {
    /// A console on standard input; `move_time` is the per-move limit, if any.
    pub(crate) fn new(move_time: Option<Duration>) -> Console {
        Console {
            lines: None,
            move_time,
            clock_left: None,
        }
    }

    /// A console reading `reader` instead of standard input.
    #[cfg(test)]
    pub(crate) fn from_reader<R: BufRead + Send + 'static>(
        reader: R,
        move_time: Option<Duration>,
    ) -> io::Result<Console> {
        Ok(Console {
            lines: Some(spawn_reader(reader)?),
            move_time,
            clock_left: None,
        })
    }

    /// Bounds the next read by what a chess clock leaves the player (`None`: no clock). Time
    /// running out there also ends the read as a forfeit; the game loop, which keeps the
    /// clock, makes it a loss.
    pub(crate) fn limit_to(&mut self, clock_left: Option<Duration>) {
        self.clock_left = clock_left;
    }

    /// Asks for a move of `game` in `pos` until a legal one is typed, the time limit passes (a
    /// forfeit), the player types `quit` or the input ends. Prompts and errors go to `talk`.
    /// With `values` (endgame tables at hand), `values` prints every move's value.
    pub(crate) fn read_move<G: CliGame>(
        &mut self,
        game: &G,
        pos: &G::Position,
        values: Option<&MoveValues<'_, G>>,
        talk: &mut dyn Write,
    ) -> io::Result<Choice<G::Move>> {
        let move_time = match (self.move_time, self.clock_left) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        let lines = match &mut self.lines {
            Some(lines) => lines,
            slot @ None => slot.insert(spawn_reader(BufReader::new(io::stdin()))?),
        };
        let side = game.side_to_move(pos);
        let deadline = move_time.map(|t| Instant::now() + t);
        let limit = move_time
            .map(|t| format!(", {} s", t.as_secs_f64()))
            .unwrap_or_default();
        loop {
            let commands = if values.is_some() {
                "a move, moves, values, help or quit"
            } else {
                "a move, moves, help or quit"
            };
            write!(talk, "{side} to move ({commands}{limit}): ")?;
            talk.flush()?;
            let received = match deadline {
                None => lines.recv().ok(),
                Some(deadline) => {
                    match lines.recv_timeout(deadline.saturating_duration_since(Instant::now())) {
                        Ok(line) => Some(line),
                        Err(RecvTimeoutError::Disconnected) => None,
                        Err(RecvTimeoutError::Timeout) => {
                            writeln!(talk)?;
                            writeln!(talk, "time is up")?;
                            return Ok(Choice::Forfeit);
                        }
                    }
                }
            };
            let Some(line) = received else {
                writeln!(talk)?;
                return Ok(Choice::Quit(QuitReason::EndOfInput));
            };
            match line.trim() {
                "" => {}
                "help" => writeln!(talk, "{}", G::MOVE_HELP)?,
                "moves" => {
                    let mut legal = G::MoveList::default();
                    game.generate_moves(pos, &mut legal);
                    writeln!(talk, "legal moves: {}", moves::join::<G>(&legal))?;
                }
                "values" => match values {
                    Some(values) => writeln!(talk, "{}", values(pos))?,
                    None => writeln!(talk, "no tables: give them with --db DIR")?,
                },
                "quit" => return Ok(Choice::Quit(QuitReason::Quit(side))),
                text => match game.parse_move(pos, text) {
                    Ok(mv) => return Ok(Choice::Move(mv)),
                    Err(e) => writeln!(talk, "{e}")?,
                },
            }
        }
    }
}

/// Starts a thread that sends each line of `reader` down a channel; the channel closes when
/// the input ends or cannot be read.
fn spawn_reader<R: BufRead + Send + 'static>(reader: R) -> io::Result<Receiver<String>> {
    let (sender, receiver) = mpsc::channel();
    thread::Builder::new()
        .name("console input".to_owned())
        .spawn(move || {
            for line in reader.lines() {
                let Ok(line) = line else { break };
                if sender.send(line).is_err() {
                    break;
                }
            }
        })?;
    Ok(receiver)
}

#[cfg(test)]
mod tests {
    use std::io::Cursor;

    use perfectplay_core::checkers::Checkers;
    use perfectplay_core::morris::Morris;
    use perfectplay_core::Game;

    use super::*;

    fn console(input: &str) -> Console {
        Console::from_reader(Cursor::new(input.to_owned()), None).unwrap()
    }

    #[test]
    fn skips_bad_lines_until_a_legal_move() {
        let game = Checkers::default();
        let start = game.start_position();
        let mut talk = Vec::new();
        let mut c = console("\nbogus\n11-14\nmoves\nhelp\n11-15\n");
        let choice = c.read_move(&game, &start, None, &mut talk).unwrap();
        assert_eq!(choice, Choice::Move(start.parse_move("11-15").unwrap()));
        let talk = String::from_utf8(talk).unwrap();
        assert!(talk.contains("expected a square number"), "{talk}");
        assert!(talk.contains("11-14 is not a legal move here"), "{talk}");
        assert!(talk.contains("legal moves: 9-13 9-14 10-14"), "{talk}");
        assert!(talk.contains("short form"), "{talk}");
    }

    #[test]
    fn quit_and_end_of_input() {
        let game = Checkers::default();
        let start = game.start_position();
        let mut c = console("quit\n");
        let choice = c.read_move(&game, &start, None, &mut Vec::new()).unwrap();
        assert_eq!(
            choice,
            Choice::Quit(QuitReason::Quit(perfectplay_core::Color::Black))
        );
        let choice = c.read_move(&game, &start, None, &mut Vec::new()).unwrap();
        assert_eq!(choice, Choice::Quit(QuitReason::EndOfInput));
    }

    #[test]
    fn time_limit_forfeits_the_turn() {
        let game = Checkers::default();
        let start = game.start_position();
        // A channel that stays open and silent: the player never answers.
        let (sender, lines) = mpsc::channel();
        let mut c = Console {
            lines: Some(lines),
            move_time: Some(Duration::from_millis(50)),
            clock_left: None,
        };
        let mut talk = Vec::new();
        assert_eq!(
            c.read_move(&game, &start, None, &mut talk).unwrap(),
            Choice::Forfeit
        );
        assert!(String::from_utf8(talk).unwrap().contains("0.05 s"));
        // A line already waiting is taken even with the limit.
        sender.send("9-13".to_owned()).unwrap();
        assert!(matches!(
            c.read_move(&game, &start, None, &mut Vec::new()).unwrap(),
            Choice::Move(_)
        ));
    }

    #[test]
    fn morris_turns_and_errors() {
        let game = Morris::preset("nine_mens_morris").unwrap();
        let start = game.start_position();
        let mut talk = Vec::new();
        let mut c = console("h9\na1-a4\nmoves\nhelp\nD6\n");
        let choice = c.read_move(&game, &start, None, &mut talk).unwrap();
        assert_eq!(choice, Choice::Move(game.parse_move(&start, "d6").unwrap()));
        let talk = String::from_utf8(talk).unwrap();
        assert!(talk.starts_with("white to move"), "{talk}");
        assert!(talk.contains("`h9` is not a point of this board"), "{talk}");
        assert!(talk.contains("a1-a4 is not a legal move here"), "{talk}");
        assert!(talk.contains("legal moves: a1 a4 a7 b2 "), "{talk}");
        assert!(talk.contains("a1-a4xd7"), "{talk}");
    }
}
