"""Arbiter mode at a table: the keypad menu and the arbiter's commands, journaled at the table.

:class:`ArbiterStation` sits beside a :class:`companion.tamsk.table.Table` in the daemon's loop. It
takes the keypad's keys first (:meth:`ArbiterStation.key`; a key it does not take goes on to the
table as before), checks the PIN, and turns the menu's choices into ``correct`` records that go
through the table's own input queue, so they are journaled in time order, folded by the same
engine, published, and shown like any input. Arbiter commands from MQTT
(:meth:`ArbiterStation.command`) are checked by a :class:`~companion.arbiter.commands.CommandGate`
(signature, table, game, nonce, age) and carried out the same way. Every refusal (a wrong PIN, a
locked PIN entry, a bad or replayed command) is journaled as a note.

Tournament options (whether the players' screen shows exact sand seconds, the level, the rule
set, the calibration) are kept in ``tournament.json`` in the journal folder and journaled as
notes when they change; the rules ones apply from the next game.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any, Protocol

from companion.arbiter.commands import CommandGate
from companion.arbiter.pin import PinLock
from companion.arbiter.settings import arbiter_settings, table_number
from companion.scenario import MalformedInput
from companion.tamsk.arbiter_menu import ArbiterMenu, Correct, Note, SetOption
from companion.tamsk.corrections import ARBITER, NEXT_ROUND, UNDOABLE, parse_correction
from companion.tamsk.game import Game, Rules

log = logging.getLogger(__name__)

OPTIONS_FILE = "tournament.json"


class TableLike(Protocol):
    """What the station needs of a table (``companion.tamsk.table.Table`` has it all)."""

    game: Game | None
    journal_dir: Path
    config: Mapping[str, Any]

    @property
    def journal_path(self) -> Path | None: ...

    def start_game(
        self,
        rules: Rules,
        *,
        names: Mapping[str, str] | None = ...,
        table: int | None = ...,
        name: str | None = ...,
    ) -> Path: ...


class ClockLike(Protocol):
    def now(self) -> float: ...

    def wall(self) -> float: ...


@dataclass
class TournamentOptions:
    """What the arbiter sets for the whole tournament at this table."""

    show_sand_seconds: bool = True
    level: int | None = None
    ruleset: str | None = None
    calibration: dict[str, float] = field(default_factory=dict)

    def rules(self, base: Rules) -> Rules:
        """The rules of the next game: the configured ones with the arbiter's choices."""
        periods = {**dict(base.periods), **self.calibration}
        timer = periods.pop("timer15", base.timer_period)
        return replace(
            base,
            level=self.level or base.level,
            ruleset=self.ruleset or base.ruleset,
            periods=periods,
            timer_period=timer,
        )

    @classmethod
    def load(cls, path: Path, default_show: bool) -> TournamentOptions:
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return cls(show_sand_seconds=default_show)
        if not isinstance(data, dict):
            return cls(show_sand_seconds=default_show)
        return cls(
            show_sand_seconds=bool(data.get("show_sand_seconds", default_show)),
            level=data.get("level") if data.get("level") in (1, 2, 3) else None,
            ruleset=data.get("ruleset") if data.get("ruleset") in ("adjusted", "original")
            else None,
            calibration={
                str(k): float(v)
                for k, v in (data.get("calibration") or {}).items()
                if isinstance(v, (int, float)) and 0 < v < 3600
            },
        )

    def save(self, path: Path) -> None:
        tmp = path.with_name(path.name + ".tmp")
        tmp.write_text(json.dumps(asdict(self), indent=1) + "\n", encoding="utf-8")
        tmp.replace(path)


@dataclass(frozen=True)
class Outcome:
    """What became of a correction or command: ``ok`` True, False, or None while queued."""

    ok: bool | None
    detail: str
    nonce: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"ok": self.ok, "detail": self.detail, "nonce": self.nonce}


def base_rules(config: Mapping[str, Any]) -> Rules:
    """The rules the configuration gives (``[game]`` and ``[calibration]``)."""
    game = config.get("game") or {}
    periods = {str(k): float(v) for k, v in (config.get("calibration") or {}).items()}
    timer = periods.pop("timer15", 15.0)
    return Rules(
        int(game.get("level", 3)),
        str(game.get("ruleset", "adjusted")),
        str(game.get("start", "standard")),
        periods,
        timer,
    )


def game_id_of(path: Path | None) -> str | None:
    """A game's identity: the first 16 hex of its journal header's hash."""
    if path is None:
        return None
    try:
        with open(path, "rb") as f:
            value = json.loads(f.readline()).get("hash")
    except (OSError, ValueError, AttributeError):
        return None
    return value[:16] if isinstance(value, str) else None


class ArbiterStation:
    """The arbiter's keypad menu and command gate for one table."""

    def __init__(self, table: TableLike, clock: ClockLike) -> None:
        self.table = table
        self.clock = clock
        settings = arbiter_settings(table.config)
        self.settings = settings
        self.table_no = table_number(table.config)
        self.lock = PinLock(
            settings.pin_sha256, attempts=settings.pin_attempts, lockout_s=settings.pin_lockout_s
        )
        self.menu = ArbiterMenu(self.lock, last_input=self._last_input, penalties=self._penalties)
        self.key_bytes = settings.key()
        self.gate = CommandGate(
            self.key_bytes, self.table_no, max_age_s=settings.command_max_age_s
        )
        display = table.config.get("display", {})
        default_show = bool(display.get("show_sand_seconds", True)) if display else True
        self.options_path = Path(table.journal_dir) / OPTIONS_FILE
        self.options = TournamentOptions.load(self.options_path, default_show)
        self._remembered: Path | None = None
        self.remember_nonces()

    # ------------------------------------------------------------------ keypad

    def key(self, key: str, t_mono: float) -> bool:
        """Offer one key to arbiter mode first; False: the table handles it as usual."""
        taken, actions = self.menu.press(key, t_mono)
        for action in actions:
            if isinstance(action, Correct):
                self.correct(action.body, auth="pin", t_mono=t_mono)
            elif isinstance(action, Note):
                self.note(action.text, t_mono=t_mono, fields=action.fields)
            elif isinstance(action, SetOption):
                self.set_option(action.name, action.value, t_mono=t_mono)
        return taken

    def screen(self) -> list[str]:
        """What the table's screen shows while the arbiter has the keypad."""
        return self.menu.screen()

    @property
    def active(self) -> bool:
        return self.menu.active

    def view(self, state: dict[str, Any]) -> dict[str, Any]:
        """The table's view with the arbiter's options (exact sand seconds or not)."""
        state["show_sand_seconds"] = self.options.show_sand_seconds or self.menu.active
        if self.menu.active:
            state["arbiter"] = self.screen()
        return state

    # ------------------------------------------------------------------ records

    def _submit(self, t_mono: float, body: dict[str, Any]) -> None:
        table: Any = self.table
        table.submit(t_mono, body)

    def note(
        self, text: str, *, t_mono: float | None = None, fields: Mapping[str, Any] | None = None
    ) -> None:
        """Journal a note (if a game is open; otherwise log it)."""
        if self.table.game is None:
            log.warning("arbiter: %s", text)
            return
        body: dict[str, Any] = {"ev": "note", "text": text, **(fields or {})}
        self._submit(self.clock.now() if t_mono is None else t_mono, body)

    def correct(
        self,
        correction: Mapping[str, Any],
        *,
        auth: str,
        t_mono: float | None = None,
        nonce: str | None = None,
    ) -> Outcome:
        """Journal one correction made by the arbiter (already authenticated as ``auth``)."""
        game = self.table.game
        if game is None:
            return Outcome(False, "no game on this table", nonce)
        body: dict[str, Any] = {
            k: v for k, v in correction.items() if k not in ("t", "ev", "by", "auth", "nonce")
        }
        body.setdefault("reason", "")
        body = {"ev": "correct", **body, "by": ARBITER, "auth": auth}
        if nonce is not None:
            body["nonce"] = nonce
        try:
            parse_correction(body)
        except MalformedInput as exc:
            self.note(
                f"arbiter correction refused: {exc.message}",
                t_mono=t_mono,
                fields={"arbiter": "correction-refused"},
            )
            return Outcome(False, exc.message, nonce)
        refused, applied = len(game.violations), len(game.corrections)
        self._submit(self.clock.now() if t_mono is None else t_mono, body)
        game = self.table.game
        assert game is not None
        if len(game.corrections) > applied:
            if body["what"] == NEXT_ROUND:
                self._next_round(int(body["round"]))
            return Outcome(True, f"{body['what']}: done", nonce)
        if len(game.violations) > refused:
            return Outcome(False, game.violations[-1].detail, nonce)
        return Outcome(None, f"{body['what']}: queued behind a glass in motion", nonce)

    def _next_round(self, number: int) -> None:
        base = base_rules(self.table.config)
        self.table.start_game(self.options.rules(base), table=self.table_no)
        self.note(f"round {number}", fields={"round": number})
        self.remember_nonces()

    def set_option(self, name: str, value: Any, *, t_mono: float | None = None) -> None:
        if name == "calibration":
            self.options.calibration.update({str(k): float(v) for k, v in value.items()})
        elif name in ("show_sand_seconds", "level", "ruleset"):
            setattr(self.options, name, value)
        else:
            raise ValueError(f"unknown tournament option {name!r}")
        self.options.save(self.options_path)
        when = "now" if name == "show_sand_seconds" else "from the next game"
        self.note(
            f"arbiter: tournament option {name} = {value} ({when})",
            t_mono=t_mono,
            fields={"option": {name: value}},
        )

    # ------------------------------------------------------------------ commands

    @property
    def game_id(self) -> str | None:
        return game_id_of(self.table.journal_path)

    def remember_nonces(self) -> None:
        """Read the nonces already used from the current journal (after a restart)."""
        path = self.table.journal_path
        if path is None or path == self._remembered:
            return
        self._remembered = path
        try:
            lines = path.read_text(encoding="utf-8").splitlines()
        except OSError:
            return
        for line in lines:
            try:
                record = json.loads(line)
            except ValueError:
                continue
            nonce = record.get("nonce") if isinstance(record, dict) else None
            if isinstance(nonce, str):
                self.gate.remember(nonce)

    def command(self, payload: bytes | str | Mapping[str, Any]) -> Outcome:
        """Carry out one arbiter command from MQTT, or refuse it (and journal why)."""
        self.remember_nonces()
        cmd: Any = payload
        if isinstance(payload, (bytes, str)):
            try:
                cmd = json.loads(payload)
            except (ValueError, UnicodeDecodeError):
                cmd = None
        nonce = cmd.get("nonce") if isinstance(cmd, Mapping) else None
        nonce = nonce if isinstance(nonce, str) else None
        why = self.gate.check(cmd, self.game_id, self.clock.wall())
        if why is not None:
            fields: dict[str, Any] = {"arbiter": "command-refused"}
            if nonce:
                fields["refused_nonce"] = nonce
            self.note(f"arbiter command refused: {why}", fields=fields)
            return Outcome(False, why, nonce)
        assert isinstance(cmd, Mapping)
        return self.correct(cmd["correction"], auth="command", nonce=nonce)

    # ------------------------------------------------------------------ for the menu

    def _last_input(self) -> tuple[float, str, str] | None:
        game = self.table.game
        if game is None:
            return None
        for event in reversed(game.history):
            if event.kind in UNDOABLE:
                d = event.to_dict()
                what = " ".join(str(v) for k, v in d.items() if k not in ("t", "ev"))
                return event.t, event.kind, f"{event.kind} {what} at {event.t:.1f}"
        return None

    def _penalties(self) -> list[str]:
        game = self.table.game
        if game is None:
            return []
        return [f"{p.player} {p.kind} at {p.t:.1f}" for p in game.penalties]
