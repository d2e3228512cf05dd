//! Rule settings: applying `--set name=value` arguments and listing the values in force, for
//! any game's rules through the core's [`RuleSet`].

use perfectplay_core::RuleSet;

use crate::errors::CliError;

/// Applies each `name=value` setting in order with [`RuleSet::set`]. The combination is not
/// checked here; building the game does that.
pub(crate) fn apply<R: RuleSet>(rules: &mut R, settings: &[String]) -> Result<(), CliError> {
    for text in settings {
        let (name, value) = text.split_once('=').ok_or_else(|| CliError::BadSetting {
            text: text.clone(),
            valid: option_names::<R>(),
        })?;
        rules.set(name.trim(), value.trim())?;
    }
    Ok(())
}

/// The names of every option of `R`, comma separated.
pub(crate) fn option_names<R: RuleSet>() -> String {
    R::OPTIONS
        .iter()
        .map(|o| o.name)
        .collect::<Vec<_>>()
        .join(", ")
}

/// The values as one line of `name=value` pairs.
pub(crate) fn summary<R: RuleSet>(rules: &R) -> String {
    rules
        .values()
        .iter()
        .map(|(n, v)| format!("{n}={v}"))
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use perfectplay_core::checkers::CheckersRules;
    use perfectplay_core::morris::MorrisRules;
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
        let names: Vec<&str> = CheckersRules::default()
            .values()
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
            mandatory_capture: false,
            complete_jumps: false,
        };
        let settings: Vec<String> = changed
            .values()
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
             adjudication=false mandatory_capture=true complete_jumps=true"
        );
    }

    #[test]
    fn morris_rules_are_set_and_listed() {
        let mut rules = MorrisRules::NINE_MENS_MORRIS;
        apply(&mut rules, &strings(&["removal=any", "flying = none"])).unwrap();
        assert_eq!(rules.flying, None);
        assert!(
            summary(&rules).contains(" removal=any "),
            "{}",
            summary(&rules)
        );
        let err = apply(&mut rules, &strings(&["wings"])).unwrap_err();
        assert!(err.to_string().contains("no_reforming"), "{err}");
        let err = apply(&mut rules, &strings(&["wings=true"])).unwrap_err();
        assert!(
            err.to_string().contains("unknown rule option `wings`"),
            "{err}"
        );
        assert_eq!(err.exit_code(), 2);
        // The listing names every option; the serialised rules leave `capture` out at its
        // former value (see `MorrisRules`' `Display`), and both read back the same.
        assert!(summary(&rules).contains(" capture=compulsory "));
        assert_eq!(summary(&rules).parse::<MorrisRules>(), Ok(rules));
        assert_eq!(rules.to_string().parse::<MorrisRules>(), Ok(rules));
    }
}
