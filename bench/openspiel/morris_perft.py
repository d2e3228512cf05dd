#!/usr/bin/env python3
"""Turn-level perft for Nine Men's Morris, using OpenSpiel as the reference.

OpenSpiel's `nine_mens_morris` game (pyspiel) splits a turn that closes a mill
into two actions by the same player: the placement / slide / flight (action
ids 0..23 for placements, 24 + 24*from + to for moves) and then a separate
removal action (action id = the point of the opponent man removed, 0..23).
While the removal is pending, `state.current_player()` is still the mover and
the state string ends with "Capture time!".

This script counts *turns*: a turn is one placement / slide / flight plus, if
it closed a mill, the removal that follows.  The DFS therefore merges the
removal into the move that caused it: after applying an action, if the game is
not over and the same player is still to move (a removal is pending), the DFS
continues over the removal actions WITHOUT consuming depth, and only counts /
recurses with depth-1 once the turn is complete.  A turn closing a mill thus
contributes one path per legal removal.  Terminal states (OpenSpiel's
IsTerminal: a player has <= 2 men, the side to move has no legal action, or 200
turns played) are counted as leaves when they sit at depth 0 and contribute no
children otherwise.

Transpositions: counts below a turn-start state depend only on that state and
the remaining depth, so results are memoised on (compact state key, depth).
The key is built from OpenSpiel's own `str(state)`, which contains the whole
mutable state of NineMensMorrisState: the 24 points, current player, turn
number (relevant to the 200-turn limit), men to deploy (in hand), number of
men (board + hand) and the pending-capture flag.  Use --no-memo to check.

Point order (OpenSpiel indices 0..23 == our 24-char position strings):
  a7 d7 g7 / b6 d6 f6 / c5 d5 e5 / a4 b4 c4 e4 f4 g4 / c3 d3 e3 / b2 d2 f2 /
  a1 d1 g1

Usage:
  morris_perft.py --depth 6                # perft 1..6 from the empty board
  morris_perft.py --divide 3               # per-turn split at depth 3
  morris_perft.py --actions 0,9,1 --depth 3  # from the position after these
                                             # OpenSpiel action ids
  morris_perft.py --midgame 3 --depth 4    # fixed seeded random game until
                                           # a moving-phase position where the
                                           # side to move has 3 men (flies)
  morris_perft.py --midgame 3 --kind vs3 --depth 4   # ... where the side to
                                           # move has > 3 and its opponent 3
"""

import argparse
import operator
import random
import sys
import time

import pyspiel

POINTS = ("a7 d7 g7 b6 d6 f6 c5 d5 e5 a4 b4 c4 e4 f4 g4 "
          "c3 d3 e3 b2 d2 f2 a1 d1 g1").split()
NP = 24

# Character offsets of the 24 points inside OpenSpiel's ToString() board
# (kPointStrCoords in nine_mens_morris.cc; 16 chars per line incl. newline).
_COORDS = [(0, 0), (0, 7), (0, 14), (2, 2), (2, 7), (2, 12), (4, 4), (4, 7),
           (4, 10), (6, 0), (6, 2), (6, 4), (6, 10), (6, 12), (6, 14), (8, 4),
           (8, 7), (8, 10), (10, 2), (10, 7), (10, 12), (12, 0), (12, 7),
           (12, 14)]
_IDX = [r * 16 + c for r, c in _COORDS]
_BOARD_CHARS = operator.itemgetter(*_IDX)
_BOARD_LEN = 13 * 16  # the 13 board lines; the info lines follow


def board_string(s):
    """24-char W/B/. string in our point order, from str(state)."""
    return "".join(_BOARD_CHARS(s))


# Drop the labels ("Current player:", "Turn number:", ...) from the info
# lines to keep memo keys short; W/B, digits, separators and '!' stay.
_LABELS = str.maketrans("", "", "abcdefghijklmnopqrstuvwxyzCTMNL:")


def state_key(state, depth):
    s = str(state)
    return chr(48 + depth) + "".join(_BOARD_CHARS(s)) + \
        s[_BOARD_LEN:].translate(_LABELS)


def parse_info(state):
    s = str(state)
    info = {"board": board_string(s), "capture": "Capture time!" in s}
    for line in s[_BOARD_LEN:].splitlines():
        if line.startswith("Current player:"):
            info["to_move"] = line.split(":")[1].strip()
        elif line.startswith("Turn number:"):
            info["turn"] = int(line.split(":")[1])
        elif line.startswith("Men to deploy:"):
            info["in_hand"] = tuple(int(x) for x in line.split(":")[1].split())
        elif line.startswith("Num men:"):
            info["num_men"] = tuple(int(x) for x in line.split(":")[1].split())
    return info


def action_name(a):
    if a < NP:
        return POINTS[a]
    a -= NP
    return POINTS[a // NP] + "-" + POINTS[a % NP]


class Perft:
    def __init__(self, memo=True):
        self.memo = {} if memo else None

    def perft(self, state, depth):
        """Number of turn sequences of length `depth` from turn-start `state`."""
        if depth == 0:
            return 1
        if state.is_terminal():
            return 0
        memo = self.memo
        if memo is not None:
            key = state_key(state, depth)
            v = memo.get(key)
            if v is not None:
                return v
        mover = state.current_player()
        total = 0
        if depth == 1:
            for a in state.legal_actions():
                c = state.child(a)
                if not c.is_terminal() and c.current_player() == mover:
                    # Mill closed: one complete turn per legal removal.
                    total += len(c.legal_actions())
                else:
                    total += 1
        else:
            for a in state.legal_actions():
                total += self._after(state.child(a), mover, depth)
        if memo is not None:
            memo[key] = total
        return total

    def _after(self, c, mover, depth):
        """`c` follows an action by `mover`; finish the turn, then recurse."""
        if not c.is_terminal() and c.current_player() == mover:
            return sum(self._after(c.child(r), mover, depth)
                       for r in c.legal_actions())
        return self.perft(c, depth - 1)

    def turns(self, state):
        """List of (name, state_after_turn) for every complete turn."""
        out = []
        if state.is_terminal():
            return out
        mover = state.current_player()
        for a in state.legal_actions():
            c = state.child(a)
            if not c.is_terminal() and c.current_player() == mover:
                for r in c.legal_actions():
                    out.append((action_name(a) + "x" + POINTS[r], c.child(r)))
            else:
                out.append((action_name(a), c))
        return out


def describe(state):
    i = parse_info(state)
    return ("board {b} to_move {m} in_hand W{hw} B{hb} men W{nw} B{nb} "
            "turn {t}".format(b=i["board"], m=i["to_move"], hw=i["in_hand"][0],
                              hb=i["in_hand"][1], nw=i["num_men"][0],
                              nb=i["num_men"][1], t=i["turn"]))


def midgame(game, seed, kind="fly", max_turn=120):
    """Seeded random playout (random.Random(seed).choice over OpenSpiel's
    legal actions) until a turn-start, moving-phase position (both hands
    empty, game not over) where the side to move has exactly 3 men
    (kind "fly") or its opponent has exactly 3 men and the mover more
    (kind "vs3").  If the playout ends or passes `max_turn` first, retries
    with seed+1000, seed+2000, ...  Returns (state, actions, seed_used)."""
    s0 = seed
    while True:
        rng = random.Random(s0)
        st = game.new_initial_state()
        acts = []
        while not st.is_terminal():
            i = parse_info(st)
            me = 0 if i["to_move"] == "W" else 1
            mine, theirs = i["num_men"][me], i["num_men"][1 - me]
            ok = (mine == 3) if kind == "fly" else (theirs == 3 and mine > 3)
            if (not i["capture"] and i["in_hand"] == (0, 0) and ok
                    and i["turn"] <= max_turn):
                return st, acts, s0
            if i["turn"] > max_turn:
                break
            a = rng.choice(st.legal_actions())
            acts.append(a)
            st.apply_action(a)
        s0 += 1000


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--depth", type=int, default=4)
    ap.add_argument("--divide", type=int, default=0,
                    help="print per-turn counts at this depth")
    ap.add_argument("--actions", default="",
                    help="comma-separated OpenSpiel action ids to play first")
    ap.add_argument("--midgame", type=int, default=None, metavar="SEED",
                    help="start from a seeded random moving-phase position "
                         "with a 3-man side")
    ap.add_argument("--kind", choices=("fly", "vs3"), default="fly",
                    help="midgame: side to move has 3 men (fly) or its "
                         "opponent has 3 (vs3)")
    ap.add_argument("--no-memo", action="store_true")
    args = ap.parse_args()

    game = pyspiel.load_game("nine_mens_morris")
    print("# pyspiel", getattr(pyspiel, "__version__", "?"),
          "game nine_mens_morris")
    state = game.new_initial_state()
    acts = []
    if args.actions:
        acts = [int(x) for x in args.actions.split(",")]
        for a in acts:
            state.apply_action(a)
    if args.midgame is not None:
        state, acts, used = midgame(game, args.midgame, args.kind)
        print("# midgame seed", args.midgame, "kind", args.kind,
              "-> playout seed", used)
    if acts:
        print("# actions", ",".join(map(str, acts)))
    print("#", describe(state))
    sys.stdout.flush()

    pf = Perft(memo=not args.no_memo)
    if args.divide:
        total = 0
        for name, c in pf.turns(state):
            n = pf.perft(c, args.divide - 1)
            total += n
            print(name, n)
        print("total", total)
        return
    for d in range(1, args.depth + 1):
        t = time.time()
        n = pf.perft(state, d)
        print(d, n, flush=True)
        print("#   %.1fs, memo entries %s" % (
            time.time() - t, len(pf.memo) if pf.memo is not None else "-"),
            file=sys.stderr, flush=True)


if __name__ == "__main__":
    main()
