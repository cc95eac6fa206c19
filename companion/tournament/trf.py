"""FIDE TRF-2016 (Tournament Report File), written and read.

What chess pairing programs exchange (bbpPairings and JaVaFo read it): one ``012`` line with the
tournament's name, ``XXR`` with the number of rounds (the engines' extension), and one ``001``
line per player, in fixed columns: starting number (5-8), name (15-47), rating (49-52), points
(81-84), rank (86-89), then 10 columns per round from column 92: the opponent's starting number
(``0000`` for a bye), the colour (``w`` moved first, ``b`` second, ``-`` none) and the result
(``1``, ``0``, ``=``; ``+``/``-`` by forfeit; ``U`` a bye given by the pairing), and ``BBU``
with the points of a bye when they are not 1 (bbpPairings' extension).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from companion.tournament.model import Tournament
from companion.tournament.pairing import scores


@dataclass
class TrfPlayer:
    number: int
    name: str
    rating: int
    points: float
    rank: int
    rounds: dict[int, tuple[int, str, str]] = field(default_factory=dict)  # opp, colour, code


def to_trf(t: Tournament, ranks: dict[int, int] | None = None) -> str:
    """The tournament as TRF-2016 (rounds paired so far; games without a result left blank)."""
    points = scores(t)
    if ranks is None:
        order = sorted(t.players, key=lambda p: (-points[p.number], p.number))
        ranks = {p.number: i for i, p in enumerate(order, start=1)}
    lines = [f"012 {t.name}", f"XXR {t.rounds}"]
    if t.bye_points != 1.0:  # bbpPairings' points for a pairing-allocated bye (default 1)
        lines.append(f"BBU {t.bye_points:.1f}")
    per: dict[int, dict[int, tuple[int, str, str]]] = {p.number: {} for p in t.players}
    for r in t.played:
        for g in r.games:
            if g.second is None:
                per[g.first][r.number] = (0, "-", "U")
            elif g.result is not None:
                a, b = g.result.codes()
                per[g.first][r.number] = (g.second, "w", a)
                per[g.second][r.number] = (g.first, "b", b)
    for p in t.players:
        name = p.name.encode("ascii", "replace").decode("ascii")
        line = (f"001 {p.number:4d} {'':1}{'':3} {name:<33.33} {p.rating or 0:4d} {'':3} "
                f"{'':11} {'':10} {points[p.number]:4.1f} {ranks.get(p.number, 0):4d}")
        for n in range(1, len(t.played) + 1):
            got = per[p.number].get(n)
            if got is None:
                line += "  0000 - -" if p.withdrawn else " " * 10
                continue
            opp, colour, code = got
            line += f"  {opp:04d} {colour} {code}" if opp == 0 else f"  {opp:4d} {colour} {code}"
        lines.append(line.rstrip())
    return "\n".join(lines) + "\n"


def parse_trf(text: str) -> tuple[str, int | None, list[TrfPlayer]]:
    """``(name, rounds, players)`` from a TRF file (``001``, ``012`` and ``XXR`` lines)."""
    name, rounds, players = "", None, []
    for raw in text.splitlines():
        if raw.startswith("012 "):
            name = raw[4:].strip()
        elif raw.startswith("XXR "):
            rounds = int(raw[4:].strip())
        elif raw.startswith("001 "):
            line = raw.ljust(89)
            rating = line[48:52].strip()
            player = TrfPlayer(int(line[4:8]), line[14:47].strip(),
                               int(rating) if rating else 0, float(line[80:84]),
                               int(line[85:89] or 0))
            n, pos = 1, 91
            while pos < len(raw):
                block = raw[pos:pos + 8].ljust(8)
                if block.strip():
                    player.rounds[n] = (int(block[0:4]), block[5], block[7])
                n, pos = n + 1, pos + 10
            players.append(player)
    return name, rounds, players
