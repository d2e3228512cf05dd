"""The ``perfectplay`` command-line tool from the Python package: ``python -m perfectplay``
and the ``perfectplay`` console script run the same Rust program as the binary built by
cargo (``crates/cli``), in this process.

Ctrl-C: while the tool runs, Python's own handler (which raises ``KeyboardInterrupt`` only
when Python code runs) is put back to the system's default, so an interrupt does what it does
to the binary: ``solve`` and ``search --checkpoint`` catch it, save the unit or the search under way and
exit with 130 (SIGTERM: 143); other commands end at once. Builds write each table under a
temporary name and rename it when complete, so a stopped build leaves no half table and a
rerun resumes.
"""

from __future__ import annotations

import signal
import sys
import threading
from typing import List, Optional

from perfectplay._core import _cli_main


def main(argv: Optional[List[str]] = None) -> int:
    """Runs the tool on ``argv`` (default: the command line's arguments) and exits with its
    status when called as a script; returns the status otherwise. Called from a thread other
    than the main one, it leaves the signal handlers as they are (only the main thread may
    change them)."""
    arguments = sys.argv[1:] if argv is None else list(argv)
    # The tool writes to the process's file descriptors: what Python buffered goes first.
    sys.stdout.flush()
    sys.stderr.flush()
    # Only the main thread may set handlers; elsewhere Ctrl-C reaches the main thread anyway.
    if threading.current_thread() is not threading.main_thread():
        return int(_cli_main(["perfectplay", *arguments]))
    previous = signal.signal(signal.SIGINT, signal.SIG_DFL)
    try:
        return int(_cli_main(["perfectplay", *arguments]))
    finally:
        signal.signal(signal.SIGINT, previous)


def _console_script() -> None:
    sys.exit(main())


if __name__ == "__main__":
    _console_script()
