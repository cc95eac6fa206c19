"""FIDE TRF-2016 of a tournament file, both ways: the one TRF writer and the import.

Written (``standings --trf``, the page's ``/results.trf``, the demo) by
:func:`companion.tournament.fide.trf.write` from the tournament's neutral history
(:mod:`.neutral`): the names as written (UTF-8), the header lines ``012`` to ``132`` (the
event's settings: city, federation, dates, chief arbiter and deputies, time control; the
round dates are the days each round was paired), ``XXR`` and ``XXC``, every player field
(sex, title, name, rating, federation, FIDE ID, birth date, points, rank) and each round's
column. The ranks are the standings'.

Read (:func:`import_records`, ``companion tournament import-trf``): a TRF from Swiss Manager,
Vega or this program becomes the records of a new tournament file, each signed and marked
``via`` ``import-trf``: the players with their fields, the starting numbers, then round by
round the ½ and 0 byes asked for (``bye``), the pairing (``pair``, engine ``manual``), the
results (``result``, from the TRF file) and the withdrawals (a player without a game from a
round to the end, and in the column of the next round when the file has one:
``withdraw``). What the format cannot say is said here: a late entrant's missed rounds come
in as the byes they scored (``H``: ½, ``Z``: 0), and a full-point bye (``F``) has no place in
this program's rounds and is refused.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from companion.remark import N_
from companion.tournament.fide import trf as fide_trf
from companion.tournament.fide.history import FideError, History
from companion.tournament.model import Tournament, TournamentError, refuse


def _kind(t: Tournament) -> str:
    return {"swiss": "Swiss (FIDE Dutch system)", "swiss-simple": "Swiss (simplified)",
            "round-robin": "Double round robin" if t.settings.double else "Round robin"
            }[t.system]


def round_dates(t: Tournament) -> tuple[str, ...]:
    """The day each round still paired was paired (YY/MM/DD, this laptop's time)."""
    days: list[str] = []
    for c in t.trail:
        if c.ev == "pair":
            days.append(datetime.fromtimestamp(c.wall).strftime("%y/%m/%d"))
        elif c.ev == "unpair" and days:
            days.pop()
    return tuple(days[:len(t.played)])


def header(t: Tournament) -> fide_trf.Header:
    s = t.settings
    return fide_trf.Header(name=t.name, city=s.city, federation=s.host_federation,
                           start=s.start_date, end=s.end_date, kind=_kind(t),
                           arbiter=s.chief_arbiter, deputies=s.deputy_arbiters,
                           time_control=s.time_control, round_dates=round_dates(t))


def to_trf(t: Tournament, ranks: Mapping[int, int] | None = None) -> str:
    """The tournament as TRF-2016 (UTF-8 text, CRLF lines; rounds paired so far); ``ranks``
    by player id (default: the standings')."""
    from companion.tournament.neutral import history_of

    if ranks is None:
        from companion.tournament.standings import standings

        ranks = {row.id: row.rank for row in standings(t).rows}
    try:
        return fide_trf.write(history_of(t), header(t), ranks=ranks)
    except FideError as exc:
        raise TournamentError(exc.remark) from None


# ---------------------------------------------------------------------------- reading

_RESULT = {"1-0": ("first", False), "0-1": ("second", False), "1/2": ("tie", False),
           "+-": ("first", True), "-+": ("second", True), "--": ("none", True)}


def read(data: bytes | str) -> fide_trf.TrfFile:
    try:
        return fide_trf.read(data)
    except FideError as exc:
        raise TournamentError(exc.remark) from None


def settings_of(f: fide_trf.TrfFile) -> dict[str, Any]:
    """The tournament settings a TRF states (its point system must be this program's)."""
    sc = f.history.scoring
    if (sc.win, sc.draw, sc.loss) != (1.0, 0.5, 0.0) or sc.pab not in (1.0, 0.5, 0.0):
        raise refuse(N_("the TRF counts {win}/{draw}/{loss} for a win, a draw, a loss: this "
                        "program counts 1/½/0"), win=f"{sc.win:g}", draw=f"{sc.draw:g}",
                     loss=f"{sc.loss:g}")
    h = f.header
    out: dict[str, Any] = {"bye_points": sc.pab, "first_colour": f.history.first_colour}
    for key, value in (("city", h.city), ("chief_arbiter", h.arbiter),
                       ("time_control", h.time_control)):
        if value:
            out[key] = value[:60]
    if h.federation:
        out["host_federation"] = h.federation
    for key, value in (("start_date", h.start), ("end_date", h.end)):
        if value:
            out[key] = value
    if h.deputies:
        out["deputy_arbiters"] = list(h.deputies)
    return out


def _withdrawn_from(history: History, requested: Sequence[Any]) -> dict[int, int]:
    """Who withdrew, from which round: no game from that round to the last (a zero-point
    absence each round), either over two rounds or more, or into the next round's column."""
    last = len(history.rounds)
    nxt = {b.player for b in requested if b.kind in ("zero", "absent")}
    out: dict[int, int] = {}
    for e in history.players:
        start = None
        for n in range(last, 0, -1):
            rnd = history.rounds[n - 1]
            kinds = [b.kind for b in rnd.byes if b.player == e.id]
            played = any(e.id in (g.white, g.black) for g in rnd.games)
            if played or not kinds or kinds[0] not in ("zero", "absent"):
                break
            start = n
        if start is not None and (last - start + 1 >= 2 or e.id in nxt):
            out[e.id] = start
    return out


def import_records(f: fide_trf.TrfFile, game: str, file_name: str) -> list[dict[str, Any]]:
    """The records (after the header) that make a tournament of the TRF ``f``; their
    ``result`` records carry the game's default reason for each result."""
    from companion.tournament.outcome import default_reason

    history = f.history
    for n, rnd in enumerate(history.rounds, start=1):
        for b in rnd.byes:
            if b.kind == "full":
                raise refuse(N_("round {round}: a full-point bye (F) has no place in this "
                                "program's rounds"), round=n)
    records: list[dict[str, Any]] = []
    ids: dict[int, int] = {}  # TRF start number -> entry number
    for e in sorted(history.players, key=lambda e: e.number):
        ids[e.id] = len(ids) + 1
        body: dict[str, Any] = {"ev": "player", "id": ids[e.id], "name": e.name[:60]}
        if e.rating:
            body["rating"] = e.rating
        for key, value in (("title", e.title.upper()), ("sex", e.sex), ("federation",
                                                                         e.federation),
                           ("birth", e.birth)):
            if value:
                body[key] = value
        if e.fide_id.strip().isdigit():
            body["fide_id"] = int(e.fide_id)
        records.append(body)
    records.append({"ev": "numbers", "numbers": {str(ids[e.id]): e.number
                                                 for e in history.players}})
    gone = _withdrawn_from(history, f.requested)
    for n, rnd in enumerate(history.rounds, start=1):
        for pid, start in sorted(gone.items()):
            if start == n:
                records.append({"ev": "withdraw", "player": ids[pid], "from": n})
        for b in rnd.byes:
            if b.kind in ("half", "zero") and gone.get(b.player, n + 1) > n:
                records.append({"ev": "bye", "player": ids[b.player], "round": n,
                                "points": 0.5 if b.kind == "half" else 0})
        byes = [{"player": ids[b.player], "kind": "pab"} for b in rnd.byes if b.kind == "pab"]
        byes += [{"player": ids[b.player], "kind": b.kind} for b in rnd.byes
                 if b.kind in ("half", "zero") and gone.get(b.player, n + 1) > n]
        byes += [{"player": ids[b.player], "kind": "absent"} for b in rnd.byes
                 if b.kind in ("zero", "absent") and gone.get(b.player, n + 1) <= n]
        games = [{"board": i, "first": ids[g.white], "second": ids[g.black]}
                 for i, g in enumerate(rnd.games, start=1)]
        records.append({"ev": "pair", "round": n, "games": games, "byes": byes,
                        "engine": "manual", "warnings": []})
        for i, g in enumerate(rnd.games, start=1):
            if g.result is None:
                continue
            winner, forfeit = _RESULT[g.result]
            result = {"winner": winner, "forfeit": forfeit, "score": None,
                      "reason": default_reason(game, winner, forfeit, None)}
            records.append({"ev": "result", "round": n, "board": i, "result": result,
                            "source": {"kind": "trf", "file": file_name[:200]},
                            "replaces": None, "rounds_after": []})
    return records


def max_byes(records: Sequence[Mapping[str, Any]]) -> int:
    """The most requested byes one player of the imported records asks for."""
    count: dict[int, int] = {}
    for r in records:
        if r["ev"] == "bye":
            count[r["player"]] = count.get(r["player"], 0) + 1
    return max(count.values(), default=0)
