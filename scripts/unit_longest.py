#!/usr/bin/env python3
"""The longest distance within a unit, in plies, from its unit-distance files.

    python3 scripts/unit_longest.py KEY.ppud ...

Reads each `KEY.ppud` (a byte a position after its header: the distance plus one, 0 a draw,
255 a hole) and, where there is one, the `KEY.ppud.long` beside it, which holds the distances
past the byte (layout in `crates/solver/src/long_distances.rs`). Prints the longest, -1 if no
position is decided. `scripts/long_build.sh` records it before it deletes the files.
"""

import struct
import sys

LONG_MAGIC = b"PPUDLONG"
LONG_HEAD = 36
LONG_ENTRY = 12


def longest_in_payload(path, best):
    with open(path, "rb") as f:
        header = struct.unpack_from("<I", f.read(16), 12)[0]
        f.seek(-(-(24 + header) // 64) * 64)
        while chunk := f.read(1 << 26):
            # Bytes above the best so far, looked for from the top down: a deletion of the
            # bytes below a threshold runs at memory speed, where a loop over bytes would not.
            floor = best + 2
            for threshold in (224, 192, 160, 128, 96, 64, 32, 1):
                threshold = max(threshold, floor)
                found = chunk.translate(None, bytes(range(threshold)) + b"\xff")
                if found:
                    best = max(found) - 1
                    break
                if threshold == floor:
                    break
    return best


def longest_in_long_file(path):
    with open(path, "rb") as f:
        data = f.read()
    if data[:8] != LONG_MAGIC or len(data) < LONG_HEAD + 8:
        sys.exit(f"{path}: not a long-distance file")
    (count,) = struct.unpack_from("<Q", data, 28)
    if len(data) != LONG_HEAD + LONG_ENTRY * count + 8:
        sys.exit(f"{path}: {len(data)} bytes for {count} entries")
    return max(
        (struct.unpack_from("<I", data, LONG_HEAD + LONG_ENTRY * i + 8)[0] for i in range(count)),
        default=-1,
    )


def main(paths):
    best = -1
    for path in paths:
        best = longest_in_payload(path, best)
        try:
            best = max(best, longest_in_long_file(path + ".long"))
        except FileNotFoundError:
            pass
    print(best)


if __name__ == "__main__":
    main(sys.argv[1:])
