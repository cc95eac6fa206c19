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

from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import TYPE_CHECKING, Any

from companion.scenario import MalformedInput
from companion.tamsk.board import CAPACITY, RINGS_PER_PLAYER, is_space
from companion.tamsk.events import (
    CORRECT,
    END,
    GLASSES,
    LIFT,
    PASS,
    PLAYERS,
    PUTBACK,
    RELEASE,
    RING,
    TIMER15,
    Event,
    opponent,
)

if TYPE_CHECKING:
    from companion.tamsk.game import Game, Violation

ARBITER = "arbiter"

SAND = "sand"
SPACE = "space"
ADD_RING = "add-ring"
REMOVE_RING = "remove-ring"
UNDO = "undo"
PENALTY = "penalty"
CANCEL_PENALTY = "cancel-penalty"
TURN = "turn"
RESULT = "result"
CONFIRM = "confirm"
NEXT_ROUND = "next-round"

WHATS = (
    SAND,
    SPACE,
    ADD_RING,
    REMOVE_RING,
    UNDO,
    PENALTY,
    CANCEL_PENALTY,
    TURN,
    RESULT,
    CONFIRM,
    NEXT_ROUND,
)

#: The inputs an ``undo`` may take back.
UNDOABLE = (LIFT, RELEASE, PUTBACK, RING, TIMER15, PASS, END)
PENALTY_KINDS = ("late", "forfeit", "pass")
WINNERS = ("red", "black", "tie")


@dataclass(frozen=True, slots=True)
class Correction:
    """One correction's fields (unused ones are ``None``), in the order a journal writes them."""

    what: str
    reason: str
    by: str
    glass: str | None = None
    space: str | None = None
    player: str | None = None
    sand: float | None = None
    running: bool | None = None
    kind: str | None = None
    index: int | None = None
    penalty_t: float | None = None
    target_t: float | None = None
    target_ev: str | None = None
    winner: str | None = None
    forfeit: bool | None = None
    round: int | None = None
    auth: str | None = None
    nonce: str | None = None
    #: ``space`` was given as null on purpose (a glass somewhere unknown, an unplaced ring).
    space_unknown: bool = False

    def to_dict(self) -> dict[str, Any]:
        """The journal fields (without ``t`` and ``ev``)."""
        out: dict[str, Any] = {"what": self.what}
        for f in fields(self):
            name = f.name
            if name in ("what", "reason", "by", "space_unknown"):
                continue
            value = getattr(self, name)
            if value is not None:
                out[name] = value
            elif name == "space" and self.space_unknown:
                out[name] = None
        out["reason"] = self.reason
        out["by"] = self.by
        return out


def _bad(obj: Mapping[str, Any], message: str, line: int | None) -> MalformedInput:
    return MalformedInput(f"a {obj.get('what')!r} correction: {message}", line)


def _choice(
    obj: Mapping[str, Any], key: str, choices: tuple[str, ...], line: int | None
) -> str:
    value = obj.get(key)
    if value not in choices:
        if value is None:
            raise _bad(obj, f'needs "{key}" ({", ".join(choices)})', line)
        raise _bad(obj, f'"{key}" must be one of {", ".join(choices)}, got {value!r}', line)
    return str(value)


def _number(obj: Mapping[str, Any], key: str, line: int | None, *, required: bool) -> float | None:
    value = obj.get(key)
    if value is None:
        if required:
            raise _bad(obj, f'needs "{key}" (seconds)', line)
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value != value:
        raise _bad(obj, f'"{key}" must be a number, got {value!r}', line)
    if value < 0 or value == float("inf"):
        raise _bad(obj, f'"{key}" must be a finite number >= 0, got {value!r}', line)
    return float(value)


def _integer(obj: Mapping[str, Any], key: str, line: int | None, low: int) -> int:
    value = obj.get(key)
    if isinstance(value, bool) or not isinstance(value, int):
        raise _bad(obj, f'needs "{key}", a whole number, got {value!r}', line)
    if value < low:
        raise _bad(obj, f'"{key}" must be {low} or more, got {value}', line)
    return value


def _flag(obj: Mapping[str, Any], key: str, line: int | None) -> bool | None:
    value = obj.get(key)
    if value is None:
        return None
    if not isinstance(value, bool):
        raise _bad(obj, f'"{key}" must be true or false, got {value!r}', line)
    return value


def _space(obj: Mapping[str, Any], line: int | None, *, nullable: bool) -> tuple[str | None, bool]:
    if "space" not in obj:
        raise _bad(obj, 'needs "space" (a1..g4' + (", or null" if nullable else "") + ")", line)
    value = obj["space"]
    if value is None:
        if not nullable:
            raise _bad(obj, '"space" must be a space of the board (a1..g4)', line)
        return None, True
    if not is_space(value):
        raise _bad(obj, f'"space": {value!r} is not a space of the board (a1..g4)', line)
    return str(value), False


def _text(obj: Mapping[str, Any], key: str, line: int | None) -> str | None:
    value = obj.get(key)
    if value is None:
        return None
    if not isinstance(value, str):
        raise _bad(obj, f'"{key}" must be text, got {value!r}', line)
    return value


def parse_correction(obj: Mapping[str, Any], line: int | None = None) -> Correction:
    """The :class:`Correction` a ``correct`` record describes; a bad shape is MalformedInput.

    Whether it may be applied (who made it, whether the glass or ring is there) is the rules'
    business, decided in the fold; this only checks that the record says something definite.
    """
    what = obj.get("what")
    if what not in WHATS:
        if what is None:
            raise MalformedInput(f'a correction needs "what" ({", ".join(WHATS)})', line)
        raise MalformedInput(
            f"unknown correction {what!r} (expected one of {', '.join(WHATS)})", line
        )
    reason = obj.get("reason")
    if not isinstance(reason, str) or not reason.strip():
        raise _bad(obj, 'needs a "reason": corrections are never made without one', line)
    by = obj.get("by")
    if not isinstance(by, str):
        raise _bad(obj, 'needs "by" (who made it: "arbiter")', line)
    extra: dict[str, Any] = {"auth": _text(obj, "auth", line), "nonce": _text(obj, "nonce", line)}
    if what == SAND:
        extra["glass"] = _choice(obj, "glass", GLASSES, line)
        extra["sand"] = _number(obj, "sand", line, required=True)
        extra["running"] = _flag(obj, "running", line)
    elif what == SPACE:
        extra["glass"] = _choice(obj, "glass", GLASSES, line)
        extra["space"], extra["space_unknown"] = _space(obj, line, nullable=True)
    elif what in (ADD_RING, REMOVE_RING):
        extra["player"] = _choice(obj, "player", PLAYERS, line)
        extra["space"], extra["space_unknown"] = _space(obj, line, nullable=what == REMOVE_RING)
    elif what == UNDO:
        extra["target_t"] = _number(obj, "target_t", line, required=False)
        if obj.get("target_ev") is not None:
            extra["target_ev"] = _choice(obj, "target_ev", UNDOABLE, line)
    elif what == PENALTY:
        extra["player"] = _choice(obj, "player", PLAYERS, line)
        extra["kind"] = _choice(obj, "kind", PENALTY_KINDS, line)
    elif what == CANCEL_PENALTY:
        extra["index"] = _integer(obj, "index", line, 0)
        extra["penalty_t"] = _number(obj, "penalty_t", line, required=False)
    elif what == TURN:
        extra["player"] = _choice(obj, "player", PLAYERS, line)
    elif what == RESULT:
        extra["winner"] = _choice(obj, "winner", WINNERS, line)
        extra["forfeit"] = _flag(obj, "forfeit", line)
    elif what == NEXT_ROUND:
        extra["round"] = _integer(obj, "round", line, 1)
    return Correction(str(what), reason.strip(), by, **extra)


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
    from companion.tamsk.game import Game as GameClass

    rebuilt = GameClass(game.rules)
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
    from companion.tamsk.game import Bonus, Penalty

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
    game.penalties.append(Penalty(t, offender, c.kind))
    if game.rules.ruleset == "original":
        game.skip_next.add(offender)
    else:
        game.bonus = Bonus(opponent(offender), game.turn_no)
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
        b = game.bonus
        if b is not None and b.player == opponent(p.player) and not b.used:
            game.bonus = None
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
    from companion.tamsk.game import Outcome

    game.timer.running = False
    game.timer.expires = float("inf")
    game.outcome = Outcome(c.winner, "forfeit" if c.forfeit else "arbiter", ARBITER, t)
    game._recompute_deadline()
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
    "ARBITER",
    "CORRECT",
    "Correction",
    "UNDOABLE",
    "WHATS",
    "apply_correction",
    "correction",
    "parse_correction",
]
