#!/usr/bin/env python3
"""The longest distances within a unit, in plies, from its unit-distance files.

    python3 scripts/unit_longest.py KEY.ppud ...            # the longest of them all
    python3 scripts/unit_longest.py --tables KEY.ppud ...   # `KEY WIN LOSS`, a line a table

Reads each `KEY.ppud` (a byte a position after its header: the distance plus one, 0 a draw,
255 a hole) and, where there is one, the `KEY.ppud.long` beside it, which holds the distances
past the byte (layout in `crates/solver/src/long_distances.rs`). A unit distance counts plies
within the unit: to the end of the game, or to a capture, which leaves the unit (a successor in
another unit counts as a loss at 0 plies, a win at 1). Wins take an odd number of plies and
losses an even one, so `--tables` gives each table's longest win and longest loss (-1 where it
has none); without it the script prints the longest distance of any table, -1 if no position
is decided. `scripts/long_build.sh` records both before it deletes the files.
"""

import struct
import sys

LONG_MAGIC = b"PPUDLONG"
LONG_HEAD = 36
LONG_ENTRY = 12
# Bytes past the header are a distance plus one: a win's (odd plies) is even, a loss's odd.
WIN, LOSS = 0, 1
THRESHOLDS = (224, 192, 160, 128, 96, 64, 32, 1)


def deletions(parity, threshold):
    """The bytes to delete from a payload so that only those of `parity` from `threshold` on
    are left: draws and holes go, and so do the other result's distances."""
    return bytes(b for b in range(256) if b < threshold or b == 255 or b % 2 != parity)


DELETIONS = {
    (parity, threshold): deletions(parity, threshold)
    for parity in (WIN, LOSS)
    for threshold in range(256)
}


def longest_in_payload(path):
    """The longest win and loss (plies) of the payload of `path`, -1 where it holds none."""
    best = [-1, -1]
    with open(path, "rb") as f:
        header = struct.unpack_from("<I", f.read(16), 12)[0]
        f.seek(-(-(24 + header) // 64) * 64)
        while chunk := f.read(1 << 26):
            for parity in (WIN, LOSS):
                # Bytes above the best so far, looked for from the top down: a deletion of the
                # bytes below a threshold runs at memory speed, where a loop over bytes would
                # not.
                floor = best[parity] + 2
                for threshold in THRESHOLDS:
                    threshold = min(max(threshold, floor), 255)
                    found = chunk.translate(None, DELETIONS[parity, threshold])
                    if found:
                        best[parity] = max(found) - 1
                        break
                    if threshold == floor:
                        break
    return tuple(best)


def longest_in_long_file(path):
    """The longest win and loss (plies) of a `KEY.ppud.long`, -1 where it holds none."""
    with open(path, "rb") as f:
        data = f.read()
    if data[:8] != LONG_MAGIC or len(data) < LONG_HEAD + 8:
        sys.exit(f"{path}: not a long-distance file")
    (count,) = struct.unpack_from("<Q", data, 28)
    if len(data) != LONG_HEAD + LONG_ENTRY * count + 8:
        sys.exit(f"{path}: {len(data)} bytes for {count} entries")
    best = [-1, -1]
    for i in range(count):
        (plies,) = struct.unpack_from("<I", data, LONG_HEAD + LONG_ENTRY * i + 8)
        parity = WIN if plies % 2 == 1 else LOSS
        best[parity] = max(best[parity], plies)
    return tuple(best)


def longest_of_table(path):
    """The longest win and loss (plies) of one table's unit distances."""
    best = longest_in_payload(path)
    try:
        long_best = longest_in_long_file(path + ".long")
    except FileNotFoundError:
        return best
    return tuple(max(a, b) for a, b in zip(best, long_best))


def key_of(path):
    name = path.rsplit("/", 1)[-1]
    return name[: -len(".ppud")] if name.endswith(".ppud") else name


def main(args):
    if args[:1] == ["--tables"]:
        for path in args[1:]:
            win, loss = longest_of_table(path)
            print(key_of(path), win, loss)
    else:
        print(max((max(longest_of_table(path)) for path in args), default=-1))


if __name__ == "__main__":
    main(sys.argv[1:])
