#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| perfectplay_fuzz_checks::records(data));
