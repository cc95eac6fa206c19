"""The desktop backend: play at a computer keyboard, the OLED drawn in the terminal.

The keys drive gpiozero mock pins (the same path as the real switches: our debounce, the
journal, the rules, the buzzer on a mock PWM pin), so this is the daemon itself, only with a
keyboard for hourglasses. The terminal is put in cbreak mode and read from the asyncio loop
(``add_reader``), no extra thread.

With ``COMPANION_WINDOW=1`` in the environment the OLED is also shown, enlarged, in a window
through luma.emulator's ``pygame`` device, when pygame and luma.emulator are installed (the keys
are still typed in the terminal); without them a message says what to install and the terminal
picture stays.
"""

from __future__ import annotations

import asyncio
import os
import sys
import termios
import tty
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from companion import keymap
from companion.clock import Clock, MonotonicClock
from companion.i18n import _
from companion.inputs import RawInput

#: Set to ``1`` to show the OLED in a window as well (see :func:`open_window`).
WINDOW_ENV = "COMPANION_WINDOW"
#: How many screen pixels one OLED pixel takes in the window.
WINDOW_SCALE = 4


def window_wanted(environ: Mapping[str, str] | None = None) -> bool:
    """Whether the OLED window was asked for (``COMPANION_WINDOW=1``)."""
    return (os.environ if environ is None else environ).get(WINDOW_ENV, "") == "1"


class OledWindow:
    """The OLED, enlarged, in a pygame window drawn by a luma.emulator device.

    luma's emulator ends the program (``sys.exit``) when its window is closed (and, left to
    itself, on Esc: :func:`open_window` turns that off); :meth:`show` turns the exit into a
    False return, so the caller stops the game cleanly.
    """

    def __init__(self, device: Any) -> None:
        self.device = device
        self.closed = False

    def show(self, image: Any) -> bool:
        """Draw one frame; False once the window has been closed."""
        if self.closed:
            return False
        try:
            self.device.display(image.convert(self.device.mode))
        except SystemExit:
            self.closed = True
        return not self.closed


def open_window(size: tuple[int, int], mode: str) -> tuple[OledWindow | None, str]:
    """A window for an OLED of ``size`` and ``mode``, or None and why not (for the user)."""
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    try:
        import pygame  # noqa: F401
        from luma.emulator.device import pygame as pygame_device  # type: ignore[import-untyped]
    except ImportError:
        return None, (
            f"{WINDOW_ENV}=1: the OLED window needs pygame and luma.emulator "
            "(pip install pygame luma.emulator); the OLED is shown in the terminal only"
        )
    class EscapeIsNoQuit(pygame_device):  # type: ignore[misc]
        """luma's window, closed only by closing it: luma also quits on Esc, which here is
        the keypad's ``*`` (a dialog's back) and must never end the game."""

        def _abort(self) -> bool:
            return bool(self._pygame.event.peek(self._pygame.QUIT))

    try:
        device = EscapeIsNoQuit(
            width=size[0],
            height=size[1],
            mode=mode,
            transform="identity",
            scale=WINDOW_SCALE,
            frame_rate=1000,  # luma waits for this rate before each frame: do not hold the loop
        )
    except Exception as exc:  # pygame.error: no display to open a window on
        return None, f"{WINDOW_ENV}=1: cannot open the OLED window ({exc}); terminal only"
    return OledWindow(device), ""


class KeyboardTable:
    """Turns computer keys into what the table's pins and keypad would report."""

    def __init__(
        self,
        inputs: Any,
        clock: Clock,
        deliver: Callable[[RawInput], None],
        schedule: Callable[[float, Callable[[], None]], object],
    ) -> None:
        self.inputs = inputs
        self.clock = clock
        self.deliver = deliver
        self.schedule = schedule
        self.level = dict(inputs.tilt_levels())

    def key(self, ch: str) -> bool:
        """Handle one key of :data:`companion.keymap.KEYS`; False when it means nothing."""
        part = keymap.part_for(ch)
        if part is None or part == "quit":
            return False
        what, _colon, name = part.partition(":")
        if what == "tilt":
            pin = self.inputs.pin("tilt", name)
            self.level[name] = not self.level[name]
            (pin.drive_low if self.level[name] else pin.drive_high)()
            return True
        if what == "button":
            try:
                pin = self.inputs.pin("button", name)
            except KeyError:
                return False
            pin.drive_low()
            hold = 2.2 if ch == "\x05" else 0.08  # Ctrl-E holds MENU: the end of a game
            self.schedule(hold, pin.drive_high)
            return True
        self.deliver(RawInput("key", name, True, self.clock.now()))
        return True


def _panel(config: Mapping[str, Any]) -> tuple[tuple[int, int], str]:
    """The size and image mode of the configured OLED, as the desktop's dummy device has."""
    from companion.hw.display import make_device

    device = make_device(config, "desktop")
    width, height = device.size
    return (int(width), int(height)), str(device.mode)


def terminal_too_small(size: tuple[int, int], columns: int, lines: int) -> str | None:
    """Why a terminal of ``columns`` x ``lines`` cannot show the OLED of ``size``, or None."""
    need_columns, need_lines = size[0], size[1] // 2 + 3  # two pixel rows a line, the hint
    if columns >= need_columns and lines >= need_lines:
        return None
    return (f"the terminal OLED needs {need_columns}x{need_lines} characters and this terminal "
            f"is {columns}x{lines}: enlarge it (or make the font smaller), or add --window")


def main(config: Mapping[str, Any], journal_dir: Path | None = None) -> int:
    if not sys.stdin.isatty():
        print("companion: " + _("the desktop backend needs a terminal for the keys"),
              file=sys.stderr)
        return 2
    return asyncio.run(_play(dict(config), journal_dir))


async def _play(config: dict[str, Any], journal_dir: Path | None) -> int:
    from gpiozero.pins.mock import MockFactory, MockPWMPin

    from companion.daemon import Daemon, make_sounder
    from companion.hw.display import Display, make_device
    from companion.hw.inputs import GpioInputs
    from companion.screens import frame_to_text

    clock = MonotonicClock()
    factory = MockFactory(pin_class=MockPWMPin)
    sounder = make_sounder(config, factory)
    journal_dir = journal_dir or Path(os.path.expanduser("~/.local/share/companion"))
    out = sys.stdout

    window: OledWindow | None = None
    if window_wanted():
        window, why = open_window(*_panel(config))
        if window is None:
            print(f"companion: {why}", file=sys.stderr)

    # The hint under the terminal OLED, in the players' language (chosen by now); a
    # keypad-only game shows its own below.
    help_line = keymap.hint_line()
    hint = [help_line]
    import shutil

    problem = terminal_too_small(_panel(config)[0], *shutil.get_terminal_size())
    if problem is not None:  # said under every frame, where the player looks
        hint[0] = f"companion: {problem}\n{help_line}"

    def on_frame(image: Any, now: float) -> None:
        bell = "\a" if sounder.playing in ("error", "timer_out") else ""
        try:
            out.write("\x1b[H" + frame_to_text(image) + "\n\n" + hint[0] + "\x1b[K\n" + bell)
            out.flush()
        except OSError:  # the terminal is gone (closed window, lost ssh): end the game loop
            daemon.stop()
            return
        if window is not None and not window.show(image):
            daemon.stop()  # the window was closed: end as Ctrl-Q in the terminal does

    def sound(pattern: str) -> None:
        sounder.play(pattern, clock.now())

    from companion import registry
    from companion.arbiter.hooks import ArbiterHooks
    from companion.tables import make_table, start_configured_game

    hooks = ArbiterHooks(config, clock, loop=asyncio.get_running_loop())
    table = make_table(config, clock, journal_dir, sound=sound, on_record=hooks.on_record)
    display = Display(make_device(config, "desktop"), max_fps=10, on_frame=on_frame)
    daemon = Daemon(table, clock, display=display, sounder=sounder)
    loop = asyncio.get_running_loop()
    daemon.loop = loop
    inputs = GpioInputs(config, clock, daemon.deliver, pin_factory=factory)
    if not hasattr(table, "tilts"):  # no hourglasses at this game's table: its own hint
        title = registry.configured(config).title
        hint[0] = hint[0].replace(help_line, f"{title}: {keymap.keypad_hint_line()}")
    keyboard = KeyboardTable(
        inputs, clock, daemon.deliver, lambda delay, fn: loop.call_later(delay, fn)
    )
    path = start_configured_game(table, config)
    hooks.attach(table)  # publishes when [mqtt] is on, as the daemon does
    fd = sys.stdin.fileno()
    saved = termios.tcgetattr(fd)

    def on_key() -> None:
        try:
            raw = os.read(fd, 16)
        except OSError:  # EIO: the terminal was closed under us
            raw = b""
        if not raw:  # end of input: never read an empty terminal in a loop again
            loop.remove_reader(fd)
            daemon.stop()
            return
        data = raw.decode("utf-8", "replace")
        if data.startswith("\x1b") and len(data) > 1:
            return  # an arrow or function key's escape sequence: no key of the table
        for ch in data:
            if keymap.part_for(ch) == "quit":  # Ctrl-Q/C/D; Esc closes a dialog as * does
                daemon.stop()
                return
            keyboard.key(ch)

    try:
        tty.setcbreak(fd)
        attrs = termios.tcgetattr(fd)
        attrs[0] &= ~termios.IXON  # Ctrl-Q reaches us (it quits) instead of the flow control
        termios.tcsetattr(fd, termios.TCSANOW, attrs)
        out.write("\x1b[2J")
        loop.add_reader(fd, on_key)
        await daemon.run()
    finally:
        loop.remove_reader(fd)
        try:
            termios.tcsetattr(fd, termios.TCSADRAIN, saved)
        except (termios.error, OSError):  # the terminal is gone: nothing to restore
            pass
        hooks.close()
        inputs.close()
    from companion.keys import public_path
    from companion.tablekey import key_path

    try:
        print("\n" + _("journal: {path}").format(path=path))
        print(_("table key: {key}").format(key=public_path(key_path(config, table.journal_dir))))
    except OSError:
        pass
    return 0
