"""Tie-breaks of FIDE C.07 (Play-off and tie-break regulations), on the neutral history.

Codes, as C.07 article 5 names them: ``BH`` Buchholz (8.1), ``BH-C1`` Buchholz cut-1 and
``BH-M1`` median Buchholz (14.1, 14.3), ``SB`` Sonneborn-Berger (9.1), ``DE`` direct encounter
(6), ``WIN`` number of wins, with or without playing (7.1), ``WON`` games won over the board
(7.2), ``BPG`` games played with black, the second move (7.3), ``ARO`` average rating of
opponents (10.1), ``PS`` progressive score (7.5), ``KS`` Koya system for round robins (9.2).
Each has a title, a unit and a legend for printing (:data:`TIEBREAKS`).

Unplayed rounds (C.07 15-16): in a Swiss, a round without a game over the board (byes,
forfeits, absences, a late entrant's missed rounds) is one of five categories: (1) the
pairing-allocated or a full-point bye, (2) a forfeit win, (3) a requested bye (half or zero
point, an absence) followed by a round the player took part in, (4) a forfeit loss, (5) a
requested bye followed only by voluntary unplayed rounds (requested byes, forfeit losses) or in
the last round: a withdrawal. For the opponents' tie-breaks a player's score counts categories
1-4 as awarded and 5 as draws (16.3); for his own, each unplayed round is a game against a
dummy opponent whose score is his own final score (16.4), which the edition in force since
1 March 2026 caps: for a forfeit at the scheduled opponent's score as his opponents see it,
otherwise at a draw for every round. The cuts (14.1, 14.3) cut a voluntary unplayed round's
value first (16.5). In a round robin, forfeits count as games against the scheduled opponent
(15.2), but not for ARO.

``edition`` chooses the text: ``"2026"`` (C.07 in force from 1 March 2026, the default) or
``"2024"`` (in force from 1 August 2024 to 28 February 2026: the dummy uncapped). The
tie-breaks then apply in the order the tournament chose, each to the players still tied (4.2);
ties left at the end share their rank.

Why not the ``tiebreak-core`` package (MIT, PyPI): evaluated against the hand-computed cases
of the tests (``tests/tournament/fide/test_tiebreaks.py``) it agrees on every one, and the
tests use it as a second opinion; but this package takes no runtime dependency beyond the
pinned pairing engine, and the ten tie-breaks needed here are a few hundred lines.

Standard library only.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

from companion.remark import N_, Remark
from companion.tournament.fide.history import FideError, History, Record, Slot, records

Edition = Literal["2024", "2026"]
EDITIONS = ("2024", "2026")


@dataclass(frozen=True)
class TieBreak:
    """How a tie-break is printed: its code, title (a column head), unit and legend (one
    sentence under the standings)."""

    code: str
    title: str
    unit: str
    legend: str


TIEBREAKS: dict[str, TieBreak] = {t.code: t for t in (
    TieBreak("BH", N_("Buchholz"), N_("points"),
             N_("Buchholz: the sum of the opponents' scores (C.07 8.1)")),
    TieBreak("BH-C1", N_("Buchholz cut 1"), N_("points"),
             N_("Buchholz cut 1: Buchholz without the lowest opponent's score (C.07 14.1)")),
    TieBreak("BH-M1", N_("Median Buchholz"), N_("points"),
             N_("Median Buchholz: Buchholz without the lowest and the highest opponent's "
                "score (C.07 14.3)")),
    TieBreak("SB", N_("Sonneborn-Berger"), N_("points"),
             N_("Sonneborn-Berger: each opponent's score times the points scored against "
                "him (C.07 9.1)")),
    TieBreak("DE", N_("Direct encounter"), N_("points"),
             N_("Direct encounter: the points scored in the games among the tied players "
                "(C.07 6)")),
    TieBreak("WIN", N_("Wins"), N_("rounds"),
             N_("Wins: rounds won, with or without playing (C.07 7.1)")),
    TieBreak("WON", N_("Games won"), N_("games"),
             N_("Games won: games won over the board (C.07 7.2)")),
    TieBreak("BPG", N_("Games with black"), N_("games"),
             N_("Games with black: games played over the board moving second (C.07 7.3)")),
    TieBreak("ARO", N_("Average rating of opponents"), N_("rating"),
             N_("Average rating of opponents: of the games played over the board, rounded "
                "(C.07 10.1)")),
    TieBreak("PS", N_("Progressive score"), N_("points"),
             N_("Progressive score: the sum of the scores after each round (C.07 7.5)")),
    TieBreak("KS", N_("Koya"), N_("points"),
             N_("Koya: the points scored against the players with at least half the possible "
                "score (C.07 9.2, round robin)")),
)}

#: The codes a tournament may list (each game's own columns come as ``game:<key>``).
CODES = tuple(TIEBREAKS)


def check_codes(codes: Sequence[str]) -> None:
    """Refuse an unknown code or one listed twice (``game:<key>`` codes pass)."""
    seen: set[str] = set()
    for c in codes:
        if c not in TIEBREAKS and not c.startswith("game:"):
            raise FideError(Remark(N_("unknown tie-break {code}: choose among {codes}"),
                                   code=c, codes=", ".join(CODES)))
        if c in seen:
            raise FideError(Remark(N_("the tie-break {code} is listed twice"), code=c))
        seen.add(c)


# ------------------------------------------------------------------- unplayed rounds (C.07 16)

_VUR_CODES = ("H", "Z", "-")  # requested byes, absences, a late entrant's rounds, forfeit loss


def _done(s: Slot) -> bool:
    return s.code != ""  # a game not in yet counts for nothing


def category(rec: Record, i: int) -> int:
    """C.07 16.2: the category (1-5) of the player's i-th round (0 when played)."""
    s = rec.slots[i]
    if s.played:
        return 0
    if s.code in ("U", "F"):
        return 1
    if s.code == "+":
        return 2
    if s.code == "-":
        return 4
    later = [t for t in rec.slots[i + 1:] if _done(t)]
    return 3 if any(t.code not in _VUR_CODES for t in later) else 5


def vur(s: Slot) -> bool:
    """C.07 16.1.2: a voluntary unplayed round (requested bye, absence, forfeit loss)."""
    return not s.played and s.code in _VUR_CODES


@dataclass(frozen=True)
class _Tables:
    history: History
    recs: dict[int, Record]
    edition: Edition
    round_robin: bool
    score: dict[int, float]
    adjusted: dict[int, float]

    @classmethod
    def of(cls, history: History, edition: Edition, round_robin: bool) -> _Tables:
        if edition not in EDITIONS:
            raise FideError(Remark(N_("unknown edition of C.07: {edition}"), edition=edition))
        recs = records(history)
        score = {p: sum(s.points for s in r.slots if _done(s)) for p, r in recs.items()}
        draw = history.scoring.draw
        adjusted = {}
        for p, r in recs.items():
            total = 0.0
            for i, s in enumerate(r.slots):
                if not _done(s):
                    continue
                total += draw if (not round_robin and category(r, i) == 5) else s.points
            adjusted[p] = total
        return cls(history, recs, edition, round_robin, score, adjusted)

    def game(self, s: Slot) -> bool:
        """Counts as a game against the scheduled opponent: played, or in a round robin a
        forfeit (C.07 15.2)."""
        return s.played or (self.round_robin and s.code in ("+", "-")
                            and s.opponent is not None)

    def dummy(self, p: int, i: int) -> float:
        """C.07 16.4: the dummy opponent's score for the player's i-th (unplayed) round."""
        own = self.score[p]
        if self.edition == "2024":
            return own
        rec = self.recs[p]
        s = rec.slots[i]
        if category(rec, i) in (2, 4) and s.opponent is not None:
            cap = self.adjusted[s.opponent]
        else:
            rounds = sum(1 for t in rec.slots if _done(t))
            cap = self.history.scoring.draw * rounds
        return min(own, cap)

    def contributions(self, p: int, sb: bool) -> list[tuple[float, float, bool]]:
        """Per round: (value, the opponent's score it stands on, from a voluntary unplayed
        round) for Buchholz (value = score) or Sonneborn-Berger (value = score x points)."""
        out = []
        rec = self.recs[p]
        for i, s in enumerate(rec.slots):
            if not _done(s):
                continue
            if self.game(s):
                assert s.opponent is not None
                basis = self.adjusted[s.opponent]
            else:
                basis = self.dummy(p, i)
            value = basis * _fraction(s.points, self.history) if sb else basis
            out.append((value, basis, vur(s) and not self.game(s)))
        return out


def _fraction(points: float, history: History) -> float:
    """The points of a round as a share of a win (SB multiplies by 1, 1/2, 0)."""
    win = history.scoring.win or 1.0
    return points / win


def _cut_lowest(items: list[tuple[float, float, bool]], sb: bool) -> list[tuple[float, float,
                                                                               bool]]:
    """Cut the least significant value (C.07 14.1), a voluntary unplayed round's first
    (16.5: Buchholz cuts the lowest such value; Sonneborn-Berger the higher of it and the
    least significant value)."""
    if not items:
        return items
    if sb:
        low_basis = min(b for _v, b, _u in items)
        victim = min((x for x in items if x[1] == low_basis), key=lambda x: x[0])
    else:
        victim = min(items, key=lambda x: x[0])
    vurs = [x for x in items if x[2]]
    if vurs:
        low_vur = min(vurs, key=lambda x: x[0])
        if not sb or low_vur[0] >= victim[0]:
            victim = low_vur
    out = list(items)
    out.remove(victim)
    return out


def _cut_highest(items: list[tuple[float, float, bool]]) -> list[tuple[float, float, bool]]:
    if not items:
        return items
    out = list(items)
    out.remove(max(items, key=lambda x: x[0]))
    return out


def values(history: History, code: str, *, edition: Edition = "2026",
           round_robin: bool = False, unrated: int = 0) -> dict[int, float]:
    """Every player's value of a tie-break (DE excepted: it depends on who is tied, see
    :func:`standings`). ``unrated`` stands for an unrated opponent's rating in ARO (0: the
    unrated are left out of the average)."""
    t = _Tables.of(history, edition, round_robin)
    return {p: _value(t, p, code, unrated) for p in t.recs}


def _value(t: _Tables, p: int, code: str, unrated: int) -> float:
    rec = t.recs[p]
    done = [s for s in rec.slots if _done(s)]
    win = t.history.scoring.win
    if code in ("BH", "BH-C1", "BH-M1"):
        items = t.contributions(p, sb=False)
        if code != "BH":
            items = _cut_lowest(items, sb=False)
        if code == "BH-M1":
            items = _cut_highest(items)
        return sum(v for v, _b, _u in items)
    if code == "SB":
        return sum(v for v, _b, _u in t.contributions(p, sb=True))
    if code == "WIN":
        return float(sum(1 for s in done if s.points >= win and s.points > 0
                         and s.kind != "late"))
    if code == "WON":
        return float(sum(1 for s in done if s.played and s.code == "1"))
    if code == "BPG":
        return float(sum(1 for s in done if s.played and s.colour == "b"))
    if code == "ARO":
        ratings = []
        for s in done:
            if s.played and s.opponent is not None:
                r = t.recs[s.opponent].entrant.rating or unrated
                if r:
                    ratings.append(r)
        return float((2 * sum(ratings) + len(ratings)) // (2 * len(ratings))) if ratings \
            else 0.0
    if code == "PS":
        total, running = 0.0, 0.0
        for s in done:
            running += s.points
            total += running
        return total
    if code == "KS":
        rounds = t.history.total_rounds or len(t.history.rounds)
        limit = rounds * win / 2
        return sum(s.points for s in done if t.game(s) and s.opponent is not None
                   and t.score[s.opponent] >= limit)
    raise FideError(Remark(N_("unknown tie-break {code}: choose among {codes}"), code=code,
                           codes=", ".join(CODES)))


# -------------------------------------------------------------------- direct encounter (C.07 6)

def _encounters(t: _Tables, group: Sequence[int]) -> tuple[dict[int, float], set[frozenset[int]]]:
    """The points each of ``group`` scored against the others (6.1: forfeits left out but in
    a round robin; several meetings averaged, 6.1.2) and the pairs that met."""
    inside = set(group)
    got: dict[tuple[int, int], list[float]] = {}
    for p in group:
        for s in t.recs[p].slots:
            if _done(s) and t.game(s) and s.opponent in inside:
                got.setdefault((p, s.opponent), []).append(s.points)
    pts = {p: 0.0 for p in group}
    met: set[frozenset[int]] = set()
    for (p, q), scores in got.items():
        pts[p] += sum(scores) / len(scores)
        met.add(frozenset((p, q)))
    return pts, met


def _direct(t: _Tables, group: list[int]) -> list[list[int]]:
    """C.07 6: ``group`` (tied) split into ordered subgroups; those it cannot separate stay
    together."""
    if len(group) < 2:
        return [group]
    pts, met = _encounters(t, group)
    pairs = {frozenset((a, b)) for i, a in enumerate(group) for b in group[i + 1:]}
    if pairs <= met:
        # 6.2: all met: their separate standings, ties resolved by applying 6 again
        levels = sorted({pts[p] for p in group}, reverse=True)
        split = [[p for p in group if pts[p] == v] for v in levels]
        if len(split) == 1:
            return split
        out: list[list[int]] = []
        for sub in split:
            out += _direct(t, sub)
        return out
    # 6.3: not all met; first whoever is ahead whatever the missing games' results
    win = t.history.scoring.win
    missing = {p: sum(1 for q in group if q != p and frozenset((p, q)) not in met)
               for p in group}
    out = []
    rest = list(group)
    while len(rest) > 1:
        best = [p for p in rest
                if all(pts[p] > pts[q] + win * missing[q] for q in rest if q != p)]
        if not best:
            break
        out.append(best)
        rest.remove(best[0])
    if not rest:
        return out
    if out and len(rest) > 1:
        return out + _direct(t, rest)
    return [*out, rest]


# ---------------------------------------------------------------------------- the standings

@dataclass(frozen=True)
class Standing:
    """A player's line of the standings: rank (shared by players the tie-breaks leave tied),
    points, and one value per tie-break code (None for DE where he was not tied)."""

    player: int
    rank: int
    points: float
    values: tuple[float | None, ...]


def standings(history: History, codes: Sequence[str], *, edition: Edition = "2026",
              round_robin: bool = False, unrated: int = 0,
              extra: Mapping[str, Mapping[int, float]] | None = None) -> list[Standing]:
    """The standings: points, then each tie-break of ``codes`` in turn for the players still
    tied (C.07 4.2). ``extra`` gives the values of the ``game:<key>`` codes (each game's own
    columns; higher is better). Players left tied share a rank and are listed by start
    number."""
    check_codes(codes)
    extra = extra or {}
    t = _Tables.of(history, edition, round_robin)
    number = {p: r.entrant.number or p for p, r in t.recs.items()}
    table: dict[str, dict[int, float]] = {}
    for c in codes:
        if c.startswith("game:"):
            if c not in extra:
                raise FideError(Remark(N_("no values given for the tie-break {code}"), code=c))
            table[c] = {p: float(extra[c].get(p, 0.0)) for p in t.recs}
        elif c != "DE":
            table[c] = {p: _value(t, p, c, unrated) for p in t.recs}
    de: dict[int, float] = {}

    def split(group: list[int], k: int) -> list[list[int]]:
        if len(group) < 2 or k == len(codes):
            return [sorted(group, key=lambda p: number[p])]
        code = codes[k]
        if code == "DE":
            pts, _met = _encounters(t, group)
            de.update(pts)
            parts = _direct(t, group)
        else:
            levels = sorted({table[code][p] for p in group}, reverse=True)
            parts = [[p for p in group if table[code][p] == v] for v in levels]
        out: list[list[int]] = []
        for part in parts:
            out += split(part, k + 1)
        return out

    by_points = sorted({t.score[p] for p in t.recs}, reverse=True)
    groups: list[list[int]] = []
    for v in by_points:
        groups += split([p for p in t.recs if t.score[p] == v], 0)
    out: list[Standing] = []
    rank = 1
    for g in groups:
        for p in g:
            vals = tuple(de.get(p) if c == "DE" else table[c][p] for c in codes)
            out.append(Standing(p, rank, t.score[p], vals))
        rank += len(g)
    return out
