"""Arbiter mode on the table's keypad: a PIN, then a menu of corrections.

:class:`ArbiterMenu` is a pure state machine over the keypad's sixteen keys (``0``-``9``,
``A``-``D``, ``*``, ``#``). It reads no clock (``now`` comes with every key) and writes nothing:
:meth:`ArbiterMenu.press` returns *actions* (a correction to journal, a note, an option to
set) and the table's :class:`~companion.arbiter.station.ArbiterStation` carries them out.

Entering: ``* * *`` (three stars within two seconds; a star only clears the players' entry, so
the first two do no harm), then the PIN and ``#``. A wrong PIN is refused and reported as a
note; after too many the PIN entry locks (see :mod:`companion.arbiter.pin`).

While the PIN entry is open or locked, the keypad is the PIN entry's: no digit typed then
reaches the game, and none is journaled, in any form (the notes say only that a PIN was wrong,
or that the entry is locked). A lock-out (the wrong PIN that starts it, or ``* * *`` during
one) shows the lock-out screen with the time left, and keeps the keypad rather than handing it
back mid-entry, where an arbiter's PIN typed on would become the players' move: every key is
swallowed unheard, ``*`` too (a ``*`` that gave the keypad back would let the rest of a
``* * *``, and the PIN after it, through). The keypad goes back to the players once no key has
been pressed for :data:`LOCKED_IDLE_S` seconds (the screen counts that down too); a key after
the lock-out's end opens the PIN entry again.

The menu (``*`` leaves it; inside an item ``*`` goes back to the menu)::

    1 sand of a glass       glass 1-6 (r1 r2 r3 b1 b2 b3), seconds, #   (C types a decimal point)
    2 space of a glass      glass 1-6, column 1-7 and row, #   (00 #: unknown)
    3 add a ring            player 1 red / 2 black, column and row, #
    4 remove a ring         player, column and row, #   (00 #: a ring dropped somewhere unknown)
    5 undo the last input   shows it; # takes it back
    6 record a penalty      player, kind 1 late / 2 forfeit / 3 pass
    7 cancel a penalty      its number as listed (1 first), #
    8 result                1 red / 2 black / 3 tie / 4 red by forfeit / 5 black by forfeit /
                            0 confirm the rules' result
    9 next round            round number, #
    A whose turn            player
    B tournament options    1 sand seconds shown to players (then 1 on / 0 off), 2 level (1-3),
                            3 rule set (1 adjusted / 2 original), 4 calibration (glass, seconds #)

Every correction then asks for its reason (one key, :data:`REASONS`) and ``#`` to confirm.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from companion.arbiter.actions import Action, Correct, Note, SetOption
from companion.arbiter.pin import MAX_PIN_LENGTH, PinCheck, PinLock
from companion.i18n import N_, _, say
from companion.remark import Remark

GLASS_KEYS = ("r1", "r2", "r3", "b1", "b2", "b3")
PLAYER_KEYS = ("red", "black")
COLUMNS = "abcdefg"
ENTER_KEYS = "***"
ENTER_WINDOW_S = 2.0
#: Seconds without a key after which the lock-out screen gives the keypad back to the players.
LOCKED_IDLE_S = 5.0

#: The reasons an arbiter can give from the keypad (free text comes from the arbiter's page).
REASONS: Mapping[str, str] = {
    "1": N_("a sensor missed an input"),
    "2": N_("a sensor saw an input that did not happen"),
    "3": N_("the players' mistake"),
    "4": N_("the arbiter's ruling"),
    "5": N_("a dispute settled"),
}




@dataclass
class _Step:
    """One thing to type: ``kind`` is glass, player, space, seconds, number or a choice."""

    key: str
    kind: str
    prompt: str
    choices: Mapping[str, Any] = field(default_factory=dict)
    nullable: bool = False


@dataclass
class _Item:
    label: str
    what: str  # a correction's ``what``, or "option:..." for a tournament option
    steps: list[_Step]


def _glass(key: str = "glass") -> _Step:
    choices = dict(zip("123456", GLASS_KEYS, strict=True))
    return _Step(key, "choice", N_("glass 1-6: r1 r2 r3 b1 b2 b3"), choices)


def _player() -> _Step:
    return _Step("player", "choice", N_("player 1 red 2 black"), {"1": "red", "2": "black"})


MENU: Mapping[str, _Item] = {
    "1": _Item(N_("sand of a glass"), "sand",
               [_glass(), _Step("sand", "seconds", N_("seconds, #"))]),
    "2": _Item(
        N_("space of a glass"),
        "space",
        [_glass(), _Step("space", "space", N_("column row # (00 unknown)"), nullable=True)],
    ),
    "3": _Item(N_("add a ring"), "add-ring",
               [_player(), _Step("space", "space", N_("column row #"))]),
    "4": _Item(
        N_("remove a ring"),
        "remove-ring",
        [_player(), _Step("space", "space", N_("column row # (00 unknown)"), nullable=True)],
    ),
    "5": _Item(N_("undo the last input"), "undo", []),
    "6": _Item(
        N_("record a penalty"),
        "penalty",
        [
            _player(),
            _Step("kind", "choice", N_("1 late 2 forfeit 3 pass"), {"1": "late", "2": "forfeit",
                                                               "3": "pass"}),
        ],
    ),
    "7": _Item(N_("cancel a penalty"), "cancel-penalty",
               [_Step("index", "number", N_("penalty no., #"))]),
    "8": _Item(
        N_("result"),
        "result",
        [
            _Step(
                "winner",
                "choice",
                N_("1 red 2 black 3 tie 4/5 forfeit 0 confirm"),
                {
                    "1": ("red", False),
                    "2": ("black", False),
                    "3": ("tie", False),
                    "4": ("red", True),
                    "5": ("black", True),
                    "0": None,
                },
            )
        ],
    ),
    "9": _Item(N_("next round"), "next-round", [_Step("round", "number", N_("round number, #"))]),
    "A": _Item(N_("whose turn"), "turn", [_player()]),
    "B": _Item(
        N_("tournament options"),
        "options",
        [
            _Step(
                "option",
                "choice",
                N_("1 sand s 2 level 3 rules 4 calib."),
                {"1": "show_sand_seconds", "2": "level", "3": "ruleset", "4": "calibration"},
            )
        ],
    ),
}

_OPTION_STEPS: Mapping[str, list[_Step]] = {
    "show_sand_seconds": [
        _Step("value", "choice", N_("players see seconds: 1 on 0 off"), {"1": True, "0": False})
    ],
    "level": [_Step("value", "choice", N_("level 1 2 3"), {"1": 1, "2": 2, "3": 3})],
    "ruleset": [_Step("value", "choice", N_("1 adjusted 2 original"),
                      {"1": "adjusted", "2": "original"})],
    "calibration": [_glass(), _Step("value", "seconds", N_("period in seconds, #"))],
}


class ArbiterMenu:
    """The keypad state machine: idle, PIN entry (or its lock-out), menu, an item's steps,
    reason, confirmation.

    ``last_input`` tells the menu what an undo would take back now (``(t, ev, text)`` or None);
    ``penalties`` lists the recorded penalties as text. Both are read when the screen needs
    them, so the arbiter confirms what he sees.
    """

    def __init__(
        self,
        lock: PinLock,
        *,
        last_input: Callable[[], tuple[float, str, str] | None] = lambda: None,
        penalties: Callable[[], Sequence[str]] = lambda: (),
    ) -> None:
        self.lock = lock
        self.last_input = last_input
        self.penalties = penalties
        self.state = "idle"
        self.message = ""
        self._stars: list[float] = []
        self._typed = ""
        self._item: _Item | None = None
        self._steps: list[_Step] = []
        self._values: dict[str, Any] = {}
        self._undo_target: tuple[float, str, str] | None = None
        self._now = float("-inf")  # the time of the last key (the screen's, without one)
        self._locked_key_at = float("-inf")  # the last key the lock-out screen swallowed

    @property
    def active(self) -> bool:
        """Whether the keypad belongs to the arbiter now (PIN entry or menu)."""
        return self.state != "idle"

    # ------------------------------------------------------------------ keys

    def press(self, key: str, now: float) -> tuple[bool, list[Action]]:
        """One key at ``now``. Returns whether the menu took it, and what to do."""
        self._now = now
        self.settle(now)
        if self.state == "idle":
            return self._idle(key, now)
        if self.state == "locked":
            return True, self._locked(key, now)
        if self.state == "pin":
            return True, self._pin(key, now)
        if key == "*":
            return True, self._back()
        if self.state == "menu":
            return True, self._choose(key)
        if self.state == "step":
            return True, self._step(key)
        if self.state == "reason":
            if key in REASONS:
                self._values["reason"] = REASONS[key]
                self.state = "confirm"
                self.message = ""
            else:
                self.message = N_("reason: a key 1-5")
            return True, []
        if self.state == "confirm":
            if key == "#":
                return True, self._commit()
            self.message = N_("# confirms, * goes back")
            return True, []
        return True, []

    def _idle(self, key: str, now: float) -> tuple[bool, list[Action]]:
        if key != "*":
            self._stars.clear()
            return False, []
        self._stars = [t for t in self._stars if now - t <= ENTER_WINDOW_S] + [now]
        if len(self._stars) < len(ENTER_KEYS):
            return False, []  # a star still clears the players' entry
        self._stars.clear()
        if not self.lock.enabled:
            self.message = PinCheck("disabled").message
            return True, []
        left = self.lock.locked_for(now)
        if left > 0:
            # The keypad stays the PIN entry's: a PIN typed on is swallowed, never a move.
            self.state = "locked"
            self._locked_key_at = now
            self.message = PinCheck("locked", locked_for=left).message
            return True, [Note(f"arbiter: {self.message}", {"arbiter": "locked"})]
        self.state = "pin"
        self._typed = ""
        self.message = N_("arbiter PIN, then #")
        return True, []

    def _pin(self, key: str, now: float) -> list[Action]:
        if key == "*":
            self.state = "idle"
            self._typed = ""
            self.message = ""
            return []
        if key.isdigit():
            if len(self._typed) < MAX_PIN_LENGTH:
                self._typed += key
            return []
        if key != "#":
            return []
        typed, self._typed = self._typed, ""
        result = self.lock.check(typed, now)
        self.message = result.message
        if result.ok:
            self.state = "menu"
            return [Note("arbiter mode entered (PIN accepted)", {"arbiter": "enter"})]
        if result.status == "locked":
            self.state = "locked"  # not "idle": what is typed next must not reach the game
            self._locked_key_at = now
        tag = "wrong-pin" if result.wrong or result.status == "wrong" else "locked"
        return [Note(f"arbiter: {result.message}", {"arbiter": tag})]

    def _locked(self, key: str, now: float) -> list[Action]:
        """The lock-out screen: every key is swallowed unheard (never stored, never the
        players'). Once the lock-out is over, the key goes to the PIN entry, open again."""
        if self.lock.locked_for(now) <= 0:
            self.state = "pin"
            self._typed = ""
            self.message = N_("arbiter PIN, then #")
            return self._pin(key, now)
        self._locked_key_at = now
        return []

    def settle(self, now: float) -> None:
        """The lock-out screen gives the keypad back once no key came for
        :data:`LOCKED_IDLE_S` seconds."""
        if self.state == "locked" and now - self._locked_key_at >= LOCKED_IDLE_S:
            self.state = "idle"
            self.message = ""

    def redraw_at(self, now: float) -> float | None:
        """When the screen next changes with no key pressed: the lock-out screen counts whole
        seconds down (of the lock-out, and until the keypad goes back), so the next second
        either crosses; else None."""
        self.settle(now)
        if self.state != "locked":
            return None
        ends = [self._locked_key_at + LOCKED_IDLE_S]
        if self.lock.locked_until > now:
            ends.append(self.lock.locked_until)
        return min(end - (math.ceil(end - now) - 1) for end in ends)

    def _back(self) -> list[Action]:
        if self.state == "menu":
            self.state = "idle"
            self.message = ""
            return [Note("arbiter mode left", {"arbiter": "leave"})]
        self._item = None
        self._typed = ""
        self.state = "menu"
        self.message = ""
        return []

    def _choose(self, key: str) -> list[Action]:
        item = MENU.get(key)
        if item is None:
            self.message = N_("no such item")
            return []
        self._item = item
        self._steps = list(item.steps)
        self._values = {}
        self._typed = ""
        self.message = ""
        if item.what == "undo":
            self._undo_target = self.last_input()
            if self._undo_target is None:
                self.message = N_("nothing to undo")
                self.state = "menu"
                self._item = None
                return []
            t, ev, _text = self._undo_target
            self._values.update(target_t=t, target_ev=ev)
        self.state = "step" if self._steps else "reason"
        return []

    def _step(self, key: str) -> list[Action]:
        step = self._steps[0]
        if step.kind == "choice":
            if key not in step.choices:
                self.message = step.prompt
                return []
            return self._store(step, step.choices[key])
        if key == "C" and step.kind == "seconds" and "." not in self._typed:
            self._typed += "."
            return []
        if key.isdigit():
            if len(self._typed) < 6:
                self._typed += key
            return []
        if key != "#":
            return []
        typed, self._typed = self._typed, ""
        value = self._parse(step, typed)
        if isinstance(value, _Invalid):
            self.message = value.why
            return []
        return self._store(step, value)

    def _parse(self, step: _Step, typed: str) -> Any:
        if step.kind == "space":
            if typed == "00" and step.nullable:
                return None
            if len(typed) != 2 or not "1" <= typed[0] <= "7":
                return _Invalid(N_("column 1-7 then row"))
            space = f"{COLUMNS[int(typed[0]) - 1]}{typed[1]}"
            from companion.tamsk.board import is_space

            return space if is_space(space) else _Invalid(Remark(N_("no space {space}"),
                                                                      space=space))
        if not typed or typed == ".":
            return _Invalid(step.prompt)
        if step.kind == "seconds":
            return float(typed)
        number = int(typed.replace(".", "") or "0")
        if step.key == "index":
            return number - 1 if number >= 1 else _Invalid(N_("penalties are numbered from 1"))
        return number if number >= 1 else _Invalid(step.prompt)

    def _store(self, step: _Step, value: Any) -> list[Action]:
        self._steps.pop(0)
        assert self._item is not None
        if step.key == "option":
            self._values["option"] = value
            self._steps = list(_OPTION_STEPS[value])
        elif step.key == "winner":
            if value is None:
                self._values["confirm"] = True
            else:
                self._values["winner"], forfeit = value
                if forfeit:
                    self._values["forfeit"] = True
        else:
            self._values[step.key] = value
        if self._steps:
            self.message = ""
            return []
        if self._item.what == "options":
            return self._commit()
        self.state = "reason"
        return []

    def _commit(self) -> list[Action]:
        item = self._item
        assert item is not None
        values = dict(self._values)
        self._item = None
        self.state = "menu"
        if item.what == "options":
            name = values.pop("option")
            if name == "calibration":
                self.message = Remark(N_("{glass} period {seconds} s (next game)"),
                                      glass=values["glass"], seconds=f"{values['value']:g}")
                return [SetOption("calibration", {values["glass"]: values["value"]})]
            self.message = f"{name}: {values['value']}"
            return [SetOption(name, values["value"])]
        what = item.what
        if what == "result" and values.pop("confirm", False):
            what = "confirm"
        self.message = Remark(N_("{item}: sent"), item=Remark(item.label))
        return [Correct({"what": what, **values})]

    # ------------------------------------------------------------------ screen

    def screen(self, now: float | None = None) -> list[str]:
        """A title and a few short lines for the table's screen at ``now`` (by default the time
        of the last key), in the table's language (what is journaled, the notes and the
        corrections' reasons, stays English); the screen wraps a long line and shows them a
        page at a time when they are more than it holds."""
        now = self._now if now is None else now
        self.settle(now)
        if self.state == "idle":
            return [said(self.message)] if self.message else []
        if self.state == "locked":
            left = self.lock.locked_for(now)
            back = _("keypad back in {seconds} s").format(
                seconds=math.ceil(self._locked_key_at + LOCKED_IDLE_S - now))
            if left <= 0:
                return [_("ARBITER"), _("PIN: "), _("arbiter PIN, then #"), back]
            return [_("ARBITER"), _("PIN entry locked"),
                    _("try again in {seconds} s").format(seconds=math.ceil(left)), back]
        if self.state == "pin":
            return [_("ARBITER"), _("PIN: ") + "*" * len(self._typed), said(self.message)]
        if self.state == "menu":  # the keys in five short lines, then the latest news
            menu = [_("ARBITER  * leaves"), _("1 sand  2 space"), _("3/4 ring +/-"),
                    _("5 undo  8 result"), _("6/7 penalty +/-"), _("9 round A turn B opt.")]
            return [*menu, said(self.message)] if self.message else menu
        assert self._item is not None
        lines = [_("ARBITER {item}").format(item=_(self._item.label))]
        if self._item.what == "undo" and self._undo_target is not None:
            lines.append(_("undo {input}").format(input=self._undo_target[2]))
        if self._item.what == "cancel-penalty":
            lines += [f"{n}: {text}" for n, text in enumerate(self.penalties(), start=1)][:2]
        if self.state == "step":
            lines.append(_(self._steps[0].prompt))
            lines.append(self._typed or said(self.message))
        elif self.state == "reason":
            lines.append(_("reason 1 missed 2 ghost"))
            lines.append(_("3 players 4 ruling 5 dispute"))
        else:
            lines.append(said(self._values.get("reason", "")))
            lines.append(_("# confirms, * back"))
        return lines


def said(text: str) -> str:
    """A message of the menu in the table's language ("" stays empty: gettext would give the
    catalog's header)."""
    if not text:
        return ""
    return say(text) if isinstance(text, Remark) else _(text)


@dataclass(frozen=True)
class _Invalid:
    why: str
