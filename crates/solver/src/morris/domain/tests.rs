//! Tests of the morris database scheme: key slots, memories, and that indexing, locating,
//! successors and unmoves agree over whole units.

use std::collections::{BTreeSet, HashSet};

use perfectplay_core::morris::MoveKind;
use perfectplay_core::Game;

use super::*;

/// The preset `id` with `options` (name, value) overridden.
fn with(id: &str, options: &[(&str, &str)]) -> MorrisDomain {
    let mut rules = MorrisRules::preset(id).expect("a preset").rules;
    for (name, value) in options {
        rules.set(name, value).unwrap();
    }
    MorrisDomain::new(Morris::new(rules).unwrap()).unwrap()
}

#[test]
fn every_key_with_at_most_twelve_men_a_side_has_a_slot_of_its_own() {
    let d = with("twelve_mens_morris", &[]);
    let mut taken = vec![false; d.key_slots()];
    let men = 0..=MAX_SIDE_MEN as u8;
    for (mover, mover_hand, other, other_hand) in men.clone().flat_map(|a| {
        let men = men.clone();
        men.clone().flat_map(move |b| {
            let men = men.clone();
            men.clone()
                .flat_map(move |c| men.clone().map(move |e| (a, b, c, e)))
        })
    }) {
        for (mover_barrier, other_barrier) in
            [(false, false), (false, true), (true, false), (true, true)]
        {
            let key = MorrisKey::moving(mover, other)
                .with_hands(mover_hand, other_hand)
                .with_barriers(mover_barrier, other_barrier);
            let slot = d.key_slot(key);
            let fits = usize::from(mover + mover_hand) <= MAX_SIDE_MEN
                && usize::from(other + other_hand) <= MAX_SIDE_MEN;
            assert_eq!(slot.is_some(), fits, "{key}");
            if let Some(slot) = slot {
                assert!(!taken[slot], "{key}: slot {slot} taken twice");
                taken[slot] = true;
            }
        }
    }
    assert!(taken.iter().all(|&t| t), "every slot number is used");
}

#[test]
fn names_with_counts_past_a_byte_s_sum_are_refused() {
    // A name may hold any byte a count; summed in a byte, 9 men and 255 in hand made 8.
    let nine = with("nine_mens_morris", &[]);
    for name in [
        "1-0-h255-0",
        "9-3-h255-0",
        "3-9-h0-255",
        "255-255",
        "3-3-h250-250",
    ] {
        assert_eq!(nine.parse_key(name), None, "{name}");
        let key: MorrisKey = name.parse().unwrap();
        assert!(!nine.is_valid_key(key), "{name}");
        assert_eq!(nine.size(key), 0, "{name}");
    }
    assert!(nine.parse_key("3-3-h6-6").is_some());
    // Ended before it starts: the other side has no man at all, whatever the mover holds.
    assert!(nine.all_over("1-0-h255-0".parse().unwrap()));
    assert!(!nine.all_over("3-3-h250-250".parse().unwrap()));
}

#[test]
fn memories_belong_to_rules_with_no_reforming() {
    let twelve = with("twelve_mens_morris", &[]);
    let nine = with("nine_mens_morris", &[]);
    let key = MorrisKey::moving(3, 3).with_barriers(true, true);
    assert!(twelve.is_valid_key(key));
    assert!(!nine.is_valid_key(key));
    assert_eq!(nine.parse_key("3-3-bm"), None);
    assert_eq!(
        twelve.parse_key("3-3-bm"),
        Some(key.with_barriers(true, false))
    );
    // Too few men to re-form a mill.
    assert!(!twelve.is_valid_key(MorrisKey::moving(2, 3).with_barriers(true, false)));
    assert_ne!(twelve.index_scheme(), nine.index_scheme());
    // Keys without memories keep their size; those with memories rank only the memories
    // that can matter: 3-3 with both memories has 524 indices for its 524 positions up to
    // symmetry (a memory slot per man and neighbour gave 24,426,144), with the other side's
    // memory alone 11,400 for 8,666 (2,035,512): the configurations a reflection fixes
    // leave half their indices holes.
    let plain = MorrisKey::moving(3, 3);
    assert_eq!(twelve.size(plain), nine.size(plain));
    assert_eq!(twelve.size(key), 524);
    assert_eq!(twelve.size(key.with_barriers(false, true)), 11_400);
    assert_eq!(
        twelve.successor_keys(plain),
        [plain, plain.with_barriers(false, true)]
    );
    let shah = MorrisDomain::new(Morris::preset("shah").unwrap()).unwrap();
    assert!(shah.check_key(plain).is_ok());
    let placing = shah.check_key(shah.start_key()).unwrap_err();
    assert!(placing.contains("first_mill_opens"), "{placing}");
}

/// A subspace and an index in it.
type Located = (MorrisKey, u64);

/// The unit of `keys`: every index is a hole or locates back to itself, every symmetric
/// image of a position locates alike, every successor lies in a successor key, and the
/// pairs (predecessor, position) of quiet turns are the same found forwards from every
/// position and backwards from every position. Returns the indices and the non-holes.
fn check_unit(domain: &MorrisDomain, keys: &[MorrisKey]) -> (u64, u64) {
    let game = domain.game();
    let group = domain.indexer.symmetries();
    let mut forward = BTreeSet::new();
    let mut backward = BTreeSet::new();
    let (mut indices, mut used) = (0, 0);
    let mut unit_keys = HashSet::new();
    for &key in keys {
        unit_keys.insert(key);
        let successors = domain.successor_keys(key);
        let size = domain.size(key);
        indices += size;
        let mut walked = 0;
        domain.for_each_position(key, 0..size, |index, pos| {
            assert_eq!(index, walked);
            walked += 1;
            assert_eq!(*pos, domain.unrank(key, index), "{key} {index}");
            if domain.is_hole(key, index, pos) {
                return;
            }
            used += 1;
            assert_eq!(domain.locate(pos).ok(), Some((key, index)));
            assert_eq!(game.canonical_memory(pos), *pos);
            for s in 0..group.len() {
                let mut image = MorrisPosition::from_parts_unchecked(
                    Bitboard(group.apply(s, pos.men(Color::White).0)),
                    Bitboard(group.apply(s, pos.men(Color::Black).0)),
                    key.mover_hand(),
                    key.other_hand(),
                    Color::White,
                );
                for color in Color::ALL {
                    image.set_barrier(
                        color,
                        pos.barrier(color).map(|b| Barrier {
                            man: group.point_image(s, b.man),
                            point: group.point_image(s, b.point),
                        }),
                    );
                }
                assert_eq!(
                    domain.locate(&image).ok(),
                    Some((key, index)),
                    "{key} symmetry {s}"
                );
            }
            if game.outcome(pos).is_some() {
                return;
            }
            game.for_each_move(pos, |mv| {
                let next = game.play(pos, mv);
                // The solver values finished successors directly, forwards only.
                if game.outcome(&next).is_some() {
                    return;
                }
                let (k, i) = domain.locate(&next).unwrap();
                assert!(successors.contains(&k), "{key} leads to {k}");
                let quiet =
                    !mv.is_capture() && matches!(mv.kind(), MoveKind::Move { .. } | MoveKind::Pass);
                if quiet {
                    forward.insert(((key, index), (k, i)));
                }
            });
        });
        assert_eq!(walked, size);
    }
    for &key in keys {
        for index in 0..domain.size(key) {
            let pos = domain.unrank(key, index);
            if domain.is_hole(key, index, &pos) || game.outcome(&pos).is_some() {
                continue;
            }
            let mut located = Vec::new();
            domain.for_each_quiet_predecessor(&pos, |q| {
                let (k, i) = domain.locate(q).unwrap();
                assert_eq!(domain.locate_predecessor(q).unwrap(), (k, i));
                assert!(!domain.is_hole(k, i, q));
                located.push((k, i));
                if unit_keys.contains(&k) {
                    backward.insert(((k, i), (key, index)));
                }
            });
            if domain.quiet_predecessors_are_distinct(&pos) {
                let distinct: HashSet<_> = located.iter().collect();
                assert_eq!(distinct.len(), located.len(), "{key} {index}");
            }
        }
    }
    // Turns from outside the unit are not generated forwards here.
    let show = |pairs: Vec<&(Located, Located)>| {
        pairs
            .iter()
            .take(5)
            .map(|((k, i), (l, j))| {
                format!(
                    "{k} {i} {} -> {l} {j} {}",
                    game.fen(&domain.unrank(*k, *i), 0),
                    game.fen(&domain.unrank(*l, *j), 0)
                )
            })
            .collect::<Vec<_>>()
            .join("\n")
    };
    assert!(
        forward == backward,
        "only forwards:\n{}\nonly backwards:\n{}",
        show(forward.difference(&backward).collect()),
        show(backward.difference(&forward).collect())
    );
    assert!(!forward.is_empty());
    (indices, used)
}

/// The keys of `a`-`b` and `b`-`a` with every combination of memories.
fn unit(domain: &MorrisDomain, a: u8, b: u8) -> Vec<MorrisKey> {
    let mut keys = Vec::new();
    for (x, y) in [(a, b), (b, a)] {
        for m in [false, true] {
            for o in [false, true] {
                let key = MorrisKey::moving(x, y).with_barriers(m, o);
                if domain.is_valid_key(key) && !keys.contains(&key) {
                    keys.push(key);
                }
            }
        }
    }
    keys
}

#[test]
fn locating_successors_one_after_another_gives_what_locate_gives() {
    let mut rng = perfectplay_core::SplitMix64::new(11);
    for (domain, men) in [
        (
            with("nine_mens_morris", &[]),
            [(3, 3), (4, 7), (7, 4), (9, 8), (6, 6)],
        ),
        (
            with("twelve_mens_morris", &[]),
            [(3, 5), (8, 8), (11, 4), (5, 9), (12, 3)],
        ),
        (
            with("nine_mens_morris", &[("no_reforming", "true")]),
            [(3, 4), (5, 5), (8, 7), (4, 9), (9, 9)],
        ),
    ] {
        // One memo for every successor of every position: a memo of other men is never used.
        let mut memo = None;
        let mut located = 0;
        for (a, b) in men {
            let key = MorrisKey::moving(a, b);
            for _ in 0..200 {
                let index = rng.next_u64() % domain.size(key);
                let pos = domain.unrank(key, index);
                domain.game().for_each_move(&pos, |mv| {
                    let next = domain.game().play(&pos, mv);
                    let want = domain.locate(&next).ok();
                    assert_eq!(domain.locate_near(&next, &mut memo).ok(), want, "{next:?}");
                    located += usize::from(want.is_some());
                });
            }
        }
        assert!(located > 10_000, "{located} successors located");
    }
}

#[test]
fn memories_index_locate_and_unmove_consistently_on_small_boards() {
    for (domain, a, b) in [
        // The 3x3 grid: the centre has 8 neighbours.
        (with("three_mens_morris", &[("no_reforming", "true")]), 3, 3),
        // Flying: a memory's target is any point.
        (
            with(
                "three_mens_morris",
                &[("no_reforming", "true"), ("flying", "3")],
            ),
            3,
            3,
        ),
        (with("six_mens_morris", &[("no_reforming", "true")]), 3, 3),
        (with("six_mens_morris", &[("no_reforming", "true")]), 3, 4),
    ] {
        let keys = unit(&domain, a, b);
        assert_eq!(keys.len(), if a == b { 4 } else { 8 });
        let (indices, used) = check_unit(&domain, &keys);
        assert!(
            0 < used && used <= indices,
            "{}: {a}-{b}: {used} of {indices} indices used",
            domain.game().rules()
        );
    }
}

/// The whole unit 3-3 of Twelve Men's Morris as its long builds index it (its diagonals and
/// the no-re-forming memories: 192,950 indices in four subspaces), every index checked as on
/// the small boards: the tables of the twelve-man build rest on this index, and the
/// verification reads successors through it too, so it cannot check it alone.
#[test]
fn twelve_mens_morris_3_3_indexes_locates_and_unmoves_consistently() {
    let domain = with("twelve_mens_morris", &[]);
    let keys = unit(&domain, 3, 3);
    assert_eq!(keys.len(), 4);
    let (indices, used) = check_unit(&domain, &keys);
    assert_eq!(indices, 169_626 + 11_400 + 11_400 + 524);
    assert!(
        0 < used && used < indices,
        "{used} of {indices} indices used"
    );
}

#[test]
fn predecessors_said_to_be_distinct_locate_to_distinct_indices() {
    let mut rng = perfectplay_core::SplitMix64::new(29);
    for (domain, men) in [
        (
            with("nine_mens_morris", &[]),
            [(3, 3), (4, 7), (7, 4), (9, 8), (6, 6)],
        ),
        (
            with("morabaraba", &[]),
            [(3, 5), (8, 8), (11, 4), (5, 9), (12, 3)],
        ),
        (
            with("twelve_mens_morris", &[]),
            [(3, 5), (8, 8), (11, 4), (5, 9), (12, 3)],
        ),
    ] {
        let (mut sampled, mut distinct, mut repeated) = (0, 0, 0);
        for (i, (a, b)) in men.into_iter().enumerate() {
            // Under no_reforming (twelve_mens_morris), subspaces that remember too.
            let key = MorrisKey::moving(a, b);
            let key = if domain.memory() {
                key.with_barriers(i % 2 == 0, i % 3 == 0)
            } else {
                key
            };
            assert!(domain.is_valid_key(key), "{key}");
            for _ in 0..2_000 {
                let index = rng.next_u64() % domain.size(key);
                let pos = domain.unrank(key, index);
                if domain.is_hole(key, index, &pos) {
                    continue;
                }
                sampled += 1;
                let mut located = Vec::new();
                domain.for_each_quiet_predecessor(&pos, |q| {
                    let at = domain.locate(q).unwrap();
                    // The solver's shortcut for generated predecessors agrees.
                    assert_eq!(domain.locate_predecessor(q).unwrap(), at);
                    located.push(at);
                });
                let unique = located.iter().collect::<HashSet<_>>().len();
                if domain.quiet_predecessors_are_distinct(&pos) {
                    assert_eq!(unique, located.len(), "{}", domain.game().fen(&pos, 0));
                    distinct += 1;
                }
                repeated += usize::from(unique < located.len());
            }
        }
        // Most positions are told distinct, and the ones that are not do occur.
        assert!(
            sampled > 2_000 && distinct * 10 > sampled * 9,
            "{distinct} of {sampled} distinct"
        );
        assert!(
            repeated > 0,
            "no position with repeated predecessors sampled"
        );
    }
}

#[test]
fn a_position_with_men_off_the_board_or_on_one_point_is_refused_not_ranked() {
    let nine = with("nine_mens_morris", &[]);
    let sound = MorrisPosition::from_parts_unchecked(
        Bitboard(0b111),
        Bitboard(0b111 << 8),
        0,
        0,
        Color::White,
    );
    assert!(nine.locate(&sound).is_ok());
    for (white, black) in [
        (0b111 | 1 << 24, 0b111 << 8),
        (0b111, 0b111 << 8 | 1 << 31),
        (0b111, 0b110 | 1 << 8),
    ] {
        let pos = MorrisPosition::from_parts_unchecked(
            Bitboard(white),
            Bitboard(black),
            0,
            0,
            Color::White,
        );
        let err = nine.locate(&pos).unwrap_err();
        assert!(
            matches!(&err, ProbeError::NotAPosition(why) if why.contains("off the board")),
            "{white:#b} {black:#b}: {err}"
        );
        // Every way in refuses it: the solver's own, which skip `locate`, too.
        assert!(nine.locate_near(&pos, &mut None).is_err());
        assert!(nine.try_locate_near(&pos, &mut None).is_none());
        assert!(nine.locate_predecessor(&pos).is_err());
        assert!(nine.check_position(&pos).is_err());
    }
    assert!(nine.check_position(&sound).is_ok());
    // An effective memory of a man past the points (flying, its mill-mates on a1 and d1): its
    // memory number would lie past the memory index's table.
    let remembering = with("nine_mens_morris", &[("no_reforming", "true")]);
    let mut pos = MorrisPosition::from_parts_unchecked(
        Bitboard(0b111 << 8),
        Bitboard(1 << 21 | 1 << 22 | 1 << 25),
        0,
        0,
        Color::White,
    );
    pos.set_barrier(Color::Black, Some(Barrier { man: 25, point: 23 }));
    assert!(remembering
        .game()
        .effective_barrier(&pos, Color::Black)
        .is_some());
    assert!(matches!(
        remembering.locate(&pos),
        Err(ProbeError::NotAPosition(_))
    ));
    assert!(remembering.try_locate_near(&pos, &mut None).is_none());
    // Three Men's Morris has nine points: its tenth is off the board.
    let three = with("three_mens_morris", &[]);
    let pos = MorrisPosition::from_parts_unchecked(
        Bitboard(0b11 | 1 << 9),
        Bitboard(0b111 << 3),
        0,
        0,
        Color::White,
    );
    assert!(three.locate(&pos).is_err());
}

#[test]
fn nine_mens_morris_moving_tables_hold_the_readme_s_count() {
    // The README compares this total with Gasser's 9,074,932,579 indices: every placement of
    // 3 to 9 men a side, one index per symmetry class.
    let nine = with("nine_mens_morris", &[]);
    let mut total = 0;
    let mut tables = 0;
    for a in 3..=9 {
        for b in 3..=9 {
            total += nine.size(MorrisKey::moving(a, b));
            tables += 1;
        }
    }
    assert_eq!((tables, total), (49, 8_904_593_601));
}
