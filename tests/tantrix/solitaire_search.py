"""A search for a solved Tantrix Solitaire: a draw order and placements laying all 56 tiles so
that the red of the 42 red tiles makes one line (or one loop), obeying the Solitaire rules.

It does not use the engine (the engine judges its result through ``simulate``): it grows the red
line from one end, one red tile at a time, and slips the 14 tiles without red into the forced
spaces the line leaves behind. The draw order is ours to choose, so the one rule that bites is
the forced placement: a drawn tile that could fill a forced space must go into one. Each step is
checked against it exactly (every forced space and every rotation), so the found game is legal
by construction; the scenario test replays it through the engine anyway.

Run it with ``make solitaire-search`` (or ``python tests/tantrix/solitaire_search.py``); the
fixture ``tests/scenarios/tantrix/s11_solitaire_solved_line.jsonl`` keeps one result so the suite
never re-runs the search.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time

from companion.tantrix.tiles import TILES

STEP = ((1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1))
Cell = tuple[int, int]
Sides = str

#: Each tile's sides NE..NW at each rotation, as letters.
SIDES: dict[int, tuple[Sides, ...]] = {
    n: tuple(TILES[n].letters(rot) for rot in range(6)) for n in TILES
}
RED_TILES = [n for n in TILES if "R" in SIDES[n][0]]
PLAIN_TILES = [n for n in TILES if "R" not in SIDES[n][0]]


def step(c: Cell, s: int) -> Cell:
    return (c[0] + STEP[s][0], c[1] + STEP[s][1])


def distance(a: Cell, b: Cell) -> int:
    dq, dr = a[0] - b[0], a[1] - b[1]
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


class Board:
    """Cells laid so far, with the helpers the rules need."""

    def __init__(self) -> None:
        self.cells: dict[Cell, Sides] = {}
        self.moves: list[tuple[int, Cell, int]] = []

    def count(self, c: Cell) -> int:
        return sum(step(c, s) in self.cells for s in range(6))

    def fits(self, sides: Sides, c: Cell) -> bool:
        for s in range(6):
            other = self.cells.get(step(c, s))
            if other is not None and other[(s + 3) % 6] != sides[s]:
                return False
        return True

    def rotations(self, tile: int, c: Cell) -> list[int]:
        return [rot for rot in range(6) if self.fits(SIDES[tile][rot], c)]

    def forced(self) -> set[Cell]:
        out: set[Cell] = set()
        for c in self.cells:
            for s in range(6):
                n = step(c, s)
                if n not in self.cells and self.count(n) >= 3:
                    out.add(n)
        return out

    def legal(self, tile: int, c: Cell, forced: set[Cell]) -> bool:
        """The forced placement rule: outside the forced spaces only if it fits none."""
        if c in forced:
            return True
        return not any(self.rotations(tile, f) for f in forced)

    def lay(self, tile: int, c: Cell, rot: int) -> None:
        self.cells[c] = SIDES[tile][rot]
        self.moves.append((tile, c, rot))

    def lift(self) -> None:
        _, c, _ = self.moves.pop()
        del self.cells[c]


class Search:
    """Depth-first with a node budget, restarted with fresh random tie-breaks."""

    def __init__(self, rng: random.Random, target: str, budget: int) -> None:
        self.rng = rng
        self.target = target
        self.budget = budget
        self.nodes = 0
        self.best = 0
        self.board = Board()
        #: The empty cell the tail's red faces: a loop ends by filling it.
        self.home: Cell = (0, 0)

    def red_moves(
        self, head: Cell, entry: int, red_left: list[int]
    ) -> list[tuple[float, int, int, Cell, int]]:
        b = self.board
        forced = b.forced()
        out = []
        last = len(red_left) == 1
        for t in red_left:
            for rot in range(6):
                sides = SIDES[t][rot]
                if sides[entry] != "R" or not b.fits(sides, head):
                    continue
                exit_ = next(s for s in range(6) if s != entry and sides[s] == "R")
                ahead = step(head, exit_)
                if ahead in b.cells:
                    # Only a loop may close, and only with the last red tile.
                    if not (self.target == "loop" and last):
                        continue
                elif self.target == "loop" and last:
                    continue
                if not b.legal(t, head, forced):
                    continue
                left = len(red_left) - 1
                if self.target == "loop" and not last and distance(ahead, self.home) > left:
                    continue  # too far from the tail's open end to come back in time
                # Hug the layout: prefer an exit cell with many tiles around it.
                b.cells[head] = sides
                score = b.count(ahead) * 2 + self.rng.random() * 3
                if self.target == "loop" and left < 12:
                    score -= distance(ahead, self.home)  # head for home near the end
                del b.cells[head]
                out.append((score, t, rot, ahead, (exit_ + 3) % 6))
        out.sort(reverse=True)
        return out

    def plain_fills(self, plain_left: list[int], head: Cell) -> list[tuple[int, Cell, int]]:
        b = self.board
        forced = b.forced() - {head}
        out = []
        for f in sorted(forced):
            for t in plain_left:
                for rot in b.rotations(t, f):
                    out.append((t, f, rot))
        self.rng.shuffle(out)
        return out

    def dfs(self, head: Cell, entry: int, red_left: list[int], plain_left: list[int]) -> bool:
        self.nodes += 1
        if self.nodes > self.budget:
            return False
        placed_red = len(RED_TILES) - len(red_left)
        self.best = max(self.best, placed_red)
        if not red_left:
            return self.finish(plain_left)
        b = self.board
        forced = b.forced() - {head}
        # A forced space a plain tile fits: fill it first (keeps red tiles free to move on).
        fills = self.plain_fills(plain_left, head) if forced else []
        for t, c, rot in fills[:3]:
            if not b.legal(t, c, b.forced()):
                continue
            b.lay(t, c, rot)
            rest = [x for x in plain_left if x != t]
            if self.dfs(head, entry, red_left, rest):
                return True
            b.lift()
            if self.nodes > self.budget:
                return False
        for _, t, rot, ahead, new_entry in self.red_moves(head, entry, red_left)[:4]:
            b.lay(t, head, rot)
            rest = [x for x in red_left if x != t]
            if self.dfs(ahead, new_entry, rest, plain_left):
                return True
            b.lift()
            if self.nodes > self.budget:
                return False
        return False

    def finish(self, plain_left: list[int]) -> bool:
        """Lay the tiles without red anywhere legal (greedy, forced spaces first)."""
        b = self.board
        laid = 0
        for t in list(plain_left):
            forced = b.forced()
            spots = [(f, rot) for f in sorted(forced) for rot in b.rotations(t, f)]
            if not spots:
                frontier = sorted({step(c, s) for c in b.cells for s in range(6)} - set(b.cells))
                spots = [
                    (c, rot) for c in frontier for rot in b.rotations(t, c) if b.legal(t, c, forced)
                ]
            if not spots:
                for _ in range(laid):
                    b.lift()
                return False
            c, rot = self.rng.choice(spots)
            b.lay(t, c, rot)
            laid += 1
        return True

    def run(self) -> list[tuple[int, Cell, int]] | None:
        first = self.rng.choice(RED_TILES)
        rot = self.rng.randrange(6)
        sides = SIDES[first][rot]
        a, z = (s for s in range(6) if sides[s] == "R")
        self.board.lay(first, (0, 0), rot)
        self.home = step((0, 0), a)
        red_left = [t for t in RED_TILES if t != first]
        if self.dfs(step((0, 0), z), (z + 3) % 6, red_left, list(PLAIN_TILES)):
            return self.board.moves
        return None


def events(moves: list[tuple[int, Cell, int]], target: str) -> list[dict[str, object]]:
    out: list[dict[str, object]] = [{"game": "tantrix", "mode": "solitaire", "target": target}]
    t = 0.0
    for tile, (q, r), rot in moves:
        out.append({"ev": "draw", "tile": tile, "t": t})
        out.append({"ev": "place", "tile": tile, "q": q, "r": r, "rot": rot, "t": t + 1.0})
        t += 2.0
    return out


def search(
    target: str, seed: int, budget: int, tries: int
) -> tuple[list[dict[str, object]] | None, int]:
    best = 0
    for i in range(tries):
        s = Search(random.Random(seed + i), target, budget)
        moves = s.run()
        best = max(best, s.best)
        if moves is not None:
            print(f"seed {seed + i}: solved after {s.nodes} nodes", file=sys.stderr)
            return events(moves, target), best
    return None, best


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--target", choices=("line", "loop"), default="line")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--budget", type=int, default=20000, help="nodes per try")
    ap.add_argument("--tries", type=int, default=200)
    ap.add_argument("--out", help="write the scenario (JSON Lines) here")
    args = ap.parse_args(argv)
    start = time.monotonic()
    found, best = search(args.target, args.seed, args.budget, args.tries)
    took = time.monotonic() - start
    if found is None:
        print(f"no solution in {args.tries} tries ({took:.1f} s); best {best}/42 red",
              file=sys.stderr)
        return 1
    text = "".join(json.dumps(e) + "\n" for e in found)
    if args.out:
        with open(args.out, "w", encoding="utf-8") as fh:
            fh.write(text)
    else:
        sys.stdout.write(text)
    print(f"found in {took:.1f} s", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
