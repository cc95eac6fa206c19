"""Arbiter corrections: journal events that put the record right, never edits.

A correction is one more line in the journal, with the time it was made, what it changes, why,
and who made it::

    {"t": 84.2, "ev": "correct", "what": "sand", "glass": "r1", "sand": 63.0,
     "reason": "the tilt switch missed the turn", "by": "arbiter", "auth": "pin"}

The engine applies it in the fold, so ``companion simulate``, ``replay`` and ``verify`` all show
it, and the line it corrects stays in the journal exactly as it was written. Only the arbiter
may correct: a record without ``"by": "arbiter"`` is refused by the rules (the table adds that
field only after the PIN check or a signed command; the players' buttons never make one).

What a correction can do (``what``, then its fields):

``sand`` (``glass``, ``sand``, optional ``running``)
    The glass's upper part holds ``sand`` seconds at ``t`` (0 to its period). A running glass
    runs on from there; ``sand`` 0 means it ran out at ``t``; a lost glass given sand lives and
    runs again. ``running`` (true or false) also says whether it is running. Levels 2-3 only.
``space`` (``glass``, ``space``: a space or null)
    The glass stands on ``space`` (null: somewhere unknown). Not a move: the turn, the rings and
    the first-three-moves count stay; an open ring window over that glass follows it.
``add-ring`` / ``remove-ring`` (``player``, ``space``)
    One of the player's rings goes onto ``space`` from his supply, or back from ``space`` to
    it. ``remove-ring`` with ``space`` null takes back a ring dropped where nobody knew.
``undo`` (optional ``target_t``, ``target_ev``)
    Takes back the last game input still in effect (a ``lift``, ``release``, ``putback``,
    ``ring``, ``timer15``, ``pass`` or ``end``; accepted or refused; never a note or a
    correction). Re-fold semantics: the game is rebuilt from its start with every input and
    correction in effect except that one, each at its own time, then run on to the undo's time,
    so everything after the undone input is judged again as if it had never happened. Undo
    again to take back the input before it. ``target_t``/``target_ev``, when given, must match
    that input (the table fills them in so an input arriving meanwhile is never undone by
    mistake). The journal's ``seq`` is not part of the event the engine sees, which is why the
    target is named by time and kind; ``companion dispute`` shows its ``seq``.
``penalty`` (``player``, ``kind``: late, forfeit or pass)
    The arbiter rules that the player overran (or passed): the same consequence as when the
    engine sees it. If the player is on turn his turn ends; if not, the consequence still to
    come is given (``adjusted``: the opponent, on turn, may drop a second ring; ``original``:
    the offender's next turn is skipped).
``cancel-penalty`` (``index``, optional ``penalty_t``)
    Penalty number ``index`` (0 first, as listed in ``penalties``) is struck out, with its
    consequence still to come (an unused second-ring right, a pending skip). A turn already
    lost is not given back: ``turn`` does that.
``turn`` (``player``)
    It is now this player's turn.
``result`` (``winner``: red, black or tie; optional ``forfeit``)
    The arbiter declares the result: the game is over at ``t`` (``reason`` "arbiter", or
    "forfeit" when a player forfeited the game) and the result is confirmed.
``confirm``
    The arbiter confirms the result the rules reached (the game must be over).
``next-round`` (``round``)
    The result stands and the table moves on to round ``round`` (the game must be over); the
    table starts a new journal for it.

A correction that cannot be applied (a glass that is not there, a full space, nothing to undo)
is refused like any input: a violation of kind ``correction`` that changes nothing.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from companion.tamsk.board import CAPACITY, RINGS_PER_PLAYER
from companion.tamsk.correction_record import (
    ADD_RING,
    ARBITER,
    CANCEL_PENALTY,
    CONFIRM,
    NEXT_ROUND,
    PENALTY,
    PENALTY_KINDS,
    REMOVE_RING,
    RESULT,
    SAND,
    SPACE,
    TURN,
    UNDO,
    UNDOABLE,
    WHATS,
    WINNERS,
    Correction,
    parse_correction,
)
from companion.tamsk.events import CORRECT, Event
from companion.tamsk.names import opponent

if TYPE_CHECKING:
    from companion.tamsk.game import Game, Violation

# ---------------------------------------------------------------------- applying


def apply_correction(game: Game, event: Event) -> Violation | None:
    """Apply one ``correct`` event to ``game`` at ``event.t`` (the game's time already there).

    Returns the violation when the correction is refused; then nothing changed.
    """
    c = event.correction
    assert c is not None
    t = event.t
    if c.by != ARBITER:
        return game._refuse(
            t,
            None,
            "not-arbiter",
            f'corrections are made by the arbiter only, not by {c.by!r}',
        )
    problem = _APPLY[c.what](game, t, c)
    if problem is not None:
        return game._refuse(t, c.player, "correction", f"{c.what}: {problem}")
    entry: dict[str, Any] = {"t": t, **c.to_dict()}
    game.corrections.append(entry)
    return None


def _sand(game: Game, t: float, c: Correction) -> str | None:
    assert c.glass is not None and c.sand is not None
    if not game.rules.timed:
        return f"level {game.rules.level} glasses are plain pieces: they hold no sand"
    g = game.glasses[c.glass]
    if c.sand > g.period:
        return f"{c.glass} holds at most {g.period:g} s, not {c.sand:g}"
    if c.sand == 0.0:
        if g.dead:
            return f"{c.glass} has already run out"
        game._glass_dies(g, t)
        game._recompute_deadline()
        return None
    if g.dead:
        g.dead = False
        g.died_at = None
        g.running = True
    if c.running is not None:
        g.running = c.running
    g.sand = c.sand
    g.ref = t
    game._recompute_deadline()
    return None


def _space_fix(game: Game, t: float, c: Correction) -> str | None:
    assert c.glass is not None
    g = game.glasses[c.glass]
    to = c.space
    if to is not None:
        holder = game.occupant(to)
        if holder == c.glass:
            return f"{c.glass} already stands on {to}"
        if holder is not None:
            return f"{to} is taken by {holder}"
    elif g.space is None and g.placed:
        return f"{c.glass} is already somewhere unknown"
    if g.space is not None:
        del game._at[g.space]
    elif g.placed:
        game._unknown -= 1
    if to is not None:
        game._at[to] = c.glass
    else:
        game._unknown += 1
    g.space = to
    g.placed = True
    for window in game.windows:
        if window.move.glass == c.glass and not window.dropped:
            window.move.to = to
    return None


def _add_ring(game: Game, t: float, c: Correction) -> str | None:
    assert c.player is not None and c.space is not None
    if game.rings_left[c.player] <= 0:
        return f"{c.player} has no rings left"
    if game.is_full(c.space):
        return f"{c.space} is full ({CAPACITY[c.space]})"
    game.rings_left[c.player] -= 1
    game.rings_on[c.space] = game.rings_on.get(c.space, 0) + 1
    return None


def _remove_ring(game: Game, t: float, c: Correction) -> str | None:
    assert c.player is not None
    if game.rings_left[c.player] >= RINGS_PER_PLAYER:
        return f"{c.player} has all his {RINGS_PER_PLAYER} rings: none of his is on the board"
    if c.space is None:
        if game.rings_unplaced <= 0:
            return "no ring was dropped on an unknown space"
        game.rings_unplaced -= 1
    else:
        n = game.rings_on.get(c.space, 0)
        if n <= 0:
            return f"there is no ring on {c.space}"
        if n == 1:
            del game.rings_on[c.space]
        else:
            game.rings_on[c.space] = n - 1
    game.rings_left[c.player] += 1
    return None


def _undo(game: Game, t: float, c: Correction) -> str | None:
    history = game.history  # the undo itself is never kept there
    index = next(
        (i for i in range(len(history) - 1, -1, -1) if history[i].kind in UNDOABLE), None
    )
    if index is None:
        return "there is no input to undo"
    target = history[index]
    if c.target_t is not None and abs(target.t - c.target_t) > 1e-6:
        return f"the last input is at t={target.t:g}, not at t={c.target_t:g}"
    if c.target_ev is not None and target.kind != c.target_ev:
        return f"the last input is a {target.kind}, not a {c.target_ev}"
    rebuilt = type(game)(game.rules)
    for event in history[:index] + history[index + 1 :]:
        rebuilt.apply(event)
    rebuilt.advance(t)
    log = list(game.corrections)
    undone = list(game.undone)
    game.__dict__.clear()
    game.__dict__.update(rebuilt.__dict__)
    game.corrections = log
    game.undone = [*undone, target.to_dict()]
    return None


def _penalty(game: Game, t: float, c: Correction) -> str | None:
    assert c.player is not None and c.kind is not None

    if game.over:
        return "the game is over"
    offender = c.player
    if c.kind == "pass" and game.rules.level < 3:
        return f"a pass is only a penalty at level 3 (this game is level {game.rules.level})"
    if game.turn == offender:
        if c.kind == "late" and offender in game.in_hand:
            game.late.add(offender)
        game._penalise(t, offender, c.kind)
        return None
    game._consequence_to_come(t, offender, c.kind)
    return None


def _cancel_penalty(game: Game, t: float, c: Correction) -> str | None:
    assert c.index is not None
    if c.index >= len(game.penalties):
        n = len(game.penalties)
        return f"there is no penalty number {c.index} ({n} recorded, numbered from 0)"
    p = game.penalties[c.index]
    if c.penalty_t is not None and abs(p.t - c.penalty_t) > 1e-6:
        return f"penalty {c.index} is at t={p.t:g}, not t={c.penalty_t:g}"
    del game.penalties[c.index]
    if game.rules.ruleset == "original":
        game.skip_next.discard(p.player)
    else:
        game.bonuses = [
            b for b in game.bonuses if b.used or b.player != opponent(p.player)
        ]
    return None


def _turn(game: Game, t: float, c: Correction) -> str | None:
    assert c.player is not None
    if game.over:
        return "the game is over"
    if game.turn == c.player:
        return f"it is already {c.player}'s turn"
    game.turn = c.player
    game.turn_no += 1
    game._autopassed = None
    return None


def _result(game: Game, t: float, c: Correction) -> str | None:
    assert c.winner is not None
    game._declare(t, c.winner, "forfeit" if c.forfeit else "arbiter", ARBITER)
    game.confirmed = True
    return None


def _confirm(game: Game, t: float, c: Correction) -> str | None:
    if not game.over:
        return "the game is not over: declare the result instead"
    game.confirmed = True
    return None


def _next_round(game: Game, t: float, c: Correction) -> str | None:
    if not game.over:
        return "the game is not over: declare or confirm the result first"
    game.confirmed = True
    game.next_round = c.round
    return None


_APPLY = {
    SAND: _sand,
    SPACE: _space_fix,
    ADD_RING: _add_ring,
    REMOVE_RING: _remove_ring,
    UNDO: _undo,
    PENALTY: _penalty,
    CANCEL_PENALTY: _cancel_penalty,
    TURN: _turn,
    RESULT: _result,
    CONFIRM: _confirm,
    NEXT_ROUND: _next_round,
}


def correction(t: float, what: str, reason: str, **fields_: Any) -> Event:
    """A ``correct`` event made by the arbiter (for tests and the arbiter's menu)."""
    obj = {"what": what, "reason": reason, "by": ARBITER, **fields_}
    return Event(CORRECT, t, correction=parse_correction(obj))


__all__ = [
    "ADD_RING",
    "ARBITER",
    "CANCEL_PENALTY",
    "CONFIRM",
    "CORRECT",
    "NEXT_ROUND",
    "PENALTY",
    "PENALTY_KINDS",
    "REMOVE_RING",
    "RESULT",
    "SAND",
    "SPACE",
    "TURN",
    "UNDO",
    "WINNERS",
    "Correction",
    "UNDOABLE",
    "WHATS",
    "apply_correction",
    "correction",
    "parse_correction",
]
