//! `AnyTablebase`: the tables of a game of either family, opened from the core's
//! [`AnyGame`], and probes of positions of either family ([`AnyPosition`]), one at a time or as
//! encoded rows ([`crate::rows`]) in parallel: what a front that serves every game (Python)
//! needs, written once.

use std::ops::ControlFlow;
use std::path::Path;

use perfectplay_core::checkers::CheckersPosition;
use perfectplay_core::morris::MorrisPosition;
use perfectplay_core::registry::AnyGame;
use perfectplay_core::Game;
use rayon::prelude::*;
use thiserror::Error;

use crate::checkers::{database_rules, CheckersDomain};
use crate::domain::Domain;
use crate::error::ProbeError;
use crate::morris::{without_history, MorrisDomain};
use crate::rows::{self, Row, RowError};
use crate::tablebase::Tablebase;
use crate::tabled::{OpenError, Tabled};
use crate::value::Value;

/// Rows probed per parallel task of [`AnyTablebase::probe_rows`]: enough to outweigh a task's
/// start, few enough that every core gets a share of a modest batch.
const ROWS_PER_TASK: usize = 4096;

/// The tables of either family.
pub enum AnyTablebase {
    /// English checkers.
    Checkers(Tablebase<CheckersDomain>),
    /// A morris game.
    Morris(Tablebase<MorrisDomain>),
}

/// A position of either family.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AnyPosition {
    /// A checkers position.
    Checkers(CheckersPosition),
    /// A morris position.
    Morris(MorrisPosition),
}

/// Why the tables of one game cannot value the positions of another ([`tables_refuse`]).
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum RulesMismatch {
    /// The games are of two families.
    #[error("a {game} state cannot be valued in {tables} tables")]
    Family {
        /// The family of the game whose positions would be valued (`checkers`, `morris`).
        game: &'static str,
        /// The family of the tables' game.
        tables: &'static str,
    },
    /// Rules the tables read differ: each side's settings of them, `name=value` in order.
    #[error("the state has {game}, the tables {tables}")]
    Rules {
        /// The game's settings of the rules that differ.
        game: String,
        /// The tables' settings of them.
        tables: String,
    },
}

/// The rule settings of `game` that its tables read: every setting, with those that change no
/// position's value (the history rules of either family; in checkers also who moves first and
/// adjudication) at fixed values ([`database_rules`], [`without_history`]).
#[must_use]
pub fn table_settings(game: &AnyGame) -> Vec<(&'static str, String)> {
    match game {
        AnyGame::Checkers(g) => database_rules(g.rules()).settings(),
        AnyGame::Morris(g) => without_history(g.rules()).settings(),
    }
}

/// Why the tables of `tables` cannot value positions of `game`, naming the rules that differ
/// among those the tables read; `None` where they can. The one test of whether two rule sets
/// share tables, for probes and for everything that checks a position before it is probed.
///
/// ```
/// use perfectplay_core::registry::AnyGame;
/// use perfectplay_solver::any::{tables_refuse, RulesMismatch};
/// let (_, checkers) = AnyGame::load("checkers", &[] as &[(&str, &str)]).unwrap();
/// let (_, white_first) = AnyGame::load("checkers", &[("first_player", "white")]).unwrap();
/// assert_eq!(tables_refuse(&checkers, &white_first), None);
/// let (_, optional) = AnyGame::load("checkers", &[("mandatory_capture", "false")]).unwrap();
/// assert_eq!(
///     tables_refuse(&checkers, &optional).unwrap().to_string(),
///     "the state has mandatory_capture=false, the tables mandatory_capture=true"
/// );
/// ```
#[must_use]
pub fn tables_refuse(tables: &AnyGame, game: &AnyGame) -> Option<RulesMismatch> {
    if tables.family() != game.family() {
        return Some(RulesMismatch::Family {
            game: game.family(),
            tables: tables.family(),
        });
    }
    perfectplay_core::differing_settings(&table_settings(game), &table_settings(tables))
        .map(|(game, tables)| RulesMismatch::Rules { game, tables })
}

/// Why a batch of encoded rows could not be probed. Rows are numbered from 0 in the batch.
#[derive(Debug, Error)]
#[non_exhaustive]
pub enum RowsError {
    /// A row that is no position of the game.
    #[error("encoded position {at}: {source}")]
    Row {
        /// The row's number.
        at: usize,
        /// What is wrong with it.
        source: RowError,
    },
    /// A row whose probe failed (a missing table, a table changed on disk during the reads).
    #[error("encoded position {at}: {source}")]
    Probe {
        /// The row's number (the first of its task's rows when a table changed on disk, which
        /// spoils every value the task read).
        at: usize,
        /// Why.
        source: ProbeError,
    },
    /// Rows, values and distances of different lengths.
    #[error("{rows} encoded rows for {values} values and {plies} distances")]
    Lengths {
        /// Rows given.
        rows: usize,
        /// Room for values.
        values: usize,
        /// Room for distances.
        plies: usize,
    },
}

impl RowsError {
    /// The number of the row the error is about.
    #[must_use]
    pub fn at(&self) -> usize {
        match self {
            RowsError::Row { at, .. } | RowsError::Probe { at, .. } => *at,
            RowsError::Lengths { .. } => 0,
        }
    }
}

impl AnyTablebase {
    /// The tables of `game` in `dirs` (searched in order).
    pub fn open<P: AsRef<Path>>(game: &AnyGame, dirs: &[P]) -> Result<Self, OpenError> {
        Ok(match game {
            AnyGame::Checkers(g) => AnyTablebase::Checkers(g.open_tables(dirs)?),
            AnyGame::Morris(g) => AnyTablebase::Morris(g.open_tables(dirs)?),
        })
    }

    /// The same tables read for results only ([`Tablebase::results_only`]).
    #[must_use]
    pub fn results_only(self) -> Self {
        match self {
            AnyTablebase::Checkers(tb) => AnyTablebase::Checkers(tb.results_only()),
            AnyTablebase::Morris(tb) => AnyTablebase::Morris(tb.results_only()),
        }
    }

    /// The value of `pos` for the side to move; a position of the other family is out of
    /// scope.
    pub fn probe(&self, pos: AnyPosition) -> Result<Value, ProbeError> {
        match (self, pos) {
            (AnyTablebase::Checkers(tb), AnyPosition::Checkers(p)) => tb.probe(&p),
            (AnyTablebase::Morris(tb), AnyPosition::Morris(p)) => tb.probe(&p),
            _ => Err(ProbeError::OutOfScope(
                "a position of one family in the tables of the other".to_owned(),
            )),
        }
    }

    /// Probes every encoded row of `rows` (four columns each, [`crate::rows`]) of `game` into
    /// `wdl` (1 win, 0 draw, -1 loss for the side to move) and `plies` (-1 where there is no
    /// distance), in parallel tasks on rayon's pool. The first failure by row number is the
    /// error; values of rows before it are written.
    ///
    /// With `missing` given, a row the tables do not hold (its table is missing, or no table
    /// holds its position) is no failure: it gets `missing` as its result and -1 plies.
    pub fn probe_rows(
        &self,
        game: &AnyGame,
        rows: &[u32],
        missing: Option<i8>,
        wdl: &mut [i8],
        plies: &mut [i32],
    ) -> Result<(), RowsError> {
        if rows.len() != 4 * wdl.len() || wdl.len() != plies.len() {
            return Err(RowsError::Lengths {
                rows: rows.len() / 4,
                values: wdl.len(),
                plies: plies.len(),
            });
        }
        let failures: Vec<RowsError> = rows
            .par_chunks(4 * ROWS_PER_TASK)
            .zip(wdl.par_chunks_mut(ROWS_PER_TASK))
            .zip(plies.par_chunks_mut(ROWS_PER_TASK))
            .enumerate()
            .filter_map(|(task, ((rows, wdl), plies))| {
                self.probe_task(game, rows, task * ROWS_PER_TASK, missing, wdl, plies)
                    .err()
            })
            .collect();
        match failures.into_iter().min_by_key(RowsError::at) {
            Some(e) => Err(e),
            None => Ok(()),
        }
    }

    /// One task of [`AnyTablebase::probe_rows`], on the tables of `game`'s family.
    fn probe_task(
        &self,
        game: &AnyGame,
        rows: &[u32],
        first: usize,
        missing: Option<i8>,
        wdl: &mut [i8],
        plies: &mut [i32],
    ) -> Result<(), RowsError> {
        match (self, game) {
            (AnyTablebase::Checkers(tb), AnyGame::Checkers(g)) => probe_task_of(
                tb,
                |row| rows::decode_checkers(g, row),
                rows,
                first,
                missing,
                wdl,
                plies,
            ),
            (AnyTablebase::Morris(tb), AnyGame::Morris(g)) => probe_task_of(
                tb,
                |row| rows::decode_morris(g, row),
                rows,
                first,
                missing,
                wdl,
                plies,
            ),
            _ => Err(RowsError::Row {
                at: first,
                source: RowError::OtherFamily,
            }),
        }
    }
}

/// One task of [`AnyTablebase::probe_rows`] on `tb`: rows decode (by `decode`) up to the first
/// bad one, the rows before it are probed, and the first failure of either kind, by row, is
/// the error.
fn probe_task_of<D: Domain>(
    tb: &Tablebase<D>,
    decode: impl Fn(&Row) -> Result<<D::Game as Game>::Position, RowError>,
    rows: &[u32],
    first: usize,
    missing: Option<i8>,
    wdl: &mut [i8],
    plies: &mut [i32],
) -> Result<(), RowsError> {
    let mut positions = Vec::with_capacity(rows.len() / 4);
    let mut bad_row = None;
    for (i, row) in rows.as_chunks::<4>().0.iter().enumerate() {
        match decode(row) {
            Ok(pos) => positions.push(pos),
            Err(source) => {
                bad_row = Some(RowsError::Row {
                    at: first + i,
                    source,
                });
                break;
            }
        }
    }
    probe_into(tb, &positions, first, missing, wdl, plies)?;
    bad_row.map_or(Ok(()), Err)
}

/// The row of `pos`; a morris position that remembers something (a man that may not re-form
/// its mill, Shah's first mill) has none ([`RowError::Memory`]), nor a position of the other
/// family.
pub fn encode(game: &AnyGame, pos: AnyPosition) -> Result<Row, RowError> {
    match (game, pos) {
        (AnyGame::Morris(g), AnyPosition::Morris(p)) => rows::encode_morris(g, &p),
        (AnyGame::Checkers(g), AnyPosition::Checkers(p)) => Ok(rows::encode_checkers(g, &p)),
        _ => Err(RowError::OtherFamily),
    }
}

/// The value of a win, draw or loss as [`AnyTablebase::probe_rows`] writes it.
#[must_use]
pub fn wdl_number(wdl: crate::value::Wdl) -> i8 {
    match wdl {
        crate::value::Wdl::Win => 1,
        crate::value::Wdl::Draw => 0,
        crate::value::Wdl::Loss => -1,
    }
}

/// A probe's result as a batch stores it: the value (1, 0, -1) and the plies (-1 for none),
/// or with `missing` that value and -1 where the tables hold no such position (a missing
/// table, one out of their scope or that cannot arise); other errors stay errors.
pub fn row_value(
    found: Result<Value, ProbeError>,
    missing: Option<i8>,
) -> Result<(i8, i32), ProbeError> {
    match (found, missing) {
        (Ok(v), _) => Ok((
            wdl_number(v.wdl),
            v.plies.map_or(-1, |p| i32::try_from(p).unwrap_or(i32::MAX)),
        )),
        (Err(e), Some(value)) if is_not_held(&e) => Ok((value, -1)),
        (Err(e), _) => Err(e),
    }
}

/// Whether a probe failed because the tables hold no such position (a missing table, one out
/// of their scope or that cannot arise), where a caller may take a default instead; a damaged
/// table or a position of another game is not that.
#[must_use]
pub fn is_not_held(e: &ProbeError) -> bool {
    matches!(
        e,
        ProbeError::MissingTable { .. } | ProbeError::OutOfScope(_) | ProbeError::CannotArise
    )
}

/// Probes `positions` (the rows from number `first` on) into `wdl` and `plies`, up to the
/// first failure.
fn probe_into<D: Domain>(
    tb: &Tablebase<D>,
    positions: &[<D::Game as Game>::Position],
    first: usize,
    missing: Option<i8>,
    wdl: &mut [i8],
    plies: &mut [i32],
) -> Result<(), RowsError> {
    let mut failure = None;
    let checked = tb.probe_batch_with(positions, |i, v| match row_value(v, missing) {
        Ok((value, distance)) => {
            (wdl[i], plies[i]) = (value, distance);
            ControlFlow::Continue(())
        }
        Err(source) => {
            failure = Some(RowsError::Probe {
                at: first + i,
                source,
            });
            ControlFlow::Break(())
        }
    });
    // A table changed on disk during the reads spoils every value of the task.
    checked.map_err(|e| RowsError::Probe {
        at: first,
        source: ProbeError::Db(e),
    })?;
    failure.map_or(Ok(()), Err)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solve::{solve, SolveOptions};

    #[test]
    fn rows_probe_as_positions_do_and_the_first_bad_row_is_named() {
        let dir = tempfile::tempdir().unwrap();
        let (_, game) = AnyGame::load("three_mens_morris", &[] as &[(&str, &str)]).unwrap();
        let AnyGame::Morris(morris) = game else {
            unreachable!()
        };
        let domain = morris.domain().unwrap();
        let start = domain.start_key();
        solve(domain, dir.path(), &[start], &SolveOptions::default()).unwrap();
        let tables = AnyTablebase::open(&game, &[dir.path()]).unwrap();
        let mut state = perfectplay_core::GameState::new(morris);
        let mut positions = Vec::new();
        while !state.is_over() && positions.len() < 12 {
            positions.push(AnyPosition::Morris(*state.position()));
            let moves = state.legal_moves();
            state.play(&moves[positions.len() % moves.len()]).unwrap();
        }
        let rows: Vec<u32> = positions
            .iter()
            .flat_map(|&p| encode(&game, p).unwrap())
            .collect();
        let (mut wdl, mut plies) = (vec![9; positions.len()], vec![9; positions.len()]);
        tables
            .probe_rows(&game, &rows, None, &mut wdl, &mut plies)
            .unwrap();
        for (i, &pos) in positions.iter().enumerate() {
            let value = tables.probe(pos).unwrap();
            assert_eq!(wdl[i], wdl_number(value.wdl), "row {i}");
            assert_eq!(plies[i], value.plies.map_or(-1, |p| p as i32), "row {i}");
        }
        let mut bad = rows.clone();
        bad[4 * 5 + 3] = 7;
        let err = tables
            .probe_rows(&game, &bad, None, &mut wdl, &mut plies)
            .unwrap_err();
        assert!(matches!(err, RowsError::Row { at: 5, .. }), "{err}");
        let err = tables
            .probe_rows(&game, &rows[4..], None, &mut wdl, &mut plies)
            .unwrap_err();
        assert!(matches!(err, RowsError::Lengths { .. }), "{err}");
        let checkers =
            AnyPosition::Checkers(perfectplay_core::checkers::Checkers::default().start_position());
        assert!(matches!(
            tables.probe(checkers),
            Err(ProbeError::OutOfScope(_))
        ));
        assert_eq!(encode(&game, checkers), Err(RowError::OtherFamily));
        // Rows of the other family's game are refused, not probed in these tables.
        let (_, other) = AnyGame::load("checkers", &[] as &[(&str, &str)]).unwrap();
        let err = tables
            .probe_rows(&other, &rows, None, &mut wdl, &mut plies)
            .unwrap_err();
        assert!(
            matches!(
                err,
                RowsError::Row {
                    at: 0,
                    source: RowError::OtherFamily
                }
            ),
            "{err}"
        );
        // Rows whose tables are missing: a failure, or the value asked for with `missing`.
        let empty = tempfile::tempdir().unwrap();
        let none = AnyTablebase::open(&game, &[empty.path()]).unwrap();
        let err = none
            .probe_rows(&game, &rows, None, &mut wdl, &mut plies)
            .unwrap_err();
        assert!(
            matches!(
                err,
                RowsError::Probe {
                    source: ProbeError::MissingTable { .. },
                    ..
                }
            ),
            "{err}"
        );
        none.probe_rows(&game, &rows, Some(-2), &mut wdl, &mut plies)
            .unwrap();
        for (i, &pos) in positions.iter().enumerate() {
            // A finished position needs no table.
            let over = none.probe(pos).ok();
            assert_eq!(wdl[i], over.map_or(-2, |v| wdl_number(v.wdl)), "row {i}");
            assert_eq!(
                plies[i],
                over.map_or(-1, |v| v.plies.map_or(-1, |p| p as i32))
            );
        }
    }

    fn load(id: &str, options: &[(&str, &str)]) -> AnyGame {
        AnyGame::load(id, options).unwrap().1
    }

    #[test]
    fn tables_serve_every_setting_of_the_rules_they_do_not_read() {
        let no_history = [
            ("threefold_repetition", "false"),
            ("move_rule", "none"),
            ("ply_limit", "12"),
        ];
        let checkers_only = [("first_player", "white"), ("adjudication", "true")];
        for (id, options) in [
            ("checkers", [&no_history[..], &checkers_only[..]].concat()),
            ("nine_mens_morris", no_history.to_vec()),
        ] {
            let base = load(id, &[]);
            for (name, value) in options {
                let other = load(id, &[(name, value)]);
                assert_ne!(other, base, "{id} {name}={value} is a change");
                assert_eq!(tables_refuse(&base, &other), None, "{id} {name}={value}");
            }
        }
    }

    #[test]
    fn tables_refuse_other_rules_naming_only_those_they_read() {
        let checkers = load("checkers", &[]);
        let other = load(
            "checkers",
            &[("complete_jumps", "false"), ("ply_limit", "12")],
        );
        assert_eq!(
            tables_refuse(&checkers, &other),
            Some(RulesMismatch::Rules {
                game: "complete_jumps=false".to_owned(),
                tables: "complete_jumps=true".to_owned(),
            })
        );
        let nine = load("nine_mens_morris", &[]);
        let twelve = load("twelve_mens_morris", &[("ply_limit", "12")]);
        let Some(RulesMismatch::Rules { game, tables }) = tables_refuse(&nine, &twelve) else {
            panic!("two morris games are told apart by their rules")
        };
        assert!(
            game.contains("men=12") && tables.contains("men=9"),
            "{game} / {tables}"
        );
        assert!(!game.contains("ply_limit"), "{game}");
        assert_eq!(
            tables_refuse(&nine, &checkers),
            Some(RulesMismatch::Family {
                game: "checkers",
                tables: "morris",
            })
        );
        assert_eq!(
            tables_refuse(&nine, &checkers).unwrap().to_string(),
            "a checkers state cannot be valued in morris tables"
        );
    }

    #[test]
    fn tables_refuse_exactly_where_the_database_rules_differ() {
        // The settings compared are a faithful text of the rules the tables are built to, so
        // the test agrees with comparing those rules, for every game with each option set to
        // every value some game of its family has (and a few more).
        use perfectplay_core::registry::GameId;
        let games: Vec<AnyGame> = GameId::all().map(|id| load(id.name(), &[])).collect();
        let mut changes = 0;
        for base in &games {
            let mut values: Vec<(&str, String)> = games
                .iter()
                .filter(|g| g.family() == base.family())
                .flat_map(AnyGame::settings)
                .collect();
            for option in base.rule_options() {
                for extra in ["none", "1", "50"] {
                    values.push((option.name, extra.to_owned()));
                }
            }
            values.sort();
            values.dedup();
            for (name, value) in &values {
                let other = match base {
                    AnyGame::Checkers(g) => {
                        let mut rules = *g.rules();
                        if rules.set(name, value).is_err() {
                            continue;
                        }
                        AnyGame::Checkers(perfectplay_core::checkers::Checkers::new(rules))
                    }
                    AnyGame::Morris(g) => {
                        let mut rules = *g.rules();
                        if rules.set(name, value).is_err() {
                            continue;
                        }
                        match perfectplay_core::morris::Morris::new(rules) {
                            Ok(game) => AnyGame::Morris(game),
                            Err(_) => continue,
                        }
                    }
                };
                let same = match (base, other) {
                    (AnyGame::Checkers(a), AnyGame::Checkers(b)) => {
                        database_rules(a.rules()) == database_rules(b.rules())
                    }
                    (AnyGame::Morris(a), AnyGame::Morris(b)) => {
                        without_history(a.rules()) == without_history(b.rules())
                    }
                    _ => unreachable!("one family"),
                };
                changes += usize::from(!same);
                assert_eq!(
                    tables_refuse(base, &other).is_none(),
                    same,
                    "{} {name}={value}",
                    base.id()
                );
            }
        }
        // Every option the tables read was changed somewhere.
        assert!(changes > 100, "{changes}");
    }
}
