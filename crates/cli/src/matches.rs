//! `perfectplay match`: a series of games between two players, with the first move alternated
//! or drawn by lot as the rule sheets say, an optional chess clock, and a score table.
//!
//! The two players are named by the colour they take in the first game: player A is
//! `--black`, player B `--white`. The sheets differ on who begins: Construction Checkers says
//! "players should alternate which player moves first" (`--alternate`: A and B swap colours
//! every game); the Twelve-Man Morris sheet says "players draw lots to see who begins"
//! (`--draw-lots`: before each game a seeded coin gives A one colour or the other). Without
//! either, A keeps Black throughout. `--clock MINUTES` gives each player that much thinking
//! time for each game (a chess clock, the sheets' "a chess clock could be used"): a player
//! whose time runs out loses that game. `--move-time` is the per-move limit of `play`, which
//! forfeits the turn. Random and perfect players are charged their computing time, a human
//! the time until a legal move is typed.
//!
//! Each game's random and perfect players draw from the seed plus the game's number, so a
//! match repeats with its seed and its games differ. Standard output has one line per game and
//! the score table (a win 1 point, a draw 1/2); with `--moves` each game's plies too.

use std::io::Write;
use std::time::Duration;

use clap::Args;
use perfectplay_core::{ByColor, Color, SplitMix64};

use crate::cli_game::CliGame;
use crate::console::Console;
use crate::errors::CliError;
use crate::games::{self, Conversation, GameId, Streams};
use crate::play::{open_tables, play_out, starting_state, Clock, Ending, GameSetup, LoopOptions};
use crate::players::{Player, PlayerKind};

/// Arguments of `perfectplay match`.
#[derive(Args, Debug)]
pub(crate) struct MatchArgs {
    #[arg(value_name = "GAME", help = games::game_help())]
    pub(crate) game: String,
    /// How many games.
    #[arg(long, value_name = "N", default_value_t = 2, value_parser = clap::value_parser!(u32).range(1..))]
    pub(crate) games: u32,
    /// Player A, who takes Black in the first game.
    #[arg(long, value_enum, value_name = "PLAYER", default_value_t = PlayerKind::Random)]
    pub(crate) black: PlayerKind,
    /// Player B, who takes White in the first game.
    #[arg(long, value_enum, value_name = "PLAYER", default_value_t = PlayerKind::Random)]
    pub(crate) white: PlayerKind,
    /// The players swap colours after every game (Construction Checkers).
    #[arg(long, conflicts_with = "draw_lots")]
    pub(crate) alternate: bool,
    /// Before each game, lots drawn from the seed decide who takes which colour (Twelve-Man
    /// Morris).
    #[arg(long)]
    pub(crate) draw_lots: bool,
    /// A chess clock: each player's thinking time for a game, in minutes; a player whose time
    /// runs out loses the game.
    #[arg(long, value_name = "MINUTES", value_parser = parse_minutes)]
    pub(crate) clock: Option<Duration>,
    #[command(flatten)]
    pub(crate) setup: GameSetup,
    /// Stop each game after this many plies (an unfinished game scores nothing).
    #[arg(long, value_name = "N")]
    pub(crate) max_plies: Option<u32>,
    /// Print every game's plies, not only its result.
    #[arg(long)]
    pub(crate) moves: bool,
}

/// Reads a positive number of minutes, like `5` or `0.5`.
fn parse_minutes(text: &str) -> Result<Duration, String> {
    crate::play::parse_time(text, "minutes", "10 or 0.5", 60)
}

/// The two players of a match.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Entrant {
    A,
    B,
}

impl Entrant {
    const fn name(self) -> &'static str {
        match self {
            Entrant::A => "A",
            Entrant::B => "B",
        }
    }
}

/// Who takes Black in game `index` (from 0).
fn black_in(args: &MatchArgs, index: u32, lots: &mut SplitMix64) -> Entrant {
    let a_black = if args.draw_lots {
        lots.next_u64() & 1 == 0
    } else {
        !(args.alternate && index % 2 == 1)
    };
    if a_black {
        Entrant::A
    } else {
        Entrant::B
    }
}

/// A player's results over the match.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Score {
    wins: u32,
    draws: u32,
    losses: u32,
    unfinished: u32,
    /// Games it moved first in.
    first: u32,
    /// Games it lost on time.
    flagged: u32,
}

impl Score {
    /// Points, doubled so that halves stay whole.
    fn half_points(&self) -> u32 {
        2 * self.wins + self.draws
    }
}

impl Conversation for MatchArgs {
    fn run<G: CliGame>(&self, id: GameId, game: G, io: Streams<'_>) -> Result<(), CliError> {
        play_match(id, game, self, io.out, io.talk)
    }
}

fn play_match<G: CliGame>(
    id: GameId,
    game: G,
    args: &MatchArgs,
    out: &mut dyn Write,
    talk: &mut dyn Write,
) -> Result<(), CliError> {
    let start = starting_state(game, args.setup.fen.as_deref())?;
    let any_perfect = args.black == PlayerKind::Perfect || args.white == PlayerKind::Perfect;
    let tables = open_tables(game, &args.setup.db, any_perfect, &start)?;
    let kind = |e: Entrant| match e {
        Entrant::A => args.black,
        Entrant::B => args.white,
    };
    let first = game.first_to_move();
    let order = if args.draw_lots {
        "lots drawn for colours"
    } else if args.alternate {
        "colours alternate"
    } else {
        "colours kept"
    };
    let clock = args
        .clock
        .map(|c| format!(", clock {} min", c.as_secs_f64() / 60.0))
        .unwrap_or_default();
    writeln!(
        out,
        "{}: {} games, A {} against B {}, {order}, seed {}{clock}",
        id.name(),
        args.games,
        kind(Entrant::A).name(),
        kind(Entrant::B).name(),
        args.setup.seed
    )?;
    let mut console = Console::new(args.setup.move_time);
    let mut lots = SplitMix64::stream(args.setup.seed, 2);
    let mut scores = [Score::default(), Score::default()];
    for index in 0..args.games {
        let black = black_in(args, index, &mut lots);
        let white = if black == Entrant::A {
            Entrant::B
        } else {
            Entrant::A
        };
        let entrant = |c: Color| if c == Color::Black { black } else { white };
        let seed = args.setup.seed.wrapping_add(u64::from(index));
        let mut players = ByColor {
            black: Player::new(kind(black), seed, Color::Black, tables.as_ref())?,
            white: Player::new(kind(white), seed, Color::White, tables.as_ref())?,
        };
        let mut state = start.clone();
        let mut game_clock = args.clock.map(Clock::new);
        let mut plies: Vec<u8> = Vec::new();
        let ending = play_out(
            &mut state,
            &mut players,
            &mut console,
            tables.as_ref(),
            LoopOptions {
                max_plies: args.max_plies,
                boards: false,
                clock: game_clock.as_mut(),
            },
            if args.moves { out } else { &mut plies },
            talk,
        )?;
        for color in [Color::Black, Color::White] {
            let score = &mut scores[entrant(color) as usize];
            if color == first {
                score.first += 1;
            }
            match (ending.is_decided(), ending.winner()) {
                (false, _) => score.unfinished += 1,
                (true, None) => score.draws += 1,
                (true, Some(w)) if w == color => score.wins += 1,
                (true, Some(_)) => score.losses += 1,
            }
            if ending == Ending::Flag(color) {
                score.flagged += 1;
            }
        }
        writeln!(
            out,
            "game {}: black {} ({}), white {} ({}): {ending}, {} plies",
            index + 1,
            black.name(),
            kind(black).name(),
            white.name(),
            kind(white).name(),
            state.ply()
        )?;
    }
    write_scores(out, &scores, |e| kind(e).name())?;
    out.flush()?;
    Ok(())
}

fn write_scores(
    out: &mut dyn Write,
    scores: &[Score; 2],
    kind: impl Fn(Entrant) -> &'static str,
) -> std::io::Result<()> {
    writeln!(
        out,
        "player  kind      points  wins  draws  losses  unfinished  first  lost on time"
    )?;
    for entrant in [Entrant::A, Entrant::B] {
        let s = scores[entrant as usize];
        let points = format!(
            "{}{}",
            s.half_points() / 2,
            if s.half_points() % 2 == 1 { ".5" } else { "" }
        );
        writeln!(
            out,
            "{:<7} {:<9} {:>6}  {:>4}  {:>5}  {:>6}  {:>10}  {:>5}  {:>12}",
            entrant.name(),
            kind(entrant),
            points,
            s.wins,
            s.draws,
            s.losses,
            s.unfinished,
            s.first,
            s.flagged
        )?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args() -> MatchArgs {
        MatchArgs {
            game: "three_mens_morris".into(),
            games: 4,
            black: PlayerKind::Random,
            white: PlayerKind::Random,
            alternate: false,
            draw_lots: false,
            clock: None,
            setup: GameSetup::default(),
            max_plies: None,
            moves: false,
        }
    }

    fn output(args: &MatchArgs) -> String {
        games::converse_quietly(&args.game, &args.setup.set, args).unwrap()
    }

    fn colours(args: &MatchArgs) -> Vec<Entrant> {
        let mut lots = SplitMix64::stream(args.setup.seed, 2);
        (0..args.games)
            .map(|i| black_in(args, i, &mut lots))
            .collect()
    }

    #[test]
    fn colours_are_kept_alternated_or_drawn() {
        use Entrant::{A, B};
        assert_eq!(colours(&args()), [A, A, A, A]);
        let alternate = MatchArgs {
            alternate: true,
            ..args()
        };
        assert_eq!(colours(&alternate), [A, B, A, B]);
        let lots = MatchArgs {
            draw_lots: true,
            games: 64,
            ..args()
        };
        let drawn = colours(&lots);
        assert_eq!(drawn, colours(&lots), "the lots repeat with the seed");
        let a_black = drawn.iter().filter(|&&e| e == A).count();
        assert!((16..=48).contains(&a_black), "{a_black} of 64");
    }

    #[test]
    fn a_match_repeats_with_its_seed_and_scores_every_game() {
        let text = output(&MatchArgs {
            games: 6,
            alternate: true,
            ..args()
        });
        assert_eq!(
            text,
            output(&MatchArgs {
                games: 6,
                alternate: true,
                ..args()
            })
        );
        assert_eq!(text.lines().filter(|l| l.starts_with("game ")).count(), 6);
        let rows: Vec<&str> = text.lines().rev().take(2).collect();
        let total = |row: &str| -> u32 {
            row.split_whitespace()
                .skip(3)
                .take(4)
                .map(|n| n.parse::<u32>().unwrap())
                .sum()
        };
        assert_eq!(total(rows[0]) + total(rows[1]), 12, "{text}");
        // Alternating, each moved first in three games.
        assert!(
            rows.iter()
                .all(|r| r.split_whitespace().nth(7) == Some("3")),
            "{text}"
        );
    }

    #[test]
    fn a_flag_loses() {
        let mut clock = Clock::new(Duration::from_millis(10));
        assert!(!clock.charge(Color::White, Duration::from_millis(4)));
        assert_eq!(clock.left(Color::White), Duration::from_millis(6));
        assert!(clock.charge(Color::White, Duration::from_millis(6)));
        assert_eq!(clock.left(Color::Black), Duration::from_millis(10));
        assert_eq!(Ending::Flag(Color::White).winner(), Some(Color::Black));
        assert_eq!(
            Ending::Flag(Color::White).to_string(),
            "black wins (white's clock ran out)"
        );
    }

    #[test]
    fn minutes_parse() {
        assert_eq!(parse_minutes("2"), Ok(Duration::from_secs(120)));
        assert_eq!(parse_minutes("0.5"), Ok(Duration::from_secs(30)));
        assert!(parse_minutes("0").unwrap_err().contains("minutes"));
        assert!(parse_minutes("3e17")
            .unwrap_err()
            .contains("at most 16666666 minutes"));
    }
}
