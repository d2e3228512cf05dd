//! An independent reference solver, checked value for value against the production tables.
//!
//! The reference shares nothing with the production solver but the engine's move generator:
//! no symmetry, no index, no counters. It builds the explicit graph of every position reachable
//! from a set of roots by forward play (positions kept as they are, White or Black to move),
//! then computes values by plain passes over all states, one distance at a time:
//!
//! - a position that is over is a loss in 0 for the side to move (a draw if nobody won);
//! - pass `k` odd: an undecided position with a successor lost in `k - 1` is won in `k`;
//! - pass `k` even: an undecided position all of whose successors are won, the longest in
//!   exactly `k - 1`, is lost in `k`;
//! - after a pass that decides nothing, whatever is left can only cycle or reach draws: a draw.
//!
//! Every state of the graph is then probed in the production tables and must agree exactly.
//!
//! Under `no_reforming` a state is a position with its no-re-forming memories in canonical
//! form, computed here by the reference's own reading of the rule: a memory is kept only if
//! its man is still its side's, its point is empty, the man can reach the point, and arriving
//! there completes a mill of that side (any other memory can never forbid a move).

use std::collections::HashMap;
use std::time::Instant;

use perfectplay_core::morris::{Barrier, Morris, MorrisPosition, MorrisRules};
use perfectplay_core::{Bitboard, Color, Game};
use perfectplay_solver::morris::{MorrisDomain, MorrisKey};
use perfectplay_solver::{solve, ProbeError, SolveOptions, Tablebase, Value};

/// A position's value for the side to move, as the reference finds it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum RefValue {
    /// Neither side can force a win.
    Draw,
    /// Decided this many plies from the end: odd a win, even a loss.
    Plies(u32),
    /// The side to move has already won: the tables call this "cannot arise".
    CannotArise,
}

/// The explicit state graph.
struct Graph {
    /// Every state, by id.
    positions: Vec<MorrisPosition>,
    /// The value of each state that is over, `None` for the others.
    terminal: Vec<Option<RefValue>>,
    /// The successors of state `i` are `successors[first[i]..first[i + 1]]`.
    first: Vec<usize>,
    /// Successor ids, one per legal move (duplicates kept).
    successors: Vec<usize>,
}

impl Graph {
    fn successors(&self, i: usize) -> &[usize] {
        &self.successors[self.first[i]..self.first[i + 1]]
    }
}

/// The reference's canonical form of the no-re-forming memory of `color`: the memory if it
/// can still forbid a move, else none. Only moving-phase positions are checked here.
fn canonical_barrier(game: &Morris, pos: &MorrisPosition, color: Color) -> Option<Barrier> {
    let b = pos.barrier(color)?;
    let board = game.board();
    let ours = pos.men(color);
    assert_eq!(pos.in_hand(color), 0, "moving phase only");
    let flies = game
        .rules()
        .flying
        .is_some_and(|n| ours.count() <= u32::from(n));
    let reaches = flies || board.neighbours(b.man).contains_index(b.point);
    let after = ours.0 & !(1 << b.man) | 1 << b.point;
    let reforms = board
        .mills()
        .iter()
        .any(|&mill| mill >> b.point & 1 == 1 && mill & after == mill);
    let keep =
        ours.contains_index(b.man) && !pos.occupied().contains_index(b.point) && reaches && reforms;
    keep.then_some(b)
}

/// `pos` with its memories in the reference's canonical form.
fn canonical(game: &Morris, pos: &MorrisPosition) -> MorrisPosition {
    let mut out = *pos;
    for color in [Color::White, Color::Black] {
        out.set_barrier(color, canonical_barrier(game, pos, color));
    }
    out
}

/// A one-to-one key for positions whose only memories are the no-re-forming ones.
fn key(pos: &MorrisPosition) -> u128 {
    let white = pos.men(Color::White);
    let black = pos.men(Color::Black);
    let (wh, bh) = (pos.in_hand(Color::White), pos.in_hand(Color::Black));
    let side = pos.side_to_move();
    let memory = |color: Color| -> u128 {
        pos.barrier(color)
            .map_or(0, |b| 1 | u128::from(b.man) << 1 | u128::from(b.point) << 6)
    };
    // The key holds every field: rebuilding the position from it must give it back.
    let mut rebuilt = MorrisPosition::from_parts_unchecked(white, black, wh, bh, side);
    rebuilt.set_barrier(Color::White, pos.barrier(Color::White));
    rebuilt.set_barrier(Color::Black, pos.barrier(Color::Black));
    assert_eq!(*pos, rebuilt, "position with another memory");
    assert!(white.0 < 1 << 24 && black.0 < 1 << 24 && wh < 16 && bh < 16);
    u128::from(white.0)
        | u128::from(black.0) << 24
        | u128::from(wh) << 48
        | u128::from(bh) << 52
        | u128::from(side == Color::White) << 56
        | memory(Color::White) << 64
        | memory(Color::Black) << 80
}

/// Every position reachable from `roots` by forward play, with its successors; memories in
/// canonical form.
fn build_graph(game: &Morris, roots: &[MorrisPosition]) -> Graph {
    let mut ids: HashMap<u128, usize> = HashMap::new();
    let mut graph = Graph {
        positions: Vec::new(),
        terminal: Vec::new(),
        first: vec![0],
        successors: Vec::new(),
    };
    let mut id_of = |pos: MorrisPosition, graph: &mut Graph| -> usize {
        let pos = canonical(game, &pos);
        *ids.entry(key(&pos)).or_insert_with(|| {
            graph.positions.push(pos);
            graph.positions.len() - 1
        })
    };
    for &root in roots {
        id_of(root, &mut graph);
    }
    // States are expanded in id order; new ones are appended, so this is a breadth-first search.
    let mut i = 0;
    while i < graph.positions.len() {
        let pos = graph.positions[i];
        match game.outcome(&pos) {
            Some(outcome) => {
                let value = match outcome.winner {
                    None => RefValue::Draw,
                    Some(w) if w == game.side_to_move(&pos) => RefValue::CannotArise,
                    Some(_) => RefValue::Plies(0),
                };
                graph.terminal.push(Some(value));
            }
            None => {
                graph.terminal.push(None);
                let mut next = Vec::new();
                game.for_each_move(&pos, |mv| next.push(game.play(&pos, mv)));
                for succ in next {
                    let id = id_of(succ, &mut graph);
                    graph.successors.push(id);
                }
            }
        }
        graph.first.push(graph.successors.len());
        i += 1;
    }
    graph
}

/// The value of every state, by passes over all states until one decides nothing.
fn solve_reference(graph: &Graph) -> Vec<RefValue> {
    let n = graph.positions.len();
    let mut value: Vec<Option<RefValue>> = graph.terminal.clone();
    for k in 1u32.. {
        let mut changed = false;
        for s in 0..n {
            if value[s].is_some() {
                continue;
            }
            let succ = graph.successors(s);
            let decided = if k % 2 == 1 {
                // Won in k: some successor is lost in k - 1.
                succ.iter()
                    .any(|&t| value[t] == Some(RefValue::Plies(k - 1)))
            } else {
                // Lost in k: every successor is won within k - 1, one in exactly k - 1.
                let won_within =
                    |t: usize| matches!(value[t], Some(RefValue::Plies(p)) if p % 2 == 1 && p < k);
                !succ.is_empty()
                    && succ.iter().all(|&t| won_within(t))
                    && succ
                        .iter()
                        .any(|&t| value[t] == Some(RefValue::Plies(k - 1)))
            };
            // Values written in this pass are k, which no test above accepts: updating in
            // place reads the previous pass only.
            if decided {
                value[s] = Some(RefValue::Plies(k));
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    let value: Vec<RefValue> = value
        .into_iter()
        .map(|v| v.unwrap_or(RefValue::Draw))
        .collect();
    check_consistent(graph, &value);
    value
}

/// The reference's own check: every state that is not over has the best of its successors'
/// values, seen from the mover one ply longer (quickest win, else draw, else slowest loss).
fn check_consistent(graph: &Graph, value: &[RefValue]) {
    for s in 0..graph.positions.len() {
        if graph.terminal[s].is_some() {
            continue;
        }
        let mut best_win: Option<u32> = None;
        let mut draw = false;
        let mut longest_loss: Option<u32> = None;
        for &t in graph.successors(s) {
            match value[t] {
                RefValue::Plies(p) if p % 2 == 0 => {
                    best_win = Some(best_win.map_or(p + 1, |b| b.min(p + 1)));
                }
                RefValue::Plies(p) => {
                    longest_loss = Some(longest_loss.map_or(p + 1, |l| l.max(p + 1)));
                }
                RefValue::Draw => draw = true,
                RefValue::CannotArise => panic!("a move reaches a position already won"),
            }
        }
        let best = match (best_win, draw, longest_loss) {
            (Some(w), _, _) => RefValue::Plies(w),
            (None, true, _) | (None, false, None) => RefValue::Draw,
            (None, false, Some(l)) => RefValue::Plies(l),
        };
        assert_eq!(value[s], best, "reference inconsistent at state {s}");
    }
}

/// Probes every state in the production tables; panics listing the first mismatches.
fn compare(game: &Morris, tb: &Tablebase<MorrisDomain>, graph: &Graph, value: &[RefValue]) {
    let mut mismatches = Vec::new();
    let mut count = 0usize;
    for (pos, &expected) in graph.positions.iter().zip(value) {
        let got = tb.probe(pos);
        let agree = match (expected, &got) {
            (RefValue::Draw, Ok(v)) => *v == Value::DRAW,
            (RefValue::Plies(p), Ok(v)) => *v == Value::decided(p),
            (RefValue::CannotArise, Err(ProbeError::CannotArise)) => true,
            _ => false,
        };
        if !agree {
            count += 1;
            if mismatches.len() < 10 {
                let got = match got {
                    Ok(v) => v.to_string(),
                    Err(e) => format!("error: {e}"),
                };
                mismatches.push(format!(
                    "{}: reference {expected:?}, production {got}",
                    game.fen(pos, 0)
                ));
            }
        }
    }
    assert!(
        count == 0,
        "{count} of {} states disagree, first ones:\n{}",
        graph.positions.len(),
        mismatches.join("\n")
    );
}

/// Counts of decided and drawn states, for the report.
fn summary(value: &[RefValue]) -> String {
    let wins = value
        .iter()
        .filter(|v| matches!(v, RefValue::Plies(p) if p % 2 == 1))
        .count();
    let losses = value
        .iter()
        .filter(|v| matches!(v, RefValue::Plies(p) if p % 2 == 0))
        .count();
    let draws = value.iter().filter(|v| **v == RefValue::Draw).count();
    let longest = value
        .iter()
        .filter_map(|v| match v {
            RefValue::Plies(p) => Some(*p),
            _ => None,
        })
        .max()
        .unwrap_or(0);
    format!(
        "{} states: {wins} won, {losses} lost, {draws} drawn, longest {longest} plies",
        value.len()
    )
}

/// Builds the graph from `roots`, solves it both ways and compares; returns the graph and
/// the reference values.
fn check(id: &str, roots: &[MorrisPosition], targets: &[MorrisKey]) -> (Graph, Vec<RefValue>) {
    check_game(id, Morris::preset(id).unwrap(), roots, targets)
}

/// [`check`] for `game`, called `id` in the report.
fn check_game(
    id: &str,
    game: Morris,
    roots: &[MorrisPosition],
    targets: &[MorrisKey],
) -> (Graph, Vec<RefValue>) {
    let started = Instant::now();
    let graph = build_graph(&game, roots);
    let built = started.elapsed();
    let value = solve_reference(&graph);
    let reference = started.elapsed();
    println!(
        "{id}: reference graph {:.1} s, values {:.1} s; {} successor links; {}",
        built.as_secs_f64(),
        (reference - built).as_secs_f64(),
        graph.successors.len(),
        summary(&value)
    );

    let dir = tempfile::tempdir().unwrap();
    let report = solve(
        MorrisDomain::new(game).unwrap(),
        dir.path(),
        targets,
        &SolveOptions::default(),
    )
    .unwrap();
    let tb = Tablebase::open(MorrisDomain::new(game).unwrap(), dir.path()).unwrap();
    let produced = started.elapsed();
    compare(&game, &tb, &graph, &value);
    println!(
        "{id}: production {:.1} s ({} subspaces), comparison {:.1} s",
        (produced - reference).as_secs_f64(),
        report.subspaces.len(),
        (started.elapsed() - produced).as_secs_f64()
    );
    (graph, value)
}

#[test]
fn three_mens_morris_whole_game_matches_the_reference() {
    let game = Morris::preset("three_mens_morris").unwrap();
    let start = game.start_position();
    let target = MorrisDomain::new(game).unwrap().start_key();
    let (graph, value) = check("three_mens_morris", &[start], &[target]);
    assert_eq!(graph.positions[0], start);
    // The README's figures: the first player wins in 9 plies, and the graph holds every
    // position reachable from the start (the tables agree on each, `compare` above).
    assert_eq!(value[0], RefValue::Plies(9));
    assert_eq!(graph.positions.len(), 5_390);
}

/// Every set of `low..=high` points of `board`.
fn point_sets(points: Bitboard, low: u32, high: u32) -> Vec<Bitboard> {
    let all: Vec<u8> = points.indices().collect();
    (0u32..1 << all.len())
        .filter(|m| (low..=high).contains(&m.count_ones()))
        .map(|m| {
            let mut set = Bitboard::EMPTY;
            for (bit, &p) in all.iter().enumerate() {
                if m >> bit & 1 == 1 {
                    set = Bitboard(set.0 | Bitboard::from_index(p).0);
                }
            }
            set
        })
        .collect()
}

/// Every moving-phase position with `low..=high` men of each side on the board, either side
/// to move.
fn moving_roots(game: &Morris, low: u32, high: u32) -> Vec<MorrisPosition> {
    let sets = point_sets(game.board().all_points(), low, high);
    let mut roots = Vec::new();
    for &white in &sets {
        for &black in &sets {
            if white.intersects(black) {
                continue;
            }
            for side in [Color::White, Color::Black] {
                roots.push(MorrisPosition::from_parts_unchecked(
                    white, black, 0, 0, side,
                ));
            }
        }
    }
    roots
}

#[test]
fn six_mens_morris_moving_phase_matches_the_reference() {
    let game = Morris::preset("six_mens_morris").unwrap();
    let roots = moving_roots(&game, 3, 4);
    let targets: Vec<MorrisKey> = (3..=4)
        .flat_map(|a| (3..=4).map(move |b| MorrisKey::moving(a, b)))
        .collect();
    let (graph, _) = check("six_mens_morris", &roots, &targets);
    println!(
        "six_mens_morris: {} roots, {} states in all",
        roots.len(),
        graph.positions.len()
    );
}

#[test]
#[ignore = "minutes and gigabytes in a debug build (5.4 million states with flying moves): scripts/test.sh runs it in a release build"]
fn nine_mens_morris_three_against_three_matches_the_reference() {
    let game = Morris::preset("nine_mens_morris").unwrap();
    let roots = moving_roots(&game, 3, 3);
    let (graph, _) = check("nine_mens_morris", &roots, &[MorrisKey::moving(3, 3)]);
    println!(
        "nine_mens_morris: {} roots, {} states in all",
        roots.len(),
        graph.positions.len()
    );
}

/// Memories seen in the graph: states with a memory of the side to move, of the other side,
/// and of both.
fn memories(graph: &Graph) -> (usize, usize, usize) {
    let mut counts = (0, 0, 0);
    for pos in &graph.positions {
        let us = pos.side_to_move();
        let (m, o) = (pos.barrier(us).is_some(), pos.barrier(!us).is_some());
        counts.0 += usize::from(m);
        counts.1 += usize::from(o);
        counts.2 += usize::from(m && o);
    }
    counts
}

/// Reports the memories `graph` holds (built from `roots` roots for `id`) and checks that
/// it holds memories of the mover, of the other side, and of both.
fn assert_memories_seen(id: &str, roots: usize, graph: &Graph) {
    let (m, o, both) = memories(graph);
    println!(
        "{id}: {roots} roots, {} states in all; memories of the mover {m}, of the other side \
         {o}, of both {both}",
        graph.positions.len()
    );
    assert!(m > 0 && o > 0 && both > 0);
}

/// Six Men's Morris without re-forming in the moving phase, from `low` to `high` men a side,
/// sliding or (`flying`) flying with three men, taking men by `removal`.
fn six_mens_morris_without_re_forming(flying: &str, removal: &str, low: u8, high: u8) {
    let rules_with = |removal: &str| {
        let mut rules = MorrisRules::preset("six_mens_morris").unwrap().rules;
        rules.set("no_reforming", "true").unwrap();
        rules.set("flying", flying).unwrap();
        rules.set("removal", removal).unwrap();
        Morris::new(rules).unwrap()
    };
    let game = rules_with(removal);
    let roots = moving_roots(&game, u32::from(low), u32::from(high));
    let targets: Vec<MorrisKey> = (low..=high)
        .flat_map(|a| (low..=high).map(move |b| MorrisKey::moving(a, b)))
        .collect();
    let id = format!("six_mens_morris no_reforming flying={flying} removal={removal}");
    let (graph, value) = check_game(&id, game, &roots, &targets);
    assert_memories_seen(&id, roots.len(), &graph);
    if removal != "standard" {
        let changed = roots_valued_otherwise(&rules_with("standard"), &roots, &value);
        println!("{id}: {changed} roots valued otherwise than under removal=standard");
        assert!(
            changed > 0,
            "the removal rule changes no value here: a weak check"
        );
    }
}

/// How many of `roots` the reference values otherwise under `game` than `value` (the
/// reference values of a graph built from the same roots, which hold its first ids).
fn roots_valued_otherwise(game: &Morris, roots: &[MorrisPosition], value: &[RefValue]) -> usize {
    let graph = build_graph(game, roots);
    let other = solve_reference(&graph);
    assert_eq!(&graph.positions[..roots.len()], roots, "roots come first");
    (0..roots.len()).filter(|&i| other[i] != value[i]).count()
}

#[test]
fn six_mens_morris_without_re_forming_matches_the_reference() {
    six_mens_morris_without_re_forming("none", "standard", 3, 4);
}

/// Mill immunity: a man in a mill is never taken, and a mill closed against men that all
/// stand in mills takes nothing.
#[test]
fn six_mens_morris_without_re_forming_with_mill_immunity_matches_the_reference() {
    six_mens_morris_without_re_forming("none", "mill_immunity", 3, 4);
}

/// Sliding on 16 points, a man never fills the point the other side's memory names (all of its
/// neighbours are that side's men: no point has four lines); flying, it can.
#[test]
fn six_mens_morris_without_re_forming_flying_matches_the_reference() {
    six_mens_morris_without_re_forming("3", "standard", 3, 3);
}

/// The rules that forbid re-forming a mill on the 24-point board, moving phase 3-3: every
/// position with three men a side, either side to move, and every memory play reaches from
/// them; with `removal`, the preset's own rule for taking men replaced.
fn three_against_three_without_re_forming(id: &str, removal: Option<&str>) {
    let preset = Morris::preset(id).unwrap();
    assert!(preset.rules().no_reforming);
    let game = match removal {
        Some(removal) => {
            let mut rules = *preset.rules();
            rules.set("removal", removal).unwrap();
            Morris::new(rules).unwrap()
        }
        None => preset,
    };
    let name = format!("{id} removal={}", removal.unwrap_or("(the preset's)"));
    let roots = moving_roots(&game, 3, 3);
    let (graph, value) = check_game(&name, game, &roots, &[MorrisKey::moving(3, 3)]);
    assert_memories_seen(&name, roots.len(), &graph);
    if removal.is_some() {
        let changed = roots_valued_otherwise(&preset, &roots, &value);
        println!("{name}: {changed} roots valued otherwise than under the preset's rule");
        assert!(
            changed > 0,
            "the removal rule changes no value here: a weak check"
        );
    }
}

/// About 25 s: 5.4 million roots, 5.7 million states.
#[test]
fn nine_mens_morris_no_flying_three_against_three_matches_the_reference() {
    three_against_three_without_re_forming("nine_mens_morris_no_flying", None);
}

/// The twelve-man sheet's nine-man variation read literally, 3-3: the diagonal lines to move
/// along and no mills on them (a board whose lines are not all mills, with its memories).
#[test]
fn nine_mens_morris_with_diagonal_moves_three_against_three_matches_the_reference() {
    let mut rules = *Morris::preset("nine_mens_morris_no_flying")
        .unwrap()
        .rules();
    rules.set("diagonals", "true").unwrap();
    rules.set("diagonal_mills", "false").unwrap();
    let game = Morris::new(rules).unwrap();
    let roots = moving_roots(&game, 3, 3);
    let id = "nine_mens_morris_no_flying diagonals=true diagonal_mills=false";
    let (graph, value) = check_game(id, game, &roots, &[MorrisKey::moving(3, 3)]);
    assert_memories_seen(id, roots.len(), &graph);
    let changed = roots_valued_otherwise(
        &Morris::preset("nine_mens_morris_no_flying").unwrap(),
        &roots,
        &value,
    );
    println!(
        "{id}: {changed} of {} roots valued otherwise than without the diagonals",
        roots.len()
    );
    assert!(
        changed > 0,
        "the diagonal moves change no value here: a weak check"
    );
}

#[test]
#[ignore = "minutes in a debug build (the same rules with the diagonal lines): scripts/test.sh runs it in a release build"]
fn twelve_mens_morris_three_against_three_matches_the_reference() {
    three_against_three_without_re_forming("twelve_mens_morris", None);
}

/// The rule sheet's optional mill immunity, which the sheet's second build takes: with three
/// men a side, a side whose three men stand in a mill cannot be taken from.
#[test]
#[ignore = "minutes in a debug build (the same 3-3 graph twice, with and without mill immunity): scripts/test.sh runs it in a release build"]
fn twelve_mens_morris_with_mill_immunity_three_against_three_matches_the_reference() {
    three_against_three_without_re_forming("twelve_mens_morris", Some("mill_immunity"));
}

/// How many positions that both graphs hold the two reference solutions value otherwise.
fn common_positions_valued_otherwise(
    graph: &Graph,
    value: &[RefValue],
    other_graph: &Graph,
    other: &[RefValue],
) -> usize {
    let of: HashMap<u128, RefValue> = other_graph
        .positions
        .iter()
        .map(key)
        .zip(other.iter().copied())
        .collect();
    graph
        .positions
        .iter()
        .zip(value)
        .filter(|(pos, v)| of.get(&key(pos)).is_some_and(|o| o != *v))
        .count()
}

/// Six Men's Morris with `men` a side, `capture` compulsory or optional (where every mill may
/// also take nothing, a quiet turn that stays in its unit) and `no_reforming`.
fn six_mens_morris_rules(men: &str, capture: &str, no_reforming: bool) -> Morris {
    let mut rules = MorrisRules::preset("six_mens_morris").unwrap().rules;
    rules.set("men", men).unwrap();
    rules.set("capture", capture).unwrap();
    rules
        .set("no_reforming", &no_reforming.to_string())
        .unwrap();
    Morris::new(rules).unwrap()
}

/// The whole game, placement and all, on the 16-point board with four men a side and optional
/// capture. Declining matters here: a man left on the board can keep its own side blocked.
#[test]
fn four_mens_whole_game_with_optional_capture_matches_the_reference() {
    let game = six_mens_morris_rules("4", "optional", false);
    let start = game.start_position();
    let target = MorrisDomain::new(game).unwrap().start_key();
    let (graph, value) = check_game(
        "six_mens_morris men=4 capture=optional",
        game,
        &[start],
        &[target],
    );
    let compulsory = six_mens_morris_rules("4", "compulsory", false);
    let other_graph = build_graph(&compulsory, &[start]);
    let other = solve_reference(&other_graph);
    let changed = common_positions_valued_otherwise(&graph, &value, &other_graph, &other);
    println!(
        "six_mens_morris men=4: start {:?} with optional capture, {:?} with compulsory; \
         {changed} positions of both games valued otherwise",
        value[0], other[0]
    );
    assert!(
        changed > 0,
        "declining a capture changes no value here: a weak check"
    );
}

/// Optional capture with the no-re-forming memory, Six Men's Morris's moving phase with 3 and
/// 4 men a side. Declining revalues none of these positions (a capture of a three-man side
/// wins, and leaves a blocked four-man side blocked); the check is that the quiet turns that
/// decline, some of them breaking a mill, are all found backwards: one missed leaves its
/// position undecided.
#[test]
fn six_mens_morris_with_optional_capture_without_re_forming_matches_the_reference() {
    let game = six_mens_morris_rules("6", "optional", true);
    let roots = moving_roots(&game, 3, 4);
    let targets: Vec<MorrisKey> = (3..=4)
        .flat_map(|a| (3..=4).map(move |b| MorrisKey::moving(a, b)))
        .collect();
    let id = "six_mens_morris capture=optional no_reforming=true";
    let (graph, _) = check_game(id, game, &roots, &targets);
    assert_memories_seen(id, roots.len(), &graph);
}
