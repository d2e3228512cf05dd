"""How many moving-phase positions of Twelve Men's Morris carry an effective no-re-forming
memory, by subspace, exactly by counting (inclusion-exclusion over the lines that make a memory
effective), against the sparse slot index the solver uses today and a dense index that ranks
only the memories that can matter (a config: the empty point, the line it would complete, the
man beside it; then the rest of the board). Figures before the 16 symmetries (divide by about 16
for the symmetry-reduced tables). Run: python bench/memory_sizes.py [twelve_mens_morris]"""

import itertools
import sys
from math import comb

import perfectplay as pp


def geometry(game_id):
    game = pp.load_game(game_id)
    points = len(game.point_names())
    mills = [tuple(int(x) for x in m) for m in game.mills()]
    adjacency = game.neighbours()  # a points x points boolean matrix
    neighbours = [[q for q in range(points) if adjacency[p][q]] for p in range(points)]
    return points, mills, neighbours


def boards(points, a, b, need_a=(), need_b=(), empty=()):
    """Boards of a men and b men with need_a among the a's, need_b among the b's and empty
    points empty; 0 where the requirements clash."""
    sa, sb, se = set(need_a), set(need_b), set(empty)
    if sa & sb or sa & se or sb & se or len(sa) > a or len(sb) > b:
        return 0
    free = points - len(sa | sb | se)
    return comb(free, a - len(sa)) * comb(free - (a - len(sa)), b - len(sb))


def memories(points, mills, neighbours):
    """Every (point left p, man m beside it, lines through p without m)."""
    out = []
    for p in range(points):
        for m in neighbours[p]:
            lines = [l for l in mills if p in l and m not in l]
            if lines:
                out.append((p, m, lines))
    return out


def union_count(points, a, b, side_sets):
    """Boards satisfying, for each side's memory (p, m, lines), 'p empty, m own, some line's
    other two points own', by inclusion-exclusion over the subsets of lines of each side."""
    total = 0
    choices = []
    for own, (p, m, lines) in side_sets:
        subs = [c for r in range(1, len(lines) + 1) for c in itertools.combinations(lines, r)]
        choices.append((own, p, m, subs))
    for picks in itertools.product(*[c[3] for c in choices]):
        need = {0: set(), 1: set()}
        empty = set()
        sign = 1
        for (own, p, m, _), pick in zip(choices, picks):
            sign *= (-1) ** (len(pick) + 1)
            need[own] |= {m} | {q for l in pick for q in l if q != p}
            empty.add(p)
        total += sign * boards(points, a, b, need[0], need[1], empty)
    return total


def main():
    game_id = sys.argv[1] if len(sys.argv) > 1 else "twelve_mens_morris"
    points, mills, neighbours = geometry(game_id)
    mems = memories(points, mills, neighbours)
    max_nb = max(len(n) for n in neighbours)
    print(f"{game_id}: {points} points, {len(mills)} lines, {len(mems)} (point, man) memories")
    print("subspace  boards  | bm: positions  sparse  dense | bmo: positions  sparse  dense")
    totals = [0] * 7
    for a in range(3, 13):
        for b in range(3, 13):
            if a + b >= points:
                continue
            base = boards(points, a, b)
            bm = sum(union_count(points, a, b, [(0, mem)]) for mem in mems)
            bo = sum(union_count(points, a, b, [(1, mem)]) for mem in mems)
            dense_bm = sum(
                boards(points, a, b, {m} | {q for q in l if q != p}, (), {p})
                for p, m, lines in mems
                for l in lines
            )
            bmo = sum(
                union_count(points, a, b, [(0, x), (1, y)]) for x in mems for y in mems
            )
            dense_bmo = sum(
                boards(
                    points,
                    a,
                    b,
                    {mx} | {q for q in lx if q != px},
                    {my} | {q for q in ly if q != py},
                    {px, py},
                )
                for px, mx, lxs in mems
                for lx in lxs
                for py, my, lys in mems
                for ly in lys
            )
            sparse_bm = base * a * max_nb
            sparse_bmo = base * a * max_nb * b * max_nb
            row = [base, bm, sparse_bm, dense_bm, bmo, sparse_bmo, dense_bmo]
            totals = [t + r for t, r in zip(totals, row)]
            print(f"{a:2}-{b:<2} {base:>14,} | {bm:>15,} {sparse_bm:>17,} {dense_bm:>15,} | "
                  f"{bmo:>15,} {sparse_bmo:>19,} {dense_bmo:>15,}  (bo {bo:,})")
    print("total    ", " ".join(f"{t:,}" for t in totals))


if __name__ == "__main__":
    main()
