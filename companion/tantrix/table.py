"""A Tantrix Strategy table: keys in, journaled placements, the screen's view out.

The keypad dialogue is :class:`companion.tantrix.entry.KeypadEntry` (type the number on the back
of the tile in hand, ``#``; ``A``/``B`` step through the legal spots, ``C`` turns the tile,
``#`` places it, ``*`` cancels, ``D`` opens the menu: end turn, undo, scores, forced spaces).
That dialogue plays what it accepts on the game it holds, so it is given a *twin* of the game:
it proposes, the table disposes. When a key yields an event, the table journals it (fsynced),
then plays it on :attr:`TantrixTable.game`, the game it reports, exactly as
``companion simulate`` will replay the journal line, and only then beeps.

Refusals are journaled too: a placement the rules refuse as the ``place`` event itself (the
replay refuses it again, with the same reason, and lists it under ``violations``); any other
keypad mistake (no such tile, a tile already on the table) as a ``note``. Undo is an ``undo``
event, a correction appended like any other: nothing is ever erased.

Example, on a fake clock::

    table = TantrixTable(FakeClock(), "/tmp/journals", config=config)
    table.start_game(["red", "yellow"])
    for key in "12##":
        table.feed(RawInput("key", key, True, clock.now()))
    table.game.tile_at((0, 0))   # (12, 0)
"""

from __future__ import annotations

import copy
import logging
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from companion.clock import Clock
from companion.i18n import _
from companion.keypad_table import KeypadTable
from companion.scenario import MalformedInput
from companion.tantrix import messages as say
from companion.tantrix import solo
from companion.tantrix.corrections import Ledger
from companion.tantrix.entry import KeypadEntry, Screen
from companion.tantrix.game import Game, IllegalPlacement, Placement
from companion.tantrix.hands import HandsGame
from companion.tantrix.simulate import apply_event, hands_state, make_game, play_event
from companion.tantrix.solo_entry import SoloEntry, SoloScreen
from companion.tantrix.tiles import COLOURS, TILES

log = logging.getLogger(__name__)

DEFAULT_PLAYERS = ("red", "yellow")


def fold(header: Mapping[str, Any], events: Sequence[tuple[int, Mapping[str, Any]]]) -> tuple[
    Game, bool, list[str]
]:
    """Rebuild a game from a journal's header and events: ``(game, ended, notes)``.

    Refused placements are refused again and change nothing (that is how they were journaled);
    a line that is not a Tantrix event is skipped with a note rather than losing the game.
    Events after an ``end`` are not played, as in ``companion simulate``; the arbiter's
    corrections are (:func:`fold_corrected`).
    """
    game, ended, notes, _ = fold_corrected(header, events)
    return game, ended, notes


def fold_corrected(
    header: Mapping[str, Any], events: Sequence[tuple[int, Mapping[str, Any]]]
) -> tuple[Game, bool, list[str], Ledger]:
    """:func:`fold` with the corrections' ledger: ``correct`` lines are applied as
    ``companion simulate`` applies them (a tile taken back or moved, the turn, the result)."""
    try:
        game = make_game(header)
    except MalformedInput as exc:
        raise ValueError(f"the journal header: {exc}") from None
    ledger = Ledger(game.players)
    ended = False
    notes: list[str] = []
    for line, event in events:
        if ended and event.get("ev") != "correct":
            continue
        try:
            game, _ = play_event(game, ledger, event, line)
        except (MalformedInput, ValueError, TypeError) as exc:
            notes.append(f"line {line}: skipped: {exc}")
            continue
        ended = ended or event.get("ev") == "end" or ledger.result is not None
    return game, ended, notes, ledger


class TantrixTable(KeypadTable):
    """A Tantrix Strategy game in play (or waiting for one), driven from the keypad."""

    GAME = "tantrix"

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
        self.game: Game | None = None
        self.entry: KeypadEntry | None = None
        self.ended = False  # an ``end`` event stopped the game before the table was full
        self.ledger: Ledger | None = None  # the arbiter's corrections to the Strategy game
        self.last_refusal: IllegalPlacement | None = None  # of the last :meth:`submit`
        # A solo mode (Solitaire, Rainbow, Gobble) instead of Strategy: its game and dialogue.
        self.solo: solo.Solo | None = None
        self.solo_entry: SoloEntry | None = None

    # ------------------------------------------------------------------ games

    def start_game(
        self,
        players: Sequence[str] = DEFAULT_PLAYERS,
        *,
        names: Mapping[str, str] | None = None,
        table: int | None = None,
        name: str | None = None,
        hands: bool = False,
    ) -> Path:
        """Begin a new game between 2 to 4 colours in seat order (the first seat starts, unless
        a start draw with ``hands`` decides), or the team game (four seats, two colours).
        With ``hands`` every tile that leaves the bag is typed, so the obligation to fill
        forced spaces is enforced.

        ``names`` optionally gives each colour's player, e.g. ``{"red": "Ada"}``. Bad options
        raise :class:`ValueError` and leave the table as it was.
        """
        game = HandsGame(players) if hands else Game(players)
        names = dict(names or {})
        strangers = sorted(set(names) - set(game.players))
        if strangers:
            raise ValueError(f"names given for colours not playing: {', '.join(strangers)}")
        header: dict[str, Any] = {"players": list(game.players), "names": names}
        if hands:
            header["hands"] = True
        path = self._new_journal(header, table, name)
        self.game = game
        self.ledger = Ledger(game.players)
        self.solo = self.solo_entry = None
        self.ended = False
        self._resync()
        return path

    def start_solo(
        self,
        mode: str,
        *,
        target: str = "line",
        puzzle: str = "green",
        players: Sequence[str] = (),
        table: int | None = None,
        name: str | None = None,
    ) -> Path:
        """Begin a solo game: ``"solitaire"`` (``target`` line or loop), ``"rainbow"``
        (``puzzle``: green, yellow, white, blue or red) or ``"gobble"`` (one player, or with
        ``players`` the race scorer for 2 to 6). Bad
        options raise :class:`ValueError` and leave the table as it was."""
        header: dict[str, Any] = {"mode": mode}
        if mode == "solitaire":
            header["target"] = target
        elif mode == "rainbow":
            header["puzzle"] = puzzle
        elif mode == "gobble":
            header["players"] = list(players) if players else 1
        else:
            raise ValueError(f"the solo modes are solitaire, rainbow and gobble, not {mode!r}")
        try:
            game = solo.make(mode, header, 1)
        except MalformedInput as exc:
            raise ValueError(str(exc)) from None
        path = self._new_journal(header, table, name)
        self.game, self.entry = None, None
        self.solo = game
        self.ended = False
        self.solo_entry = SoloEntry(copy.deepcopy(game))
        self.changed = True
        return path

    def resume(self, path: str | Path) -> list[str]:
        """Continue an unfinished game from its journal; returns notes for the log.

        The journal is folded again from its first line, refusals included; a torn last line
        (a write cut short by a power cut) is kept beside it and cut off first. A journal that
        is not of this game raises :class:`ValueError` and leaves the table waiting."""
        self.game = None
        self.entry = None
        self.solo = self.solo_entry = None
        self.ledger = None
        (game, ended, fold_notes, ledger), notes = self._refold(path, _fold_resumed)
        if not isinstance(game, Game):
            self.solo, self.ended = game, ended
            self.solo_entry = SoloEntry(copy.deepcopy(game))
            off = self.game_time() - self.last_t
            self._record({"ev": "note", "text": f"resumed after {off:.1f} s"}, src="daemon")
            return [*notes, *fold_notes]
        self.game = game
        self.ledger = ledger
        self.ended = ended
        self._resync()
        notes += fold_notes
        self._record({"ev": "note", "text": self.resumed_text}, src="daemon")
        return notes

    def _resync(self) -> None:
        """Give the keypad dialogue a fresh twin of the game (after a start, a resume, or if
        the twin ever drifted from the journaled game)."""
        assert self.game is not None
        self.entry = KeypadEntry(copy.deepcopy(self.game))
        self.changed = True

    # ------------------------------------------------------------------ keys

    def _key(self, key: str) -> None:
        if self.solo is not None and self.solo_entry is not None:
            self._solo_key(key)
            return
        game, entry = self.game, self.entry
        if game is None or entry is None:
            return
        if self.ended:
            self._refuse("the game was ended; start a new game")
            return
        screen = entry.press(key)
        try:
            self._settle(game, screen)
        except BaseException:
            self._resync()  # the journal did not take it: the twin must forget it too
            raise

    def _play(self, game: Game, event: Mapping[str, Any]) -> IllegalPlacement | None:
        """Play one journaled game input, keeping the corrections' ledger up to date."""
        if self.ledger is None:
            return apply_event(game, event)
        return play_event(game, self.ledger, event)[1]

    def submit(self, t_mono: float, body: dict[str, Any]) -> None:
        """Journal and play one arbiter record now (a ``correct`` or a ``note``, from arbiter
        mode): a correction may replace the game (a tile taken back or moved), and the keypad's
        twin follows. :attr:`last_refusal` says whether the rules refused it."""
        self.last_refusal = None
        game, ledger = self.game, self.ledger
        if self.writer is None or game is None or ledger is None:
            return
        self._record(body, src="arbiter")
        if body.get("ev") == "correct":
            try:
                self.game, self.last_refusal = play_event(game, ledger, body)
            except MalformedInput as exc:
                self.last_refusal = IllegalPlacement("correction", exc.message)
            self.ended = self.ended or ledger.result is not None
            self._resync()
        self.changed = True
        self._final_if_over()

    def _settle(self, game: Game, screen: Screen) -> None:
        if screen.action is not None:
            self._record(screen.action)
            refused = self._play(game, screen.action)
            if refused is not None:  # cannot happen while the twin and the game agree
                log.error("journaled %s but the game refuses it: %s", screen.action, refused)
            if not self._twins_agree():
                log.error("the keypad's twin drifted from the game; resynchronised")
                self._resync()
            self._sound("confirm")
            return
        if screen.refused is not None:
            self._record(screen.refused)
            refused = self._play(game, screen.refused)
            if refused is None:
                log.error("the game accepted %s the keypad refused", screen.refused)
                self._resync()
            self._refuse(screen.error or str(refused))
            return
        if screen.error is not None:
            self._record({"ev": "note", "text": f"keypad: {screen.error}"})
            self._refuse(screen.error)

    def _solo_key(self, key: str) -> None:
        """A key in a solo mode: journal what the dialogue did, then play it on the game."""
        assert self.solo is not None and self.solo_entry is not None
        if self.ended:
            self._refuse("the game was ended; start a new game")
            return
        screen: SoloScreen = self.solo_entry.press(key)
        for action in screen.actions:
            self._record(action)
            if solo.apply_event(self.solo, action, 0, self.game_time()) is not None:
                log.error("journaled %s but the game refuses it", action)
        if screen.refused is not None:
            self._record(screen.refused)
            solo.apply_event(self.solo, screen.refused, 0, self.game_time())
        elif screen.error is not None:
            self._record({"ev": "note", "text": f"keypad: {screen.error}"})
        if screen.stop:
            self.ended = True
        if screen.error is not None:
            self._refuse(screen.error)
        elif screen.actions:
            self._sound("confirm")
        if screen.next_puzzle is not None:
            self.start_solo("rainbow", puzzle=screen.next_puzzle)
        self.changed = True

    def _twins_agree(self) -> bool:
        assert self.game is not None and self.entry is not None
        twin, game = self.entry.game, self.game
        return (
            twin.placements == game.placements
            and twin.seat == game.seat
            and twin.free_move_used == game.free_move_used
            and _hands(twin) == _hands(game)
        )

    # ------------------------------------------------------------------ views

    def _game_view(self) -> dict[str, Any]:
        """What the screen shows now: the game's state (the ``simulate`` fields the players
        need) and the keypad dialogue under ``"entry"``."""
        if self.solo is not None and self.solo_entry is not None:
            return self._solo_view()
        game, entry = self.game, self.entry
        if game is None or entry is None:
            return {"game": None}
        scores = game.scores()
        screen = entry.screen
        out = {
            "game": "tantrix",
            "players": list(game.players),
            "names": dict(self.header.get("names") or {}),
            "turn": game.turn,
            "placed": game.placed,
            "bag": game.bag,
            "phase": game.phase,
            "free_move_used": game.free_move_used,
            "forced": [[q, r] for q, r in game.forced_spaces()],
            "scores": {p: s.as_dict() for p, s in scores.items()},
            "tiles": [
                {"tile": p.tile, "q": p.q, "r": p.r, "rot": p.rot, "sides": list(sides(p))}
                for p in game.placements
            ],
            "over": game.is_over or self.ended,
            "ended": self.ended,
            "winner": game.winner,
            **self._arbiter_result(),
            "entry": entry_view(screen),
            "error": self.error,
            "warning": self.warning,
        }
        if isinstance(game, HandsGame):
            out.update(hands_state(game))
            out["hand"] = game.hand(game.seat)
        return out

    def pages_prompt(self) -> bool:
        """A solo game's prompt (a race's players too) may take two pages while it is played."""
        return self.solo is not None and self.solo_entry is not None and not (
            bool(getattr(self.solo, "over", False)) or self.ended)

    def _racing(self) -> bool:
        return isinstance(self.solo, solo.GobbleRace) and not (self.solo.over or self.ended)

    def poll(self) -> None:
        """Messages time out; during a Gobble race the clock on the screen ticks."""
        super().poll()
        if self._racing():
            self.changed = True

    def next_wakeup(self) -> float | None:
        """As for every keypad game, plus the next whole second of a running Gobble race."""
        due = super().next_wakeup()
        if not self._racing():
            return due
        game_t = self.game_time()
        tick = self.clock.now() + (int(game_t) + 1 - game_t)
        return tick if due is None else min(due, tick)

    def animating(self) -> bool:
        """The Gobble race's clock changes the screen every second."""
        return self._racing()

    def _solo_view(self) -> dict[str, Any]:
        """The screen's view of a solo game: its ``simulate`` state, a few status lines and the
        dialogue in the shape the Strategy screens draw."""
        assert self.solo is not None and self.solo_entry is not None
        out = solo.state(self.solo)
        if not out.get("race"):
            out["players"] = list(out["scores"])
        out["clock"] = round(self.game_time(), 1)
        out["names"] = {"solo": _(say.SOLO_TITLES[out["mode"]])}
        out["lines"] = solo_lines(out)
        out["over"] = bool(out["over"] or self.ended)
        out["ended"] = self.ended
        screen = self.solo_entry.screen
        cells = list(screen.spots)
        out["entry"] = {
            "mode": screen.mode if screen.mode != "lift" else "tile",
            "stage": "tile",
            "prompt": screen.prompt,
            "typed": screen.typed,
            "tile": screen.tile,
            "colours": list(screen.colours) if screen.colours is not None else None,
            "spot": list(screen.spot) if screen.spot is not None else None,
            "rotation": screen.rotation,
            "spot_index": cells.index(screen.spot) if screen.spot in cells else None,
            "spot_count": len(cells),
            "spot_is_forced": screen.spot_is_forced,
            "legal": screen.mode == "place",
            "facing": list(screen.facing),
            "around": [dict(c) for c in screen.around],
            "lines": list(screen.lines),
            "cursor": screen.cursor,
        }
        out["error"], out["warning"] = self.error, self.warning
        return out

    def _arbiter_result(self) -> dict[str, Any]:
        """The arbiter's result correction, when he gave one (it decides the game)."""
        decided = self.ledger.result if self.ledger is not None else None
        if decided is None:
            return {}
        return {"over": True, "winner": decided["winner"],
                "reason": "forfeit" if decided["forfeit"] else "arbiter"}

    def _outcome(self) -> dict[str, Any] | None:
        game = self.game
        decided = self._arbiter_result()
        if game is not None and decided:
            return {"winner": decided["winner"], "reason": decided["reason"]}
        if game is None or not (game.is_over or self.ended):
            return None
        return {"winner": game.winner if game.is_over else None,
                "reason": "full" if game.is_over else "ended"}

    def status_line(self) -> str:
        """One line for systemd's STATUS=."""
        if self.solo is not None:
            return " ".join(solo_lines(solo.state(self.solo)))
        game = self.game
        if game is None:
            return "waiting for a game"
        points = " ".join(f"{p} {s.points}" for p, s in game.scores().items())
        if self.ended and not game.is_over:
            return f"tantrix ended after {game.placed} tiles ({points})"
        if game.is_over:
            w = game.winner
            return f"tantrix over: {'a tie' if w == 'tie' else f'{w} wins'} ({points})"
        return (
            f"tantrix: {game.turn} to play, {game.placed} placed, bag {game.bag} ({game.phase}),"
            f" forced {len(game.forced_spaces())}; {points}"
        )


def _hands(game: Game) -> list[list[int]] | None:
    if not isinstance(game, HandsGame):
        return None
    return [game.hand(s) for s in range(len(game.players))]


def sides(placement: Placement) -> tuple[str, ...]:
    """The colours a laid tile shows on sides NE..NW."""
    return TILES[placement.tile].sides(placement.rot)


def entry_view(screen: Screen) -> dict[str, Any]:
    """The keypad dialogue's screen as plain data for the OLED (and a desktop front end)."""
    index = screen.spots.index(screen.spot) if screen.spot in screen.spots else None
    return {
        "mode": screen.mode,
        "prompt": screen.prompt,
        "stage": screen.stage,
        "drawing": screen.drawing,
        "typed": screen.typed,
        "tile": screen.tile,
        "colours": list(screen.colours) if screen.colours is not None else None,
        "spot": list(screen.spot) if screen.spot is not None else None,
        "rotation": screen.rotation,
        "spot_index": index,
        "spot_count": len(screen.spots),
        "spot_is_forced": screen.spot_is_forced,
        "legal": screen.legal,
        "facing": list(screen.facing),
        "around": [
            {
                "q": c.q,
                "r": c.r,
                "tile": c.tile,
                "sides": list(c.sides) if c.sides is not None else None,
                "forced": c.forced,
                "candidate": c.candidate,
            }
            for c in screen.around
        ],
        "lines": list(screen.lines),
        "cursor": screen.cursor,
    }


def players_from_config(config: Mapping[str, Any]) -> list[str]:
    """The seat order from an optional ``[tantrix] players = [...]`` config section."""
    section = config.get("tantrix") or {}
    players = list(section.get("players") or DEFAULT_PLAYERS)
    for p in players:
        if p not in COLOURS:
            raise ValueError(f"tantrix.players: {p!r} is not one of {', '.join(COLOURS)}")
    return players


def solo_lines(state: Mapping[str, Any]) -> list[str]:
    """How a solo game stands, in two short lines for the screen."""
    mode = state["mode"]
    if state.get("race"):
        return [
            _(say.RACE_LINE).format(rank=i + 1, player=p, gobbles=state["gobbles"][p],
                                 done=_(say.RACE_DONE) if any(
                                     f["player"] == p for f in state["finished"]) else "")
            for i, p in enumerate(state["ranking"])
        ]
    if mode == "solitaire":
        target = state["target"]
        best = state["red_line"] if target == "line" else state["red_loop"]
        first = _(say.SOLITAIRE_LINE).format(
            kind=target, best=best, tiles=state["red_tiles"], short=state["short"]
        )
    elif mode == "rainbow":
        colour = state["colour"] or state["puzzle"]
        first = _(say.RAINBOW_LINE).format(
            placed=state["placed"], size=state["size"], colour=colour
        )
    else:
        pile = " ".join(map(str, state["discard"][-3:])) or "-"
        first = _(say.GOBBLE_LINE).format(gobbles=state["gobbles"], pile=pile)
    second = (_(say.SOLVED) if state["solved"]
              else _(say.SOLO_PROGRESS).format(placed=state["placed"], bag=state["bag"]))
    return [first, second]


def _fold_resumed(header: Mapping[str, Any], events: Sequence[tuple[int, Mapping[str, Any]]]
                  ) -> tuple[Any, bool, list[str], Ledger | None]:
    """What :meth:`TantrixTable.resume` folds: Strategy with its corrections, else a solo game."""
    if header.get("mode", "strategy") == "strategy":
        return fold_corrected(header, events)
    return (*fold_any(header, events), None)


def fold_any(header: Mapping[str, Any], events: Sequence[tuple[int, Mapping[str, Any]]]) -> tuple[
    Any, bool, list[str]
]:
    """:func:`fold` for Strategy, or the solo game of a ``mode`` header, refolded the same way
    (a line that is not an event of the mode is skipped with a note)."""
    mode = header.get("mode", "strategy")
    if mode == "strategy":
        return fold(header, events)
    try:
        game = solo.make(str(mode), header, 1)
    except MalformedInput as exc:
        raise ValueError(f"the journal header: {exc}") from None
    ended, notes = False, []
    for line, event in events:
        if ended:
            break
        try:
            solo.check_event(solo.submode(str(mode), header), event, line)
        except MalformedInput as exc:
            if event.get("ev") != "note":
                notes.append(f"line {line}: skipped: {exc}")
            continue
        when = event.get("t")
        solo.apply_event(game, event, line, float(when) if isinstance(when, (int, float)) else 0.0)
        ended = event.get("ev") == "end"
    return game, ended, notes


def validate_config(config: Mapping[str, Any]) -> None:
    """Refuse a ``[tantrix] players`` list the game cannot seat, at load, naming the key."""
    from companion.config import ConfigError

    try:
        Game(players_from_config(config))
    except ValueError as exc:
        raise ConfigError(f"'tantrix.players': {str(exc).removeprefix('tantrix.players: ')}") \
            from None


#: The controller the registry builds for this game (``PackageKind.make_table``).
TABLE = TantrixTable


def hands_from_config(config: Mapping[str, Any]) -> bool:
    """``[tantrix] hands = true``: every draw is typed and the obligation enforced."""
    hands = (config.get("tantrix") or {}).get("hands", False)
    if not isinstance(hands, bool):
        raise ValueError(f"tantrix.hands must be true or false, got {hands!r}")
    return hands


def start_from_config(table: TantrixTable, config: Mapping[str, Any]) -> Path:
    """Start a new game with the options the configuration gives (``[tantrix] mode``:
    strategy, or one of the solo modes with its ``target`` or ``puzzle``)."""
    section = config.get("tantrix") or {}
    mode = section.get("mode", "strategy")
    if mode != "strategy":
        return table.start_solo(
            str(mode),
            target=str(section.get("target", "line")),
            puzzle=str(section.get("puzzle", "green")),
            players=[str(p) for p in section.get("race") or []],
        )
    return table.start_game(players_from_config(config), hands=hands_from_config(config))


def configure_players(config: dict[str, Any], players: list[str]) -> None:
    """``new-game --players red,yellow``: the colours in seat order (the first starts)."""
    config.setdefault("tantrix", {})["players"] = list(players)
    players_from_config(config)  # an unknown colour is refused now, before any journal
