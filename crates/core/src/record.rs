//! Game records: PDN (Portable Draughts Notation, the PGN of draughts) for checkers, and the
//! same layout for the morris games.
//!
//! A record is tag pairs (`[Event "..."]`, one per line) then the movetext: move numbers,
//! moves in the game's notation, and a result. Reading takes what PDN files hold in practice:
//! `{comments}`, `;` comments to the end of the line, `(variations)` (skipped, nested), `$n`
//! annotations, `!`/`?` marks after moves, move numbers glued to the move (`1.11-15`), the
//! short form of multiple jumps (`15x31` where it names one capture), several games in one
//! text, and the results `1-0`, `0-1`, `1/2-1/2` and `*` (also PDN 3.0's `2-0`, `0-2` and
//! `1-1`). Every move is checked against the rules as it is replayed: a record is a game that
//! was played, or an error naming the game, the move number and the move.
//!
//! Decisions where the formats leave room:
//! - Results read as in PGN and the PDN documents: the first number is White's score, so
//!   `1-0` is a White win and `0-1` a Black win, in checkers (where Black moves first) as in
//!   morris. Some checkers databases use the opposite; the `Result` tag is kept as written.
//! - A position other than the game's start is written as `[SetUp "1"]` and `[FEN "..."]`
//!   (the game's position string: PDN FEN in checkers); reading needs only `FEN`.
//! - Checkers records carry `[GameType "21"]` (English draughts); another game type is refused.
//!   Morris records carry `[Game "ID"]` instead, and a record of another morris game is
//!   refused.
//! - Rule options that differ from the named game's defaults are written in a `[Rules "..."]`
//!   tag as `name=value` words (`[Rules "mandatory_capture=false complete_jumps=false"]`), so
//!   that a record of a variant says which; reading refuses a record whose `Rules` tag names a
//!   value other than the game's, naming the option (Python's reader loads the game the tags
//!   name). Morris rules that are no preset's are written as the preset they differ from in
//!   the fewest options, the first such in the registry's order, and those options:
//!   `[Game "nine_mens_morris"]` `[Rules "ply_limit=200"]`. Together the two tags name the
//!   game: an option the `Rules` tag leaves out has the named game's value, and a record read
//!   as a game with another value is refused. `[Game "morris"]`, the family's name, with
//!   every option in the `Rules` tag, is how such records were written before, and still
//!   reads.
//! - A forfeited turn (a player out of time) is written `--`, as PGN tools write a null move.
//! - Move numbers count whole moves from the first player's turn; a record whose first move
//!   is the second player's starts `1...`.

use std::fmt::Write as _;

use thiserror::Error;

use crate::registry::GameFamily;
use crate::RuleSet;
use crate::{Color, GameState, PlayError};

/// How a record writes a forfeited turn.
pub const FORFEIT: &str = "--";

/// How a recorded game ended, as its result says.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RecordResult {
    /// A win for this side.
    Win(Color),
    /// A draw.
    Draw,
    /// Not known, or the game is not over (`*`).
    Unknown,
}

impl RecordResult {
    /// The result token: `1-0` (White wins), `0-1` (Black wins), `1/2-1/2` or `*`.
    #[must_use]
    pub const fn token(self) -> &'static str {
        match self {
            RecordResult::Win(Color::White) => "1-0",
            RecordResult::Win(Color::Black) => "0-1",
            RecordResult::Draw => "1/2-1/2",
            RecordResult::Unknown => "*",
        }
    }

    /// The result a token names, if it is one.
    #[must_use]
    pub fn from_token(token: &str) -> Option<RecordResult> {
        Some(match token {
            "1-0" | "2-0" => RecordResult::Win(Color::White),
            "0-1" | "0-2" => RecordResult::Win(Color::Black),
            "1/2-1/2" | "1-1" => RecordResult::Draw,
            "*" => RecordResult::Unknown,
            _ => return None,
        })
    }

    /// The result of `state`: its winner or a draw once it is over (a game cut short by the
    /// ply limit is a draw), unknown before.
    #[must_use]
    pub fn of<G: GameFamily>(state: &GameState<G>) -> RecordResult {
        match state.outcome() {
            None => RecordResult::Unknown,
            Some(outcome) => outcome.winner.map_or(RecordResult::Draw, RecordResult::Win),
        }
    }
}

/// One game read from a record: its tags in order, the game replayed, and its result.
#[derive(Clone, Debug)]
pub struct Record<G: GameFamily> {
    /// Every tag pair as written, in order (`FEN`, `Result` and the game type included).
    pub tags: Tags,
    /// The game: the start (the `FEN` tag's position, else the game's start) and every move
    /// of the movetext played.
    pub state: GameState<G>,
    /// The result ending the movetext (`Unknown` where there was none).
    pub result: RecordResult,
}

impl<G: GameFamily> Record<G> {
    /// The value of tag `name`, the first if there are several.
    #[must_use]
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
}

/// Why a record cannot be read.
#[derive(Debug, Error, PartialEq, Eq)]
#[error("game {game}: {kind}")]
pub struct RecordError {
    /// The game of the text, from 1.
    pub game: usize,
    /// What is wrong.
    pub kind: RecordErrorKind,
}

/// What is wrong with a record.
#[derive(Debug, Error, PartialEq, Eq)]
#[non_exhaustive]
pub enum RecordErrorKind {
    /// A tag pair that is not `[Name "value"]`.
    #[error("a tag pair must read [Name \"value\"], found `{0}`")]
    BadTag(String),
    /// A comment or variation that is never closed (or only past the next game's tags), and
    /// the text it opens with.
    #[error("a {0} opened at `{1}` is never closed before the next game or the end")]
    Unclosed(&'static str, String),
    /// The `FEN` tag's position cannot be read.
    #[error("the FEN tag: {0}")]
    BadPosition(String),
    /// A record of another game.
    #[error("a record of {found}, read as {expected}")]
    OtherGame {
        /// What the record's tag says.
        found: String,
        /// The game it was read as.
        expected: String,
    },
    /// A move that cannot be read or is not legal where it is played.
    #[error("move {number} ({side}) `{text}`: {why}")]
    BadMove {
        /// The whole-move number, as the record counts.
        number: u32,
        /// The side whose move it is.
        side: Color,
        /// The move as written.
        text: String,
        /// Why it cannot be played.
        why: String,
    },
    /// Text that is no move, number, comment or result.
    #[error("`{0}` is not part of a movetext")]
    Stray(String),
    /// A `Rules` tag that sets one option to two values: which one the record was played
    /// under is not known, so neither is taken.
    #[error("the Rules tag sets {0} twice, to different values (`{1}` and `{2}`)")]
    RepeatedRule(String, String, String),
}

/// Every game in `text`, read as records of `game` and replayed.
pub fn read_records<G: GameFamily + Clone>(
    game: &G,
    text: &str,
) -> Result<Vec<Record<G>>, RecordError> {
    let mut records = Vec::new();
    let mut rest = text;
    loop {
        let number = records.len() + 1;
        let fail = |kind| RecordError { game: number, kind };
        // Commentary between games (after a result, before the first tags) starts no game.
        rest = skip_commentary(
            rest.trim_start_matches(|c: char| c.is_whitespace() || c == '\u{feff}'),
        )
        .map_err(fail)?;
        if rest.is_empty() {
            return Ok(records);
        }
        let (tags, after_tags) = read_tags(rest).map_err(fail)?;
        let mut state = start_state(game, &tags).map_err(fail)?;
        let (written, after) = play_movetext(game, &mut state, after_tags).map_err(fail)?;
        // Moves that end without a result keep the one their tag gives.
        let tagged = tags.iter().find(|(n, _)| n == "Result");
        let result = written
            .or_else(|| tagged.and_then(|(_, v)| RecordResult::from_token(v.trim())))
            .unwrap_or(RecordResult::Unknown);
        records.push(Record {
            tags,
            state,
            result,
        });
        if after.len() == rest.len() {
            // Nothing was consumed: text that starts no game.
            let word = rest.split_whitespace().next().unwrap_or(rest);
            return Err(fail(RecordErrorKind::Stray(word.to_owned())));
        }
        rest = after;
    }
}

/// Tag pairs, name and value, in order.
pub type Tags = Vec<(String, String)>;

/// The tag pairs at the start of `text`, and the text after them.
fn read_tags(text: &str) -> Result<(Tags, &str), RecordErrorKind> {
    let mut tags = Vec::new();
    let mut rest = text.trim_start();
    while let Some(body) = rest.strip_prefix('[') {
        let end = find_tag_end(body)
            .ok_or_else(|| RecordErrorKind::BadTag(body.lines().next().unwrap_or("").to_owned()))?;
        let inside = body[..end].trim();
        let bad = || RecordErrorKind::BadTag(format!("[{inside}]"));
        let (name, value) = inside.split_once(char::is_whitespace).ok_or_else(bad)?;
        let value = value.trim();
        let quoted = value
            .strip_prefix('"')
            .and_then(|v| v.strip_suffix('"'))
            .ok_or_else(bad)?;
        if !is_tag_name(name) {
            return Err(bad());
        }
        tags.push((name.to_owned(), unescape(quoted)));
        rest = body[end + 1..].trim_start();
        // A comment between tag pairs is dropped; one before the moves is the movetext's.
        let past = skip_commentary(rest)?;
        if past.starts_with('[') {
            rest = past;
        }
    }
    Ok((tags, rest))
}

/// `text` past any comments (`{...}`, `;` to the end of the line) and whitespace it starts
/// with.
fn skip_commentary(text: &str) -> Result<&str, RecordErrorKind> {
    let mut rest = text.trim_start();
    loop {
        rest = match rest.chars().next() {
            Some('{') => skip_comment(rest)?,
            Some(';') => rest.find('\n').map_or("", |i| &rest[i + 1..]),
            _ => return Ok(rest),
        }
        .trim_start();
    }
}

/// Whether `name` can name a tag pair: ASCII letters, digits and `_`, at least one.
#[must_use]
pub fn is_tag_name(name: &str) -> bool {
    !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// Where the `]` closing a tag pair is in `body` (after its `[`), past `\"` and `\\`.
fn find_tag_end(body: &str) -> Option<usize> {
    let mut in_string = false;
    let mut escaped = false;
    for (i, c) in body.char_indices() {
        match c {
            '\n' if !in_string => return None,
            _ if escaped => escaped = false,
            '\\' if in_string => escaped = true,
            '"' => in_string = !in_string,
            ']' if !in_string => return Some(i),
            _ => {}
        }
    }
    None
}

fn unescape(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    let mut chars = value.chars();
    while let Some(c) = chars.next() {
        if c == '\\' {
            if let Some(next) = chars.next() {
                out.push(next);
            }
        } else {
            out.push(c);
        }
    }
    out
}

fn escape(value: &str) -> String {
    value.replace('\\', "\\\\").replace('"', "\\\"")
}

/// Refuses a record whose `Game` and `Rules` tags name a game other than `game`.
///
/// The `Game` tag names the game by id or alias, whatever the family (a morris record read as
/// checkers is refused by it too), and the `Rules` tag's options are set over that game's
/// defaults: every option must then have `game`'s value. Without a `Game` tag the options the
/// `Rules` tag names must have `game`'s values. Values compare as the rules read them
/// (`flying=0` is `flying=none`). `morris`, the family's name, is what records of rules no
/// preset has carried before they named the nearest preset, with every option in their `Rules`
/// tag: it reads as Nine Men's Morris under those options, as Python's reader loads it.
fn check_rules_tags<G: GameFamily>(
    game: &G,
    named: Option<&str>,
    rules: &[(&str, &str)],
) -> Result<(), RecordErrorKind> {
    for (i, (name, value)) in rules.iter().enumerate() {
        if value.is_empty() {
            return Err(RecordErrorKind::BadTag(format!(
                "[Rules \"...\"]: `{name}` is not a name=value word"
            )));
        }
        let earlier = rules[..i]
            .iter()
            .find(|(n, v)| n == name && !v.eq_ignore_ascii_case(value));
        if let Some((_, again)) = earlier {
            return Err(RecordErrorKind::RepeatedRule(
                (*name).to_owned(),
                format!("{name}={again}"),
                format!("{name}={value}"),
            ));
        }
    }
    let ours = game.settings();
    // Each word's value as the rules write it, checked against the game's.
    let mut words = Vec::with_capacity(rules.len());
    for &(name, value) in rules {
        let mut read = *game.rule_set();
        let written = match read.set(name, value) {
            Ok(()) => read.values().into_iter().find(|(n, _)| *n == name),
            Err(_) => None,
        };
        let theirs = ours.iter().find(|(n, _)| *n == name).map(|(_, v)| v);
        match (written, theirs) {
            (Some((_, written)), Some(theirs)) if written == *theirs => words.push((name, written)),
            (_, theirs) => {
                // The record's game as its tags name it (the `Game` tag, else the game read
                // as), worked out only for the message.
                let record = named.unwrap_or_else(|| named_game(game).0);
                return Err(RecordErrorKind::OtherGame {
                    found: format!("{record} with {name}={value}"),
                    expected: match theirs {
                        Some(v) => format!("{name}={v}: load the game with {name}={value}"),
                        None => format!("{}, which has no option {name}", described(game)),
                    },
                });
            }
        }
    }
    let Some(id) = named else {
        return Ok(());
    };
    let other = || RecordErrorKind::OtherGame {
        found: id.to_owned(),
        expected: described(game),
    };
    let base = if id.eq_ignore_ascii_case(G::FAMILY) && G::FAMILY == "morris" {
        "nine_mens_morris"
    } else {
        id
    };
    let named = crate::registry::GameId::parse(base).map_err(|_| other())?;
    if named.family() != G::FAMILY {
        return Err(other());
    }
    let mut expected = named
        .load(&[] as &[(&str, &str)])
        .map_err(|_| other())?
        .settings();
    for (name, value) in &mut expected {
        if let Some((_, written)) = words.iter().find(|(n, _)| n == name) {
            value.clone_from(written);
        }
    }
    if expected == ours {
        Ok(())
    } else {
        Err(other())
    }
}

/// `game` as a record names it: its id, and the options it changes there.
fn described<G: GameFamily>(game: &G) -> String {
    let (id, changed) = named_game(game);
    if changed.is_empty() {
        id.to_owned()
    } else {
        format!("{id} with {}", words(&changed))
    }
}

/// The game's state at the record's start: the `FEN` tag's position, else the game's start.
/// Refuses a record whose tags name another game.
fn start_state<G: GameFamily + Clone>(
    game: &G,
    tags: &[(String, String)],
) -> Result<GameState<G>, RecordErrorKind> {
    let tag = |name: &str| tags.iter().find(|(n, _)| n == name).map(|(_, v)| v.trim());
    let rules: Vec<(&str, &str)> = tag("Rules")
        .map(|rules| {
            rules
                .split_whitespace()
                .map(|word| word.split_once('=').unwrap_or((word, "")))
                .collect()
        })
        .unwrap_or_default();
    if G::FAMILY == "checkers" {
        if let Some(kind) = tag("GameType") {
            // `21`, optionally followed by board details (`21,W,8,8,N2,0`).
            if kind.split(',').next().map(str::trim) != Some("21") {
                return Err(RecordErrorKind::OtherGame {
                    found: format!("game type {kind}"),
                    expected: "English checkers (game type 21)".to_owned(),
                });
            }
        }
    }
    check_rules_tags(game, tag("Game"), &rules)?;
    match tag("FEN") {
        None => Ok(GameState::new(game.clone())),
        Some(fen) => {
            let (pos, no_progress) = game
                .read_position(fen)
                .map_err(|e| RecordErrorKind::BadPosition(e.to_string()))?;
            Ok(GameState::from_position_after(
                game.clone(),
                pos,
                no_progress,
            ))
        }
    }
}

/// Plays the movetext at the start of `text` on `state`, up to its result, the next game's
/// tags or the end; returns the result written (`None` where the moves end without one) and
/// the text after it.
fn play_movetext<'t, G: GameFamily>(
    game: &G,
    state: &mut GameState<G>,
    text: &'t str,
) -> Result<(Option<RecordResult>, &'t str), RecordErrorKind> {
    let first = game.first_to_move();
    // Whole moves count from the first player's turn: a record starting on the second
    // player's turn is half a move in.
    let offset = u32::from(game.side_to_move(state.origin().0) != first);
    let mut rest = text;
    loop {
        rest = rest.trim_start();
        let Some(c) = rest.chars().next() else {
            return Ok((None, rest));
        };
        match c {
            '[' => return Ok((None, rest)),
            '{' => rest = skip_comment(rest)?,
            ';' => rest = rest.find('\n').map_or("", |i| &rest[i + 1..]),
            '(' => rest = skip_variation(rest)?,
            '$' => {
                rest = rest[1..].trim_start_matches(|c: char| c.is_ascii_digit());
            }
            _ => {
                let end = rest
                    .find(|c: char| c.is_whitespace() || "{(;[".contains(c))
                    .unwrap_or(rest.len());
                let (word, after) = rest.split_at(end);
                rest = after;
                if let Some(result) = RecordResult::from_token(word) {
                    return Ok((Some(result), rest));
                }
                let word = strip_move_number(word);
                let word = word.trim_end_matches(['!', '?', '*']);
                if word.is_empty() {
                    continue;
                }
                // The whole-move number of this move, counted as the record counts.
                let number = (state.ply() + offset) / 2 + 1;
                let side = state.side_to_move();
                let bad = |why: String| RecordErrorKind::BadMove {
                    number,
                    side,
                    text: opening(word),
                    why: shortened(&why, 200),
                };
                if let Some(outcome) = state.outcome() {
                    return Err(bad(format!("the game is over ({outcome})")));
                }
                if word == FORFEIT {
                    state.forfeit_turn().map_err(|e| bad(e.to_string()))?;
                    continue;
                }
                let mv = game
                    .parse_move(state.position(), word)
                    .map_err(|e| bad(e.to_string()))?;
                state.play(&mv).map_err(|e| match e {
                    PlayError::GameOver(outcome) => bad(format!("the game is over ({outcome})")),
                    other => bad(other.to_string()),
                })?;
            }
        }
    }
}

/// `word` without a leading move number (`12.`, `12...`), and empty for a lone `...` (the
/// second player's move comes next). A bare number is not a move number: it is read as a
/// move, and refused as one.
fn strip_move_number(word: &str) -> &str {
    let digits = word.len() - word.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    if word[digits..].starts_with('.') && (digits > 0 || word.chars().all(|c| c == '.')) {
        return word[digits..].trim_start_matches('.');
    }
    word
}

/// Whether the line that starts at `text` opens a game: a tag pair `[Name "`.
fn starts_tag_line(text: &str) -> bool {
    let Some(body) = text.trim_start_matches([' ', '\t']).strip_prefix('[') else {
        return false;
    };
    let name = body.len()
        - body
            .trim_start_matches(|c: char| c.is_ascii_alphanumeric() || c == '_')
            .len();
    name > 0
        && body[name..]
            .trim_start_matches([' ', '\t'])
            .starts_with('"')
}

/// The text after the comment `text` starts with (at its `{`): refused if it is never closed,
/// or closed only past a line that opens the next game (a brace left open would swallow
/// whole games).
fn skip_comment(text: &str) -> Result<&str, RecordErrorKind> {
    let unclosed = || RecordErrorKind::Unclosed("comment", opening(text));
    let end = text.find('}').ok_or_else(unclosed)?;
    if text[..end]
        .match_indices('\n')
        .any(|(i, _)| starts_tag_line(&text[i + 1..]))
    {
        return Err(unclosed());
    }
    Ok(&text[end + 1..])
}

/// `text` cut to `chars` characters (and `...`): an error that quotes a long token stays
/// readable.
fn shortened(text: &str, chars: usize) -> String {
    match text.char_indices().nth(chars) {
        Some((i, _)) => format!("{}...", &text[..i]),
        None => text.to_owned(),
    }
}

/// The start of `text`'s first line, shortened, for an error that says where something was
/// opened.
fn opening(text: &str) -> String {
    shortened(text.lines().next().unwrap_or(""), 30)
}

/// The text after the variation `text` starts with, nested variations and comments included;
/// refused if it is never closed or runs into the next game's tags.
fn skip_variation(text: &str) -> Result<&str, RecordErrorKind> {
    let unclosed = || RecordErrorKind::Unclosed("variation", opening(text));
    let mut depth = 0usize;
    let mut rest = text;
    while let Some(c) = rest.chars().next() {
        match c {
            '{' => {
                rest = skip_comment(rest)?;
                continue;
            }
            ';' => {
                // A comment to the end of the line: a `)` in it closes nothing.
                rest = rest.find('\n').map_or("", |i| &rest[i..]);
                continue;
            }
            '\n' if starts_tag_line(&rest[1..]) => return Err(unclosed()),
            '(' => depth += 1,
            ')' => {
                depth -= 1;
                if depth == 0 {
                    return Ok(&rest[1..]);
                }
            }
            _ => {}
        }
        rest = &rest[c.len_utf8()..];
    }
    Err(unclosed())
}

/// The game id a record names `game` by, and the options it changes there (in the game's
/// order). Checkers and the presets are their own ids; other morris rules are named by the
/// preset they differ from in the fewest options, the first such in the registry's order.
fn named_game<G: GameFamily>(game: &G) -> (&'static str, Vec<(&'static str, String)>) {
    let settings = game.settings();
    crate::registry::GameId::all()
        .filter(|id| id.family() == G::FAMILY)
        .filter_map(|id| {
            let defaults = id.load(&[] as &[(&str, &str)]).ok()?.settings();
            let changed: Vec<(&'static str, String)> = settings
                .iter()
                .filter(|setting| !defaults.contains(setting))
                .cloned()
                .collect();
            Some((id.name(), changed))
        })
        // The first of the fewest: `min_by_key` keeps the first of equal keys.
        .min_by_key(|(_, changed)| changed.len())
        .unwrap_or_else(|| (game.id(), settings.clone()))
}

/// Settings as a `Rules` tag writes them: `name=value` words.
fn words(settings: &[(&'static str, String)]) -> String {
    settings
        .iter()
        .map(|(name, value)| format!("{name}={value}"))
        .collect::<Vec<_>>()
        .join(" ")
}

/// `state` written as a record: `tags` first (any `Result`, `FEN`, `SetUp`, `GameType`, `Rules` or
/// `Game` among them is replaced by what the state says), then the game type, the start if it
/// is not the game's own, and the movetext, ten whole moves to a line, ending with `result`
/// (`None`: the state's own, [`RecordResult::of`]).
#[must_use]
pub fn write_record<G: GameFamily>(
    state: &GameState<G>,
    tags: &[(String, String)],
    result: Option<RecordResult>,
) -> String {
    let game = state.game();
    let result = result.unwrap_or_else(|| RecordResult::of(state));
    let mut out = String::new();
    let replaced = ["Result", "FEN", "SetUp", "GameType", "Game", "Rules"];
    for (name, value) in tags.iter().filter(|(n, _)| !replaced.contains(&n.as_str())) {
        let _ = writeln!(out, "[{name} \"{}\"]", escape(value));
    }
    let _ = writeln!(out, "[Result \"{}\"]", result.token());
    let (id, changed) = named_game(game);
    if G::FAMILY == "checkers" {
        out.push_str("[GameType \"21\"]\n");
    } else {
        let _ = writeln!(out, "[Game \"{id}\"]");
    }
    if !changed.is_empty() {
        let _ = writeln!(out, "[Rules \"{}\"]", escape(&words(&changed)));
    }
    let (origin, no_progress) = state.origin();
    let start = game.start_position();
    if *origin != start || no_progress != 0 {
        let _ = writeln!(
            out,
            "[SetUp \"1\"]\n[FEN \"{}\"]",
            escape(&game.write_position(origin, no_progress))
        );
    }
    out.push('\n');
    let first = game.first_to_move();
    let mut side = game.side_to_move(origin);
    let mut number = 1;
    let mut line = String::new();
    let mut words = 0;
    for (i, mv) in state.moves().enumerate() {
        if side == first || i == 0 {
            if words >= 20 {
                out.push_str(line.trim_end());
                out.push('\n');
                line.clear();
                words = 0;
            }
            let dots = if side == first { "." } else { "..." };
            let _ = write!(line, "{number}{dots} ");
        }
        match mv {
            Some(mv) => {
                let _ = write!(line, "{mv} ");
            }
            None => {
                line.push_str(FORFEIT);
                line.push(' ');
            }
        }
        words += 1;
        if side != first {
            number += 1;
        }
        // After a forfeit or a move the turn passes (a morris turn is one move).
        side = !side;
    }
    line.push_str(result.token());
    out.push_str(&line);
    out.push('\n');
    out
}

#[cfg(test)]
mod tests;
