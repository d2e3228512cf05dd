//! The standard output of a command whose point is a check (`verify`, `info`, `positions`,
//! `perft --check`): a reader that stops reading early (`| head`) must not turn a failed check
//! into success.
//!
//! Other commands end quietly, with status 0, at the first write to a closed pipe, as `yes |
//! head` does. A check does not: once the pipe is closed its lines are dropped, it runs on to
//! its verdict, and a failure is still exit status 1.

use std::io::{self, Write};

/// A writer that drops everything after its first broken pipe, passing other errors on.
pub(crate) struct CheckOutput<'a> {
    out: &'a mut dyn Write,
    closed: bool,
}

impl<'a> CheckOutput<'a> {
    pub(crate) fn new(out: &'a mut dyn Write) -> Self {
        CheckOutput { out, closed: false }
    }

    /// `result` of a write, with a broken pipe recorded and taken as written.
    fn absorb<T>(&mut self, result: io::Result<T>, written: T) -> io::Result<T> {
        match result {
            Err(e) if e.kind() == io::ErrorKind::BrokenPipe => {
                self.closed = true;
                Ok(written)
            }
            other => other,
        }
    }
}

impl Write for CheckOutput<'_> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        if self.closed {
            return Ok(buf.len());
        }
        let result = self.out.write(buf);
        self.absorb(result, buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        if self.closed {
            return Ok(());
        }
        let result = self.out.flush();
        self.absorb(result, ())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A pipe whose reader leaves after `room` bytes.
    struct ClosingPipe {
        room: usize,
        written: Vec<u8>,
    }

    impl Write for ClosingPipe {
        fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
            if self.written.len() + buf.len() > self.room {
                return Err(io::Error::from(io::ErrorKind::BrokenPipe));
            }
            self.written.extend_from_slice(buf);
            Ok(buf.len())
        }

        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn lines_after_a_broken_pipe_are_dropped_without_error() {
        let mut pipe = ClosingPipe {
            room: 8,
            written: Vec::new(),
        };
        let mut out = CheckOutput::new(&mut pipe);
        writeln!(out, "first").unwrap();
        writeln!(out, "second, too long").unwrap();
        writeln!(out, "x").unwrap();
        out.flush().unwrap();
        assert!(out.closed);
        assert_eq!(pipe.written, b"first\n");
    }

    #[test]
    fn other_errors_are_passed_on() {
        struct Full;
        impl Write for Full {
            fn write(&mut self, _: &[u8]) -> io::Result<usize> {
                Err(io::Error::from(io::ErrorKind::StorageFull))
            }
            fn flush(&mut self) -> io::Result<()> {
                Ok(())
            }
        }
        let mut full = Full;
        let mut out = CheckOutput::new(&mut full);
        let err = writeln!(out, "line").unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::StorageFull);
        assert!(!out.closed);
    }
}
