"""FIDE TRF-2016 (Tournament Report File), written and read: the one TRF writer.

What chess pairing programs exchange (bbpPairings and JaVaFo read it), written from the
tournament file: one ``012`` line with the tournament's name, ``XXR`` with the number of
rounds (the engines' extension), and one ``001`` line per player in starting-number order, in
fixed columns: starting number (5-8), name (15-47), rating (49-52), points (81-84), rank
(86-89), then 10 columns per round from column 92: the opponent's starting number (``0000``
without a game), the colour (``w`` moved first, ``b`` second, ``-`` none) and the result
(``1``, ``0``, ``=``; ``+``/``-`` by forfeit; ``U`` a pairing-allocated bye, ``H`` a half-point
bye or missed round, ``Z`` a zero-point bye, an absence), and ``BBU`` with the points of a
pairing-allocated bye when they are not 1 (bbpPairings' extension). A game without its result
yet is left blank. The ranks are the standings' (:mod:`.standings`).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from companion.tournament.model import Tournament


@dataclass
class TrfPlayer:
    number: int
    name: str
    rating: int
    points: float
    rank: int
    rounds: dict[int, tuple[int, str, str]] = field(default_factory=dict)  # opp, colour, code


def to_trf(t: Tournament, ranks: dict[int, int] | None = None) -> str:
    """The tournament as TRF-2016 (rounds paired so far); ``ranks`` by player id (default:
    the standings')."""
    if ranks is None:
        from companion.tournament.standings import standings

        ranks = {row.id: row.rank for row in standings(t).rows}
    numbers = t.start_numbers()
    points = t.points()
    entries = t.entries()
    lines = [f"012 {t.name}", f"XXR {t.rounds}"]
    if t.settings.bye_points != 1.0:  # bbpPairings' points for a pairing-allocated bye
        lines.append(f"BBU {t.settings.bye_points:.1f}")
    for p in sorted(t.players.values(), key=lambda p: numbers[p.id]):
        name = p.name.encode("ascii", "replace").decode("ascii")
        line = (f"001 {numbers[p.id]:4d} {'':1}{'':3} {name:<33.33} {p.rating or 0:4d} {'':3} "
                f"{'':11} {'':10} {points[p.id]:4.1f} {ranks.get(p.id, 0):4d}")
        for n in range(1, len(t.played) + 1):
            e = entries[p.id][n]
            if e.kind == "game":
                if not e.code:
                    line += " " * 10
                    continue
                assert e.opponent is not None
                line += f"  {numbers[e.opponent]:4d} {e.colour} {e.code}"
            else:
                line += f"  0000 - {e.code}"
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
