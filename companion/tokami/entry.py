"""Entering Tokami turns on the 4x4 keypad: keys in, a screen model and journal events out.

This is the dialogue only: :class:`KeypadEntry` knows no pins and no OLED. The daemon passes each
key press to :meth:`KeypadEntry.press`, draws the returned :class:`Screen`, and journals the
returned event when there is one (the event is already applied to the game). After a restart it
replays the journal into a :class:`~companion.tokami.game.Game` and hands that game to a new
:class:`KeypadEntry`.

The keys, as a player uses them, are :func:`menu_text` (the README prints the same block):
1-5 say how the turn ended (5, declined, takes the forbidden block), the colours are digits in
the game's block order (0: none, for the block in hand after a fall), ``#`` saves, ``*`` drops
the last thing typed, ``A`` undoes the last turn and ``D`` resigns.

A key that makes no sense where it is pressed, or a turn the rules refuse, leaves everything as
it was and puts the reason on the screen (:attr:`Screen.error`).

>>> from companion.tokami import Game, Setup
>>> entry = KeypadEntry(Game(Setup(("Anna", "Ben"))))
>>> for key in "113#":  # higher + bonus, red moved, green taken, save
...     step = entry.press(key)
>>> step.event
{'ev': 'bonus', 'block': 'red', 'bonus': 'green', 'player': 'Anna'}
>>> step.screen.standings
(('Anna', 1), ('Ben', 0))
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field, replace
from typing import Any

from companion.i18n import N_, _
from companion.tokami.game import Game, IllegalTurn
from companion.tokami.turns import Outcome, Turn
from companion.tokami.words import played_in_words, refusal_in_words, turn_in_words

#: Every key of the keypad.
KEYS = frozenset("0123456789ABCD*#")
CONFIRM = "#"
BACK = "*"
UNDO = "A"
STOP = "D"
NO_BLOCK = "0"

#: The outcome keys, in the order the rule book tells the turn.
OUTCOME_KEYS: dict[str, Outcome] = {
    "1": Outcome.BONUS,
    "2": Outcome.HIGHER,
    "3": Outcome.FELL,
    "4": Outcome.NOT_HIGHER,
    "5": Outcome.DECLINED,
}
#: The outcomes as the README's menu names them (English: :func:`menu_text`); the screen says
#: them in the players' language.
OUTCOME_LABELS: dict[Outcome, str] = {
    Outcome.BONUS: N_("higher + bonus"),
    Outcome.HIGHER: N_("higher, no bonus"),
    Outcome.FELL: N_("blocks fell"),
    Outcome.NOT_HIGHER: N_("not higher"),
    Outcome.DECLINED: N_("declined"),
}
MAX_COLOURS = 9  # the digits 1-9


def menu_text() -> str:
    """The keypad's Tokami menu as the README prints it, built from the labels the screen shows.

    The README copies this block (``tests/tokami/test_tokami_menu_words.py`` checks it), so the
    words on the OLED and in the README cannot drift apart.
    """
    outcomes = [f"{k} {OUTCOME_LABELS[o]}" for k, o in OUTCOME_KEYS.items()]
    rows = [
        ("what happened?", "   ".join(outcomes[:3])),
        ("", "   ".join(outcomes[3:])),
        ("colours", f"1, 2, 3 ... in the game's block order ({NO_BLOCK}: none in hand)"),
        ("everywhere", f"{CONFIRM} save / done   {BACK} back   {UNDO} undo   {STOP} resign"),
    ]
    return "\n".join(f"{left:<16}{right}".rstrip() for left, right in rows)


class Stage(enum.Enum):
    """Where the dialogue stands: which question is on the screen."""

    OUTCOME = "what happened"
    BLOCK = "which block was moved"
    BONUS = "which bonus block"
    FALLEN = "which blocks fell"
    IN_HAND = "which block was in hand"
    CONFIRM = "save the turn"
    CONFIRM_UNDO = "undo the last turn"
    CONFIRM_STOP = "resign the game"
    OVER = "the game is over"


@dataclass(frozen=True)
class Screen:
    """What the OLED shows: the question, the keys that answer it, and the standings."""

    prompt: str
    player: str | None
    choices: tuple[str, ...]
    standings: tuple[tuple[str, int], ...]
    round: int
    blocks_left: int
    forbidden: str | None
    entered: str = ""
    error: str | None = None
    notice: str | None = None


@dataclass(frozen=True)
class Step:
    """The answer to one key press: the new screen and, when a turn was saved, its event."""

    screen: Screen
    event: dict[str, Any] | None = None


@dataclass
class _Draft:
    """The turn being typed."""

    stage: Stage = Stage.OUTCOME
    outcome: Outcome | None = None
    block: str | None = None
    bonus: str | None = None
    fallen: list[str] = field(default_factory=list)
    in_hand: str | None = None


class KeypadEntry:
    """The keypad dialogue for one :class:`Game`; see the module docstring for the keys."""

    def __init__(self, game: Game) -> None:
        if len(game.colours) > MAX_COLOURS:
            raise ValueError(
                f"the keypad numbers colours 1-{MAX_COLOURS}; this game has {len(game.colours)}"
            )
        self.game = game
        self._draft = self._idle()
        self._notice: str | None = None

    @property
    def stage(self) -> Stage:
        return self._draft.stage

    @property
    def screen(self) -> Screen:
        return self._screen()

    def press(self, key: str, now: float | None = None) -> Step:
        """Handle one key; ``now`` (seconds since the start) goes into the event as ``t``."""
        if key not in KEYS:
            return Step(self._screen(error=_("{key} is not a key of the keypad").format(
                key=repr(key))))
        before = (replace(self._draft, fallen=list(self._draft.fallen)), self._notice)
        try:
            event = self._handle(key)
        except _Refused as refused:
            self._draft, self._notice = before
            return Step(self._screen(error=str(refused)))
        if event is not None and now is not None:
            event["t"] = now
        return Step(self._screen(), event)

    # -- the dialogue ------------------------------------------------------------------------

    def _handle(self, key: str) -> dict[str, Any] | None:
        draft = self._draft
        stage = draft.stage
        if stage is Stage.OVER:
            return self._over(key)
        if stage is Stage.OUTCOME:
            return self._outcome(key)
        if stage in (Stage.CONFIRM_UNDO, Stage.CONFIRM_STOP):
            return self._confirm_control(key)
        if key == BACK:
            self._back()
            return None
        if stage is Stage.CONFIRM:
            if key != CONFIRM:
                raise _Refused(_("# saves this turn, * goes back"))
            return self._save()
        if stage is Stage.FALLEN and key == CONFIRM:
            if not draft.fallen:
                raise _Refused(_("enter the colour of at least one fallen block, then #"))
            draft.stage = Stage.IN_HAND
            return None
        if stage is Stage.IN_HAND and key == NO_BLOCK:
            self._check(Turn.fell(draft.fallen))
            draft.stage = Stage.CONFIRM
            return None
        colour = self._colour(key)
        if stage is Stage.BLOCK:
            assert draft.outcome is not None
            if draft.outcome is Outcome.NOT_HIGHER:
                self._check(Turn.not_higher(colour))
                draft.stage = Stage.CONFIRM
            else:
                self._check(Turn.moved(colour))
                draft.stage = Stage.BONUS if draft.outcome is Outcome.BONUS else Stage.CONFIRM
            draft.block = colour
        elif stage is Stage.BONUS:
            assert draft.block is not None
            self._check(Turn.moved(draft.block, bonus=colour))
            draft.bonus = colour
            draft.stage = Stage.CONFIRM
        elif stage is Stage.FALLEN:
            self._check(Turn.fell([*draft.fallen, colour]))
            draft.fallen.append(colour)
        elif stage is Stage.IN_HAND:
            self._check(Turn.fell(draft.fallen, in_hand=colour))
            draft.in_hand = colour
            draft.stage = Stage.CONFIRM
        return None

    def _outcome(self, key: str) -> dict[str, Any] | None:
        self._notice = None
        if key == UNDO:
            if not self.game.history:
                raise _Refused(_("no turn has been played yet, nothing to undo"))
            self._draft.stage = Stage.CONFIRM_UNDO
            return None
        if key == STOP:
            self._draft.stage = Stage.CONFIRM_STOP
            return None
        if key not in OUTCOME_KEYS:
            raise _Refused(_("first say what happened: a key from 1 to 5"))
        outcome = OUTCOME_KEYS[key]
        if outcome is Outcome.DECLINED:
            self._check(Turn.declined())
            self._draft = _Draft(Stage.CONFIRM, outcome)
        elif outcome is Outcome.FELL:
            self._draft = _Draft(Stage.FALLEN, outcome)
        else:
            self._draft = _Draft(Stage.BLOCK, outcome)
        return None

    def _confirm_control(self, key: str) -> dict[str, Any] | None:
        if key == BACK:
            self._draft = self._idle()
            return None
        if key != CONFIRM:
            raise _Refused(_("# to confirm, * to go back"))
        if self._draft.stage is Stage.CONFIRM_UNDO:
            try:
                undone = self.game.undo()
            except IllegalTurn as refused:
                raise _Refused(refusal_in_words(refused.detail)) from None
            self._notice = f"undone: {undone.describe()}"
            self._draft = self._idle()
            return {"ev": "undo"}
        # Ending the game at the keypad is the resignation of the player on turn (who pressed
        # D, then # to confirm); ending it without a result is the arbiter's.
        player = self.game.turn
        assert player is not None
        self.game.resign(player)
        self._notice = _("{player} resigned").format(player=player)
        self._draft = self._idle()
        return {"ev": "resign", "player": player}

    def _over(self, key: str) -> dict[str, Any] | None:
        if key == UNDO and self.game.reason not in ("stopped", "resigned"):
            self._draft = _Draft(Stage.CONFIRM_UNDO)
            return None
        if self.game.reason == "stopped":
            raise _Refused(_("the game was stopped; start a new game to play on"))
        if self.game.reason == "resigned":
            raise _Refused(_("the game was resigned; start a new game to play on"))
        raise _Refused(_("the game is over; A takes back the last turn"))

    def _back(self) -> None:
        draft = self._draft
        if draft.stage is Stage.FALLEN and draft.fallen:
            draft.fallen.pop()
        elif draft.stage is Stage.IN_HAND:
            draft.stage = Stage.FALLEN
        elif draft.stage is Stage.BONUS:
            draft.block = None
            draft.stage = Stage.BLOCK
        elif draft.stage is Stage.CONFIRM and draft.outcome is Outcome.BONUS:
            draft.bonus = None
            draft.stage = Stage.BONUS
        elif draft.stage is Stage.CONFIRM and draft.outcome is Outcome.FELL:
            draft.in_hand = None
            draft.stage = Stage.IN_HAND
        elif draft.stage is Stage.CONFIRM and draft.outcome in (Outcome.HIGHER, Outcome.NOT_HIGHER):
            draft.block = None
            draft.stage = Stage.BLOCK
        else:
            self._draft = self._idle()

    def _save(self) -> dict[str, Any]:
        turn = self._turn()
        player = self.game.turn
        round_before = self.game.round
        try:
            self.game.play(turn)
        except IllegalTurn as refused:  # checked while typing; kept as a last safeguard
            raise _Refused(refusal_in_words(refused.detail)) from None
        self._notice = _("saved: {turn}").format(turn=played_in_words(self.game.history[-1]))
        self._draft = self._idle()
        if not self.game.is_over() and self.game.round != round_before:
            self._notice += "; " + _("round {n} is over").format(n=round_before)
        event = turn.to_event()
        event["player"] = player
        return event

    # -- helpers -----------------------------------------------------------------------------

    def _idle(self) -> _Draft:
        """Nothing typed: the question for the next turn, or the game-over screen."""
        return _Draft(Stage.OVER if self.game.is_over() else Stage.OUTCOME)

    def _turn(self) -> Turn:
        draft = self._draft
        if draft.outcome is Outcome.BONUS:
            assert draft.block is not None
            assert draft.bonus is not None
            return Turn.moved(draft.block, bonus=draft.bonus)
        if draft.outcome is Outcome.HIGHER:
            assert draft.block is not None
            return Turn.moved(draft.block)
        if draft.outcome is Outcome.NOT_HIGHER:
            assert draft.block is not None
            return Turn.not_higher(draft.block)
        if draft.outcome is Outcome.FELL:
            return Turn.fell(draft.fallen, in_hand=draft.in_hand)
        return Turn.declined()

    def _colour(self, key: str) -> str:
        colours = self.game.colours
        if key.isdigit() and 1 <= int(key) <= len(colours):
            return colours[int(key) - 1]
        extra = _(", 0 for none") if self._draft.stage is Stage.IN_HAND else ""
        done = _(", # when done") if self._draft.stage is Stage.FALLEN else ""
        raise _Refused(_("choose a colour: 1 to {n}").format(n=len(colours)) + extra + done)

    def _check(self, turn: Turn) -> None:
        try:
            self.game.check(turn)
        except IllegalTurn as refused:
            raise _Refused(refusal_in_words(refused.detail)) from None

    # -- the screen --------------------------------------------------------------------------

    def _screen(self, error: str | None = None) -> Screen:
        game = self.game
        draft = self._draft
        player = game.turn
        colour_choices = tuple(f"{i} {_(c)}" for i, c in enumerate(game.colours, start=1))
        back = f"{BACK} " + _("back")
        stage = draft.stage
        if stage is Stage.OUTCOME:
            prompt = _("{player}: what happened?").format(player=player)
            choices: tuple[str, ...] = tuple(
                f"{k} {_(OUTCOME_LABELS[o])}"
                for k, o in OUTCOME_KEYS.items()
                if o is not Outcome.DECLINED or game.forbidden is not None
            )
            choices += (f"{UNDO} " + _("undo"),) if game.history else ()
            choices += (f"{STOP} " + _("resign"),)
        elif stage is Stage.BLOCK:
            prompt = (_("{player}: which block could not go higher?")
                      if draft.outcome is Outcome.NOT_HIGHER
                      else _("{player}: which block went higher?")).format(player=player)
            choices = colour_choices + (back,)
        elif stage is Stage.BONUS:
            prompt = _("{player}: bonus block colour?").format(player=player)
            choices = colour_choices + (back,)
        elif stage is Stage.FALLEN:
            prompt = _("{player}: colours of the fallen blocks?").format(player=player)
            choices = colour_choices + ((f"{CONFIRM} " + _("done"),) if draft.fallen else ()) + (
                back,
            )
        elif stage is Stage.IN_HAND:
            prompt = _("{player}: block in hand?").format(player=player)
            choices = colour_choices + (f"{NO_BLOCK} " + _("none"), back)
        elif stage is Stage.CONFIRM:
            prompt = f"{player}: " + _("{turn}?").format(
                turn=turn_in_words(self._turn(), game.forbidden))
            choices = (f"{CONFIRM} " + _("save"), back)
        elif stage is Stage.CONFIRM_UNDO:
            prompt = (_("undo {turn}?").format(turn=played_in_words(game.history[-1]))
                      if game.history else _("undo?"))
            choices = (f"{CONFIRM} " + _("undo"), back)
        elif stage is Stage.CONFIRM_STOP:
            prompt = f"{player}: " + _("resign the game?")
            choices = (f"{CONFIRM} " + _("resign"), back)
        else:
            winner = game.winner()
            result = _("a tie") if winner == "tie" else _("{player} wins").format(player=winner)
            prompt = _("game over: {result}").format(result=result)
            choices = ((f"{UNDO} " + _("undo"),)
                       if game.reason not in ("stopped", "resigned") else ())
        return Screen(
            prompt=prompt,
            player=player,
            choices=choices,
            standings=tuple(game.standings()),
            round=game.round,
            blocks_left=game.blocks_left,
            forbidden=game.forbidden,
            entered=self._entered(),
            error=error,
            notice=self._notice,
        )

    def _entered(self) -> str:
        draft = self._draft
        if draft.outcome is None:
            return ""
        parts = [_(OUTCOME_LABELS[draft.outcome])]
        if draft.outcome is Outcome.FELL:
            parts += [_(c) for c in draft.fallen]
            if draft.in_hand is not None:
                parts.append(_("+ {colour} in hand").format(colour=_(draft.in_hand)))
        else:
            if draft.block is not None:
                parts.append(_(draft.block))
            if draft.bonus is not None:
                parts.append(_("bonus {colour}").format(colour=_(draft.bonus)))
        return ": ".join([parts[0], " ".join(parts[1:])]) if len(parts) > 1 else parts[0]


class _Refused(Exception):
    """A key the dialogue cannot take here; the message goes on the screen."""
