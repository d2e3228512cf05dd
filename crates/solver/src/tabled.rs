//! `Tabled`: a game with endgame databases, its database scheme ([`Domain`]), and the one
//! way to open its tables over several directories, used by the CLI, the environment and
//! Python alike.

use std::path::{Path, PathBuf};

use perfectplay_core::checkers::Checkers;
use perfectplay_core::morris::{Morris, MorrisRules};
use perfectplay_core::registry::{AnyGame, GameId, LoadError};
use perfectplay_core::Game;
use thiserror::Error;

use crate::checkers::{CheckersDomain, CheckersKey};
use crate::domain::Domain;
use crate::error::{DbError, SolveError};
use crate::format::{read_file_header, EXTENSION};
use crate::morris::{MorrisDomain, MorrisKey};
use crate::tablebase::Tablebase;

/// Why the tables of a game could not be opened.
#[derive(Debug, Error)]
#[non_exhaustive]
pub enum OpenError {
    /// The game's rules have no database scheme.
    #[error("no databases for these rules: {0}")]
    Unsupported(String),
    /// A directory that cannot be read.
    #[error(transparent)]
    Db(#[from] DbError),
    /// A table whose header names a game or rules this version does not know.
    #[error("{path}: built for a game this version cannot load ({game} {rules}): {why}")]
    UnknownGame {
        /// The table.
        path: PathBuf,
        /// The game id in its header.
        game: String,
        /// The rules in its header, as `name=value` words.
        rules: String,
        /// Why it cannot be loaded (boxed: the error is large and rare).
        why: Box<LoadError>,
    },
}

/// The game whose tables lie in `dir`, from the header of its first table (by file name), or
/// `None` when it holds no table; with the id it was loaded by. Checkers tables are read under
/// the default rules but for the capture options they were built with (the other options
/// change no position's value); morris tables under the rules they were built by
/// (a rule set that is no preset is stored as `morris` with all the options set, and loaded
/// as the preset it differs least from, with its options).
pub fn game_of_tables(dir: &Path) -> Result<Option<(GameId, AnyGame)>, OpenError> {
    let entries = std::fs::read_dir(dir).map_err(|e| DbError::io(dir, e))?;
    let mut files: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == EXTENSION))
        .collect();
    files.sort();
    let Some(first) = files.first() else {
        return Ok(None);
    };
    let header = read_file_header(first)?;
    let loaded = if header.game_id == Checkers::default().id() {
        // Only the capture options are part of the checkers database game, written as
        // `name=value` words where they are not the standard game's.
        let options: Vec<(&str, &str)> = header
            .rules
            .split_whitespace()
            .filter_map(|word| word.split_once('='))
            .filter(|(name, _)| matches!(*name, "mandatory_capture" | "complete_jumps"))
            .collect();
        AnyGame::load(&header.game_id, &options)
    } else {
        // Every option, read as the rules text reads (an option the text leaves out at its
        // former value takes that value, not the base preset's); text that does not read is
        // passed on word by word for the loader to name what is wrong.
        let settings = header.rules.parse::<MorrisRules>().map(|r| r.settings());
        let options: Vec<(&str, &str)> = match &settings {
            Ok(all) => all
                .iter()
                .map(|(name, value)| (*name, value.as_str()))
                .collect(),
            Err(_) => header
                .rules
                .split_whitespace()
                .map(|word| word.split_once('=').unwrap_or((word, "")))
                .collect(),
        };
        let base = morris_base(&header.game_id, settings.as_deref().ok());
        AnyGame::load(base, &options)
    };
    match loaded {
        Ok(loaded) => Ok(Some(loaded)),
        Err(why) => Err(OpenError::UnknownGame {
            path: first.clone(),
            game: header.game_id,
            rules: header.rules,
            why: Box::new(why),
        }),
    }
}

/// The preset to load morris tables over: the one `game_id` names, or for `morris` (rules that
/// are no preset's) the nearest to `settings`; Nine Men's Morris where the rules text did not
/// read (`settings` `None`), for [`AnyGame::load`] to report what is wrong.
fn morris_base<'a>(game_id: &'a str, settings: Option<&[(&'static str, String)]>) -> &'a str {
    match (game_id, settings) {
        ("morris", Some(all)) => nearest_morris_preset(all),
        ("morris", None) => "nine_mens_morris",
        (id, _) => id,
    }
}

/// The preset whose options differ least from `settings` (every option of a rule set that is
/// no preset's, as [`MorrisRules::settings`] lists them): the game such tables are loaded as,
/// so that tables of Three Men's Morris with one option changed read as `three_mens_morris`
/// with that option, as `load_game` gives it.
fn nearest_morris_preset(settings: &[(&'static str, String)]) -> &'static str {
    MorrisRules::PRESETS
        .iter()
        .min_by_key(|preset| {
            preset
                .rules
                .settings()
                .iter()
                .zip(settings)
                .filter(|(a, b)| a != b)
                .count()
        })
        .map_or("nine_mens_morris", |preset| preset.id)
}

/// A game whose positions the databases hold.
pub trait Tabled: Game + Copy + Send + Sync + 'static {
    /// The databases' scheme for this family.
    type Domain: Domain<Game = Self> + Send + Sync + 'static;

    /// The scheme for these rules. Every rule set of the two families has one today (what a
    /// scheme cannot index, such as Shah's placement phase, is refused subspace by subspace:
    /// [`Domain::check_key`]); the `Result` leaves room for rules a scheme cannot hold at all.
    fn domain(&self) -> Result<Self::Domain, OpenError>;

    /// The subspace of the game's starting position, where the databases hold it (not in
    /// checkers: 24 pieces are far beyond any database).
    fn start_key(domain: &Self::Domain) -> Option<<Self::Domain as Domain>::Key>;

    /// The tables of this game in `dirs`, searched in order (each must be a directory).
    fn open_tables<P: AsRef<Path>>(
        &self,
        dirs: &[P],
    ) -> Result<Tablebase<Self::Domain>, OpenError> {
        Ok(Tablebase::with_directories(self.domain()?, dirs)?)
    }
}

impl Tabled for Checkers {
    type Domain = CheckersDomain;

    fn domain(&self) -> Result<CheckersDomain, OpenError> {
        Ok(CheckersDomain::new(*self))
    }

    fn start_key(_: &CheckersDomain) -> Option<CheckersKey> {
        None
    }
}

impl Tabled for Morris {
    type Domain = MorrisDomain;

    fn domain(&self) -> Result<MorrisDomain, OpenError> {
        MorrisDomain::new(*self).map_err(|e| match e {
            SolveError::Unsupported(why) => OpenError::Unsupported(why),
            other => OpenError::Unsupported(other.to_string()),
        })
    }

    fn start_key(domain: &MorrisDomain) -> Option<MorrisKey> {
        Some(domain.start_key())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rules_of_no_preset_load_as_the_nearest_preset() {
        let text = |id: &str, options: &[(&str, &str)]| {
            let mut rules = MorrisRules::preset(id).unwrap().rules;
            for (name, value) in options {
                rules.set(name, value).unwrap();
            }
            rules.settings()
        };
        for (id, options) in [
            ("three_mens_morris", &[("diagonal_mills", "false")][..]),
            (
                "six_mens_morris",
                &[("capture", "optional"), ("men", "4")][..],
            ),
            ("twelve_mens_morris", &[("removal", "mill_immunity")][..]),
            ("nine_mens_morris", &[("double_mill", "two")][..]),
        ] {
            assert_eq!(nearest_morris_preset(&text(id, options)), id, "{options:?}");
            assert_eq!(morris_base("morris", Some(&text(id, options))), id);
        }
        assert_eq!(morris_base("morris", None), "nine_mens_morris");
        assert_eq!(morris_base("shah", None), "shah");
    }

    #[test]
    fn every_game_opens_over_existing_directories_and_names_a_missing_one() {
        let dir = tempfile::tempdir().unwrap();
        let tables = Checkers::default().open_tables(&[dir.path()]).unwrap();
        assert_eq!(tables.directories(), [dir.path()]);
        for preset in MorrisRules::PRESETS {
            let game = Morris::new(preset.rules).unwrap();
            let tables = game.open_tables(&[dir.path(), dir.path()]).unwrap();
            assert_eq!(tables.directories().len(), 2);
            assert!(Morris::start_key(tables.domain()).is_some());
        }
        let missing = dir.path().join("nowhere");
        let Err(err) = Checkers::default().open_tables(&[&missing]) else {
            panic!("a missing directory opened");
        };
        assert!(matches!(err, OpenError::Db(_)), "{err:?}");
        assert!(err.to_string().contains("nowhere"), "{err}");
    }
}
