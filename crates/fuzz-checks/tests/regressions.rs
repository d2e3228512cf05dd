//! Replays every input kept under `fuzz/regressions/<target>/` (crashers the fuzzer found, and
//! seeds) through its target's checks.

use std::path::Path;

use perfectplay_fuzz_checks::{accepted_inputs, table_bytes, TableBytes, TARGETS};
use perfectplay_solver::Table;

#[test]
fn every_kept_input_passes_its_target() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fuzz/regressions");
    let mut replayed = 0;
    for (name, check) in TARGETS {
        let dir = root.join(name);
        let mut files: Vec<_> = std::fs::read_dir(&dir)
            .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
            .map(|entry| entry.expect("a directory entry").path())
            .collect();
        files.sort();
        assert!(!files.is_empty(), "no inputs for {name}");
        for file in files {
            let data = std::fs::read(&file).expect("a kept input");
            eprintln!("{name}: {}", file.display());
            let before = accepted_inputs();
            check(&data);
            // A seed is an input its reader takes, so that its checks run in full; what the
            // fuzzer found (crashers, refusals) may be refused.
            let is_seed = file
                .file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with("seed"));
            assert!(
                !is_seed || accepted_inputs() > before,
                "{}: a seed its reader refused",
                file.display()
            );
            replayed += 1;
        }
    }
    assert!(replayed >= TARGETS.len());
}

/// The table target reads bytes in memory; a file of the same bytes, mapped, reads the same:
/// the same header and every value alike, or the same refusal.
#[test]
fn kept_tables_open_from_files_as_from_memory() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fuzz/regressions/table");
    let tmp = std::env::temp_dir().join(format!("perfectplay-fuzz-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).expect("a temporary directory");
    let mut opened = 0;
    for entry in std::fs::read_dir(&dir).expect("the kept tables") {
        let path = entry.expect("a directory entry").path();
        let data = std::fs::read(&path).expect("a kept input");
        // As the target reads it: mode 1's header with its checksums written.
        let Some(bytes) = table_bytes(&data).map(TableBytes::into_bytes) else {
            continue;
        };
        let file = tmp.join(path.file_name().expect("a file name"));
        std::fs::write(&file, &bytes).expect("a temporary table");
        let mapped = Table::open(&file, None);
        let owned = Table::from_vec(&file, bytes, None);
        match (mapped, owned) {
            (Ok(a), Ok(b)) => {
                assert_eq!(a.header(), b.header(), "{}", path.display());
                for index in 0..=a.positions() {
                    assert_eq!(
                        a.value(index).ok(),
                        b.value(index).ok(),
                        "{} at {index}",
                        path.display()
                    );
                }
                opened += 1;
            }
            (Err(a), Err(b)) => assert_eq!(a.to_string(), b.to_string(), "{}", path.display()),
            (a, b) => panic!("{}: {a:?} mapped, {b:?} in memory", path.display()),
        }
    }
    std::fs::remove_dir_all(&tmp).expect("the temporary directory removed");
    // Every seed is a table that opens (the other test holds them to that).
    assert!(opened >= 6, "{opened} kept tables opened");
}
