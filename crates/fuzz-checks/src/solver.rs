//! The solver's readers: table files, checksum manifests, encoded rows and the placement
//! search's checkpoint files.

use std::path::Path;
use std::sync::OnceLock;

use perfectplay_core::checkers::Checkers;
use perfectplay_core::morris::Morris;
use perfectplay_core::Game;
use perfectplay_solver::checksums::{format_manifest, parse_manifest};
use perfectplay_solver::format::{encode_prefix, read_header};
use perfectplay_solver::morris::{MorrisDomain, PlacementSearch};
use perfectplay_solver::rows::{self, Row};
use perfectplay_solver::{Table, Tablebase};
use xxhash_rust::xxh3::xxh3_64;

/// Where the header's length sits in a table file, and where its header starts.
const HEADER_LEN_AT: usize = 12;
const HEADER_AT: usize = 16;

/// The first byte is a mode, the rest a table file. Mode 0 reads the bytes as they are. Mode 1
/// first writes the right header checksum, which the fuzzer could not find, so that the header
/// itself is read; a header that reads is written again with the payload's checksum, and that
/// table must open. A table that opens reads every value, reads no index past its end, and
/// writes back to the same header.
pub fn table(data: &[u8]) {
    let path = Path::new("fuzz.ppdb");
    match table_bytes(data) {
        Some(TableBytes::Fixed(bytes)) => {
            let table = Table::from_vec(path, bytes, None)
                .unwrap_or_else(|e| panic!("a table written from a header that read: {e}"));
            check_table(&table);
        }
        Some(TableBytes::AsGiven(bytes)) => {
            if let Ok(table) = Table::from_vec(path, bytes, None) {
                check_table(&table);
            }
        }
        None => {}
    }
}

/// The file [`table`] reads from an input, by its mode.
pub enum TableBytes {
    /// Mode 0: the bytes as they are, which may be refused.
    AsGiven(Vec<u8>),
    /// Mode 1: a header that read, written again with its checksums: a table that must open.
    Fixed(Vec<u8>),
}

impl TableBytes {
    /// The bytes of the file.
    #[must_use]
    pub fn into_bytes(self) -> Vec<u8> {
        match self {
            TableBytes::AsGiven(bytes) | TableBytes::Fixed(bytes) => bytes,
        }
    }
}

/// The file an input of [`table`] stands for; `None` for an empty input, or one of mode 1
/// whose header does not read even with its checksum written.
#[must_use]
pub fn table_bytes(data: &[u8]) -> Option<TableBytes> {
    let (&mode, bytes) = data.split_first()?;
    let mut bytes = bytes.to_vec();
    if mode & 1 == 0 {
        return Some(TableBytes::AsGiven(bytes));
    }
    fix_header_checksum(&mut bytes);
    let (mut header, offset) = read_header(Path::new("fuzz.ppdb"), &bytes, None).ok()?;
    let payload = &bytes[offset..];
    header.payload_checksum = xxh3_64(payload);
    let mut rewritten = encode_prefix(&header).expect("a header that was read encodes");
    rewritten.extend_from_slice(payload);
    Some(TableBytes::Fixed(rewritten))
}

fn fix_header_checksum(bytes: &mut [u8]) {
    let Some(len) = bytes.get(HEADER_LEN_AT..HEADER_AT) else {
        return;
    };
    let len = u32::from_le_bytes(len.try_into().expect("4 bytes")) as usize;
    let end = HEADER_AT.saturating_add(len);
    if let Some(encoded) = bytes.get(HEADER_AT..end) {
        let sum = xxh3_64(encoded).to_le_bytes();
        if let Some(slot) = bytes.get_mut(end..end + 8) {
            slot.copy_from_slice(&sum);
        }
    }
}

fn check_table(table: &Table) {
    crate::accepted();
    let header = table.header();
    assert_eq!(
        table.payload().len() as u64,
        header.encoding.payload_len(header.positions)
    );
    for index in 0..table.positions() {
        if let Err(e) = table.value(index) {
            panic!("index {index} of {}: {e}", table.positions());
        }
    }
    assert!(table.value(table.positions()).is_err());
    let mut again = encode_prefix(header).expect("the header encodes");
    again.extend_from_slice(table.payload());
    let reread = Table::from_vec(table.path(), again, None).expect("the table written again");
    assert_eq!(reread.header(), header);
}

/// A manifest's text: one that reads writes back to text that reads the same, lists each
/// file once, and names only files of its own directory.
pub fn checksums(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(entries) = parse_manifest(text) else {
        return;
    };
    crate::accepted();
    let written = format_manifest(&entries);
    assert_eq!(parse_manifest(&written).as_ref(), Ok(&entries), "{written}");
    for (i, e) in entries.iter().enumerate() {
        assert!(
            Path::new(&e.file).file_name() == Some(e.file.as_ref()),
            "{:?} is not a plain file name",
            e.file
        );
        assert!(entries[..i].iter().all(|other| other.file != e.file));
        assert_eq!(e.digest.len(), 64);
        assert!(e
            .digest
            .bytes()
            .all(|b| b.is_ascii_digit() || b.is_ascii_lowercase()));
    }
}

/// The first byte picks checkers or a morris rule set, the next sixteen are a row (short input
/// padded with zeros). A row that decodes is a valid position and encodes back to itself.
pub fn probe_rows(data: &[u8]) {
    let Some((&selector, rest)) = data.split_first() else {
        return;
    };
    let mut bytes = [0u8; 16];
    let n = rest.len().min(16);
    bytes[..n].copy_from_slice(&rest[..n]);
    let row: Row = std::array::from_fn(|i| {
        u32::from_le_bytes(bytes[4 * i..4 * i + 4].try_into().expect("4 bytes"))
    });
    if selector % 7 == 0 {
        let game = Checkers::default();
        if let Ok(pos) = rows::decode_checkers(&game, &row) {
            crate::accepted();
            assert_eq!(rows::encode_checkers(&game, &pos), row);
            game.for_each_move(&pos, |_| {});
        }
    } else {
        let game = crate::morris_game(selector % 7 - 1);
        if let Ok(pos) = rows::decode_morris(&game, &row) {
            crate::accepted();
            assert_eq!(rows::encode_morris(&game, &pos), Ok(row));
            game.validate(&pos).expect("a decoded row is valid");
            game.for_each_move(&pos, |_| {});
        }
    }
}

/// The first byte is a mode, the rest a placement search's checkpoint file (`search
/// --checkpoint`), read into a search of Three Men's Morris: of 16 entries (bit 1 of the mode
/// clear, the size of the kept seeds) or 32 (set: the file's entries are stored again). Bit 0
/// set first writes the header's and the entries' checksums, which the fuzzer could not find.
/// A file that is refused leaves the table empty; one that reads fills no more entries than
/// the table has, and is saved again to a file that reads back to the same entries and history.
pub fn search_table(data: &[u8]) {
    let Some((&mode, bytes)) = data.split_first() else {
        return;
    };
    let mut bytes = bytes.to_vec();
    if mode & 1 == 1 {
        fix_search_table_checksums(&mut bytes);
    }
    // Made once: building the domain's index costs far more than reading a small file.
    static TABLES: OnceLock<Tablebase<MorrisDomain>> = OnceLock::new();
    let tb = TABLES.get_or_init(|| {
        let game = Morris::preset("three_mens_morris").expect("a preset");
        Tablebase::new(MorrisDomain::new(game).expect("a domain"))
    });
    let bits = if mode & 2 == 0 { 4 } else { 5 };
    let search = PlacementSearch::new(tb, bits).expect("a table of 16 or 32 entries");
    let scratch =
        std::env::temp_dir().join(format!("perfectplay-fuzz-search-{}.tt", std::process::id()));
    std::fs::write(&scratch, &bytes).expect("a scratch file");
    let loaded = search.load_table(&scratch);
    let _ = std::fs::remove_file(&scratch);
    let Ok(history) = loaded else {
        assert_eq!(
            search.table_entries_used(),
            0,
            "a refused file left entries"
        );
        return;
    };
    crate::accepted();
    let used = search.table_entries_used();
    assert!(
        used <= 1 << bits,
        "{used} entries in a table of {}",
        1 << bits
    );
    search
        .save_table(&scratch, &history)
        .expect("a table that was read is saved");
    let again = PlacementSearch::new(tb, bits).expect("a table of 16 or 32 entries");
    let reread = again.load_table(&scratch);
    let _ = std::fs::remove_file(&scratch);
    let reread = reread.expect("a saved table reads back");
    // Debug text, so that a NaN of seconds read from the file compares equal to itself.
    assert_eq!(format!("{reread:?}"), format!("{history:?}"));
    assert_eq!(again.table_entries_used(), used);
}

/// Writes the checksums of a checkpoint file's header and entries where they belong, as far
/// as its own header length says where that is.
fn fix_search_table_checksums(bytes: &mut [u8]) {
    fix_header_checksum(bytes);
    let Some(len) = bytes.get(HEADER_LEN_AT..HEADER_AT) else {
        return;
    };
    let len = u32::from_le_bytes(len.try_into().expect("4 bytes")) as usize;
    // The entries start at the first multiple of 64 after the header and its checksum; the
    // last eight bytes are their checksum.
    let entries_at = HEADER_AT
        .saturating_add(len)
        .saturating_add(8)
        .next_multiple_of(64);
    if bytes.len() >= entries_at.saturating_add(8) {
        let (body, trailer) = bytes.split_at_mut(bytes.len() - 8);
        trailer.copy_from_slice(&xxh3_64(&body[entries_at..]).to_le_bytes());
    }
}
