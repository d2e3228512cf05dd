//! Rule settings: applying `--set name=value` arguments and listing the values in force.

use perfectplay_core::checkers::CheckersRules;

use crate::errors::CliError;

/// Applies each `name=value` setting in order with [`CheckersRules::set`].
pub(crate) fn apply(rules: &mut CheckersRules, settings: &[String]) -> Result<(), CliError> {
    for text in settings {
        let (name, value) = text.split_once('=').ok_or_else(|| CliError::BadSetting {
            text: text.clone(),
            valid: option_names(),
        })?;
        rules.set(name.trim(), value.trim())?;
    }
    Ok(())
}

/// The names of every checkers rule option, comma separated.
pub(crate) fn option_names() -> String {
    CheckersRules::OPTIONS
        .iter()
        .map(|o| o.name)
        .collect::<Vec<_>>()
        .join(", ")
}

/// Each option with its value in `rules`, written so that [`CheckersRules::set`] reads it back.
pub(crate) fn values(rules: &CheckersRules) -> Vec<(&'static str, String)> {
    vec![
        ("first_player", rules.first_player.to_string()),
        (
            "threefold_repetition",
            rules.threefold_repetition.to_string(),
        ),
        ("move_rule", limit(rules.move_rule)),
        ("ply_limit", limit(rules.ply_limit)),
        ("adjudication", rules.adjudication.to_string()),
    ]
}

/// The values as one line of `name=value` pairs.
pub(crate) fn summary(rules: &CheckersRules) -> String {
    values(rules)
        .iter()
        .map(|(n, v)| format!("{n}={v}"))
        .collect::<Vec<_>>()
        .join(" ")
}

fn limit(value: Option<u32>) -> String {
    value.map_or_else(|| "none".to_owned(), |n| n.to_string())
}

#[cfg(test)]
mod tests {
    use perfectplay_core::Color;

    use super::*;

    fn strings(items: &[&str]) -> Vec<String> {
        items.iter().map(|s| (*s).to_owned()).collect()
    }

    #[test]
    fn apply_sets_each_option() {
        let mut rules = CheckersRules::default();
        apply(
            &mut rules,
            &strings(&["ply_limit=10", "adjudication = true", "move_rule=none"]),
        )
        .unwrap();
        assert_eq!(rules.ply_limit, Some(10));
        assert!(rules.adjudication);
        assert_eq!(rules.move_rule, None);
    }

    #[test]
    fn apply_rejects_unknown_options_and_missing_equals() {
        let mut rules = CheckersRules::default();
        let err = apply(&mut rules, &strings(&["flying_kings=true"])).unwrap_err();
        assert!(
            err.to_string().contains("valid options: first_player"),
            "{err}"
        );
        assert_eq!(err.exit_code(), 2);
        let err = apply(&mut rules, &strings(&["adjudication"])).unwrap_err();
        assert!(err.to_string().contains("name=value"), "{err}");
        assert!(err.to_string().contains("ply_limit"), "{err}");
        let err = apply(&mut rules, &strings(&["ply_limit=soon"])).unwrap_err();
        assert!(err.to_string().contains("invalid value"), "{err}");
    }

    #[test]
    fn values_cover_every_option_and_read_back() {
        let names: Vec<&str> = values(&CheckersRules::default())
            .iter()
            .map(|(n, _)| *n)
            .collect();
        let options: Vec<&str> = CheckersRules::OPTIONS.iter().map(|o| o.name).collect();
        assert_eq!(names, options);

        let changed = CheckersRules {
            first_player: Color::White,
            threefold_repetition: false,
            move_rule: None,
            ply_limit: Some(20),
            adjudication: true,
        };
        let settings: Vec<String> = values(&changed)
            .iter()
            .map(|(n, v)| format!("{n}={v}"))
            .collect();
        let mut rules = CheckersRules::default();
        apply(&mut rules, &settings).unwrap();
        assert_eq!(rules, changed);
    }

    #[test]
    fn summary_of_the_defaults() {
        assert_eq!(
            summary(&CheckersRules::default()),
            "first_player=black threefold_repetition=true move_rule=40 ply_limit=1000 \
             adjudication=false"
        );
    }
}
