"""`companion run`: the table daemon, one asyncio loop.

Inputs arrive from other threads (gpiozero's callback thread, the keypad reader, the sensor hub
reader) and are handed to the loop with ``loop.call_soon_threadsafe``; the loop is the only
place that touches the table, the journal, the buzzer and the display. It sleeps until the next
thing is due (an input, a debounce settling, the 15-second timer, a glass running low or out, a
frame, a watchdog ping) and never polls in a busy loop.
"""

from __future__ import annotations

import asyncio
import json
import logging
import signal
import sys
from collections.abc import Awaitable, Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from companion import journal, registry
from companion.clock import Clock
from companion.i18n import _
from companion.inputs import RawInput
from companion.tables import Table, make_table, start_configured_game

if TYPE_CHECKING:
    from companion.current import CurrentGame, Heartbeat
    from companion.diskspace import DiskWatch

log = logging.getLogger(__name__)

#: A change of the wall clock against the monotonic one larger than this is a jump.
WALL_JUMP_S = 2.0


class Ticking(Protocol):
    def poll(self, now: float) -> Any: ...

    def next_wakeup(self) -> float | None: ...


class Notifier(Protocol):
    def ready(self) -> object: ...

    def status(self, text: str) -> object: ...

    def watchdog(self) -> object: ...

    def stopping(self) -> object: ...


class NullNotifier:
    def ready(self) -> None:
        pass

    def status(self, text: str) -> None:
        pass

    def watchdog(self) -> None:
        pass

    def stopping(self) -> None:
        pass


#: How the loop waits: for an input from the queue, or until ``timeout`` seconds have passed.
Waiter = Callable[["asyncio.Queue[RawInput]", float | None], Awaitable[RawInput | None]]


async def wait_real(queue: asyncio.Queue[RawInput], timeout: float | None) -> RawInput | None:
    try:
        return await asyncio.wait_for(queue.get(), timeout)
    except TimeoutError:
        return None


class Daemon:
    """Runs a :class:`Table` with its display, buzzer, keypad and systemd notification."""

    def __init__(
        self,
        table: Table,
        clock: Clock,
        *,
        display: Any = None,
        sounder: Ticking | None = None,
        tickers: list[Ticking] | None = None,
        notifier: Notifier | None = None,
        watchdog_interval: float | None = None,
        waiter: Waiter = wait_real,
        current: CurrentGame | None = None,
        disk: DiskWatch | None = None,
        alive: Heartbeat | None = None,
    ) -> None:
        self.table = table
        self.clock = clock
        self.display = display
        self.sounder = sounder
        self.tickers = list(tickers or [])
        self.notifier = notifier or NullNotifier()
        self.watchdog_interval = watchdog_interval
        self.waiter = waiter
        #: The table's ``current`` pointer (companion.current): kept on the open journal.
        self.current = current
        #: The journal's disk: low-space warnings, and the way back after a failed write.
        self.disk = disk
        #: What to do again once the disk takes writes (opening the game at start).
        self.retry: Callable[[], None] | None = None
        self.writes_failed = 0
        #: Where the game had got to, for a resume the wall clock cannot measure.
        self.alive = alive
        self._skew: float | None = None  # wall minus monotonic: a jump is a wall-clock change
        self.queue: asyncio.Queue[RawInput] = asyncio.Queue()
        self.loop: asyncio.AbstractEventLoop | None = None
        self.stop_event = asyncio.Event()
        self._next_ping = 0.0
        self._status = ""
        self.inputs_handled = 0

    def deliver(self, raw: RawInput) -> None:
        """Thread-safe entry for every backend's inputs."""
        loop = self.loop
        if loop is None:
            raise RuntimeError("the daemon is not running")
        loop.call_soon_threadsafe(self.queue.put_nowait, raw)

    def stop(self) -> None:
        self.stop_event.set()

    def reload(self) -> None:
        """SIGHUP (``systemctl reload``): take up the game the table's ``current`` pointer
        names, e.g. one just made with ``companion new-game``, ending the one open."""
        if self.current is None:
            return
        kind = str(self.table.header.get("game") or registry.DEFAULT_KIND)
        target = self.current.wanted(self.table.journal_path, kind)
        if target is None:
            return
        self.table.close()
        done = self.current.settle()
        if done:
            log.info("%s", done)
        if take_up(self.table, target):  # a journal that cannot be resumed is logged
            self.current.opened(self.table.journal_path)

    # ------------------------------------------------------------------ the disk

    def write_failed(self, exc: OSError, retry: Callable[[], None] | None = None) -> None:
        """A journal write failed: the input was not played (the journal comes first); say so
        on the screen until the disk takes writes again, and keep the table going."""
        from companion.diskspace import failure_text

        now = self.clock.now()
        self.writes_failed += 1
        if retry is not None:
            self.retry = retry
        first = self.disk is None or self.disk.failed is None
        if self.disk is not None:
            self.disk.write_failed(exc, now)
        if first:
            log.error("journal write failed (%s): inputs refused until it works again", exc)
        self.table.notice(failure_text(exc), 24 * 3600.0)
        if self.sounder is not None and hasattr(self.sounder, "play"):
            self.sounder.play("error", now)

    def _guarded(self, action: Callable[..., None], *args: Any) -> bool:
        try:
            action(*args)
        except OSError as exc:
            self.write_failed(exc)
            return False
        return True

    def _watch_disk(self, now: float) -> None:
        disk = self.disk
        if disk is None or now < disk.next_check:
            return
        was_failed = disk.failed is not None
        text = disk.check(now)
        if text is None:
            return
        back = was_failed and disk.failed is None
        self.table.notice(text, 5.0 if back else (24 * 3600.0 if disk.failed else disk.check_s))
        if back:
            log.info("the journal's disk takes writes again: playing on")
            retry, self.retry = self.retry, None
            if retry is not None and not self._guarded(retry):
                self.retry = retry

    def screen_view(self) -> dict[str, Any]:
        """The table's view; with no game open because the disk refuses the journal, that."""
        disk = self.disk
        if disk is not None and disk.failed is not None and self.table.journal_path is None:
            from companion.diskspace import failure_text

            problem = failure_text(disk.failed)
            return {"game": None, "warning": _("{problem}: no game yet").format(problem=problem)}
        return self.table.view()

    def _beat(self, now: float) -> None:
        alive, path = self.alive, self.table.journal_path
        game_time = getattr(self.table, "game_time", None)
        if alive is None or path is None or not callable(game_time) or now < alive.next_at:
            return
        if self.table.animating():  # sand or a timer runs: the time at a cut matters
            alive.beat(path, float(game_time()), self.clock.wall())
        alive.next_at = now + alive.EVERY_S

    def _watch_wall(self) -> None:
        """A wall-clock jump while running (NTP syncing, an admin) changes no game time; it
        is noted in the journal so the next resume measures the outage from the new time."""
        skew = self.clock.wall() - self.clock.now()
        if self._skew is None:
            self._skew = skew
            return
        jump = skew - self._skew
        if abs(jump) <= WALL_JUMP_S:
            return
        self._skew = skew
        log.warning("the wall clock moved %+.1f s; game time is monotonic and goes on", jump)
        note = getattr(self.table, "note", None)
        if callable(note):
            self._guarded(note, f"wall clock moved {jump:+.1f} s; game time unaffected")

    def _wakeup(self, now: float) -> float | None:
        times = []
        if self.disk is not None:
            times.append(self.disk.next_check)
        w = self.table.next_wakeup()
        if w is not None:
            times.append(w)
        for t in [self.sounder, *self.tickers]:
            if t is not None and (w := t.next_wakeup()) is not None:
                times.append(w)
        if self.display is not None and self._display_wanted():
            times.append(self.display.due(now))
        if self.watchdog_interval:
            times.append(self._next_ping)
        if self.alive is not None and self.table.animating():
            times.append(self.alive.next_at)
        return min(times) if times else None

    def _display_wanted(self) -> bool:
        """Whether the screen may change without an input: sand running, timer, messages."""
        return self.table.changed or self.table.animating()

    def step(self, raw: RawInput | None) -> None:
        """Handle one input (if any) and everything due now."""
        table = self.table
        if raw is not None:
            if self._guarded(table.feed, raw) and self.disk is not None and self.disk.failed:
                self.disk.next_check = self.clock.now()  # it took a write: is space back?
            self.inputs_handled += 1
        now = self.clock.now()
        self._watch_wall()
        self._watch_disk(now)
        self._guarded(table.poll)
        for t in [self.sounder, *self.tickers]:
            if t is not None:
                t.poll(now)
        if self.display is not None and self._display_wanted():
            urgent = raw is not None and table.changed
            if urgent or now >= self.display.due(now):
                self.display.refresh(self.screen_view(), now, urgent=urgent)
                table.changed = False
        if self.watchdog_interval and now >= self._next_ping:
            self.notifier.watchdog()
            self._next_ping = now + self.watchdog_interval
        if self.current is not None:
            self.current.opened(table.journal_path)
        self._beat(now)
        status = table.status_line()
        if self.disk is not None and self.disk.failed is not None:
            status = f"journal writes fail ({self.disk.failed.strerror}): inputs refused; {status}"
        if status != self._status:
            self._status = status
            self.notifier.status(status)

    def install_signals(self) -> None:
        """SIGTERM and SIGINT stop the loop; SIGHUP reloads (or stops, see :meth:`run`).
        ``serve`` calls this before the game opens (and its publisher starts), so an early
        SIGTERM still ends cleanly."""
        loop = self.loop or asyncio.get_running_loop()
        for sig, handler in (
            (signal.SIGTERM, self.stop),
            (signal.SIGINT, self.stop),
            (signal.SIGHUP, self.reload if self.current is not None else self.stop),
        ):
            try:
                loop.add_signal_handler(sig, handler)
            except (NotImplementedError, RuntimeError, ValueError):
                pass

    async def run(self) -> None:
        """The main loop, until :meth:`stop` (SIGTERM and SIGINT call it). SIGHUP reloads a
        daemon that keeps a table's ``current`` pointer (the service: ``systemctl reload``);
        without one (a game at a terminal) it is a hang-up, the terminal closed, and stops."""
        self.loop = asyncio.get_running_loop()
        self.install_signals()
        self.notifier.ready()
        self._next_ping = self.clock.now()
        self.step(None)
        stop_task = asyncio.ensure_future(self.stop_event.wait())
        try:
            while not self.stop_event.is_set():
                now = self.clock.now()
                wake = self._wakeup(now)
                timeout = None if wake is None else max(0.0, wake - now)
                wait = asyncio.ensure_future(self.waiter(self.queue, timeout))
                done, _ = await asyncio.wait({wait, stop_task}, return_when=asyncio.FIRST_COMPLETED)
                if wait not in done:
                    wait.cancel()
                    break
                raw = wait.result()
                self.step(raw)
                while not self.queue.empty():
                    self.step(self.queue.get_nowait())
        finally:
            stop_task.cancel()
            self.notifier.stopping()
            self.table.close()
            if self.alive is not None:
                self.alive.close()


#: How long the screen says that a damaged record was set aside at a resume.
DAMAGE_NOTICE_S = 20.0


def take_up(table: Table, path: Path) -> bool:
    """Resume the game in ``path``; False (logged) when it cannot be, so the caller starts a
    new game instead: no content of a journal may stop the table. When damaged records were
    set aside (:data:`journal.DAMAGE_NOTE`) the screen says so."""
    try:
        notes = table.resume(path)
    except OSError:  # the disk, not the bytes on it: the caller waits for it (a full disk)
        raise
    except Exception as exc:  # whatever the bytes on disk (or another key): the table goes on
        log.error("%s: not resumed, a new game instead: %s", path, exc)
        print(f"companion: not resumed: {exc}", file=sys.stderr, flush=True)
        return False
    log.info("resumed %s %s", path, "; ".join(notes))
    if any(note.startswith(journal.DAMAGE_NOTE) for note in notes):
        table.notice(_("record damaged: see verify"), DAMAGE_NOTICE_S)
    return True


# ---------------------------------------------------------------------- building a table


def stdin_pin_driver(
    inputs: Any, clock: Clock
) -> Callable[[str, Callable[[RawInput], None]], None]:
    """The mock backend's test hook: JSON lines on stdin drive gpiozero's mock pins.

    Each line is ``{"tilt": "r1", "level": 1}``, ``{"button": "ring.red", "pressed": true}``
    or ``{"key": "3"}``; the pin is driven like a real switch would drive it, so the edge goes
    through gpiozero and our debounce exactly as on the table.
    """

    def on_line(line: str, deliver: Callable[[RawInput], None]) -> None:
        try:
            cmd = json.loads(line)
        except json.JSONDecodeError:
            print(f"companion run: not JSON: {line.strip()!r}", file=sys.stderr)
            return
        if "tilt" in cmd:
            pin = inputs.pin("tilt", cmd["tilt"])
            (pin.drive_low if cmd.get("level", 1) else pin.drive_high)()
        elif "button" in cmd:
            pin = inputs.pin("button", cmd["button"])
            (pin.drive_low if cmd.get("pressed", True) else pin.drive_high)()
        elif "key" in cmd:
            deliver(RawInput("key", str(cmd["key"]), True, clock.now()))

    return on_line


async def serve(
    config: Mapping[str, Any],
    *,
    backend: str,
    journal_dir: Path,
    clock: Clock,
    stdin_driver: bool = False,
    new_game: bool = False,
) -> int:
    """Build the table for a backend and run it until SIGTERM."""
    from companion.current import CurrentGame, Heartbeat
    from companion.diskspace import NO_SPACE, DiskWatch
    from companion.hw.display import make_display
    from companion.hw.inputs import GpioInputs
    from companion.wallclock import probe_for

    current = CurrentGame(journal_dir, int(config["table"]["number"]))
    if not current.lock.acquire():
        print(
            f"companion run: table {current.table}'s journals in {journal_dir} are open in "
            "another companion process",
            file=sys.stderr,
        )
        return 2
    unfinished = current.start(registry.configured(config).name, new_game=new_game)
    resumed_kind = current_kind = registry.configured(config).name
    if unfinished is not None:  # the game in play decides the table, whatever the config says
        from companion.current import kind_of

        resumed_kind = kind_of(unfinished) or current_kind
        if resumed_kind != current_kind:
            config = {**config, "game": {**config["game"], "kind": resumed_kind}}
    factory: Any = None
    if backend == "pi" and config["table"]["pin_factory"] == "rpigpio":
        from gpiozero.pins.rpigpio import RPiGPIOFactory

        factory = RPiGPIOFactory()
    elif backend == "mock":
        from gpiozero.pins.mock import MockFactory, MockPWMPin

        factory = MockFactory(pin_class=MockPWMPin)
    sounder = make_sounder(config, factory)
    from companion.arbiter.hooks import ArbiterHooks

    kind = registry.configured(config).name
    from companion.tablekey import table_key

    # One key signs the journal and what the table publishes (made on first start; on a full
    # disk it is made with the first journal, once there is room).
    try:
        signer = table_key(config, journal_dir)
    except OSError as exc:
        log.warning("the table's key cannot be made yet: %s", exc)
        signer = None
    hooks = ArbiterHooks(config, clock, loop=asyncio.get_running_loop(), table_key=signer)
    table = make_table(
        config,
        clock,
        journal_dir,
        sound=lambda pattern: sounder.play(pattern, clock.now()),
        on_record=hooks.on_record,
    )
    daemon = Daemon(
        table,
        clock,
        display=make_display(config, backend),
        sounder=sounder,
        notifier=_make_notifier(),
        watchdog_interval=_watchdog_interval(),
        current=current,
        disk=DiskWatch(journal_dir),
        alive=Heartbeat(journal_dir, current.table),
    )
    loop = asyncio.get_running_loop()
    daemon.loop = loop
    daemon.install_signals()
    if backend == "hub":
        inputs: Any = HubInputs(config, clock, daemon, loop)
    else:
        inputs = GpioInputs(config, clock, daemon.deliver, pin_factory=factory)
    table.settle_inputs(inputs.tilt_levels())
    keypad = open_keypad(config, backend, clock, daemon, factory)
    if keypad is not None and hasattr(keypad, "poll"):
        daemon.tickers.append(keypad)
    daemon.tickers.append(hooks)  # redraws the keypad's PIN lock-out count-down
    if hasattr(table, "wall_trust"):  # count the outage only on a wall clock known right
        table.wall_trust = probe_for(str(config["table"]["wall_clock"]))

    def open_game() -> None:
        if unfinished is not None and take_up(table, unfinished):
            print(f"companion: resumed {unfinished}", file=sys.stderr, flush=True)
        else:
            path = start_configured_game(table, config)
            print(f"companion: new {kind} game, journal {path}", file=sys.stderr, flush=True)

    try:
        open_game()
    except OSError as exc:  # a full disk: start all the same, and open the game once it is not
        if exc.errno not in NO_SPACE:
            raise
        daemon.write_failed(exc, retry=open_game)
    # The key's short fingerprint on the screen at start-up: what the arbiter compares when he
    # enrols the table (`companion arbiter enroll`).
    if signer is not None:
        fingerprint = signer.public.short_fingerprint
        log.info("table key fingerprint %s", fingerprint)
        table.notice(_("key {fingerprint}").format(fingerprint=fingerprint), 20.0)
    # Every kind publishes (when [mqtt] is on); arbiter mode at the table (PIN, corrections)
    # only where the game has a station: ``attach`` asks the game's arbiter facet.
    hooks.attach(table)
    if stdin_driver:
        on_line = stdin_pin_driver(inputs, clock)
        loop = asyncio.get_running_loop()

        def read_stdin() -> None:
            try:
                for line in sys.stdin:
                    loop.call_soon_threadsafe(on_line, line, daemon.deliver)
                loop.call_soon_threadsafe(daemon.stop)
            except RuntimeError:  # the loop has closed (the daemon stopped): nothing to tell
                return

        import threading

        threading.Thread(target=read_stdin, name="stdin-pins", daemon=True).start()
    try:
        await daemon.run()
    finally:
        hooks.close()
        inputs.close()
        if keypad is not None:
            keypad.close()
        current.lock.release()
    return 0


def open_keypad(
    config: Mapping[str, Any], backend: str, clock: Clock, daemon: Daemon, factory: Any
) -> Any:
    """The keypad the config asks for: a Linux input device (a USB keypad, or the kernel's
    gpio-matrix-keypad overlay), else gpiozero's row/column scanner, or none."""
    choice = str(config["input"]["keypad"])
    if backend not in ("pi",) or choice == "none":
        return None

    def on_key(key: str) -> None:  # evdev reader thread, or the loop for the matrix
        daemon.deliver(RawInput("key", key, True, clock.now()))

    from companion.hw import keypad as kp

    if choice.startswith("evdev:") or choice == "auto":
        try:
            device = choice[len("evdev:") :] if choice.startswith("evdev:") else None
            reader = kp.EvdevKeypad(device, on_key=on_key)
            reader.start()
            return reader
        except (kp.EvdevMissing, kp.KeypadNotFound) as exc:
            if choice != "auto":
                raise
            log.info("no input-device keypad (%s): scanning the matrix on GPIO", exc)
    pins = config["pins"]["keypad"]
    return kp.MatrixKeypad(pins["rows"], pins["cols"], on_key=on_key, pin_factory=factory)


class HubInputs:
    """The sensor hub as the table's input backend: its events become the same raw inputs.

    The hub timestamps each change with its own microsecond clock; ``HubLink`` maps that onto
    this machine's monotonic clock, so a move keeps the time it happened at the table, not the
    time Linux read it. Link trouble shows on the OLED.
    """

    def __init__(
        self,
        config: Mapping[str, Any],
        clock: Clock,
        daemon: Daemon,
        loop: asyncio.AbstractEventLoop,
    ) -> None:
        from companion.hub import HubEvent, HubLink

        self.daemon = daemon

        def on_event(event: HubEvent) -> None:  # HubLink's reader thread
            kind, name, value = event.kind, event.name, bool(event.value)
            if kind == "switch" and name.startswith("tilt."):
                daemon.deliver(RawInput("tilt", name[5:], value, event.t))
            elif kind == "button":
                daemon.deliver(RawInput("button", name, value, event.t))
            elif kind == "key" and value:
                daemon.deliver(RawInput("key", name, True, event.t))

        def on_link(status: str, detail: str) -> None:  # HubLink's reader thread
            if status != "up":
                text = "hub link lost" if status == "down" else f"hub: {detail}"[:40]
                loop.call_soon_threadsafe(daemon.table.notice, text, 5.0)

        self.link = HubLink(
            str(config["table"]["hub_port"]), now=clock.now, on_event=on_event, on_link=on_link
        )
        self.link.start()

    def tilt_levels(self) -> dict[str, bool]:
        levels = self.link.inputs() or {}
        return {k[5:]: bool(v) for k, v in levels.items() if k.startswith("tilt.")}

    def close(self) -> None:
        self.link.close()


def make_sounder(config: Mapping[str, Any], factory: Any) -> Any:
    """The buzzer from the config: a passive piezo (TonalBuzzer) or an active Buzzer."""
    from gpiozero import Buzzer

    from companion.hw.buzzer import Sounder, piezo

    pin = config["pins"]["buzzer"]
    kind = config["buzzer"]["kind"]
    device = (
        piezo(pin, pin_factory=factory) if kind == "tonal" else Buzzer(pin, pin_factory=factory)
    )
    return Sounder(device, muted=bool(config["buzzer"]["muted"]))


def _make_notifier() -> Notifier:
    from companion.sdnotify import Notifier as SdNotifier

    return SdNotifier()


def _watchdog_interval() -> float | None:
    from companion.sdnotify import watchdog_interval

    return watchdog_interval()
