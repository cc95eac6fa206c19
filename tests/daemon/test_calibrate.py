"""`companion calibrate`: each glass turned and its ring button pressed when empty, twice."""

from __future__ import annotations

import json
import subprocess
import sys
import tomllib
from pathlib import Path

from companion.config import defaults, load
from companion.tamsk.calibrate import Calibration, CalibrationInputs, write_periods
from companion.tamsk.table import RawInput


def measure(cal: Calibration, glass: str, start: float, seconds: float) -> None:
    cal.turned(glass, start)
    cal.empty("red" if glass[0] == "r" else "black", start + seconds)


def test_each_glass_is_measured_twice_and_the_mean_becomes_its_period() -> None:
    cal = Calibration()
    t = 0.0
    for glass, seconds in zip(
        ("r1", "r2", "r3", "b1", "b2", "b3"), (176, 180, 181, 179, 190, 180), strict=True
    ):
        measure(cal, glass, t, seconds - 0.5)
        measure(cal, glass, t + 200, seconds + 0.5)
        t += 400
    assert cal.done
    assert cal.periods() == {"r1": 176, "r2": 180, "r3": 181, "b1": 179, "b2": 190, "b3": 180}


def test_a_glass_more_than_five_percent_off_is_flagged() -> None:
    cal = Calibration(passes=1)
    for glass, seconds in zip(
        ("r1", "r2", "r3", "b1", "b2", "b3"), (170.5, 180, 189.5, 180, 180, 171), strict=True
    ):
        measure(cal, glass, 0.0, seconds)
    assert cal.warnings() == [
        "r1 runs 170.5 s, -5.3% off 180 s",
        "r3 runs 189.5 s, +5.3% off 180 s",
    ]


def test_the_wrong_glass_or_button_changes_nothing() -> None:
    cal = Calibration()
    cal.turned("b1", 0.0)
    assert cal.started is None and "turn r1" in cal.message
    cal.turned("r1", 1.0)
    cal.empty("black", 180.0)
    assert cal.measured["r1"] == [] and "red's ring button" in cal.message
    cal.empty("red", 181.0)
    assert cal.measured["r1"] == [180.0]


def test_the_inputs_go_through_the_tables_debounce() -> None:
    cal = Calibration(passes=1)
    feeder = CalibrationInputs(cal, defaults())
    feeder.feed(RawInput("tilt", "r1", True, 10.0))
    feeder.feed(RawInput("tilt", "r1", False, 10.01))  # bounce
    feeder.feed(RawInput("tilt", "r1", True, 10.02))
    feeder.poll(10.3)
    assert cal.started == 10.02
    feeder.feed(RawInput("button", "ring.red", True, 187.02))
    feeder.feed(RawInput("button", "ring.red", False, 187.025))  # bounce: one press
    feeder.feed(RawInput("button", "ring.red", True, 187.03))
    assert cal.measured["r1"] == [177.0]
    assert cal.glass == "r2"


def test_the_periods_are_written_into_the_config_keeping_the_rest(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text("[game]\nlevel = 2\n\n[calibration]\nr1 = 180.0\n")
    write_periods(path, {"r1": 176.456, "b2": 183.0})
    saved = tomllib.loads(path.read_text())
    assert saved["game"] == {"level": 2}
    assert saved["calibration"] == {"r1": 176.46, "b2": 183.0}
    assert load(path)["calibration"]["b2"] == 183.0


def test_new_game_writes_a_journal_header_with_the_calibration(tmp_path: Path) -> None:
    config = tmp_path / "config.toml"
    config.write_text("[calibration]\nb2 = 150.0\n")
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "companion.cli",
            "new-game",
            "--config",
            str(config),
            "--journal-dir",
            str(tmp_path / "j"),
            "--level",
            "2",
            "--red",
            "Zoë",
            "--black",
            "Jiří",
            "--table",
            "4",
            "--as-root",  # when the tests run as root: a test folder, no service appends
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    path = Path(out.stdout.strip())
    header = json.loads(path.read_text().splitlines()[0])
    assert header["game"] == "tamsk" and header["level"] == 2 and header["table"] == 4
    assert header["periods"]["b2"] == 150.0 and header["names"] == {"red": "Zoë", "black": "Jiří"}


def test_a_warning_longer_than_the_bar_turns_its_pages_like_the_tables() -> None:
    """r1 ran 160 s (-11.1 %): its warning takes two lines of the bar, and the calibration
    screen shows them in turn on the page clock every table uses."""
    import asyncio

    from companion.clock import FakeClock
    from companion.pages import PAGE_S
    from companion.tamsk.calibrate import run
    from companion.tamsk.calibration_screen import calibration_screen

    clock = FakeClock()
    cal = Calibration()
    measure(cal, "r1", 0.0, 160.0)
    measure(cal, "r1", 200.0, 160.0)
    assert cal.glass == "r2" and cal.warning() == "r1 -11.1% (160.0 s)"
    shown: list[tuple[float, int]] = []
    t0 = clock.now()

    def show(c: Calibration, elapsed: float, page: int) -> None:
        shown.append((clock.now(), page))
        if clock.now() - t0 > 2.5 * PAGE_S:
            c.index = len(c.measured)  # every glass done: the run ends

    async def wait(queue: asyncio.Queue[RawInput], timeout: float | None) -> None:
        clock.advance(0.5 if timeout is None else max(timeout, 0.01))

    asyncio.run(run(cal, CalibrationInputs(cal, defaults()), clock, asyncio.Queue(), show, wait))
    pages = [page for _, page in shown]
    assert pages[0] == 0 and 1 in pages and 2 in pages
    assert pages == sorted(pages)
    first, second = (calibration_screen("r2", 1, 0.0, {"r1": [160.0, 160.0]}, page=p)
                     for p in (0, 1))
    assert first.tobytes() != second.tobytes()


def test_the_calibration_speaks_the_players_language() -> None:
    """The title, the hint and the line under the terminal screen in French or Czech."""
    from companion import i18n
    from companion.screens import text as screen_text
    from companion.tamsk.calibration_screen import calibration_screen

    said: dict[str, list[str]] = {}
    printable = screen_text.printable
    for lang in ("fr", "cs"):
        lines: list[str] = []
        screen_text.printable = lambda text, lines=lines: (lines.append(text), printable(text))[1]
        i18n.use(lang)
        try:
            cal = Calibration()
            cal.turned("r2", 0.0)
            cal.empty("red", 1.0)
            calibration_screen("r1", 1, 7.0, {})
            said[lang] = [cal.message, *lines]
        finally:
            i18n.reset()
            screen_text.printable = printable
    assert said["fr"][0] == "retournez d'abord r1" and "Étalonner r1" in said["fr"]
    assert said["cs"][0] == "nejdřív otočte r1" and "Kalibrace r1" in said["cs"]
    assert "po vysypání" in " ".join(said["cs"]) and "si vide" in " ".join(said["fr"])
