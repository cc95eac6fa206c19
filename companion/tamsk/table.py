"""The table: raw inputs in, journaled game events, sounds and screens out.

:class:`Table` is the daemon's brain without the asyncio plumbing. It owns the game, its
journal, the tilt and button debouncers, the keypad entry, the buzzer and the screen, and it
never sleeps or reads the wall clock itself: every raw input carries the monotonic time it
happened, and :meth:`Table.poll` is called with the clock's time whenever
:meth:`Table.next_wakeup` says something is due. Tests and the demo drive it on a fake clock.

Ordering: the journal must be in time order, but a tilt switch's release is only certain
``settle`` seconds after the edge it is dated at. Inputs that happen meanwhile wait in a short
queue until every glass in motion has settled past them, so the journal (and the fold) always
sees events in the order they happened, with the times they happened.
"""

from __future__ import annotations

import heapq
import itertools
import logging
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from companion import __version__
from companion.clock import Clock
from companion.hw.debounce import ButtonDebouncer, Motion, TiltInterpreter
from companion.i18n import _
from companion.inputs import RawInput
from companion.journal import JournalWriter
from companion.keys import SigningKey
from companion.pages import Paging, lasting
from companion.scenario import MalformedInput
from companion.tablekey import table_key
from companion.tables import header_extras, merge_next_header
from companion.tamsk.board import COLUMNS, SPACES
from companion.tamsk.challenge import outcome as challenge_outcome
from companion.tamsk.challenge import parse_challenge
from companion.tamsk.events import GLASSES, opponent, parse_event
from companion.tamsk.game import Game, Rules
from companion.tamsk.words import colour_word, penalty_notice, player_word, refusal_in_words
from companion.wallclock import TrustProbe, always_trusted

log = logging.getLogger(__name__)


RING_BUTTONS = {"ring.red": "red", "ring.black": "black"}
TIMER_BUTTONS = {"timer15.red": "red", "timer15.black": "black"}


@dataclass(order=True)
class _Pending:
    t: float
    seq: int
    body: dict[str, Any] = field(compare=False)
    motion_of: str | None = field(default=None, compare=False)  # a glass's own lift


class Table:
    """A Tamsk table in play (or waiting for a game)."""

    #: Arbiter mode runs at a Tamsk table: PIN menu, corrections, publishing.
    arbiter_at_table = True

    def __init__(
        self,
        clock: Clock,
        journal_dir: str | Path,
        *,
        config: Mapping[str, Any],
        levels: Mapping[str, bool] | None = None,
        sound: Callable[[str], None] | None = None,
        on_record: Callable[[dict[str, Any]], None] | None = None,
    ) -> None:
        self.clock = clock
        self.journal_dir = Path(journal_dir)
        self.config = config
        inp = config["input"]
        self.settle = inp["settle_ms"] / 1000.0
        self.horizontal = inp["horizontal_ms"] / 1000.0
        self.timer15_shared = bool(inp["timer15_shared"])
        levels = levels or {}
        self.tilts = {
            g: TiltInterpreter(
                g, bool(levels.get(g, False)), settle=self.settle, horizontal=self.horizontal
            )
            for g in GLASSES
        }
        lockout = inp["button_lockout_ms"] / 1000.0
        names = [*RING_BUTTONS, *TIMER_BUTTONS, "timer15.shared", "menu"]
        self.buttons = {
            n: ButtonDebouncer(n, lockout=lockout, hold=inp["hold_s"] if n == "menu" else None)
            for n in names
        }
        self._sound = sound or (lambda pattern: None)
        self._on_record = on_record
        self.game: Game | None = None
        self.writer: JournalWriter | None = None
        self.header: dict[str, Any] = {}
        self.mono0 = 0.0  # monotonic time of game time 0
        self._pending: list[_Pending] = []
        self._seq = itertools.count()
        self.warning: str | None = None
        self.warning_until = 0.0
        self.error: str | None = None
        # A refusal or warning longer than the screen turns its pages (companion.pages).
        self.error_pages = Paging()
        self.warning_pages = Paging()
        self.error_until = 0.0
        self.entry = ""  # keys typed so far
        self.destination: dict[str, str] = {}  # player -> space typed for his next release
        self.paused = False
        self.resigning: str | None = None  # a player who pressed his resign key once
        self._final_written = False  # the journal's last record is the game's final record
        self._ticked: set[int] = set()
        self._low_warned: dict[str, float] = {}
        self._timer_seen = False
        self.changed = True  # something to redraw
        self._path: Path | None = None
        #: Whether the wall clock can be believed at a resume (the daemon asks the machine).
        self.wall_trust: TrustProbe = always_trusted
        #: Game time the game is held at after a power cut the wall clock cannot measure,
        #: until the players confirm (or correct) the sand; None when not held.
        self.held: float | None = None
        #: Arbiter mode: offered every key first (True: taken), and dresses the view.
        self.key_filter: Callable[[str, float], bool] | None = None
        self.view_filter: Callable[[dict[str, Any]], dict[str, Any]] | None = None
        #: Header fields for the next game only (a pairing's tournament, round, board, seats).
        self.next_header: dict[str, Any] = {}

    # ------------------------------------------------------------------ games

    @property
    def signer(self) -> SigningKey:
        """The table's key, which signs every record (made on first use: ``tablekey``)."""
        return table_key(self.config, self.journal_dir)

    @property
    def journal_path(self) -> Path | None:
        """The current (or last) game's journal."""
        return self._path

    def game_time(self, mono: float | None = None) -> float:
        return (self.clock.now() if mono is None else mono) - self.mono0

    def start_game(
        self,
        rules: Rules,
        *,
        names: Mapping[str, str] | None = None,
        table: int | None = None,
        name: str | None = None,
        extra: Mapping[str, Any] | None = None,
    ) -> Path:
        """Begin a new game now: a new journal with its header, time 0 is this instant. If the
        journal cannot be written (a full disk) the table is left as it was.

        ``extra``: more header fields (a GIPF challenge's, from :mod:`.challenge`)."""
        now, wall = self.clock.now(), self.clock.wall()
        stamp = datetime.fromtimestamp(wall, UTC)
        table_no = int(table if table is not None else self.config["table"]["number"])
        stem = f"tamsk-t{table_no}-{stamp:%Y%m%d-%H%M%S}"
        header: dict[str, Any] = {
            "game": "tamsk",
            "level": rules.level,
            "ruleset": rules.ruleset,
            "start": rules.start,
            "periods": {**dict(rules.periods), "timer15": rules.timer_period},
            "names": dict(names or {}),
            "table": table_no,
            **header_extras(self.config),
            "software": f"companion {__version__}",
            "created": stamp.isoformat(timespec="seconds"),
            "wall0": round(wall, 3),
            **dict(extra or {}),
        }
        # a pairing's seats: red moves first (the order of the game's result colours)
        merge_next_header(header, self.next_header, ["red", "black"])
        if name:
            writer = JournalWriter.create(self.journal_dir / name, header, self.signer)
        else:  # two games in one second get distinct names
            writer = JournalWriter.create_unique(self.journal_dir, stem, header, self.signer)
        self.close()
        self.writer = writer
        self.held = None
        self._path = self.writer.path
        self.header = header
        self.game = Game(rules)
        self.mono0 = now
        self._reset_feedback()
        self.changed = True
        return self.writer.path

    def resume(self, path: str | Path) -> list[str]:
        """Continue an unfinished game from its journal, counting the time the power was off.

        Game time goes on from the last record, plus the wall-clock time since it was written:
        glasses ran on while the table was dark, and some may have run out. That gap is
        counted only when :attr:`wall_trust` says the wall clock is right (a real-time clock,
        or NTP); otherwise the game is *held* at the cut: the screen shows the glasses as they
        were and asks the players to confirm the sand (``#``) or say how many seconds it ran
        (digits, ``#``), and the journal records what they decided (:meth:`confirm_sand`).
        While held, game time does not run and no move is taken. The hold is table state in
        the shell: the pure rules only ever see the journal's times.
        """
        from companion.tamsk.simulate import rules_from_header

        self.close()
        writer, journal = JournalWriter.resume(path, self.signer)
        notes = journal.notes()  # a torn tail cut off, damaged records set aside
        if journal.header is None or journal.header.get("game") != "tamsk":
            writer.close()
            raise ValueError(f"{path}: not a Tamsk journal")
        rules = rules_from_header(journal.header)
        game = Game(rules)
        last_t, last_wall = 0.0, float(journal.header.get("wall0", self.clock.wall()))
        for line, body in journal.events:
            t = body.get("t")
            if not isinstance(t, (int, float)) or t < game.t:
                notes.append(f"line {line}: skipped, its time is not in order")
                continue
            try:
                game.apply(parse_event(body, float(t), line))
            except ValueError as exc:
                notes.append(f"line {line}: {exc}")
                continue
            last_t = float(t)
            if isinstance(body.get("wall"), (int, float)):
                last_wall = float(body["wall"])
        from companion.current import read_alive

        alive = read_alive(Path(path), int(journal.header.get("table", 0) or 0))
        if alive is not None and alive[0] >= last_t:  # sand ran on after the last record
            last_t, last_wall = alive
        gap = self.clock.wall() - last_wall
        trust = self.wall_trust()
        off = max(0.0, gap) if trust else 0.0
        now_game = last_t + off
        self.game = game
        self.writer = writer
        self._path = writer.path
        self.header = dict(journal.header)
        self.mono0 = self.clock.now() - now_game
        self._reset_feedback()
        # Nothing to confirm when no sand or timer was running (a game not yet begun, ...).
        running = game.timer.running or any(g.running for g in game.glasses.values())
        self.held = now_game if not trust and running and not game.over else None
        self.changed = True
        if trust:
            note: dict[str, Any] = {"text": f"resumed after {off:.1f} s"}
        elif self.held is None:
            note = {"text": f"resumed; nothing was running; the time off is not counted "
                    f"({trust.why})"}
        else:
            note = {
                "text": f"resumed, held at the cut: the wall clock is not trusted ({trust.why}); "
                "the players confirm the sand",
                "wall_gap": round(gap, 3),
            }
            notes.append(f"held at the cut: {trust.why}")
        self._write({"t": round(now_game, 6), "ev": "note", **note}, src="daemon")
        return notes

    def confirm_sand(
        self, seconds: float, t_mono: float | None = None, *, by: str = "table"
    ) -> None:
        """End the hold after a power cut: the glasses ran ``seconds`` while the table was dark
        (0: as they were at the cut). Journaled first; game time then goes on from there."""
        if self.held is None or self.game is None:
            return
        if seconds < 0:
            raise ValueError("the sand cannot have run back")
        gt = round(self.held + seconds, 6)
        self._write(
            {
                "t": gt,
                "ev": "note",
                "text": f"sand confirmed after the power cut: it ran {seconds:g} s",
                "outage": seconds,
            },
            src=by,
        )
        self.held = None
        self.mono0 = (self.clock.now() if t_mono is None else t_mono) - gt
        self._advance(gt)
        self.entry = ""
        self._sound("confirm")
        self.changed = True

    def _freeze(self) -> None:
        """While held, game time stands still at the cut."""
        if self.held is not None:
            self.mono0 = self.clock.now() - self.held

    def note(self, text: str) -> None:
        """Journal a note from the shell (a wall-clock jump seen while running, ...)."""
        if self.game is not None and self.writer is not None:
            self.submit(self.clock.now(), {"ev": "note", "text": text})

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
        self.writer = None

    def _reset_feedback(self) -> None:
        self._pending.clear()
        self.warning = self.error = None
        self.entry = ""
        self.destination.clear()
        self._ticked.clear()
        self._low_warned.clear()
        self._timer_seen = False

    # ------------------------------------------------------------------ inputs

    def feed(self, raw: RawInput) -> None:
        """Take one raw input (already timestamped by the backend).

        A refusal on the screen stays until the next key or button is pressed, or the next
        glass is lifted: the player reads it whole, however long it takes."""
        self._freeze()
        if self.error is not None and raw.value and raw.kind in ("key", "button"):
            self._clear_error()
        if raw.kind == "tilt":
            motion = self.tilts[raw.name].edge(raw.t, raw.value)
            if motion is not None:
                self._queue_motion(motion)
        elif raw.kind == "button":
            b = self.buttons.get(raw.name)
            if b is None:
                log.warning("unknown button %s", raw.name)
                return
            if b.edge(raw.t, raw.value) == "press":
                self._button(raw.name, raw.t)
        elif raw.kind == "key":
            self._key(raw.name, raw.t)
        self._flush()

    def submit(self, t_mono: float, body: dict[str, Any]) -> None:
        """Journal and play one event now (arbiter corrections come this way)."""
        self._queue(t_mono, body)
        self._flush()

    def _queue(self, t_mono: float, body: dict[str, Any], motion_of: str | None = None) -> None:
        if self.game is None:
            return
        if self.held is not None and body.get("ev") != "note":
            self._show_error(_("first confirm the sand: #"), t_mono)
            self._sound("error")
            return
        heapq.heappush(self._pending, _Pending(t_mono, next(self._seq), body, motion_of))

    def _queue_motion(self, m: Motion) -> None:
        if m.kind == "horizontal":
            self._warn(refusal_in_words(f"{m.glass} held horizontally"), m.t, 3.0)
            self._queue(m.t, {"ev": "note", "text": f"{m.glass} held horizontally"})
            return
        body: dict[str, Any] = {"ev": m.kind, "glass": m.glass}
        if m.kind == "lift" and self.error is not None:
            self._clear_error()
        if m.kind == "release" and self.game is not None:
            player = "red" if m.glass[0] == "r" else "black"
            to = self.destination.pop(player, None)
            if to is not None:
                body["to"] = to
        self._queue(m.t, body, motion_of=m.glass if m.kind == "lift" else None)

    def _button(self, name: str, t: float) -> None:
        game = self.game
        if name == "menu":
            self.paused = not self.paused
            self.changed = True
            return
        if game is None:
            return
        if name in RING_BUTTONS:
            self._queue(t, {"ev": "ring", "player": RING_BUTTONS[name]})
        elif name in TIMER_BUTTONS or name == "timer15.shared":
            player = TIMER_BUTTONS.get(name) or opponent(game.turn)
            self._queue(t, {"ev": "timer15", "player": player})

    def _key(self, key: str, t: float) -> None:
        """The Tamsk keypad.

        * two digits (column 1-7 = a-g, then row) and ``#``: where the player on turn's next
          move goes (e.g. ``33#`` is c3), joined to his next release;
        * three digits (glass 1-3, column, row) and ``#``: a whole move (level 1, or a table
          without tilt switches);
        * ``A`` / ``B``: a ring for red / black; two digits first put it on that space (the
          adjusted rules' second ring, e.g. ``44A``);
        * ``C``: the 15-second timer, turned by the player not on turn;
        * ``0#``: pass; ``*``: clear; ``D``: menu.
        """
        self.changed = True
        if self.key_filter is not None and self.key_filter(key, t):
            return
        if self.held is not None:
            self._held_key(key, t)
            return
        if self.paused or self.game is None:
            self._menu_key(key, t)
            return
        if key == "*":
            self.entry = ""
            return
        if key.isdigit():
            if len(self.entry) >= 3:
                self._refuse_entry(t, "too many digits: * clears")
                return
            self.entry += key
            return
        if key in ("A", "B"):
            # A/B: a ring for red/black; after two digits, that ring goes on that space
            # (the second ring of the adjusted rules, e.g. "44A" drops red's on d4)
            player = "red" if key == "A" else "black"
            entry, self.entry = self.entry, ""
            body: dict[str, Any] = {"ev": "ring", "player": player}
            if entry:
                space = space_from_digits(entry)
                if space is None:
                    self._refuse_entry(t, "type column (1-7 = a-g) and row, then A or B")
                    return
                body["space"] = space
            self._queue(t, body)
            return
        if key == "C":
            self._queue(t, {"ev": "timer15", "player": opponent(self.game.turn)})
            return
        if key == "D":
            self.paused = not self.paused
            return
        if key != "#":
            return
        entry, self.entry = self.entry, ""
        player = self.game.turn
        if entry == "0":
            self._queue(t, {"ev": "pass", "player": player})
            return
        if len(entry) not in (2, 3):
            self._refuse_entry(t, "type column (1-7 = a-g) and row, then #")
            return
        space = space_from_digits(entry[-2:])
        if space is None:
            self._refuse_entry(t, f"no such space: column {entry[-2]} row {entry[-1]}")
            return
        if len(entry) == 2:
            self.destination[player] = space
            return
        index = int(entry[0])
        if not 1 <= index <= 3:
            self._refuse_entry(t, "glass 1, 2 or 3")
            return
        glass = f"{player[0]}{index}"
        self._queue(t, {"ev": "release", "glass": glass, "to": space})

    def _held_key(self, key: str, t: float) -> None:
        """Held after a power cut: ``#`` keeps the sand as at the cut; digits then ``#`` say
        how many seconds it ran while the table was dark; ``*`` clears."""
        if key == "*":
            self.entry = ""
        elif key.isdigit() and len(self.entry) < 4:
            self.entry += key
        elif key == "#":
            self.confirm_sand(float(int(self.entry or "0")), t, by="table")

    def _menu_key(self, key: str, t: float) -> None:
        """The menu (``D``): a new game as level, rule set (1 adjusted, 2 original) and
        optionally start (1 standard, 2 free), then ``#``: ``31#`` is level 3, adjusted.

        While a game is on, a player cannot simply end it (the rules would score it as it
        stands): ``A`` (red) or ``B`` (black), pressed twice, resigns for that player, journaled
        as a resignation; ending it any other way is the arbiter's, with his PIN (``***``).
        ``*`` goes back: it cancels a resignation asked, clears the digits typed, and with
        nothing left to cancel closes the menu, as ``D`` does (a dialog closes with ``*``)."""
        resigning, self.resigning = self.resigning, None
        game_on = self.game is not None and not self.game.over
        if key in ("A", "B") and game_on:
            player = "red" if key == "A" else "black"
            if resigning != player:
                self.resigning = player
                self._warn(_("{player} resigns? {key} again to confirm, * cancels").format(
                    player=colour_word(player), key=key), t, 10.0)
                return
            self.warning = None
            self.paused = False
            self._queue(t, {"ev": "resign", "player": player})
            self._sound("confirm")
            return
        if resigning is not None:
            self.warning = None
            self.changed = True
        if key == "D":
            self.paused = not self.paused
            self.entry = ""
            return
        if key == "*":  # back: clears what was typed, then closes the menu (a game on)
            if not self.entry and resigning is None and game_on:
                self.paused = False
            self.entry = ""
            return
        if key.isdigit() and len(self.entry) < 3:
            self.entry += key
            return
        if key != "#":
            return
        entry, self.entry = self.entry, ""
        if (
            len(entry) not in (2, 3)
            or entry[0] not in "123"
            or any(c not in "12" for c in entry[1:])
        ):
            self._show_error(refusal_in_words("level 1-3, rules 1-2, start 1-2, then #"), t)
            self._sound("error")
            return
        from companion.config import periods

        p = periods(self.config)
        timer = p.pop("timer15", 15.0)
        rules = Rules(
            int(entry[0]),
            "adjusted" if entry[1] == "1" else "original",
            "free" if entry[2:] == "2" else "standard",
            p,
            timer,
        )
        if game_on:
            self._show_error(_("a game is on: A A or B B resigns; the arbiter ends it (***)"), t)
            self._sound("error")
            self._queue(t, {"ev": "note", "text": "keypad: a new game refused: a game is on"})
            return
        names = dict(self.header.get("names") or {})
        self.paused = False
        self.start_game(rules, names=names)
        self._sound("confirm")

    def _refuse_entry(self, t: float, why: str) -> None:
        """Refuse a keypad entry: shown in the players' language, journaled in English."""
        self._show_error(refusal_in_words(why), t)
        self._sound("error")
        self._queue(t, {"ev": "note", "text": f"keypad: {why}"})

    # ------------------------------------------------------------------ time

    def _barrier(self) -> tuple[float, dict[str, float]]:
        moving = {g: tilt.last_edge for g, tilt in self.tilts.items() if tilt.moving}
        return (min(moving.values()) if moving else float("inf")), moving

    def _flush(self) -> None:
        """Journal and play every queued input no glass in motion could still precede."""
        game = self.game
        if game is None:
            self._pending.clear()
            return
        barrier, moving = self._barrier()
        while self._pending:
            item = self._pending[0]
            safe = all(
                item.t < edge or (item.motion_of == g and item.t <= edge)
                for g, edge in moving.items()
            )
            if not safe:
                break
            heapq.heappop(self._pending)
            self._play(item.t, item.body)
        limit = min(self.clock.now(), barrier)
        if self._pending:
            limit = min(limit, self._pending[0].t)
        gt = max(game.t, limit - self.mono0)
        deadline = game.next_deadline()
        if gt < deadline <= gt + 1e-6:
            gt = deadline  # the same instant, seen through float rounding of mono0
        self._advance(gt)

    def _play(self, t_mono: float, body: dict[str, Any]) -> None:
        game = self.game
        assert game is not None
        gt = microseconds(max(game.t, t_mono - self.mono0))
        self._advance(gt)
        record = {"t": gt, **body}
        src = {"note": "daemon", "correct": "arbiter"}.get(body["ev"], "table")
        self._write(record, src=src)
        before = len(game.penalties)
        violation = game.apply(parse_event(record, gt))
        if violation is not None:
            self._show_error(refusal_in_words(violation.detail), t_mono)
            self._sound("error")
        elif body["ev"] == "timer15":
            self._sound("timer_start")
        elif body["ev"] in ("release", "ring"):
            self._sound("confirm")
        if len(game.penalties) > before:
            self._sound("timer_out")
            self._announce_penalties(before, t_mono)
        self.changed = True
        self._final_if_over()

    def _write(self, record: dict[str, Any], *, src: str) -> None:
        assert self.writer is not None
        sealed = self.writer.append({**record, "wall": round(self.clock.wall(), 3), "src": src})
        self._final_written = isinstance(record.get("final"), dict)
        if self._on_record is not None:
            self._on_record(sealed)

    def _arbiter_mode(self) -> bool:
        """Whether the configuration sets an arbiter PIN (arbiter mode at this table)."""
        section = self.config.get("arbiter")
        return isinstance(section, Mapping) and bool(str(section.get("pin_hash", "")).strip())

    def _final_if_over(self) -> None:
        """Once the game is over, journal its final record (signed like every record): a
        journal that ends without one is unfinished or was cut off (``companion verify``).
        A correction after it (the arbiter undoing the end) calls for a new one later."""
        game = self.game
        if game is None or not game.over or self.writer is None or self._final_written:
            return
        outcome = game.outcome
        final = {
            "winner": outcome.winner if outcome else None,
            "reason": outcome.reason if outcome else None,
            "ended_by": outcome.ended_by if outcome else None,
            "records": self.writer.next_seq + 1,
        }
        self._write(
            {"t": game.t, "ev": "note", "text": "game over: the journal is complete",
             "final": final},
            src="table",
        )

    def _advance(self, gt: float) -> None:
        game = self.game
        assert game is not None
        if gt < game.t:
            return
        was_over, penalties = game.over, len(game.penalties)
        timer_was = game.timer.running
        game.advance(gt)
        if len(game.penalties) > penalties:
            self._announce_penalties(penalties, gt + self.mono0)
        if len(game.penalties) > penalties or (timer_was and not game.timer.running):
            self._sound("timer_out")
            self._ticked.clear()
            self.changed = True
        if game.over and not was_over:
            self.changed = True
        self._feedback(gt)

    def _feedback(self, gt: float) -> None:
        """Ticks in the last five seconds, and a warning when a glass is nearly empty."""
        game = self.game
        assert game is not None
        timer = game.timer
        if timer.running:
            left = timer.expires - gt
            second = int(left) + 1 if left > int(left) else int(left)
            if 1 <= second <= 5 and second not in self._ticked:
                self._ticked.add(second)
                self._sound("tick")
        else:
            self._ticked.clear()
        low = float(self.config["buzzer"]["low_sand_s"])
        if game.rules.timed and not game.over:
            for name, g in game.glasses.items():
                if not g.running or self._low_warned.get(name) == g.ref:
                    continue
                if gt >= g.ref + g.sand - low - 1e-9 and g.sand_at(gt) > 0:
                    self._low_warned[name] = g.ref
                    self._sound("low_sand")
                    self._warn(refusal_in_words(f"{name} < {int(low)} s"), gt + self.mono0, 3.0)

    def animating(self) -> bool:
        """Whether the screen changes with no input: sand running or the 15-second timer."""
        game = self.game
        if game is None or game.over or self.held is not None:
            return False
        return game.timer.running or any(g.running for g in game.glasses.values())

    def settle_inputs(self, levels: Mapping[str, bool]) -> None:
        """The tilt switches' levels at start-up: the orientation each glass rests in."""
        for glass, level in levels.items():
            if glass in self.tilts:
                self.tilts[glass].stable = self.tilts[glass].level = level

    def notice(self, text: str, seconds: float = 5.0) -> None:
        """Show a warning from outside the game (e.g. the sensor hub's link went down)."""
        self._warn(text, self.clock.now(), seconds)

    def _warn(self, text: str, t_mono: float, seconds: float) -> None:
        """Show ``text`` in the warning bar for ``seconds``, or for as long as its pages take
        to show once each (a long notice is never cut: :func:`companion.pages.lasting`)."""
        self.warning = text
        self.warning_until = t_mono + lasting(text, seconds)
        self.warning_pages.start(t_mono)
        self.changed = True

    def _announce_penalties(self, since: int, t_mono: float) -> None:
        """Say on the screen, in words, the penalties from number ``since`` on: time up,
        forfeit or pass, and who."""
        assert self.game is not None
        names = dict(self.header.get("names") or {})
        words = [penalty_notice(p.kind, names.get(p.player) or player_word(p.player))
                 for p in self.game.penalties[since:]]
        self._warn("; ".join(words), t_mono, 6.0)

    def _show_error(self, text: str, t_mono: float) -> None:
        """A refusal, in full on the screen until the next input (see :meth:`feed`)."""
        self.error = text
        self.error_until = float("inf")
        self.error_pages.start(t_mono)
        self.changed = True

    def _clear_error(self) -> None:
        self.error = None
        self.changed = True

    def poll(self) -> None:
        """Do whatever has become due by now (debounce settles, timer and glass deadlines)."""
        self._freeze()
        now = self.clock.now()
        for tilt in self.tilts.values():
            for motion in tilt.poll(now):
                self._queue_motion(motion)
        for name, b in self.buttons.items():
            if b.poll(now) == "hold" and name == "menu" and self.game is not None:
                # A long press on MENU: the players stop the game here, at a casual table. With
                # arbiter mode on (a PIN configured), ending a game is the arbiter's (***).
                at = b.changed_at + (b.hold or 0.0)
                if self._arbiter_mode() and not self.game.over:
                    self._show_error(_("the arbiter ends the game (*** and the PIN)"), at)
                    self._sound("error")
                    self._queue(at, {"ev": "note", "text": "menu: ending refused: arbiter mode"})
                    continue
                self.paused = False
                self._queue(at, {"ev": "end"})
        if self.error is not None and now >= self.error_until:
            self.error = None
            self.changed = True
        if self.warning is not None and now >= self.warning_until:
            self.warning = None
            self.changed = True
        if self.error is not None and self.error_pages.turned(now):
            self.changed = True  # the next page of a long refusal
        if self._warning_shown() and self.warning_pages.turned(now):
            self.changed = True
        self._flush()
        self._final_if_over()

    def _warning_shown(self) -> bool:
        """Whether the warning bar shows something (a warning, or the power-cut question)."""
        return self.warning is not None or self.held is not None

    def next_wakeup(self) -> float | None:
        """The monotonic time :meth:`poll` is next needed (None: only on input)."""
        times = [w for t in self.tilts.values() if (w := t.next_wakeup()) is not None]
        times += [w for b in self.buttons.values() if (w := b.next_wakeup()) is not None]
        now = self.clock.now()
        if self.error is not None:  # turn the refusal's page every few seconds
            times.append(self.error_pages.next_turn(now))
        if self.warning is not None:
            times.append(self.warning_until)
        if self._warning_shown():
            times.append(self.warning_pages.next_turn(now))
        game = self.game if self.held is None else None  # held: no game time runs
        if game is not None:
            deadline = game.next_deadline()
            if deadline != float("inf"):
                times.append(deadline + self.mono0)
            if game.timer.running:
                # the tick of each of the last five seconds
                left = game.timer.expires - game.t
                for k in range(5, 0, -1):
                    if left > k:
                        times.append(game.timer.expires - k + self.mono0)
                        break
            if game.rules.timed and not game.over:
                low = float(self.config["buzzer"]["low_sand_s"])
                for name, g in game.glasses.items():
                    if g.running and self._low_warned.get(name) != g.ref:
                        times.append(max(g.ref + g.sand - low, game.t) + self.mono0)
        return min(times) if times else None

    # ------------------------------------------------------------------ views

    def view(self) -> dict[str, Any]:
        """What the screen shows now: the contract's live state (without the records that
        only grow: see :meth:`Game.snapshot`) plus the table's extras."""
        game = self.game
        if game is None:
            return {"game": None, "kind": self.header.get("game") or "tamsk"}
        state = game.snapshot(history=False)  # the latest penalty, not the whole record
        state["names"] = dict(self.header.get("names") or {})
        state["periods"] = {g: game.glasses[g].period for g in GLASSES}
        state["warning"] = self.error or self.warning
        state["error"] = self.error
        if self.error is not None:
            state["error_page"] = self.error_pages.page(self.clock.now())
        state["warning_page"] = (state.get("error_page") if self.error is not None
                                 else self.warning_pages.page(self.clock.now()))
        state["show_sand_seconds"] = bool(self.config["display"]["show_sand_seconds"])
        state["in_hand"] = next(iter(game.in_hand.values()), None)
        state["entry"] = self.entry
        state["paused"] = self.paused
        if self.held is not None:  # the glasses as at the cut, and the question
            ask = (_("ran {seconds} s? #").format(seconds=self.entry) if self.entry
                   else _("power cut: # = sand ok"))
            state["warning"] = self.error or ask
            state["held"] = True
        try:
            challenge = parse_challenge(self.header)
        except MalformedInput:  # a hand-edited header: the game goes on, unmarked
            challenge = None
        if challenge is not None:  # a GIPF potential challenge: what it decided, on screen
            state["challenge"] = challenge_outcome(challenge, game.over, state.get("winner"))
        if self.view_filter is not None:
            state = self.view_filter(state)
        return state

    def status_line(self) -> str:
        """One line for systemd's STATUS=."""
        game = self.game
        if game is None:
            return "waiting for a game"
        if self.held is not None:
            return "held after a power cut: the players confirm the sand (# or seconds #)"
        if game.over and game.outcome is not None:
            return f"game over: {game.outcome.winner} ({game.outcome.reason})"
        rl = game.rings_left
        return f"t={game.t:.0f}s turn {game.turn}, rings red {rl['red']} black {rl['black']}"


def microseconds(t: float) -> float:
    """``t`` to the microsecond, never earlier: a journal's times read ``12.367078``, not the
    float noise of a deadline (``12.367077057054303``) that the game's time may carry."""
    whole = round(t, 6)
    if whole >= t:
        return whole
    return max(t, round(math.ceil(t * 1e6) / 1e6, 6))


def space_from_digits(digits: str) -> str | None:
    """Keypad digits to a space: column 1-7 stands for a-g, then the row (e.g. "33" is c3)."""
    if len(digits) != 2 or not digits.isdigit():
        return None
    col = int(digits[0])
    if not 1 <= col <= len(COLUMNS):
        return None
    space = f"{COLUMNS[col - 1]}{digits[1]}"
    return space if space in SPACES else None


#: The controller the registry builds for this game (``PackageKind.make_table``).
TABLE = Table


def start_from_config(table: Table, config: Mapping[str, Any]) -> Path:
    """Start a new game with the options the configuration gives (``[game] names``, set by
    ``companion new-game --players RED,BLACK``, names the players; ``[game] header``, set by
    its ``--challenge``, adds header fields)."""
    names = config["game"].get("names")
    extra = config["game"].get("header")
    return table.start_game(
        rules_from_config(config),
        names=names if isinstance(names, dict) else None,
        extra=extra if isinstance(extra, dict) else None,
    )


def configure_players(config: dict[str, Any], players: list[str]) -> None:
    """``new-game --players RED,BLACK``: the two players' names, red first."""
    if len(players) != 2:
        raise ValueError("a Tamsk game has two players: --players RED,BLACK (their names)")
    if players[0] and players[0].casefold() == players[1].casefold():
        raise ValueError(f"red and black are two players: not both {players[0]!r}")
    config["game"]["names"] = {"red": players[0], "black": players[1]}


def rules_from_config(config: Mapping[str, Any]) -> Rules:
    """The Tamsk rules the config sets: level, ruleset, start, the glasses' measured periods."""
    from companion.config import periods

    p = periods(config)
    timer = p.pop("timer15", 15.0)
    g = config["game"]
    return Rules(int(g["level"]), str(g["ruleset"]), str(g["start"]), p, timer)


def validate_config(config: Mapping[str, Any]) -> None:
    """Refuse Tamsk settings the rules do not have (level, ruleset, start)."""
    from companion.config import ConfigError

    game = config["game"]
    if game["level"] not in (1, 2, 3):
        raise ConfigError("'game.level' must be 1, 2 or 3")
    if game["ruleset"] not in ("adjusted", "original"):
        raise ConfigError("'game.ruleset' must be adjusted or original")
    if game["start"] not in ("standard", "free"):
        raise ConfigError("'game.start' must be standard or free")
