//! Compressed tables answer as the plain tables they came from: probes one by one and batched,
//! results only, best moves, verification, a build reading compressed tables through its
//! exits; and damage anywhere in a compressed file is refused, never read as a value.

use std::path::Path;

use perfectplay_core::checkers::Checkers;
use perfectplay_core::morris::Morris;
use perfectplay_core::Game;
use perfectplay_solver::checkers::CheckersDomain;
use perfectplay_solver::morris::{MorrisDomain, MorrisKey};
use perfectplay_solver::{
    compress_table, compress_tables, inflate, solve, verify, verify_against, verify_within,
    CompressedTable, DbError, Domain, SolveError, SolveOptions, Table, Tablebase,
};

fn checkers() -> CheckersDomain {
    CheckersDomain::new(Checkers::default())
}

fn morris() -> MorrisDomain {
    MorrisDomain::new(Morris::preset("nine_mens_morris").unwrap()).unwrap()
}

/// Nine Men's Morris's 3-3 and 4-3 tables, solved into a new directory.
fn nine_mens_morris_3_3_and_4_3() -> tempfile::TempDir {
    let plain = tempfile::tempdir().unwrap();
    let keys = [MorrisKey::moving(3, 3), MorrisKey::moving(4, 3)];
    solve(morris(), plain.path(), &keys, &SolveOptions::default()).unwrap();
    plain
}

/// Every table of `plain` (opened with `domain`) compressed into `out`.
fn compress_all<D: Domain>(
    domain: D,
    plain: &Path,
    out: &Path,
    distances: bool,
) -> Vec<CompressedTable> {
    let tb = Tablebase::open(domain, plain).unwrap();
    tb.available()
        .into_iter()
        .map(|(key, path)| {
            let table = Table::open(&path, Some(&tb.expected(key))).unwrap();
            compress_table(tb.domain(), key, &table, out, distances).unwrap()
        })
        .collect()
}

/// A spread of positions of every table of `tb`: the first and last indices and a stride.
fn sample<D: Domain>(tb: &Tablebase<D>, per_table: u64) -> Vec<<D::Game as Game>::Position> {
    let mut out = Vec::new();
    for (key, _) in tb.available() {
        let size = tb.domain().size(key);
        let step = (size / per_table).max(1);
        for index in (0..size).step_by(step as usize).chain([size - 1]) {
            out.push(tb.domain().unrank(key, index));
        }
    }
    out
}

/// `compressed` answers every position of `positions` as `plain` does, one by one and in a
/// batch (with distances where `distances`, else results only); `results` (the compressed set
/// read for results only) gives the same results.
fn same_answers<D: Domain>(
    plain: &Tablebase<D>,
    compressed: &Tablebase<D>,
    results: &Tablebase<D>,
    positions: &[<D::Game as Game>::Position],
    distances: bool,
) where
    <D::Game as Game>::Position: std::fmt::Debug,
{
    let batch = compressed.probe_batch(positions);
    let batch_results = results.probe_batch(positions);
    let strip = |v: Option<perfectplay_solver::Value>| {
        v.map(|v| {
            if distances {
                v
            } else {
                perfectplay_solver::Value::wdl_only(v.wdl)
            }
        })
    };
    for (i, pos) in positions.iter().enumerate() {
        let want = strip(plain.probe(pos).ok());
        assert_eq!(compressed.probe(pos).ok(), want, "{pos:?}");
        assert_eq!(batch[i].as_ref().ok().copied(), want, "{pos:?}");
        let want_wdl = want.map(|v| v.wdl);
        assert_eq!(results.probe(pos).ok().map(|v| v.wdl), want_wdl, "{pos:?}");
        assert_eq!(
            batch_results[i].as_ref().ok().map(|v| v.wdl),
            want_wdl,
            "{pos:?}"
        );
    }
}

#[test]
fn checkers_to_four_pieces_compressed_answer_as_plain_and_verify() {
    let plain = tempfile::tempdir().unwrap();
    let d = checkers();
    solve(
        checkers(),
        plain.path(),
        &d.keys_up_to(4),
        &SolveOptions::default(),
    )
    .unwrap();
    let packed = tempfile::tempdir().unwrap();
    let report = compress_all(checkers(), plain.path(), packed.path(), true);
    let omitted: u64 = report.iter().map(|t| t.omitted).sum();
    let positions: u64 = report.iter().map(|t| t.positions).sum();
    assert!(
        omitted > positions / 10,
        "captures are left out: {omitted} of {positions}"
    );
    let plain_bytes: u64 = report.iter().map(|t| t.source_bytes).sum();
    let wdl_bytes: u64 = report.iter().map(|t| t.wdl.1).sum();
    assert!(wdl_bytes * 8 < plain_bytes, "{wdl_bytes} of {plain_bytes}");

    let plain_tb = Tablebase::open(checkers(), plain.path()).unwrap();
    let tb = Tablebase::open(checkers(), packed.path()).unwrap();
    let results = Tablebase::open(checkers(), packed.path())
        .unwrap()
        .results_only();
    let positions = sample(&plain_tb, 300);
    same_answers(&plain_tb, &tb, &results, &positions, true);
    for pos in positions.iter().step_by(97) {
        assert_eq!(tb.best_moves(pos).ok(), plain_tb.best_moves(pos).ok());
    }
    for set in [&tb, &results] {
        let check = verify(set, None, None, &|_, _| {}).unwrap();
        assert!(
            check.passed(),
            "{:?}",
            check.tables.iter().find(|t| t.mismatches > 0)
        );
        // The same against the plain set, left-out positions searched.
        let check = verify_against(set, &plain_tb, None, None, &|_, _| {}).unwrap();
        assert!(
            check.passed() && check.tables.len() > 100,
            "{} tables, {:?}",
            check.tables.len(),
            check.tables.iter().find(|t| t.mismatches > 0)
        );
    }
}

#[test]
fn a_build_reads_compressed_tables_through_its_exits() {
    let d = checkers();
    let plain = tempfile::tempdir().unwrap();
    solve(
        checkers(),
        plain.path(),
        &d.keys_up_to(4),
        &SolveOptions::default(),
    )
    .unwrap();
    let small = tempfile::tempdir().unwrap();
    solve(
        checkers(),
        small.path(),
        &d.keys_up_to(3),
        &SolveOptions::default(),
    )
    .unwrap();
    let mixed = tempfile::tempdir().unwrap();
    compress_all(checkers(), small.path(), mixed.path(), true);
    let report = solve(
        checkers(),
        mixed.path(),
        &d.keys_up_to(4),
        &SolveOptions::default(),
    )
    .unwrap();
    let mut built = 0;
    for sub in report.subspaces.iter().filter(|s| !s.kept) {
        let name = sub.path.file_name().unwrap();
        assert_eq!(
            std::fs::read(&sub.path).unwrap(),
            std::fs::read(plain.path().join(name)).unwrap(),
            "{name:?}"
        );
        built += 1;
    }
    assert!(built > 100, "{built} four-piece tables built");
}

#[test]
fn morris_tables_compressed_answer_as_plain() {
    let plain = tempfile::tempdir().unwrap();
    let keys = [MorrisKey::moving(4, 3)];
    solve(morris(), plain.path(), &keys, &SolveOptions::default()).unwrap();
    for distances in [true, false] {
        let packed = tempfile::tempdir().unwrap();
        compress_all(morris(), plain.path(), packed.path(), distances);
        let plain_tb = Tablebase::open(morris(), plain.path()).unwrap();
        let tb = Tablebase::open(morris(), packed.path()).unwrap();
        let results = Tablebase::open(morris(), packed.path())
            .unwrap()
            .results_only();
        let positions = sample(&plain_tb, 2000);
        same_answers(&plain_tb, &tb, &results, &positions, distances);
        let check = verify(&tb, None, None, &|_, _| {}).unwrap();
        assert!(check.passed());
    }
}

#[test]
fn compressing_over_tables_of_another_game_is_refused_and_writes_nothing() {
    let plain = nine_mens_morris_3_3_and_4_3();
    let keys = [MorrisKey::moving(3, 3), MorrisKey::moving(4, 3)];
    let out = tempfile::tempdir().unwrap();
    let twelve = || MorrisDomain::new(Morris::preset("twelve_mens_morris").unwrap()).unwrap();
    // Another game's 4-3, not the first table the run would write: nothing at all is written.
    solve(twelve(), out.path(), &keys, &SolveOptions::default()).unwrap();
    let listing = |dir: &Path| {
        // Tables and checkpoints, not the build lock (which names its holder).
        let mut files: Vec<_> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|path| !path.file_name().unwrap().to_string_lossy().starts_with('.'))
            .map(|path| (path.clone(), std::fs::read(path).unwrap()))
            .collect();
        files.sort();
        files
    };
    std::fs::remove_file(out.path().join("3-3.ppdb")).unwrap();
    let before = listing(out.path());
    let tb = Tablebase::open(morris(), plain.path()).unwrap();
    let err = compress_tables(&tb, None, out.path(), true, None, &|_, _| {}).unwrap_err();
    assert!(
        matches!(err, SolveError::ForeignTable(DbError::Mismatch { .. })),
        "{err}"
    );
    assert!(
        err.to_string()
            .contains(".ppdb: game is `twelve_mens_morris`"),
        "{err}"
    );
    assert_eq!(listing(out.path()), before);
    // A damaged table of its own is named as the one being compressed.
    let bytes = std::fs::read(plain.path().join("4-3.ppdb")).unwrap();
    std::fs::write(plain.path().join("4-3.ppdb"), &bytes[..bytes.len() / 2]).unwrap();
    let empty = tempfile::tempdir().unwrap();
    let tb = Tablebase::open(morris(), plain.path()).unwrap();
    let err = compress_tables(&tb, None, empty.path(), true, None, &|_, _| {}).unwrap_err();
    assert!(
        err.to_string().starts_with("while compressing 4-3"),
        "{err}"
    );
}

#[test]
fn a_table_given_for_another_subspace_is_refused_by_compress_and_inflate() {
    let plain = nine_mens_morris_3_3_and_4_3();
    let tb = Tablebase::open(morris(), plain.path()).unwrap();
    let four_three = Table::open(&plain.path().join("4-3.ppdb"), None).unwrap();
    let out = tempfile::tempdir().unwrap();
    let err = compress_table(
        tb.domain(),
        MorrisKey::moving(3, 4),
        &four_three,
        out.path(),
        true,
    )
    .unwrap_err();
    assert!(
        matches!(
            &err,
            SolveError::Db(DbError::Mismatch {
                what: "subspace",
                ..
            })
        ),
        "{err}"
    );
    assert!(
        err.to_string()
            .contains("subspace is `4-3`, expected `3-4`"),
        "{err}"
    );
    assert_eq!(
        std::fs::read_dir(out.path()).unwrap().count(),
        0,
        "nothing written"
    );
    let err = inflate(&tb, MorrisKey::moving(3, 3), &four_three).unwrap_err();
    assert!(
        matches!(&err, SolveError::Db(DbError::Mismatch { .. })),
        "{err}"
    );
    // Its own key compresses.
    compress_table(
        tb.domain(),
        MorrisKey::moving(4, 3),
        &four_three,
        out.path(),
        true,
    )
    .unwrap();
}

#[test]
fn a_distance_file_of_another_form_is_refused() {
    let plain = nine_mens_morris_3_3_and_4_3();
    let packed = tempfile::tempdir().unwrap();
    compress_all(morris(), plain.path(), packed.path(), false);
    // A plain table, and a compressed table of results alone, each named as a distance file.
    for source in [
        plain.path().join("4-3.ppdb"),
        packed.path().join("4-3.ppdb"),
    ] {
        let dir = tempfile::tempdir().unwrap();
        let named = dir.path().join("4-3.ppdd");
        std::fs::copy(&source, &named).unwrap();
        let err = Table::open(&named, None).unwrap_err();
        assert!(
            err.to_string()
                .contains("a .ppdd file must be a compressed table of distances"),
            "{err}"
        );
    }
}

#[test]
fn compressed_bytes_do_not_depend_on_the_thread_count() {
    let plain = tempfile::tempdir().unwrap();
    solve(
        morris(),
        plain.path(),
        &[MorrisKey::moving(4, 3)],
        &SolveOptions::default(),
    )
    .unwrap();
    let mut files = Vec::new();
    for threads in [1, 3] {
        let out = tempfile::tempdir().unwrap();
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        pool.install(|| compress_all(morris(), plain.path(), out.path(), true));
        let mut names: Vec<_> = std::fs::read_dir(out.path())
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        names.sort();
        files.push(
            names
                .iter()
                .map(|p| std::fs::read(p).unwrap())
                .collect::<Vec<_>>(),
        );
        std::mem::forget(out);
    }
    assert_eq!(files[0], files[1]);
}

/// Flips one bit at each of many offsets of a compressed file: every flip is refused when the
/// file is opened or when the damaged frame is read, or changes no value read.
#[test]
fn a_flipped_bit_is_refused_or_harmless() {
    let d = checkers();
    let plain = tempfile::tempdir().unwrap();
    solve(
        checkers(),
        plain.path(),
        &d.keys_up_to(3),
        &SolveOptions::default(),
    )
    .unwrap();
    let packed = tempfile::tempdir().unwrap();
    let report = compress_all(checkers(), plain.path(), packed.path(), true);
    let tb = Tablebase::open(checkers(), packed.path()).unwrap();
    let largest = report
        .iter()
        .max_by_key(|t| t.distances.as_ref().unwrap().1)
        .unwrap();
    for path in [&largest.wdl.0, &largest.distances.as_ref().unwrap().0] {
        let key = d.parse_key(&largest.subspace).unwrap();
        let expected = tb.expected(key);
        let original = Table::open(path, Some(&expected)).unwrap();
        let values: Vec<_> = (0..original.positions())
            .map(|i| original.value(i).unwrap())
            .collect();
        let bytes = std::fs::read(path).unwrap();
        let damaged = packed.path().join("damaged.ppdb");
        let (mut refused, mut harmless) = (0, 0);
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        let offsets = (0..400).map(|_| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state % (bytes.len() as u64 * 8)
        });
        for bit in offsets.chain(0..64 * 8) {
            let mut copy = bytes.clone();
            copy[(bit / 8) as usize] ^= 1 << (bit % 8);
            std::fs::write(&damaged, &copy).unwrap();
            let Ok(table) = Table::open(&damaged, Some(&expected)) else {
                refused += 1;
                continue;
            };
            let read: Result<Vec<_>, _> = (0..table.positions()).map(|i| table.value(i)).collect();
            match read {
                Err(_) => refused += 1,
                Ok(read) => {
                    assert_eq!(read, values, "bit {bit} changed values");
                    harmless += 1;
                }
            }
        }
        assert!(refused > 300, "{refused} refused, {harmless} harmless");
    }
}

/// A results file that disagrees with the distance file beside it fails `verify`, though each
/// file is sound on its own: a probe for results must get the result of a probe for distances.
#[test]
fn verify_compares_the_results_file_with_the_distance_file() {
    use perfectplay_solver::compressed::{compress_values, CompressOptions};
    use perfectplay_solver::format::{encode_compressed_prefix, Encoding};

    let plain = tempfile::tempdir().unwrap();
    let key = MorrisKey::moving(4, 3);
    solve(morris(), plain.path(), &[key], &SolveOptions::default()).unwrap();
    let packed = tempfile::tempdir().unwrap();
    compress_all(morris(), plain.path(), packed.path(), true);
    let tb = Tablebase::open(morris(), packed.path()).unwrap();
    assert!(verify(&tb, None, None, &|_, _| {}).unwrap().passed());

    // The results file rewritten, soundly, with one win turned into a loss.
    let path = packed.path().join(format!("{key}.ppdb"));
    let results = Table::open(&path, None).unwrap();
    let mut codes = results.stored_values().unwrap();
    let changed = codes.iter().position(|&c| c == 1).unwrap();
    codes[changed] = 2;
    let parts = compress_values(
        &codes,
        Encoding::Wdl,
        CompressOptions::for_values(&codes, Encoding::Wdl),
    );
    let mut header = results.header().clone();
    header.payload_checksum = xxhash_rust::xxh3::xxh3_64(&codes);
    let mut layout = parts.layout;
    layout.omitted = results.omitted().map(str::to_owned);
    let prefix = encode_compressed_prefix(&header, &layout).unwrap();
    drop(results);
    std::fs::write(&path, [prefix, parts.index, parts.body].concat()).unwrap();

    let tb = Tablebase::open(morris(), packed.path()).unwrap();
    let plain_tb = Tablebase::open(morris(), plain.path()).unwrap();
    let against = verify_against(&tb, &plain_tb, None, None, &|_, _| {}).unwrap();
    assert_eq!(
        against.tables.iter().map(|t| t.mismatches).sum::<u64>(),
        1,
        "{against:?}"
    );
    let report = verify(&tb, None, None, &|_, _| {}).unwrap();
    // The same report with no table decoded into memory: every value read in place.
    let in_place = verify_within(&tb, None, None, 0, &|_, _| {}).unwrap();
    assert_eq!(report.tables, in_place.tables);
    let table = report
        .tables
        .iter()
        .find(|t| t.subspace == key.to_string())
        .unwrap();
    assert_eq!(table.mismatches, 1, "{table:?}");
    assert_eq!(report.tables.iter().map(|t| t.mismatches).sum::<u64>(), 1);
    let example = table.example.as_deref().unwrap();
    assert!(example.contains(&format!("index {changed}:")), "{example}");
    // Read for results only, the set is verified from the results file itself, which now fails.
    let results_only = Tablebase::open(morris(), packed.path())
        .unwrap()
        .results_only();
    let decoded = verify(&results_only, None, None, &|_, _| {}).unwrap();
    assert!(!decoded.passed());
    let in_place = verify_within(&results_only, None, None, 0, &|_, _| {}).unwrap();
    assert_eq!(decoded.tables, in_place.tables);
}
