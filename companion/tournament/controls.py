"""The arbiter's controls on the night, as records of the tournament file.

The command line (``companion tournament bye|bye-cancel|withdraw|reinstate|unpair|repair|
lots|settings|add-player``) and the arbiter's page (:mod:`.desk`) make their records here, so
both write the same thing and the fold (:mod:`.model`) checks it the same way:

- a **late entry**: a ``player`` record after round 1 is paired, ``late_from`` the first round
  he can be paired in; the rounds he missed count the tournament's ``late_points`` (0 or ½);
- a **requested bye** (``bye``, ½ or 0 point) for a round not yet paired, up to ``max_byes``,
  never in ``bye_rounds_closed``; ``bye-cancel`` takes it back;
- **withdraw** from round N (not paired from then on, absent) and **reinstate** from a later
  round;
- **unpair** the last round while none of its results is in;
- a **manual pairing**, a **swap** of two players or a **colour change** of a board of the last
  round (while none of its results is in): a ``repair`` record (engine ``manual``) carrying,
  as warnings, each FIDE criterion the new pairing breaks (:func:`.pairing.warnings_for`),
  accepted all the same: the arbiter decides;
- **numbers by lot** for a round robin before round 1: a ``numbers`` record with the seed,
  which the fold draws again to check;
- **settings** (tie-breaks, byes, late points, the event's TRF lines): a ``settings`` record.

Pure: the tournament in, record bodies out (the caller stamps them with the wall time, who
wrote them and why).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from companion.remark import N_, Remark
from companion.tournament.model import Player, Tournament, lot_numbers, refuse


def late_entry(t: Tournament, fields: Mapping[str, Any], from_round: int | None = None
               ) -> dict[str, Any]:
    """A ``player`` record (a late entry once round 1 is paired, from ``from_round`` or the
    next round)."""
    body: dict[str, Any] = {"ev": "player", "id": len(t.players) + 1, **fields}
    if t.played:
        body["late_from"] = from_round or t.next_round
    elif from_round is not None and from_round > 1:
        raise refuse(N_("a player entered before round 1 is paired plays from round 1"))
    return body


def bye(t: Tournament, who: Player, round_no: int | None, points: float) -> dict[str, Any]:
    """A requested bye (½ or 0 point) in ``round_no`` (default: the next round)."""
    return {"ev": "bye", "player": who.id, "round": round_no or t.next_round,
            "points": 0.5 if points == 0.5 else 0}


def bye_cancel(t: Tournament, who: Player, round_no: int | None) -> dict[str, Any]:
    return {"ev": "bye-cancel", "player": who.id, "round": round_no or t.next_round}


def withdraw(t: Tournament, who: Player, from_round: int | None, back: bool = False
             ) -> dict[str, Any]:
    """A withdrawal from ``from_round`` (default: the next round), or with ``back`` the
    player's return from that round."""
    if t.system == "round-robin" and not back:
        raise refuse(N_("a round robin keeps its table: record the player's games as "
                        "forfeits instead (`tournament result ... -+`)"))
    return {"ev": "reinstate" if back else "withdraw", "player": who.id,
            "from": from_round or t.next_round}


def unpair(t: Tournament) -> dict[str, Any]:
    last = t.current
    if last is None:
        raise refuse(N_("no round is paired yet"))
    return {"ev": "unpair", "round": last.number}


def _last_open(t: Tournament) -> dict[str, Any]:
    last = t.current
    if last is None:
        raise refuse(N_("no round is paired yet"))
    if last.started:
        raise refuse(N_("round {round} has results already"), round=last.number)
    return last.to_dict()


def _repair(t: Tournament, body: dict[str, Any]) -> tuple[dict[str, Any], list[Remark]]:
    from companion.tournament.pairing import warnings_for

    number = int(body["round"])
    out = {"ev": "repair", **body, "engine": "manual"}
    found = warnings_for(t, number, out)
    out["warnings"] = [str(w)[:300] for w in found[:50]]  # what a record holds
    return out, found


def swap(t: Tournament, a: Player, b: Player) -> tuple[dict[str, Any], list[Remark]]:
    """The last round with ``a`` and ``b`` in each other's place (games or the
    pairing-allocated bye; in the same game: the colours changed)."""
    body = _last_open(t)
    places = 0
    for g in body["games"]:
        for side in ("first", "second"):
            if g[side] == a.id:
                g[side], places = b.id, places | 1
            elif g[side] == b.id:
                g[side], places = a.id, places | 2
    for bye_ in body["byes"]:
        if bye_["kind"] != "pab":
            continue
        if bye_["player"] == a.id:
            bye_["player"], places = b.id, places | 1
        elif bye_["player"] == b.id:
            bye_["player"], places = a.id, places | 2
    if places != 3:
        who = b if places & 1 else a
        raise refuse(N_("{name} has no game or pairing-allocated bye in round {round} to "
                        "swap"), name=who.name, round=body["round"])
    return _repair(t, body)


def colours(t: Tournament, board: int) -> tuple[dict[str, Any], list[Remark]]:
    """The last round with board ``board``'s colours changed (who moves first)."""
    body = _last_open(t)
    for g in body["games"]:
        if g["board"] == board:
            g["first"], g["second"] = g["second"], g["first"]
            return _repair(t, body)
    raise refuse(N_("round {round} has no board {board}"), round=body["round"], board=board)


def manual(t: Tournament, pairs: Sequence[tuple[Player, Player]], bye_to: Player | None
           ) -> tuple[dict[str, Any], list[Remark]]:
    """The last round paired by hand: ``pairs`` (first mover first) on boards 1, 2, ...,
    ``bye_to`` the pairing-allocated bye; the byes asked for and the absences kept."""
    body = _last_open(t)
    first_table = t.settings.first_table
    body["games"] = [{"board": n, "table": first_table + n - 1, "first": a.id, "second": b.id}
                     for n, (a, b) in enumerate(pairs, start=1)]
    body["byes"] = [b for b in body["byes"] if b["kind"] != "pab"]
    if bye_to is not None:
        body["byes"].insert(0, {"player": bye_to.id, "kind": "pab"})
    return _repair(t, body)


def manual_next(t: Tournament, pairs: Sequence[tuple[Player, Player]], bye_to: Player | None
                ) -> tuple[list[dict[str, Any]], list[Remark]]:
    """The next round paired by hand (``pair --pairs``): the starting numbers when missing,
    then the ``pair`` record (engine ``manual``) with the criteria it breaks as warnings."""

    from companion.tournament.pairing import numbered_for_pairing, record_of, warnings_for

    t, number, records = numbered_for_pairing(t)
    body = record_of(t, number, [(a.id, b.id) for a, b in pairs],
                     bye_to.id if bye_to is not None else None, "manual")
    found = warnings_for(t, number, body)
    body["warnings"] = [str(w)[:300] for w in found[:50]]
    return [*records, body], found


def parse_pairs(t: Tournament, text: str) -> list[tuple[Player, Player]]:
    """``"Ann-Bob, 3-7"``: pairs of players by name or entry number, first mover first."""
    out = []
    for part in text.split(","):
        if not part.strip():
            continue
        sides = part.split("-")
        if len(sides) != 2:
            raise refuse(N_("a pair is FIRST-SECOND (names or entry numbers), not {text}"),
                         text=part.strip()[:60])
        out.append((t.find(sides[0]), t.find(sides[1])))
    if not out:
        raise refuse(N_("give the round's pairs: FIRST-SECOND, FIRST-SECOND, ..."))
    return out


def lots(t: Tournament, seed: str) -> dict[str, Any]:
    """Starting numbers drawn by lot (a round robin, before round 1)."""
    if t.system != "round-robin":
        raise refuse(N_("numbers by lot are for a round robin; a Swiss numbers its players by "
                        "the initial ranking"))
    if t.played:
        raise refuse(N_("a draw of lots has a seed and comes before round 1"))
    drawn = lot_numbers(t.players, seed)
    return {"ev": "numbers", "numbers": {str(k): v for k, v in sorted(drawn.items())},
            "lot": {"seed": seed}}


def settings(changes: Mapping[str, Any]) -> dict[str, Any]:
    if not changes:
        raise refuse(N_("a settings record changes at least one setting"))
    return {"ev": "settings", "settings": dict(changes)}
