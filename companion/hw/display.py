"""The OLED: a luma device fed with the pictures :mod:`companion.screens` draws.

luma's devices are image sinks over a transport (I2C, SPI) or, for tests and the mock backend,
``luma.core.device.dummy``, which keeps the last image instead of sending bytes. This module is
the only place that touches a device: it picks the screen for the table's state, redraws only
when the picture changed, and never more than ``max_fps`` times a second. The picture is drawn
in the loop (about a millisecond); sending it over the bus is :mod:`companion.hw.panel`'s
writer thread's work.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from PIL import Image

from companion import registry, screens
from companion.i18n import _

if TYPE_CHECKING:
    from companion.hw.panel import PanelWriter


class DisplayMissing(RuntimeError):
    """The configured OLED cannot be opened (no bus, no panel answering, no permission)."""


def make_device(config: Mapping[str, Any], backend: str) -> Any:
    """The luma device for a backend: the real panel on a Pi (:mod:`companion.hw.panel`: the
    bus, address and pins from ``[display]``), luma's dummy elsewhere.

    A panel that is not there raises :class:`DisplayMissing` with the bus and the setting to
    check, so that the commands can say so in one line.
    """
    from luma.core.error import Error as LumaError  # type: ignore[import-untyped]

    try:
        return _make_device(config, backend)
    except (LumaError, OSError) as exc:
        disp = config["display"]
        where = (f"SPI {disp.get('spi_port', 0)}.{disp.get('spi_device', 0)}"
                 if disp["driver"] == "ssd1351"
                 else f"I2C bus {disp['i2c_port']} at {int(disp['i2c_address']):#04x}")
        raise DisplayMissing(
            f"no {disp['driver']} display on {where} ({exc}); check [display] and that "
            "I2C/SPI is on (raspi-config), or use --backend mock"
        ) from None


def _make_device(config: Mapping[str, Any], backend: str) -> Any:
    disp = config["display"]
    width, height = int(disp["width"]), int(disp["height"])
    driver = disp["driver"]
    if driver == "ssd1351":
        width, height = 128, 128
    if backend != "pi" and backend != "hub":
        from luma.core.device import dummy  # type: ignore[import-untyped]

        return dummy(width=width, height=height, mode="RGB" if driver == "ssd1351" else "1")
    from companion.hw.panel import open_device

    return open_device(config)


def make_display(config: Mapping[str, Any], backend: str) -> Display:
    """The daemon's display: on a real panel the bus writes run on their own thread
    (:class:`~companion.hw.panel.PanelWriter`), so the loop never waits for I2C or SPI."""
    device = make_device(config, backend)
    writer = None
    if backend in ("pi", "hub"):
        from companion.hw.panel import PanelWriter

        writer = PanelWriter(device)
    return Display(device, max_fps=config["display"]["max_fps"], writer=writer)


def pick_screen(view: Mapping[str, Any], size: tuple[int, int], mode: str) -> Image.Image:
    """The screen a player should see for this state, drawn by the game the view names
    (``"game"``, or ``"kind"`` while no game is open)."""
    pairing = view.get("pairing")
    if isinstance(pairing, list) and len(pairing) >= 3:  # the arbiter's pairing, any game
        lines = [str(line) for line in pairing]
        return screens.text_screen(lines[0], lines[1:-1], footer=lines[-1], names=lines[1:-1],
                                   size=size, mode=mode)
    kind = view.get("game") or view.get("kind")
    if kind is None:
        return screens.error_screen(
            str(view.get("warning") or _("type on the keypad to start a game")),
            title="companion",
            size=size,
            mode=mode,
        )
    return registry.get(kind).screen(view, size=size, mode=mode)


class Display:
    """Redraws the OLED on input at once, and while sand runs at most ``max_fps`` times a
    second; no busy loop."""

    def __init__(
        self,
        device: Any,
        *,
        max_fps: float = 10.0,
        on_frame: Callable[[Image.Image, float], None] | None = None,
        writer: PanelWriter | None = None,
    ) -> None:
        self.device = device
        #: None: ``device.display`` is called in the loop (the dummy device keeps the image).
        self.writer = writer
        self.min_interval = 1.0 / max_fps
        self.last_at = -1e9  # the last frame sent
        self.last_check = -1e9  # the last time a frame was drawn (sent or not)
        self.last_bytes: bytes | None = None
        self.frames = 0  # pictures sent to the panel
        self.draws = 0  # pictures drawn (a picture equal to the one shown is not sent)
        self.image: Image.Image | None = None
        self._on_frame = on_frame

    @property
    def size(self) -> tuple[int, int]:
        width, height = self.device.size
        return int(width), int(height)

    @property
    def mode(self) -> str:
        return str(self.device.mode)

    def due(self, now: float) -> float:
        """The earliest time the next frame may be drawn."""
        return self.last_check + self.min_interval

    def refresh(self, view: Mapping[str, Any], now: float, *, urgent: bool = False) -> bool:
        """Draw the state if allowed now and different from what is shown. True if drawn.

        Running sand redraws at most ``max_fps`` times a second; an ``urgent`` frame (a player
        just did something) is drawn at once, so the screen answers every input immediately.
        """
        if not urgent and now < self.last_check + self.min_interval:
            return False
        self.last_check = now
        image = pick_screen(view, self.size, self.mode)
        self.draws += 1
        data = image.tobytes()
        if data == self.last_bytes:
            return False
        if self.writer is not None:
            self.writer.show(image)
        else:
            self.device.display(image)
        self.last_bytes = data
        self.last_at = now
        self.image = image
        self.frames += 1
        if self._on_frame is not None:
            self._on_frame(image, now)
        return True

    def cleanup(self) -> None:
        if self.writer is not None:
            self.writer.close()
        cleanup = getattr(self.device, "cleanup", None)
        if callable(cleanup):
            cleanup()
