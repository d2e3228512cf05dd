//! Replays every input kept under `fuzz/regressions/<target>/` (crashers the fuzzer found, and
//! seeds) through its target's checks.

use std::path::Path;

use perfectplay_fuzz_checks::TARGETS;

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
            check(&data);
            replayed += 1;
        }
    }
    assert!(replayed >= TARGETS.len());
}
