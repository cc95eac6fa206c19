"""The FIDE (Dutch) system (C.04.3, the 2026 rules) through the pinned ``caissify-pairings``.

Why a library: issue 26 measured ``caissify-pairings`` 0.5.0 (Apache-2.0, pure Python, on
networkx) against bbpPairings, the FIDE-endorsed engine of the 2026 Dutch rules, on 129 rounds
of 30 tournaments: it paired every round exactly as bbpPairings did, colours included, when
its caller built its input right; as it comes, 103 of 129, for four faults this adapter
removes:

1. it gives colours to the higher pairing number alone (C.04.3 1.2 ranks by score first):
   here the pairs it makes are kept and the colours allocated by C.04.3 5.2
   (:func:`companion.tournament.fide.colours.allocate`);
2. it counts requested half and zero-point byes as byes, barring those players from the
   pairing-allocated bye: here only the pairing-allocated and full-point byes count (and
   forfeit wins, C.04.1 4);
3. it counts a zero-point bye as a downfloat: here the float history is computed by the 2026
   rule (C.04.3 1.4.3: only the bye and unplayed rounds scoring more than a loss);
4. it never reports failure (with no legal pairing it gives everyone a bye): here the round
   is first checked to have a complete pairing at all (C4) and :class:`NoLegalPairing` is
   raised when none exists; every answer is then checked (:mod:`.criteria`) and one that
   breaks an absolute criterion is refused (:class:`EngineFault`), never published.

Its input is built from played games only (colours, opponents: a forfeit is neither),
the float history round by round, the pairing-allocated byes only, and only the players to
pair (the withdrawn, the absent, those with a requested bye and late entries not yet in are
left out). Scores are handed over in wins (a win = 1) so its topscorer threshold holds for any
point system.

Reading its 3,400 lines found nothing a Dutch of our own would do better: its bracket search
is a maximum weight matching per bracket with the C6-C21 criteria as weight fields, the
approach of bbpPairings; writing another would repeat that work without the measured
agreement. The library is pinned (``caissify-pairings==0.5.0``) because that agreement was
measured on that version.

Board order follows C.04.2 3.6: the higher score of a pair's higher ranked player, then the
sum of both scores, then the smaller TPN of the higher ranked player.
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from typing import Any

from companion.remark import N_, Remark
from companion.tournament.fide import colours as col
from companion.tournament.fide.criteria import Breach, Context, absolute, check_round, complete
from companion.tournament.fide.history import (
    REQUESTED,
    Bye,
    FideError,
    Game,
    History,
    Pairing,
    available,
    floats,
    numbered,
    pending,
)

ENGINE = "dutch"


class NoLegalPairing(FideError):
    """No pairing of the round keeps the absolute criteria (C.04.3 1.9.3: the Chief Arbiter
    decides)."""


class EngineFault(FideError):
    """An engine answered with a pairing that breaks an absolute criterion; ``breaches``
    says which."""

    def __init__(self, message: Remark, breaches: Sequence[Breach]) -> None:
        super().__init__(message)
        self.breaches = tuple(breaches)


def request_check(history: History, requested: Sequence[Bye]) -> None:
    """Refuse a round that cannot be paired yet: results missing, more rounds than the
    tournament has, a requested bye of a kind or for a player that does not fit."""
    for n, g in pending(history):
        raise FideError(Remark(N_("round {round}: the game {white} - {black} has no result"),
                               round=n, white=history.entrant(g.white).name,
                               black=history.entrant(g.black).name))
    nxt = len(history.rounds) + 1
    if history.total_rounds and nxt > history.total_rounds:
        raise FideError(Remark(N_("all {rounds} rounds are paired"),
                               rounds=history.total_rounds))
    seen: set[int] = set()
    for b in requested:
        history.entrant(b.player)
        if b.kind not in REQUESTED:
            raise FideError(Remark(N_("a bye of kind {kind} cannot be requested"), kind=b.kind))
        if b.player in seen:
            raise FideError(Remark(N_("two byes for player {player}"), player=b.player))
        seen.add(b.player)


def board_order(ctx: Context, games: Sequence[Game]) -> list[Game]:
    """C.04.2 3.6: by the higher score of the pair's higher ranked player, the sum of both
    scores, the smaller TPN of the higher ranked player."""

    def key(g: Game) -> tuple[float, float, int]:
        top = col.higher(ctx.side(g.white), ctx.side(g.black))
        return (-top.score, -(ctx.score[g.white] + ctx.score[g.black]), top.number)

    return sorted(games, key=key)


def _engine_players(ctx: Context, players: Sequence[int]) -> list[dict[str, Any]]:
    history = ctx.history
    win = history.scoring.win or 1.0
    fl = floats(history)
    out = []
    for p in players:
        rec = ctx.recs[p]
        e = rec.entrant
        barred = rec.bye_barred(history.scoring)
        out.append({
            "id": p,
            "name": e.name,
            "title": e.title,
            "rating": e.rating,
            "score": ctx.score[p] / win,
            "pairing_number": ctx.number[p],
            "starting_number": ctx.number[p],
            "color_hist": ["white" if c == "w" else "black" for c in rec.colours()],
            "float_history": list(fl[p]),
            # C.04.1 4: what bars the bye; the library reads both counts as "barred"
            "bye_count": 1 if barred else 0,
            "forfeit_win_count": 0,
        })
    return out


def _engine(ctx: Context, players: Sequence[int]) -> tuple[list[tuple[int, int]], list[int]]:
    """The library's pairs and byes for ``players``."""
    from caissify_pairings import generate_pairings

    history = ctx.history
    prev = {(g.white, g.black) for rnd in history.rounds for g in rnd.games
            if g.result in ("1-0", "0-1", "1/2")}
    total = max(history.total_rounds, ctx.round)
    with warnings.catch_warnings():
        # a round where nobody has floated yet is legitimate; the library's warning is for
        # callers that forget the float history, which is always given here
        warnings.simplefilter("ignore")
        answer = generate_pairings("dutch", _engine_players(ctx, players), prev, ctx.round,
                                   total, bye_value=history.scoring.pab / (history.scoring.win
                                                                           or 1.0),
                                   initial_color=history.first_colour)
    pairs: list[tuple[int, int]] = []
    byes: list[int] = []
    for row in answer:
        if row.get("black_id") is None:
            byes.append(int(row["white_id"]))
        else:
            pairs.append((int(row["white_id"]), int(row["black_id"])))
    return pairs, byes


def pair_dutch(history: History, requested: Sequence[Bye] = ()) -> Pairing:
    """The next round of ``history`` by the FIDE (Dutch) system.

    ``requested`` are the round's requested byes and absences (``half``, ``zero``, ``full``,
    ``absent``: withdrawn players too); those players, and late entries not yet in, are not
    paired. Start numbers missing from the history are assigned by the initial order.
    Raises :class:`NoLegalPairing` when no pairing keeps the absolute criteria,
    :class:`EngineFault` if the engine's answer breaks one, FideError for a history or a
    request that does not fit.
    """
    history = numbered(history)
    request_check(history, requested)
    ctx = Context.of(history)
    players = available(history, requested)
    pairing = Pairing(ctx.round, (), None, tuple(requested), ENGINE)
    if not players:
        return pairing
    if not complete(ctx, players):
        raise NoLegalPairing(_why_not(ctx, players))
    pairs, byes = _engine(ctx, players)
    games = []
    for a, b in pairs:
        white, black, _rule = col.allocate(ctx.side(a), ctx.side(b), history.first_colour)
        games.append(Game(white, black))
    if len(byes) > 1:
        raise EngineFault(Remark(N_("the Dutch engine left {n} players without a game"),
                                 n=len(byes)), ())
    proposal = Pairing(ctx.round, tuple(board_order(ctx, games)), byes[0] if byes else None,
                       tuple(requested), ENGINE)
    refuse_broken(history, proposal, N_("the Dutch engine"))
    return proposal


def refuse_broken(history: History, proposal: Pairing, who: str) -> list[Breach]:
    """Check ``proposal``; raise :class:`EngineFault` naming the first absolute breach, else
    return the quality breaches (facts included)."""
    found = check_round(history, proposal)
    bad = absolute(found)
    if bad:
        raise EngineFault(Remark(N_("{engine} paired against the rules: {breach}"),
                                 engine=Remark(who), breach=bad[0].text), bad)
    return found


def _why_not(ctx: Context, players: Sequence[int]) -> Remark:
    if len(players) == 1 and not ctx.bye_ok(players[0]):
        return Remark(N_("round {round} cannot be paired: {player} is the only player and may "
                         "not get a second pairing-allocated bye (C2); the Chief Arbiter "
                         "decides"), round=ctx.round, player=ctx.name(players[0]))
    if len(players) % 2 and not any(ctx.bye_ok(p) for p in players):
        return Remark(N_("round {round} cannot be paired: the number of players is odd and "
                         "every one of them has had the pairing-allocated bye or won a round "
                         "without playing (C2); the Chief Arbiter decides"), round=ctx.round)
    return Remark(N_("round {round} cannot be paired: no pairing keeps every player from "
                     "meeting an opponent again (C1) or two players who must have the same "
                     "colour from meeting (C3); the Chief Arbiter decides"), round=ctx.round)
