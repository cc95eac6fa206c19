"""Shared by the keypad games' arbiter facets (Tantrix, Tokami): a table played from the keypad
alone, whose state is the ``companion simulate`` contract's object.

Nothing changes between two records of such a game, so its mirror only plays each record through
the game's own engine and gives that state (plus the refused inputs, each with its game time, for
the page's alerts); :func:`keypad_card` puts it on the page.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

from companion.arbiter.kinds import RECENT_S
from companion.i18n import _

#: How a game says a refused input on the page: ``(state, player, detail) -> (player, detail)``
#: in the arbiter's language (the state gives the layout, so cells are named as on the table).
Words = Callable[[Mapping[str, Any], str, str], tuple[str, str]]


def as_written(state: Mapping[str, Any], player: str, detail: str) -> tuple[str, str]:
    """A refused input as the rules wrote it (a game without words of its own)."""
    return player, detail


def record_time(record: Mapping[str, Any], last: float) -> float:
    """A record's game time, or ``last`` when it has none (or goes back in time)."""
    t = record.get("t")
    if isinstance(t, (int, float)) and not isinstance(t, bool) and t >= last:
        return float(t)
    return last


def keypad_card(
    out: dict[str, Any],
    name: str,
    state: Mapping[str, Any],
    header: Mapping[str, Any],
    *,
    elapsed: float,
    online: bool,
    board: str,
    header_fields: Iterable[str] = (),
    words: Words = as_written,
) -> None:
    """A keypad table's part of the page's card.

    The game's ``simulate`` state goes under the game's ``name`` (so a Tokami round never reads
    as the tournament's round), with the ``header_fields`` its picture needs; whose turn and the
    result at the top as for every game, and ``"board"``, the address of the board's picture. A
    refused input stays on the alert list for :data:`RECENT_S` seconds of game time, said in
    the arbiter's language by the game's ``words``.
    """
    over = bool(state.get("over"))
    t_state = float(state.get("t") or 0.0)
    running = online and not over
    t_now = t_state + (elapsed if running else 0.0)
    violations = [v for v in state.get("violations", []) if isinstance(v, Mapping)]
    alerts: list[dict[str, str]] = out["alerts"]
    for v in violations:
        t = v.get("t")
        if isinstance(t, (int, float)) and t_now - float(t) < RECENT_S:
            player, detail = words(state, str(v.get("player")), str(v.get("detail")))
            alerts.append({"kind": "refused", "text": _("refused ({player}): {detail}").format(
                player=player, detail=detail)})
    shown = {k: v for k, v in state.items() if k not in ("game", "history")}
    shown["violations"] = violations
    for field in header_fields:
        if field in header:
            shown[field] = header[field]
    out.update(
        t=round(t_now, 2),
        turn=None if over else state.get("turn"),
        over=over,
        winner=state.get("winner"),
        reason=state.get("reason") or ("ended" if state.get("ended") else None),
        players=list(state.get("players", [])),
        board=board,
    )
    out[name] = shown


def snapshot_card(
    out: dict[str, Any],
    name: str,
    state: Mapping[str, Any],
    header: Mapping[str, Any],
    *,
    elapsed: float,
    online: bool,
    board: str,
    header_fields: Iterable[str] = (),
    words: Words = as_written,
) -> bool:
    """:func:`keypad_card` from a retained snapshot whose state is this game's."""
    if state.get("game") != name:
        return False
    keypad_card(out, name, state, header, elapsed=elapsed, online=online, board=board,
                header_fields=header_fields, words=words)
    return True


def no_dispute(
    header: Mapping[str, Any],
    events: list[tuple[int, dict[str, Any]]],
    *,
    moment: float,
    lo: float,
    hi: float,
) -> list[str] | None:
    """The dispute report of a game that tells none."""
    return None


def no_station(table: Any, clock: Any) -> None:
    """Arbiter mode at the table, for a game that has none."""
    return None
