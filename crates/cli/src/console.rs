//! The human player's console: lines typed on standard input, read on their own thread so
//! that a per-move time limit can expire while the player thinks.

use std::io::{self, BufRead, BufReader, Read, Write};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::thread;
use std::time::{Duration, Instant};

use perfectplay_core::ByColor;

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
    /// Whether the touch-move rule holds ([`Console::touch_move`]).
    touch_move: bool,
    /// Pieces named that could not be played, by side: the first is warned, the next loses.
    adjusted: ByColor<u32>,
    /// Whether the game's first move has been made ([`Console::first_move_made`]).
    first_move_made: bool,
}

impl Console {
    /// A console on standard input; `move_time` is the per-move limit, if any.
    pub(crate) fn new(move_time: Option<Duration>) -> Console {
        Console {
            lines: None,
            move_time,
            clock_left: None,
            touch_move: false,
            adjusted: ByColor::default(),
            first_move_made: true,
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
            touch_move: false,
            adjusted: ByColor::default(),
            first_move_made: true,
        })
    }

    /// The touch-move rule of Construction Checkers ("if the player whose move it is touches a
    /// piece that can be played, the player must move that piece or forfeit the game"). A
    /// human names the piece first (its square or point, or `touch` and it), then its move; a
    /// move typed at once names its own piece. A move of another piece than the one named
    /// loses the game. Naming a piece that cannot be played (the sheet's adjusting a piece
    /// without saying so) is warned the first time and loses the game the next; `adjust`
    /// and a point says so and commits to nothing. Before the game's first move any piece may
    /// be adjusted freely (the sheet's words), and naming an empty square touches nothing.
    /// Turns that move no piece on the board (a morris placement) are typed as usual. The
    /// sheet's last touch-move rule ("if any part of a playable piece is moved over the angle
    /// of its square, the piece must be played in that direction") has no counterpart here: a
    /// move is typed whole, never part made.
    pub(crate) fn touch_move(&mut self, on: bool) {
        self.touch_move = on;
    }

    /// Tells the console whether the game's first move has been made: until then pieces may
    /// be adjusted without warning. A new console assumes it has.
    pub(crate) fn first_move_made(&mut self, made: bool) {
        self.first_move_made = made;
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
        // The piece named under the touch-move rule, which this turn must move.
        let mut touched: Option<String> = None;
        // Limits are parsed to at most 31 years; one past the clock's end would wait forever.
        let deadline = move_time.and_then(|t| Instant::now().checked_add(t));
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
                TOO_LONG => writeln!(talk, "{TOO_LONG}: not read")?,
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
                text if self.touch_move => {
                    let adjusted = self.first_move_made.then_some(&mut self.adjusted);
                    if let Some(choice) = touch(game, pos, text, &mut touched, adjusted, talk)? {
                        return Ok(choice);
                    }
                }
                text => match game.parse_move(pos, text) {
                    Ok(mv) => return Ok(Choice::Move(mv)),
                    Err(e) => writeln!(talk, "{e}")?,
                },
            }
        }
    }
}

/// One line of a turn under the touch-move rule: the choice it makes, or `None` to read on
/// (with what it said in `talk`). `touched` is the piece named this turn, `adjusted` the
/// pieces each side named that could not be played (`None` before the game's first move,
/// when adjusting is free).
fn touch<G: CliGame>(
    game: &G,
    pos: &G::Position,
    text: &str,
    touched: &mut Option<String>,
    adjusted: Option<&mut ByColor<u32>>,
    talk: &mut dyn Write,
) -> io::Result<Option<Choice<G::Move>>> {
    let side = game.side_to_move(pos);
    let mut legal = G::MoveList::default();
    game.generate_moves(pos, &mut legal);
    let playable = |point: &str| {
        legal
            .iter()
            .any(|m| game.touched(m).as_deref() == Some(point))
    };
    if let Some(point) = text.strip_prefix("adjust ") {
        writeln!(talk, "adjusted {} (no move owed)", point.trim())?;
        return Ok(None);
    }
    let named = text.strip_prefix("touch ").unwrap_or(text).trim();
    // A legal turn as typed (a morris placement is a point's name too) is a move.
    let parsed = game.parse_move(pos, text);
    if parsed.is_err() && game.is_point(named) {
        if let Some(held) = touched.as_deref() {
            if held != named {
                writeln!(talk, "you touched {held}: move it")?;
            }
            return Ok(None);
        }
        if playable(named) {
            writeln!(talk, "touched {named}: move it")?;
            *touched = Some(named.to_owned());
            return Ok(None);
        }
        if !game.has_piece(pos, named) {
            writeln!(talk, "no piece stands on {named}")?;
            return Ok(None);
        }
        let Some(adjusted) = adjusted else {
            writeln!(talk, "adjusted {named} (before the first move, no warning)")?;
            return Ok(None);
        };
        adjusted[side] += 1;
        if adjusted[side] > 1 {
            writeln!(
                talk,
                "{named} cannot be played: touched without saying `adjust` again"
            )?;
            return Ok(Some(Choice::BreaksTouchMove));
        }
        writeln!(
            talk,
            "{named} cannot be played; say `adjust {named}` to adjust a piece: the next \
             time loses the game"
        )?;
        return Ok(None);
    }
    let mv = match parsed {
        Ok(mv) => mv,
        Err(e) => {
            writeln!(talk, "{e}")?;
            return Ok(None);
        }
    };
    match (touched.as_deref(), game.touched(&mv)) {
        (Some(held), Some(moved)) if held != moved => {
            writeln!(talk, "{moved} moved after touching {held}")?;
            Ok(Some(Choice::BreaksTouchMove))
        }
        _ => Ok(Some(Choice::Move(mv))),
    }
}

/// The longest line read as typed: far longer than any move or command.
const MAX_LINE: usize = 4096;

/// What a longer line is read as (and refused as, by name), its bytes skipped.
const TOO_LONG: &str = "a line of more than 4096 bytes";

/// Starts a thread that sends each line of `reader` down a channel; the channel closes when
/// the input ends or cannot be read. A line longer than [`MAX_LINE`] is sent as [`TOO_LONG`]:
/// input without line ends (`< /dev/zero`) is read in bounded memory.
fn spawn_reader<R: BufRead + Send + 'static>(reader: R) -> io::Result<Receiver<String>> {
    let (sender, receiver) = mpsc::channel();
    thread::Builder::new()
        .name("console input".to_owned())
        .spawn(move || {
            let mut reader = reader;
            let mut bytes = Vec::new();
            loop {
                bytes.clear();
                match Read::take(&mut reader, MAX_LINE as u64 + 1).read_until(b'\n', &mut bytes) {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {}
                }
                let line = if bytes.len() > MAX_LINE && bytes.last() != Some(&b'\n') {
                    if !skip_line(&mut reader, &mut bytes) {
                        break;
                    }
                    TOO_LONG.to_owned()
                } else {
                    // A line that is no UTF-8 is shown with replacement characters and refused
                    // as any unreadable move is, rather than ending the input (as `lines()`
                    // would).
                    let text = String::from_utf8_lossy(&bytes);
                    text.trim_end_matches('\n')
                        .trim_end_matches('\r')
                        .to_owned()
                };
                if sender.send(line).is_err() {
                    break;
                }
            }
        })?;
    Ok(receiver)
}

/// Reads on to the end of the line under way, [`MAX_LINE`] bytes at a time into `scratch`;
/// `false` where the input ended or failed first.
fn skip_line<R: BufRead>(reader: &mut R, scratch: &mut Vec<u8>) -> bool {
    loop {
        scratch.clear();
        match Read::take(&mut *reader, MAX_LINE as u64).read_until(b'\n', scratch) {
            Ok(0) | Err(_) => return false,
            Ok(_) if scratch.last() == Some(&b'\n') => return true,
            Ok(_) => {}
        }
    }
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
    fn a_line_that_is_no_utf8_is_refused_and_reading_goes_on() {
        let game = Checkers::default();
        let start = game.start_position();
        let bytes = b"\xff\r\n9-14\n".to_vec();
        let mut c = Console::from_reader(Cursor::new(bytes), None).unwrap();
        let mut talk = Vec::new();
        let choice = c.read_move(&game, &start, None, &mut talk).unwrap();
        assert_eq!(choice, Choice::Move(start.parse_move("9-14").unwrap()));
        let talk = String::from_utf8(talk).unwrap();
        assert!(talk.contains("expected a square number"), "{talk}");
    }

    #[test]
    fn a_line_too_long_is_refused_by_name_and_reading_goes_on() {
        let game = Checkers::default();
        let start = game.start_position();
        // A valid move first: what is refused is the line, not what it begins with.
        let input = format!("9-14{}\n11-15\n", " ".repeat(3 * MAX_LINE));
        let mut c = console(&input);
        let mut talk = Vec::new();
        let choice = c.read_move(&game, &start, None, &mut talk).unwrap();
        assert_eq!(choice, Choice::Move(start.parse_move("11-15").unwrap()));
        let talk = String::from_utf8(talk).unwrap();
        assert!(
            talk.contains("a line of more than 4096 bytes: not read"),
            "{talk}"
        );
        assert!(!talk.contains("expected a square number"), "{talk}");
        // A line of exactly the limit is read as typed.
        let input = format!("{}9-14\n", " ".repeat(MAX_LINE - 4));
        let choice = console(&input)
            .read_move(&game, &start, None, &mut Vec::new())
            .unwrap();
        assert_eq!(choice, Choice::Move(start.parse_move("9-14").unwrap()));
        // Input that ends in the middle of a long line ends the input.
        let input = " ".repeat(5 * MAX_LINE);
        let choice = console(&input)
            .read_move(&game, &start, None, &mut Vec::new())
            .unwrap();
        assert!(matches!(choice, Choice::Quit(_)), "{choice:?}");
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

    fn touching(input: &str) -> Console {
        let mut c = console(input);
        c.touch_move(true);
        c
    }

    #[test]
    fn a_touched_piece_must_be_moved() {
        let game = Checkers::default();
        let start = game.start_position();
        let mut talk = Vec::new();
        let choice = touching("11\n11-15\n").read_move(&game, &start, None, &mut talk);
        assert_eq!(
            choice.unwrap(),
            Choice::Move(start.parse_move("11-15").unwrap())
        );
        assert!(String::from_utf8(talk)
            .unwrap()
            .contains("touched 11: move it"));
        // Naming another piece afterwards changes nothing; moving it loses.
        let mut c = touching("touch 11\n12\n12-16\n");
        let mut talk = Vec::new();
        let choice = c.read_move(&game, &start, None, &mut talk).unwrap();
        assert_eq!(choice, Choice::BreaksTouchMove);
        let talk = String::from_utf8(talk).unwrap();
        assert!(talk.contains("you touched 11: move it"), "{talk}");
        assert!(talk.contains("12 moved after touching 11"), "{talk}");
        // A move typed at once names its own piece.
        let choice = touching("9-13\n").read_move(&game, &start, None, &mut Vec::new());
        assert!(matches!(choice.unwrap(), Choice::Move(_)));
    }

    #[test]
    fn naming_a_piece_that_cannot_be_played_is_warned_once() {
        let game = Checkers::default();
        let start = game.start_position();
        // 5 is Black's but blocked; `adjust` commits to nothing and costs nothing.
        let mut talk = Vec::new();
        let mut c = touching("adjust 5\n5\n9-13\n");
        assert!(matches!(
            c.read_move(&game, &start, None, &mut talk).unwrap(),
            Choice::Move(_)
        ));
        let talk = String::from_utf8(talk).unwrap();
        assert!(talk.contains("adjusted 5 (no move owed)"), "{talk}");
        assert!(
            talk.contains("5 cannot be played; say `adjust 5`"),
            "{talk}"
        );
        // The warning was spent: the next such touch loses; an empty square touches nothing.
        let mut c2 = touching("20\n1\n");
        c2.adjusted = c.adjusted;
        let mut talk = Vec::new();
        let choice = c2.read_move(&game, &start, None, &mut talk).unwrap();
        assert_eq!(choice, Choice::BreaksTouchMove);
        assert!(String::from_utf8(talk)
            .unwrap()
            .contains("no piece stands on 20"));
    }

    #[test]
    fn pieces_are_adjusted_freely_before_the_first_move() {
        let game = Checkers::default();
        let start = game.start_position();
        let mut c = touching("5\n1\n24\n9-13\n");
        c.first_move_made(false);
        let mut talk = Vec::new();
        assert!(matches!(
            c.read_move(&game, &start, None, &mut talk).unwrap(),
            Choice::Move(_)
        ));
        let talk = String::from_utf8(talk).unwrap();
        assert!(
            talk.contains("adjusted 5 (before the first move, no warning)"),
            "{talk}"
        );
        assert!(talk.contains("adjusted 24"), "{talk}");
        assert_eq!(c.adjusted, ByColor::default());
        // Once the first move is made the same touches are counted.
        let mut c = touching("5\n1\n");
        c.first_move_made(true);
        let choice = c.read_move(&game, &start, None, &mut Vec::new()).unwrap();
        assert_eq!(choice, Choice::BreaksTouchMove);
    }

    #[test]
    fn placements_are_typed_as_usual_under_touch_move() {
        let game = Morris::preset("nine_mens_morris").unwrap();
        let start = game.start_position();
        let choice = touching("d6\n").read_move(&game, &start, None, &mut Vec::new());
        assert!(matches!(choice.unwrap(), Choice::Move(_)));
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
            touch_move: false,
            adjusted: ByColor::default(),
            first_move_made: true,
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
