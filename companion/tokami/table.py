"""A Tokami table: the outcome of each turn typed on the keypad, journaled, scored, shown.

The keypad dialogue is :class:`companion.tokami.entry.KeypadEntry` (``1``-``5`` say how the turn
ended, digits pick colours, ``#`` saves, ``*`` goes back, ``A`` undoes the last turn, ``D`` stops
the game). It checks every answer against the rules while it is typed and applies the turn it
saves to the game it holds, so it is given a *twin* of the game: when a key yields an event, the
table journals it (fsynced), then plays it on :attr:`TokamiTable.game`, the game it reports, the
way ``companion simulate`` replays the line, and only then beeps.

A turn the rules refuse is journaled as that turn's event (``companion simulate`` refuses it
again and lists it under ``violations``); an undo with nothing to undo as the ``undo`` event.
Keys that are only out of place (a colour number beyond the set, a key that means nothing at
this question) are shown and buzzed but not journaled, unless the Tokami replay knows ``note``
events: its event list does not include them yet, and a journal must stay replayable.
"""

from __future__ import annotations

import copy
import logging
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from companion.clock import Clock
from companion.keypad_table import KeypadTable
from companion.scenario import MalformedInput
from companion.tokami import simulate as tokami_simulate
from companion.tokami.corrections import Ledger, parse_correction
from companion.tokami.entry import KeypadEntry, Stage, Step
from companion.tokami.game import Game, IllegalTurn
from companion.tokami.setup import DEFAULT_BLOCKS, ROUND_ENDS_AT, WORTHLESS_COLOUR, Setup
from companion.tokami.turns import Turn

log = logging.getLogger(__name__)

DEFAULT_PLAYERS = ("Player 1", "Player 2")
#: Whether a Tokami journal may hold ``note`` lines (only if the replay accepts them).
NOTES = "note" in tokami_simulate.EVENTS


class WatchedGame(Game):
    """A :class:`Game` that remembers the turns its rules refused.

    The keypad dialogue checks each answer with :meth:`Game.check` and says only the reason;
    the table needs the turn itself, to journal the refused attempt so a replay refuses it too.
    """

    def __init__(self, setup: Setup) -> None:
        super().__init__(setup)
        self.refused: list[Turn] = []

    def check(self, turn: Turn, by: str | None = None) -> None:
        try:
            super().check(turn, by)
        except IllegalTurn:
            self.refused.append(turn)
            raise


def apply_event(game: Game, event: Mapping[str, Any], line: int = 0) -> IllegalTurn | None:
    """Play one journal event on ``game`` as ``companion simulate`` does; return the refusal
    (the game is then unchanged), or raise :class:`MalformedInput` for a line that is not a
    Tokami event at all."""
    name = event.get("ev")
    by = event.get("player")
    if by is not None and not isinstance(by, str):
        raise MalformedInput('"player" must be a player\'s name', line)
    try:
        if name == "end":
            game.stop()
        elif name == "resign":
            if not isinstance(by, str):
                raise MalformedInput('a resignation needs "player": who resigned', line)
            try:
                game.resign(by)
            except KeyError:
                raise MalformedInput(f"{by!r} is not playing this game", line) from None
        elif name == "undo":
            game.undo()
        elif name == "note" and NOTES:
            pass
        else:
            game.play(Turn.from_event(event, line), by=by)
    except IllegalTurn as refused:
        return refused
    return None


def play_event(
    game: Game, ledger: Ledger, event: Mapping[str, Any], line: int = 0
) -> tuple[Game, IllegalTurn | None]:
    """:func:`apply_event` with the arbiter's corrections, as ``companion simulate`` plays
    them: ``(the game to go on with, the refusal or None)``; a mis-typed turn's correction
    gives a replayed game, a score correction goes in the ``ledger``."""
    if event.get("ev") != "correct":
        return game, apply_event(game, event, line)
    fix = parse_correction(event, line)
    when = event.get("t")
    t = float(when) if isinstance(when, (int, float)) and not isinstance(when, bool) else 0.0
    try:
        return ledger.correct(game, fix, t), None
    except IllegalTurn as refused:
        return game, refused


def fold(
    header: Mapping[str, Any], events: Sequence[tuple[int, Mapping[str, Any]]]
) -> tuple[WatchedGame, list[str]]:
    """Rebuild a game from a journal: ``(game, notes)``. Refused turns are refused again; a line
    that is not a Tokami event is skipped with a note."""
    game, notes, _ = fold_corrected(header, events)
    return game, notes


def fold_corrected(
    header: Mapping[str, Any], events: Sequence[tuple[int, Mapping[str, Any]]]
) -> tuple[WatchedGame, list[str], Ledger]:
    """:func:`fold` with the arbiter's corrections applied and their ledger."""
    game: Game = WatchedGame(Setup.from_header(header))
    ledger = Ledger()
    notes: list[str] = []
    for line, event in events:
        try:
            game, _ = play_event(game, ledger, event, line)
        except MalformedInput as exc:
            notes.append(f"line {line}: skipped: {exc.message}")
    assert isinstance(game, WatchedGame)
    game.refused.clear()
    return game, notes, ledger


class TokamiTable(KeypadTable):
    """A Tokami game being scored (or waiting for one), driven from the keypad."""

    GAME = "tokami"
    NOTES = NOTES

    def __init__(
        self,
        clock: Clock,
        journal_dir: str | Path,
        *,
        config: Mapping[str, Any],
        sound: Callable[[str], None] | None = None,
        on_record: Callable[[dict[str, Any]], None] | None = None,
    ) -> None:
        super().__init__(clock, journal_dir, config=config, sound=sound, on_record=on_record)
        self.game: WatchedGame | None = None
        self.entry: KeypadEntry | None = None
        self.entry_notice: str | None = None  # what the last key did, e.g. "saved: ..."
        self.ledger = Ledger()  # the arbiter's corrections (score adjustments, notes)
        self.last_refusal: IllegalTurn | None = None  # of the last :meth:`submit`

    # ------------------------------------------------------------------ games

    def start_game(
        self,
        players: Sequence[str] = DEFAULT_PLAYERS,
        *,
        blocks: Mapping[str, int] | None = None,
        rounds: int = 1,
        worthless: str | None = WORTHLESS_COLOUR,
        round_ends_at: int = ROUND_ENDS_AT,
        table: int | None = None,
        name: str | None = None,
    ) -> Path:
        """Begin a new game: players in turn order (2 to 5 names), the block set (colour to
        count, in keypad order; default nine each of red, yellow, green, blue) and rounds.

        Bad options raise :class:`ValueError` with the reason and leave the table as it was.
        """
        seats = self.next_header.get("seats")
        if seats:  # a pairing from the arbiter: its players, the first mover first
            players = [str(p) for p in seats]
        blocks = dict(DEFAULT_BLOCKS if blocks is None else blocks)
        if worthless is not None and worthless not in blocks:
            worthless = None
        setup = Setup(tuple(players), blocks, rounds, worthless, round_ends_at)
        KeypadEntry(Game(setup))  # refuses a set with more colours than keys
        fields = setup.to_header()
        del fields["game"]
        path = self._new_journal(fields, table, name)
        self.game = WatchedGame(setup)
        self.ledger = Ledger()
        self.entry_notice = None
        self._resync()
        return path

    def resume(self, path: str | Path) -> list[str]:
        """Continue an unfinished game from its journal; returns notes for the log.

        The journal is folded again from its first line, refusals included; a torn last line
        (a write cut short by a power cut) is kept beside it and cut off first. A journal that
        is not of this game raises :class:`ValueError` and leaves the table waiting."""
        self.game = None
        self.entry = None
        (game, fold_notes, ledger), notes = self._refold(path, fold_corrected)
        self.game = game
        self.ledger = ledger
        self.entry_notice = None
        self._resync()
        if NOTES:
            self._record({"ev": "note", "text": self.resumed_text}, src="daemon")
        return [*notes, *fold_notes]

    def _resync(self) -> None:
        """Give the keypad dialogue a fresh twin of the game."""
        assert self.game is not None
        self.entry = KeypadEntry(copy.deepcopy(self.game))
        self.changed = True

    def submit(self, t_mono: float, body: dict[str, Any]) -> None:
        """Journal and play one arbiter record now (a ``correct`` or a ``note``, from arbiter
        mode); a mis-typed turn's correction replays the game and the keypad's twin follows.
        :attr:`last_refusal` says whether the rules refused it."""
        self.last_refusal = None
        game = self.game
        if self.writer is None or game is None:
            return
        self._record(body, src="arbiter")
        if body.get("ev") == "correct":
            try:
                played, self.last_refusal = play_event(game, self.ledger, body)
            except MalformedInput as exc:
                played, self.last_refusal = game, IllegalTurn("correction", exc.message)
            assert isinstance(played, WatchedGame)
            self.game = played
            self._resync()
        self.changed = True
        self._final_if_over()

    def corrected(self) -> dict[str, Any]:
        """The game's state with the arbiter's corrections (adjusted totals, standings,
        winner, notes), as ``companion simulate`` gives it."""
        assert self.game is not None
        return self.ledger.finish(self.game.as_dict())

    @property
    def _twin(self) -> WatchedGame:
        assert self.entry is not None and isinstance(self.entry.game, WatchedGame)
        return self.entry.game

    # ------------------------------------------------------------------ keys

    def _key(self, key: str) -> None:
        game, entry = self.game, self.entry
        if game is None or entry is None:
            return
        twin = self._twin
        twin.refused.clear()
        stage = entry.stage
        step = entry.press(key)
        try:
            self._settle(game, step, asked_undo=stage is Stage.OUTCOME and key == "A")
        except BaseException:
            self._resync()
            raise

    def _settle(self, game: WatchedGame, step: Step, *, asked_undo: bool) -> None:
        self.entry_notice = step.screen.notice
        event = step.event
        if event is not None:
            self._record(event)
            refused = apply_event(game, event)
            game.refused.clear()
            if refused is not None:  # cannot happen while the twin and the game agree
                log.error("journaled %s but the game refuses it: %s", event, refused)
            if game.as_dict() != self._twin.as_dict():
                log.error("the keypad's twin drifted from the game; resynchronised")
                self._resync()
            self._sound("confirm")
            return
        error = step.screen.error
        if error is None:
            return
        attempt: dict[str, Any] | None = None
        if self._twin.refused and game.turn is not None:
            attempt = {**self._twin.refused[-1].to_event(), "player": game.turn}
        elif asked_undo and not game.history:
            attempt = {"ev": "undo"}
        elif NOTES:
            attempt = {"ev": "note", "text": f"keypad: {error}"}
        if attempt is not None:
            self._record(attempt)
            if attempt["ev"] != "note" and apply_event(game, attempt) is None:
                log.error("the game accepted %s the keypad refused", attempt)
                self._resync()
            game.refused.clear()
        self._refuse(error)

    def _outcome(self) -> dict[str, Any] | None:
        game = self.game
        if game is None or not game.is_over():
            return None
        return {"winner": self.corrected()["winner"], "reason": game.reason,
                **({"resigned": game.as_dict()["resigned"]} if game.reason == "resigned" else {})}

    # ------------------------------------------------------------------ views

    def _game_view(self) -> dict[str, Any]:
        """What the screen shows now: standings, whose turn, the question being asked and its
        choices, the forbidden block, the blocks left."""
        game, entry = self.game, self.entry
        if game is None or entry is None:
            return {"game": None}
        screen = entry.screen
        corrected = self.corrected()
        last = game.history[-1].describe() if game.history else None
        return {
            "game": "tokami",
            "players": list(game.players),
            "colours": list(game.colours),
            "turn": game.turn,
            "round": game.round,
            "rounds": game.setup.rounds,
            "blocks_left": game.blocks_left,
            "on_cross": dict(game.on_cross),
            "forbidden": game.forbidden,
            "standings": [[p, s] for p, s in corrected["standings"]],
            "over": game.is_over(),
            "winner": corrected["winner"],
            "reason": game.reason,
            "last_turn": last,
            "entry": {
                "stage": entry.stage.name.lower(),
                "prompt": screen.prompt,
                "player": screen.player,
                "choices": list(screen.choices),
                "entered": screen.entered,
            },
            "notice": self.entry_notice,
            "warning": self.warning,
            "error": self.error,
        }

    def pages_prompt(self) -> bool:
        """A game in play asks a question and lists the keys that answer it."""
        return self.game is not None and self.entry is not None

    def status_line(self) -> str:
        """One line for systemd's STATUS=."""
        game = self.game
        if game is None:
            return "waiting for a game"
        scores = " ".join(f"{p} {s}" for p, s in game.standings())
        if game.is_over():
            w = game.winner()
            return f"tokami over: {'a tie' if w == 'tie' else f'{w} wins'} ({scores})"
        return (
            f"tokami: {game.turn} to play, round {game.round}/{game.setup.rounds}, "
            f"{game.blocks_left} blocks left; {scores}"
        )


def options_from_config(config: Mapping[str, Any]) -> dict[str, Any]:
    """``start_game`` options from an optional ``[tokami]`` config section: ``players``,
    ``rounds``, and the block set as ``colours`` and ``counts`` lists (TOML keeps their order)."""
    section = config.get("tokami") or {}
    options: dict[str, Any] = {"players": list(section.get("players") or DEFAULT_PLAYERS)}
    if "rounds" in section:
        options["rounds"] = int(section["rounds"])
    colours, counts = section.get("colours"), section.get("counts")
    if colours or counts:
        if not colours or not counts or len(colours) != len(counts):
            raise ValueError("tokami.colours and tokami.counts must be lists of the same length")
        options["blocks"] = dict(zip(colours, counts, strict=True))
    return options


def validate_config(config: Mapping[str, Any]) -> None:
    """Refuse a ``[tokami]`` section the game cannot be set up with, at load, naming the key."""
    from companion.config import ConfigError

    try:
        options = options_from_config(config)
        Setup(tuple(options["players"]), blocks=options.get("blocks", DEFAULT_BLOCKS),
              rounds=options.get("rounds", 1))
    except ValueError as exc:
        raise ConfigError(f"'tokami': {exc}") from None


#: The controller the registry builds for this game (``PackageKind.make_table``).
TABLE = TokamiTable


def start_from_config(table: TokamiTable, config: Mapping[str, Any]) -> Path:
    """Start a new game with the options the configuration gives."""
    options = options_from_config(config)
    return table.start_game(options.pop("players"), **options)


def configure_players(config: dict[str, Any], players: list[str]) -> None:
    """``new-game --players Ada,Ben``: the players' names in turn order."""
    config.setdefault("tokami", {})["players"] = list(players)
