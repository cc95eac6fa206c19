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
from companion.keypad_table import KeypadTable
from companion.scenario import MalformedInput
from companion.tantrix.entry import KeypadEntry, Screen
from companion.tantrix.game import Game, Placement
from companion.tantrix.hands import HandsGame
from companion.tantrix.simulate import apply_event, hands_state, make_game
from companion.tantrix.tiles import COLOURS, TILES

log = logging.getLogger(__name__)

DEFAULT_PLAYERS = ("red", "yellow")


def fold(header: Mapping[str, Any], events: Sequence[tuple[int, Mapping[str, Any]]]) -> tuple[
    Game, bool, list[str]
]:
    """Rebuild a game from a journal's header and events: ``(game, ended, notes)``.

    Refused placements are refused again and change nothing (that is how they were journaled);
    a line that is not a Tantrix event is skipped with a note rather than losing the game.
    Events after an ``end`` are not played, as in ``companion simulate``.
    """
    try:
        game = make_game(header)
    except MalformedInput as exc:
        raise ValueError(f"the journal header: {exc}") from None
    ended = False
    notes: list[str] = []
    for line, event in events:
        if ended:
            break
        try:
            apply_event(game, event, line)
        except (MalformedInput, ValueError, TypeError) as exc:
            notes.append(f"line {line}: skipped: {exc}")
            continue
        ended = event.get("ev") == "end"
    return game, ended, notes


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
        self.ended = False
        self._resync()
        return path

    def resume(self, path: str | Path) -> list[str]:
        """Continue an unfinished game from its journal; returns notes for the log.

        The journal is folded again from its first line, refusals included; a torn last line
        (a write cut short by a power cut) is kept beside it and cut off first. A journal that
        is not of this game raises :class:`ValueError` and leaves the table waiting."""
        self.game = None
        self.entry = None
        (game, ended, fold_notes), notes = self._refold(path, fold)
        self.game = game
        self.ended = ended
        self._resync()
        notes += fold_notes
        off = self.game_time() - self.last_t
        self._record({"ev": "note", "text": f"resumed after {off:.1f} s"}, src="daemon")
        return notes

    def _resync(self) -> None:
        """Give the keypad dialogue a fresh twin of the game (after a start, a resume, or if
        the twin ever drifted from the journaled game)."""
        assert self.game is not None
        self.entry = KeypadEntry(copy.deepcopy(self.game))
        self.changed = True

    # ------------------------------------------------------------------ keys

    def _key(self, key: str) -> None:
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

    def _settle(self, game: Game, screen: Screen) -> None:
        if screen.action is not None:
            self._record(screen.action)
            refused = apply_event(game, screen.action)
            if refused is not None:  # cannot happen while the twin and the game agree
                log.error("journaled %s but the game refuses it: %s", screen.action, refused)
            if not self._twins_agree():
                log.error("the keypad's twin drifted from the game; resynchronised")
                self._resync()
            self._sound("confirm")
            return
        if screen.refused is not None:
            self._record(screen.refused)
            refused = apply_event(game, screen.refused)
            if refused is None:
                log.error("the game accepted %s the keypad refused", screen.refused)
                self._resync()
            self._refuse(screen.error or str(refused))
            return
        if screen.error is not None:
            self._record({"ev": "note", "text": f"keypad: {screen.error}"})
            self._refuse(screen.error)

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

    def view(self) -> dict[str, Any]:
        """What the screen shows now: the game's state (the ``simulate`` fields the players
        need) and the keypad dialogue under ``"entry"``."""
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
            "entry": entry_view(screen),
            "error": self.error,
            "warning": self.warning,
        }
        if isinstance(game, HandsGame):
            out.update(hands_state(game))
            out["hand"] = game.hand(game.seat)
        return out

    def status_line(self) -> str:
        """One line for systemd's STATUS=."""
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


#: The controller the registry builds for this game (``PackageKind.make_table``).
TABLE = TantrixTable


def hands_from_config(config: Mapping[str, Any]) -> bool:
    """``[tantrix] hands = true``: every draw is typed and the obligation enforced."""
    hands = (config.get("tantrix") or {}).get("hands", False)
    if not isinstance(hands, bool):
        raise ValueError(f"tantrix.hands must be true or false, got {hands!r}")
    return hands


def start_from_config(table: TantrixTable, config: Mapping[str, Any]) -> Path:
    """Start a new game with the options the configuration gives."""
    return table.start_game(players_from_config(config), hands=hands_from_config(config))
