//! Rule options by name: how users override a variant's settings from the CLI or Python.

use thiserror::Error;

/// Why a rule option could not be set.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum RuleOptionError {
    /// No option has this name.
    #[error("unknown rule option `{name}`; valid options: {valid}")]
    Unknown {
        /// The name given.
        name: String,
        /// The valid names, comma separated.
        valid: String,
    },
    /// The value does not fit the option.
    #[error("invalid value `{value}` for rule option `{name}`: expected {expected}")]
    BadValue {
        /// The option.
        name: String,
        /// The value given.
        value: String,
        /// What the option takes.
        expected: &'static str,
    },
}

/// A documented rule option.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RuleOption {
    /// Its name, in snake_case.
    pub name: &'static str,
    /// What values it takes.
    pub expected: &'static str,
    /// What it does.
    pub help: &'static str,
}

/// A game's rule options, set by name from text: what `--set name=value` on the command line
/// and `options=` in Python need, for any game's rules.
///
/// ```
/// use perfectplay_core::checkers::CheckersRules;
/// use perfectplay_core::RuleSet;
/// let mut rules = CheckersRules::default();
/// rules.apply(&[("ply_limit", "10"), ("adjudication", "true")])?;
/// assert_eq!(rules.values()[3], ("ply_limit", "10".to_owned()));
/// # Ok::<(), perfectplay_core::RuleOptionError>(())
/// ```
pub trait RuleSet: Copy {
    /// Every option [`RuleSet::set`] accepts.
    const OPTIONS: &'static [RuleOption];

    /// Sets one option by name from its text value.
    fn set(&mut self, name: &str, value: &str) -> Result<(), RuleOptionError>;

    /// Each option with its value, in the order of [`RuleSet::OPTIONS`], written so that
    /// [`RuleSet::set`] reads it back.
    fn values(&self) -> Vec<(&'static str, String)>;

    /// Sets each `(name, value)` option in order, stopping at the first that cannot be set.
    /// Whether the options work together is for the game to check, when it is built.
    fn apply<N: AsRef<str>, V: AsRef<str>>(
        &mut self,
        options: &[(N, V)],
    ) -> Result<(), RuleOptionError> {
        options
            .iter()
            .try_for_each(|(name, value)| self.set(name.as_ref(), value.as_ref()))
    }
}

/// Parses `true`/`false` (also `yes`/`no`, `on`/`off`, `1`/`0`).
pub(crate) fn parse_bool(name: &str, value: &str) -> Result<bool, RuleOptionError> {
    match value.trim().to_ascii_lowercase().as_str() {
        "true" | "yes" | "on" | "1" => Ok(true),
        "false" | "no" | "off" | "0" => Ok(false),
        _ => Err(bad_value(name, value, "true or false")),
    }
}

/// Parses a positive count, or `none`/`off`/`0` for "no limit". Zero is "no limit" however
/// it is written (`00`, `+0`): a limit of nothing would end every game before it began.
pub(crate) fn parse_limit(name: &str, value: &str) -> Result<Option<u32>, RuleOptionError> {
    let v = value.trim().to_ascii_lowercase();
    if matches!(v.as_str(), "none" | "off" | "false") {
        return Ok(None);
    }
    v.parse::<u32>()
        .map(|n| (n > 0).then_some(n))
        .map_err(|_| bad_value(name, value, "a positive integer or none"))
}

pub(crate) fn bad_value(name: &str, value: &str, expected: &'static str) -> RuleOptionError {
    RuleOptionError::BadValue {
        name: name.to_owned(),
        value: value.to_owned(),
        expected,
    }
}

pub(crate) fn unknown(name: &str, options: &[RuleOption]) -> RuleOptionError {
    RuleOptionError::Unknown {
        name: name.to_owned(),
        valid: options
            .iter()
            .map(|o| o.name)
            .collect::<Vec<_>>()
            .join(", "),
    }
}

/// The settings whose values differ between two `name=value` lists, for messages that name
/// only those: each side's written in order (`removal=any`), `found`'s names first, then those
/// only `wanted` has, a side that lacks a name showing `name=(default)` (a rules text leaves
/// out the options added since its first version while they are at their defaults). `None`
/// where they agree.
pub fn differing_settings<N: AsRef<str>, V: AsRef<str>>(
    found: &[(N, V)],
    wanted: &[(N, V)],
) -> Option<(String, String)> {
    fn value<'a, N: AsRef<str>, V: AsRef<str>>(list: &'a [(N, V)], name: &str) -> &'a str {
        list.iter()
            .find(|(n, _)| n.as_ref() == name)
            .map_or("(default)", |(_, v)| v.as_ref())
    }
    let mut names: Vec<&str> = found.iter().map(|(n, _)| n.as_ref()).collect();
    for (name, _) in wanted {
        if !names.contains(&name.as_ref()) {
            names.push(name.as_ref());
        }
    }
    names.retain(|n| value(found, n) != value(wanted, n));
    if names.is_empty() {
        return None;
    }
    let side = |list: &[(N, V)]| {
        names
            .iter()
            .map(|n| format!("{n}={}", value(list, n)))
            .collect::<Vec<_>>()
            .join(" ")
    };
    Some((side(found), side(wanted)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn zero_is_no_limit_however_it_is_written() {
        for zero in ["0", "00", "+0", " 000 ", "none", "Off", "false"] {
            assert_eq!(parse_limit("ply_limit", zero), Ok(None), "{zero:?}");
        }
        assert_eq!(parse_limit("ply_limit", "050"), Ok(Some(50)));
        for bad in ["-1", "0.5", "", "1e3", "4294967296"] {
            assert!(parse_limit("ply_limit", bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn differing_settings_are_named_alone() {
        let list = |text: &'static str| -> Vec<(&str, &str)> {
            text.split_whitespace()
                .map(|w| w.split_once('=').unwrap())
                .collect()
        };
        assert_eq!(
            differing_settings(
                &list("men=9 flying=3 removal=any"),
                &list("men=9 flying=3 removal=standard")
            ),
            Some(("removal=any".to_owned(), "removal=standard".to_owned()))
        );
        assert_eq!(
            differing_settings(
                &list("men=9 flying=3"),
                &list("men=12 trapped=loses flying=3")
            ),
            Some((
                "men=9 trapped=(default)".to_owned(),
                "men=12 trapped=loses".to_owned()
            ))
        );
        assert_eq!(differing_settings(&list("men=9"), &list("men=9")), None);
    }
}
