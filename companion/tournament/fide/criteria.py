"""The FIDE (Dutch) pairing criteria, checked on a proposed round (C.04.3, 2026).

Used two ways: to refuse an engine's answer that breaks an absolute rule (the built-in Dutch
adapter and the outside engines both go through :func:`check_round` before a round is
published), and to name, as warnings, every criterion a manual pairing breaks.

What is checked, by criterion number of C.04.3 (2026) and C.04.1:

- the round itself: everyone to be paired is paired once, nobody else is (the withdrawn, the
  absent, those with a requested bye, late entries not yet in), one pairing-allocated bye
  exactly when the number to pair is odd (C.04.1 3);
- **C1** no two players meet twice (a forfeit is not a meeting, C.04.2 3.5);
- **C2** no pairing-allocated bye to a player who had one, or who scored a win's points in a
  round without playing (C.04.1 4);
- **C3** no two non-topscorers with the same absolute colour preference meet;
- **C4** completion: nobody is left without a game while a pairing keeping C1-C3 exists;
- **C5** the pairing-allocated bye goes to the lowest score it can (exactly, by matching);
- **C6** the top scoregroup floats down no more players than it must, given C4 and C5
  (exactly, by matching; the lower brackets depend on the quality choices above them and are
  not judged);
- the colours of each game as C.04.3 5.2 allocates them (:mod:`.colours`);
- as facts, with the players named: C10 and C11 (topscorers' colour difference beyond 2 and
  three same colours in a row, final round), C12 and C13 (colour preference, strong colour
  preference not granted), C14-C17 (a downfloat or upfloat repeated from one or two rounds
  before). These are minimisations: a fact is not a breach by itself, so a warning on a manual
  pairing names them only where the checker's own Dutch pairing of the same round does better.

Matching (C4-C6) uses networkx's maximum weight matching (networkx comes with the pinned
Dutch engine, :mod:`.dutch`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

import networkx as nx

from companion.remark import N_, Remark
from companion.tournament.fide import colours as col
from companion.tournament.fide.history import (
    FideError,
    History,
    Pairing,
    Record,
    available,
    floats,
    label,
    records,
)


@dataclass(frozen=True)
class Breach:
    """One criterion broken (or, for a fact, touched): ``code`` is the article (``C1``...
    ``C21``, ``5.2``, or ``round`` for a round that does not hold together), ``text`` says it
    in words with the players named."""

    code: str
    absolute: bool
    text: Remark
    players: tuple[int, ...] = ()
    fact: bool = False


#: The criteria this module can state, by code, with their words (for a legend).
CRITERIA: dict[str, str] = {
    "round": N_("every player to be paired is paired once, one bye only when the number is odd"),
    "C1": N_("two players shall not meet more than once"),
    "C2": N_("no pairing-allocated bye to a player who had one or won a round without playing"),
    "C3": N_("non-topscorers with the same absolute colour preference shall not meet"),
    "C4": N_("a pairing keeping the absolute criteria must exist for all players"),
    "C5": N_("the pairing-allocated bye goes to the lowest score possible"),
    "C6": N_("as few players as possible float down from the top scoregroup"),
    "5.2": N_("colours allocated by C.04.3 5.2"),
    "C10": N_("topscorers or their opponents with a colour difference beyond +2 or -2"),
    "C11": N_("topscorers or their opponents with the same colour three times in a row"),
    "C12": N_("players who do not get their colour preference"),
    "C13": N_("players who do not get their strong colour preference"),
    "C14": N_("players floating down again after a downfloat in the previous round"),
    "C15": N_("players floating up again after an upfloat in the previous round"),
    "C16": N_("players floating down again after a downfloat two rounds before"),
    "C17": N_("players floating up again after an upfloat two rounds before"),
}


@dataclass(frozen=True)
class Context:
    """What the criteria read of a history for its next round."""

    history: History
    round: int
    recs: dict[int, Record]
    score: dict[int, float]
    number: dict[int, int]
    met: dict[int, set[int]]
    prefs: dict[int, col.Preference]

    @classmethod
    def of(cls, history: History) -> Context:
        recs = records(history)
        return cls(history, len(history.rounds) + 1, recs,
                   {p: r.score for p, r in recs.items()},
                   {p: r.entrant.number or p for p, r in recs.items()},
                   {p: r.opponents() for p, r in recs.items()},
                   {p: col.preference(r.colours()) for p, r in recs.items()})

    def name(self, player: int) -> str:
        rec = self.recs.get(player)
        return label(rec.entrant) if rec else str(player)

    @property
    def last_round(self) -> bool:
        return bool(self.history.total_rounds) and self.round >= self.history.total_rounds

    def topscorer(self, player: int) -> bool:
        """C.04.3 1.8: over 50% of the maximum possible score, when pairing the final
        round."""
        win = self.history.scoring.win
        return self.last_round and self.score[player] > (self.round - 1) * win / 2

    def side(self, player: int) -> col.Side:
        return col.Side(player, tuple(self.recs[player].colours()), self.score[player],
                        self.number[player])

    def compatible(self, a: int, b: int) -> bool:
        """C1 and C3 for a pair."""
        if a == b or b in self.met[a]:
            return False
        pa, pb = self.prefs[a], self.prefs[b]
        same_absolute = pa.absolute and pb.absolute and pa.colour == pb.colour
        return not (same_absolute and not (self.topscorer(a) or self.topscorer(b)))

    def bye_ok(self, player: int) -> bool:
        """C2."""
        return not self.recs[player].bye_barred(self.history.scoring)


_BYE = -1  # the pairing-allocated bye as a vertex of the matching graph


def _graph(ctx: Context, players: Sequence[int], bye_to: Iterable[int] = (),
           weight: Mapping[tuple[int, int], int] | None = None) -> nx.Graph:
    g = nx.Graph()
    g.add_nodes_from(players)
    for i, a in enumerate(players):
        for b in players[i + 1:]:
            if ctx.compatible(a, b):
                w = weight.get((a, b), weight.get((b, a), 1)) if weight else 1
                g.add_edge(a, b, weight=w)
    for p in bye_to:
        g.add_node(_BYE)
        g.add_edge(p, _BYE, weight=1)
    return g


def _perfect(g: nx.Graph, weighted: bool = False) -> set[tuple[int, int]] | None:
    m = nx.max_weight_matching(g, maxcardinality=True,
                               weight="weight" if weighted else "unit")
    return m if 2 * len(m) == g.number_of_nodes() else None


def complete(ctx: Context, players: Sequence[int], bye_to: Iterable[int] | None = None,
             ) -> bool:
    """C4: whether the players can all be paired keeping C1-C3 (one of ``bye_to``, by
    default anyone C2 allows, taking the pairing-allocated bye when they are odd)."""
    if len(players) % 2 == 0:
        return _perfect(_graph(ctx, players)) is not None
    cands = [p for p in (players if bye_to is None else bye_to) if ctx.bye_ok(p)]
    return bool(cands) and _perfect(_graph(ctx, players, cands)) is not None


def lowest_bye_score(ctx: Context, players: Sequence[int]) -> float | None:
    """C5: the lowest score the pairing-allocated bye can go to (None: no complete pairing
    or an even number of players)."""
    if len(players) % 2 == 0:
        return None
    for s in sorted({ctx.score[p] for p in players}):
        if complete(ctx, players, [p for p in players if ctx.score[p] == s]):
            return s
    return None


def fewest_top_floaters(ctx: Context, players: Sequence[int]) -> int | None:
    """C6 for the top scoregroup: the fewest of its players paired outside it (or given the
    bye) over the pairings that keep C1-C4 and give the bye to the lowest score C5 allows."""
    if not players:
        return None
    top_score = max(ctx.score[p] for p in players)
    top = [p for p in players if ctx.score[p] == top_score]
    bye_score = lowest_bye_score(ctx, players)
    bye_to = [p for p in players if ctx.score[p] == bye_score and ctx.bye_ok(p)]
    big = 2 * len(players) + 2
    weight = {(a, b): big for a in top for b in top if a != b}
    g = _graph(ctx, players, bye_to if len(players) % 2 else (), weight)
    m = _perfect(g, weighted=True)
    if m is None:
        return None
    inside = sum(1 for a, b in m if a in top and b in top)
    return len(top) - 2 * inside


def _fact(code: str, text: Remark, *players: int) -> Breach:
    return Breach(code, False, text, players, fact=True)


def check_round(history: History, pairing: Pairing) -> list[Breach]:
    """Every criterion this module can state, for ``pairing`` as the next round of
    ``history``: the absolute ones first, then C5, C6, the colour rules and the facts."""
    if pairing.round != len(history.rounds) + 1:
        raise FideError(Remark(N_("round {round} is not the next round ({next})"),
                               round=pairing.round, next=len(history.rounds) + 1))
    ctx = Context.of(history)
    out: list[Breach] = []
    out += _round_shape(ctx, pairing)
    if out:
        return out
    out += _absolute(ctx, pairing)
    players = available(history, pairing.requested)
    if not any(b.absolute for b in out):
        out += _quality(ctx, pairing, players)
    return out


def _round_shape(ctx: Context, pairing: Pairing) -> list[Breach]:
    out: list[Breach] = []
    want = set(available(ctx.history, pairing.requested))
    away = {b.player for b in pairing.requested}
    seen: dict[int, int] = {}
    for g in pairing.games:
        for p in (g.white, g.black):
            seen[p] = seen.get(p, 0) + 1
    if pairing.bye is not None:
        seen[pairing.bye] = seen.get(pairing.bye, 0) + 1
    for p, n in sorted(seen.items()):
        if p not in ctx.recs:
            out.append(Breach("round", True, Remark(N_("no player {player} in the tournament"),
                                                    player=p), (p,)))
        elif n > 1:
            out.append(Breach("round", True, Remark(N_("{player} is paired twice"),
                                                    player=ctx.name(p)), (p,)))
        elif p in away:
            out.append(Breach("round", True, Remark(
                N_("{player} is paired but has a bye or is absent"), player=ctx.name(p)), (p,)))
        elif p not in want:
            out.append(Breach("round", True, Remark(
                N_("{player} is paired before the round of his late entry"),
                player=ctx.name(p)), (p,)))
    for g in pairing.games:
        if g.white == g.black:
            out.append(Breach("round", True, Remark(N_("{player} is paired with himself"),
                                                    player=ctx.name(g.white)), (g.white,)))
    missing = sorted(want - set(seen))
    for p in missing:
        out.append(Breach("C4", True, Remark(N_("C4: {player} is not paired"),
                                             player=ctx.name(p)), (p,)))
    if pairing.bye is not None and len(want) % 2 == 0:
        out.append(Breach("round", True, Remark(
            N_("a pairing-allocated bye although the number of players to pair is even")),
            (pairing.bye,)))
    if pairing.bye is None and len(want) % 2 == 1 and not missing:
        out.append(Breach("round", True, Remark(
            N_("no pairing-allocated bye although the number of players to pair is odd"))))
    return out


def _absolute(ctx: Context, pairing: Pairing) -> list[Breach]:
    out: list[Breach] = []
    for g in pairing.games:
        a, b = g.white, g.black
        if b in ctx.recs[a].opponents():
            out.append(Breach("C1", True, Remark(
                N_("C1: {a} and {b} have already played each other"),
                a=ctx.name(a), b=ctx.name(b)), (a, b)))
            continue
        pa = col.preference(ctx.recs[a].colours())
        pb = col.preference(ctx.recs[b].colours())
        if (pa.absolute and pb.absolute and pa.colour == pb.colour
                and not (ctx.topscorer(a) or ctx.topscorer(b))):
            colour = Remark(N_("white") if pa.colour == "w" else N_("black"))
            out.append(Breach("C3", True, Remark(
                N_("C3: {a} and {b} both must have {colour}"),
                a=ctx.name(a), b=ctx.name(b), colour=colour), (a, b)))
    if pairing.bye is not None and not ctx.bye_ok(pairing.bye):
        out.append(Breach("C2", True, Remark(
            N_("C2: {player} may not get the pairing-allocated bye: he had one, or won a round "
               "without playing"), player=ctx.name(pairing.bye)), (pairing.bye,)))
    return out


def _downfloats(ctx: Context, pairing: Pairing) -> dict[int, str]:
    """Who floats in the proposed round: ``down`` or ``up`` (C.04.3 1.4.2-1.4.3)."""
    out: dict[int, str] = {}
    for g in pairing.games:
        a, b = g.white, g.black
        if ctx.score[a] != ctx.score[b]:
            hi = col.higher(ctx.side(a), ctx.side(b)).id
            out[hi], out[b if hi == a else a] = "down", "up"
    if pairing.bye is not None:
        out[pairing.bye] = "down"
    return out


def _quality(ctx: Context, pairing: Pairing, players: list[int]) -> list[Breach]:
    out: list[Breach] = []
    # C5: the bye to the lowest score possible
    if pairing.bye is not None:
        low = lowest_bye_score(ctx, players)
        if low is not None and ctx.score[pairing.bye] > low:
            out.append(Breach("C5", False, Remark(
                N_("C5: the pairing-allocated bye goes to {player} ({score} points) where a "
                   "player with {low} could have it"), player=ctx.name(pairing.bye),
                score=_points(ctx.score[pairing.bye]), low=_points(low)), (pairing.bye,)))
    # C6: the top scoregroup's downfloaters
    if players:
        fewest = fewest_top_floaters(ctx, players)
        top_score = max(ctx.score[p] for p in players)
        top = {p for p in players if ctx.score[p] == top_score}
        inside = sum(1 for g in pairing.games if g.white in top and g.black in top)
        floaters = len(top) - 2 * inside
        if fewest is not None and floaters > fewest:
            out.append(Breach("C6", False, Remark(
                N_("C6: {n} players of the top scoregroup ({score} points) are paired outside "
                   "it where {fewest} would do"), n=floaters, score=_points(top_score),
                fewest=fewest), tuple(sorted(top))))
    # C.04.3 5.2: the colours
    for g in pairing.games:
        white, _black, rule = col.allocate(ctx.side(g.white), ctx.side(g.black),
                                           ctx.history.first_colour)
        if white != g.white:
            out.append(Breach("5.2", False, Remark(
                N_("C.04.3 5.2.{rule}: {white} should have white against {black}"), rule=rule,
                white=ctx.name(white), black=ctx.name(g.white)), (g.white, g.black)))
    out += _colour_facts(ctx, pairing)
    out += _float_facts(ctx, pairing)
    return out


def _points(x: float) -> str:
    return f"{x:g}"


def _colour_facts(ctx: Context, pairing: Pairing) -> list[Breach]:
    out: list[Breach] = []
    for g in pairing.games:
        tops = ctx.topscorer(g.white) or ctx.topscorer(g.black)
        for p, c in ((g.white, "w"), (g.black, "b")):
            seq = ctx.recs[p].colours()
            pref = col.preference(seq)
            after = [*seq, c]
            if tops and abs(col.difference(after)) > 2:
                out.append(_fact("C10", Remark(
                    N_("C10: {player} gets a colour difference of {cd}"), player=ctx.name(p),
                    cd=f"{col.difference(after):+d}"), p))
            if tops and len(after) >= 3 and after[-1] == after[-2] == after[-3]:
                out.append(_fact("C11", Remark(
                    N_("C11: {player} gets the same colour three times in a row"),
                    player=ctx.name(p)), p))
            if pref.colour is not None and pref.colour != c:
                out.append(_fact("C12", Remark(
                    N_("C12: {player} does not get his colour preference"),
                    player=ctx.name(p)), p))
                if pref.strength >= col.STRONG:
                    out.append(_fact("C13", Remark(
                        N_("C13: {player} does not get his strong colour preference"),
                        player=ctx.name(p)), p))
    return out


def _float_facts(ctx: Context, pairing: Pairing) -> list[Breach]:
    out: list[Breach] = []
    past = floats(ctx.history)
    now = _downfloats(ctx, pairing)
    texts = {
        ("down", 1): ("C14", N_("C14: {player} floats down again (downfloat last round)")),
        ("up", 1): ("C15", N_("C15: {player} floats up again (upfloat last round)")),
        ("down", 2): ("C16", N_("C16: {player} floats down again (downfloat two rounds "
                                "before)")),
        ("up", 2): ("C17", N_("C17: {player} floats up again (upfloat two rounds before)")),
    }
    for p, f in sorted(now.items()):
        hist = past.get(p, [])
        for back in (1, 2):
            if len(hist) >= back and hist[-back] == f:
                code, text = texts[(f, back)]
                out.append(_fact(code, Remark(text, player=ctx.name(p)), p))
    return out


def absolute(breaches: Iterable[Breach]) -> list[Breach]:
    return [b for b in breaches if b.absolute]


def warnings(history: History, pairing: Pairing, reference: Pairing | None = None,
             ) -> list[Breach]:
    """The criteria a (manual) pairing breaks, for the arbiter's warning: every breach of
    :func:`check_round`; each fact (C10-C17) only where ``reference`` (the engine's pairing
    of the same round, if given) has fewer of that criterion."""
    found = check_round(history, pairing)
    if reference is None:
        return [b for b in found if not b.fact]
    ref = check_round(history, reference)
    counts: dict[str, int] = {}
    for b in ref:
        if b.fact:
            counts[b.code] = counts.get(b.code, 0) + 1
    mine: dict[str, int] = {}
    for b in found:
        if b.fact:
            mine[b.code] = mine.get(b.code, 0) + 1
    return [b for b in found if not b.fact or mine[b.code] > counts.get(b.code, 0)]
