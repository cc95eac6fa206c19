"""Configuration: built-in defaults, overridden by ``/etc/companion/config.toml``.

The defaults are a TOML text (``companion config --print-default``) so that what a user copies
and edits is exactly what the daemon would use. Unknown keys and wrong types are refused with a
message naming the key, rather than silently ignored.
"""

from __future__ import annotations

import copy
import json
import sys
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from companion.files import SECRET, atomic_write

DEFAULT_PATH = Path("/etc/companion/config.toml")

DEFAULT_TOML_BODY = """\
# companion configuration. Every key is optional; these are the defaults.

[table]
number = 1
# The players' language on the OLED and in replays: "en", "fr" or "cs"; "" follows the
# environment (LANG). `--lang` on the command line wins over this.
language = ""
# Where game journals are written (systemd's StateDirectory).
journal_dir = "/var/lib/companion"
# The table's private signing key (never in this file): "" is journal_dir/keys/table.key.
key_file = ""
# Which backend drives the table: "pi" (GPIO on this Pi), "hub" (the Pico sensor hub on USB),
# "mock" (gpiozero's MockFactory and luma's dummy display) or "desktop" (keyboard + terminal).
backend = "pi"
# gpiozero pin factory on the Pi: "" lets gpiozero choose (lgpio on a Pi 5); "rpigpio" for
# older Pis with RPi.GPIO.
pin_factory = ""
hub_port = "/dev/ttyACM0"
# Whether the wall clock may measure a power cut (the sand that ran while the table was dark):
# "auto" asks the machine (a real-time clock set the time, or NTP is synchronised; see
# hardware/README.md for a DS3231), "trusted" always, "untrusted" never (the game resumes held
# at the cut and the players confirm the sand).
wall_clock = "auto"

[game]
kind = "tamsk"        # "tamsk", "tantrix", "tokami" or "puzzle" (Tantrix Discovery)
level = 3
ruleset = "adjusted"   # "adjusted" (English rule book) or "original" (French/Czech)
start = "standard"     # or "free"

[tantrix]
players = ["red", "yellow"]   # 2 to 4 colours in seat order (team game: red, yellow, red, yellow)
hands = false                 # true: every draw is typed, the forced-space obligation enforced
mode = "strategy"             # or a solo mode: "solitaire", "rainbow", "gobble"
target = "line"               # solitaire: "line" or "loop"
puzzle = "green"              # rainbow: "green", "yellow", "white", "blue" or "red"
race = []                     # gobble: 2 to 6 names for the race scorer (empty: solo)

[tokami]
players = ["Player 1", "Player 2"]
rounds = 1
colours = ["red", "yellow", "green", "blue"]   # the block set, in keypad order
counts = [9, 9, 9, 9]

[puzzle]
n = 3                 # the Discovery puzzle: tiles 1..n

[calibration]
# Measured run time of each hourglass in seconds (`companion calibrate` writes these).
r1 = 180.0
r2 = 180.0
r3 = 180.0
b1 = 180.0
b2 = 180.0
b3 = 180.0
timer15 = 15.0

[input]
settle_ms = 250        # a tilt switch stable this long in the other orientation: released
horizontal_ms = 1500   # chatter longer than this: the glass is held horizontally
button_lockout_ms = 30
hold_s = 2.0           # a long press on the menu button
timer15_shared = false # one 15-second button for both players
keypad = "auto"        # "auto", "evdev:/dev/input/by-path/...", "matrix" or "none"

[pins.tilt]
r1 = 17
r2 = 27
r3 = 22
b1 = 5
b2 = 6
b3 = 13

[pins.ring]
red = 23
black = 24

[pins.timer15]
red = 25
black = 16
shared = 25

[pins]
menu = 26
buzzer = 12

[pins.keypad]
rows = [4, 18, 19, 20]
cols = [21, 14, 15, 7]

[display]
driver = "ssd1306"     # "ssd1306", "sh1106" (I2C) or "ssd1351" (colour, SPI)
i2c_port = 1
i2c_address = 0x3C
width = 128
height = 64
rotate = 0
# The colour SSD1351 on SPI (hardware/pinmap.toml, variant spi_display): /dev/spidev0.0, its
# DC line on GPIO 9; reset_pin -1 when RST is tied high (not wired to a GPIO).
spi_port = 0
spi_device = 0
spi_dc_pin = 9
spi_reset_pin = -1
spi_speed_hz = 8000000
max_fps = 10
show_sand_seconds = true

[buzzer]
kind = "tonal"         # "tonal" (passive piezo, TonalBuzzer) or "active" (Buzzer)
muted = false
low_sand_s = 10.0

{ARBITER}"""


def _default_toml() -> str:
    from companion.arbiter.settings import CONFIG_TOML

    return DEFAULT_TOML_BODY.replace("{ARBITER}", CONFIG_TOML)


DEFAULT_TOML = _default_toml()


class ConfigError(ValueError):
    """A configuration file that cannot be used, with the key at fault."""


def defaults() -> dict[str, Any]:
    return tomllib.loads(DEFAULT_TOML)


def _merge(base: dict[str, Any], override: Mapping[str, Any], where: str = "") -> None:
    for key, value in override.items():
        name = f"{where}{key}"
        if key not in base:
            raise ConfigError(f"unknown setting {name!r}")
        current = base[key]
        if isinstance(current, dict):
            if not isinstance(value, dict):
                raise ConfigError(f"{name!r} must be a table of settings")
            _merge(current, value, f"{name}.")
            continue
        if isinstance(current, bool) != isinstance(value, bool) or (
            not isinstance(current, bool)
            and type(current) is not type(value)
            and not (isinstance(current, float) and isinstance(value, int))
        ):
            raise ConfigError(f"{name!r} must be {type(current).__name__}, got {value!r}")
        base[key] = float(value) if isinstance(current, float) else value


def load(path: str | Path | None = None, *, text: str | None = None) -> dict[str, Any]:
    """The configuration: defaults, then the file (if it exists) over them."""
    config = defaults()
    if text is None:
        p = Path(path) if path is not None else DEFAULT_PATH
        if not p.exists():
            if path is not None:
                raise ConfigError(f"{p}: no such file")
            return config
        try:
            text = p.read_text(encoding="utf-8")
        except OSError as exc:
            raise ConfigError(f"{p}: {exc.strerror}") from None
    try:
        override = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"not valid TOML: {exc}") from None
    arbiter = override.get("arbiter")
    if isinstance(arbiter, dict) and "pin_sha256" in arbiter:
        from companion.arbiter.pin import REHASH

        raise ConfigError(
            "'arbiter.pin_sha256' is the old unsalted SHA-256 PIN hash, which a search of all "
            f"PINs breaks in seconds: {REHASH} (and delete the pin_sha256 line)"
        )
    _merge(config, override)
    validate(config)
    return config


def validate(config: Mapping[str, Any]) -> None:
    from companion import registry

    kinds = registry.names()
    if config["game"]["kind"] not in kinds:
        raise ConfigError(f"'game.kind' must be one of {', '.join(kinds)}")
    for kind in registry.kinds().values():  # each game checks its own settings
        kind.validate_config(config)
    language = str(config["table"]["language"])
    if language:
        from companion import i18n

        try:
            i18n.check(language)
        except ValueError as exc:
            raise ConfigError(f"'table.language': {exc}") from None
    if config["table"]["wall_clock"] not in ("auto", "trusted", "untrusted"):
        raise ConfigError("'table.wall_clock' must be auto, trusted or untrusted")
    if config["table"]["backend"] not in ("pi", "hub", "mock", "desktop"):
        raise ConfigError("'table.backend' must be pi, hub, mock or desktop")
    for glass, seconds in config["calibration"].items():
        if not 0 < seconds < 3600:
            raise ConfigError(f"'calibration.{glass}' must be seconds > 0")
    arbiter = config["arbiter"]
    if str(arbiter.get("language", "")):
        from companion import i18n

        try:
            i18n.check(str(arbiter["language"]))
        except ValueError as exc:
            raise ConfigError(f"'arbiter.language': {exc}") from None
    from companion.arbiter.pin import PinHashError, check_config_pin_hash

    try:
        check_config_pin_hash(str(arbiter["pin_hash"]))
    except PinHashError as exc:
        raise ConfigError(f"'arbiter.pin_hash': {exc}") from None
    if arbiter["club_key"] and len(str(arbiter["club_key"])) < 16:
        raise ConfigError("'arbiter.club_key' must be empty or at least 16 characters")
    if str(arbiter.get("arbiter_key", "")).strip():
        from companion.keys import KeyFileError, PublicKey

        try:
            PublicKey.from_line(str(arbiter["arbiter_key"]))
        except KeyFileError as exc:
            raise ConfigError(f"'arbiter.arbiter_key': {exc}") from None
    if not 1 <= int(config["mqtt"]["port"]) <= 65535:
        raise ConfigError("'mqtt.port' must be 1-65535")
    _validate_display(config["display"])
    _validate_hardware(config)


#: The choices of the hardware settings, checked at load so that a typo fails with the key named
#: rather than when the daemon first opens the display or the buzzer.
CHOICES: dict[tuple[str, str], tuple[object, ...]] = {
    ("display", "rotate"): (0, 1, 2, 3),
    ("buzzer", "kind"): ("tonal", "active"),
}

#: BCM GPIO numbers on the Pi's 40-pin header.
GPIO_PINS = range(28)


def _validate_hardware(config: Mapping[str, Any]) -> None:
    for (section, key), allowed in CHOICES.items():
        if config[section][key] not in allowed:
            raise ConfigError(
                f"'{section}.{key}' must be one of {', '.join(map(str, allowed))}, "
                f"got {config[section][key]!r}"
            )
    display = config["display"]
    for key in ("width", "height"):
        if not 8 <= display[key] <= 512:
            raise ConfigError(f"'display.{key}' must be 8-512 pixels, got {display[key]}")
    if not 0 < display["max_fps"] <= 60:
        raise ConfigError(f"'display.max_fps' must be 1-60, got {display['max_fps']}")
    keypad = str(config["input"]["keypad"])
    if keypad not in ("auto", "matrix", "none") and not keypad.startswith("evdev:"):
        raise ConfigError("'input.keypad' must be auto, matrix, none or evdev:/dev/input/...")
    used: dict[int, str] = {}
    for name, pin in _pins(config):
        if not isinstance(pin, int) or pin not in GPIO_PINS:
            raise ConfigError(f"'{name}' must be a GPIO (BCM) number 0-27, got {pin!r}")
        if pin in used:
            raise ConfigError(f"'{name}' and '{used[pin]}' both use GPIO {pin}")
        used[pin] = name


def _pins(config: Mapping[str, Any]) -> list[tuple[str, Any]]:
    """Each GPIO the table drives, by its key; the keypad matrix only when it may be scanned."""
    pins = config["pins"]
    out: list[tuple[str, Any]] = [(f"pins.tilt.{k}", v) for k, v in pins["tilt"].items()]
    out += [(f"pins.ring.{k}", v) for k, v in pins["ring"].items()]
    if config["input"]["timer15_shared"]:
        out.append(("pins.timer15.shared", pins["timer15"]["shared"]))
    else:
        out += [("pins.timer15.red", pins["timer15"]["red"]),
                ("pins.timer15.black", pins["timer15"]["black"])]
    out += [("pins.menu", pins["menu"]), ("pins.buzzer", pins["buzzer"])]
    if config["display"]["driver"] == "ssd1351":  # the colour panel's SPI data/command pins
        out.append(("display.spi_dc_pin", config["display"]["spi_dc_pin"]))
        if int(config["display"]["spi_reset_pin"]) >= 0:
            out.append(("display.spi_reset_pin", config["display"]["spi_reset_pin"]))
    if config["input"]["keypad"] in ("auto", "matrix"):
        keypad = pins["keypad"]
        out += [(f"pins.keypad.rows[{i}]", v) for i, v in enumerate(keypad["rows"])]
        out += [(f"pins.keypad.cols[{i}]", v) for i, v in enumerate(keypad["cols"])]
    return out


#: The SPI clock rates luma's ``spi`` interface accepts (MHz).
SPI_MHZ = (0.5, 1, 2, 4, 8, 16, 20, 24, 28, 32, 36, 40, 44, 48, 50, 52)


def _validate_display(disp: Mapping[str, Any]) -> None:
    """The panel's driver, bus and pins, checked before the daemon opens the hardware."""
    if disp["driver"] not in ("ssd1306", "sh1106", "ssd1351"):
        raise ConfigError("'display.driver' must be ssd1306, sh1106 or ssd1351")
    if not 0x03 <= int(disp["i2c_address"]) <= 0x77:
        raise ConfigError("'display.i2c_address' must be a 7-bit I2C address (0x03-0x77)")
    if int(disp["spi_speed_hz"]) not in [int(mhz * 1_000_000) for mhz in SPI_MHZ]:
        raise ConfigError(
            "'display.spi_speed_hz' must be one of "
            + ", ".join(f"{int(mhz * 1_000_000)}" for mhz in SPI_MHZ)
        )
    if not 0 <= int(disp["spi_dc_pin"]) <= 27:
        raise ConfigError("'display.spi_dc_pin' must be a BCM GPIO number 0-27")
    if not -1 <= int(disp["spi_reset_pin"]) <= 27:
        raise ConfigError("'display.spi_reset_pin' must be a BCM GPIO number 0-27, or -1")


def periods(config: Mapping[str, Any]) -> dict[str, float]:
    """The calibrated periods, as a journal header and the rules want them."""
    return {k: float(v) for k, v in config["calibration"].items()}


def with_calibration(config: Mapping[str, Any], measured: Mapping[str, float]) -> dict[str, Any]:
    out = copy.deepcopy(dict(config))
    out["calibration"].update({k: round(float(v), 2) for k, v in measured.items()})
    return out


#: The sections whose loss would quietly weaken a table: the PIN hash (arbiter mode off), the
#: broker's credentials and TLS settings.
SECURE_SECTIONS = ("arbiter", "mqtt")


def update_file(path: str | Path, section: str, values: Mapping[str, Any]) -> str:
    """Set some settings of one section in the config file, keeping every other setting as it
    is; written atomically with mode 0600 (it may hold the PIN hash and the broker's password).

    A file that does not parse, or whose section is not a table, is refused and left alone,
    never rewritten from the defaults. A file that does not exist yet starts from the defaults,
    so it names every section.
    """
    import tomli_w

    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8") if path.exists() else DEFAULT_TOML
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{path}: cannot read it ({exc}); it is left as it is") from None
    try:
        current = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path}: not valid TOML ({exc}); it is left as it is") from None
    part = current.get(section, {})
    if not isinstance(part, dict):
        raise ConfigError(f"{path}: [{section}] is not a table of settings; it is left as it is")
    current[section] = {**part, **values}
    out = tomli_w.dumps(current)
    atomic_write(path, out, mode=SECRET)
    return out


def sections_in(path: str | Path | None) -> set[str]:
    """The top-level sections a config file sets (none when it does not exist or is unreadable;
    :func:`load` reports what is wrong with it)."""
    p = Path(path) if path is not None else DEFAULT_PATH
    try:
        return set(tomllib.loads(p.read_text(encoding="utf-8")))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        return set()


def keep_stored_sections(
    config: dict[str, Any], path: str | Path | None, store: Path
) -> list[str]:
    """Keep the table's security settings when the config file loses their section.

    Each start stores the ``[arbiter]`` and ``[mqtt]`` sections the file sets (``store``, 0600,
    beside the table's key). A later file without one of them (an edit gone wrong, a file
    rewritten by a tool) gets the stored section back instead of the defaults (which would turn
    arbiter mode off and publishing unauthenticated), and a note naming the section says so.
    To change them, write the section. Returns the notes.
    """
    present = sections_in(path)
    try:
        stored = json.loads(store.read_text(encoding="utf-8"))
        if not isinstance(stored, dict):
            stored = {}
    except (OSError, ValueError):
        stored = {}
    notes = []
    changed = False
    for name in SECURE_SECTIONS:
        if name in present:
            if stored.get(name) != config[name]:
                stored[name] = config[name]
                changed = True
        elif isinstance(stored.get(name), dict):
            trial = defaults()
            try:
                _merge(trial, {name: stored[name]})
            except ConfigError as exc:
                raise ConfigError(f"{store}: the stored [{name}] is damaged: {exc}") from None
            config[name] = trial[name]
            notes.append(
                f"the config file has no [{name}] section: the stored one ({store}) is kept; "
                f"write the section to change it"
            )
    if changed:
        atomic_write(store, json.dumps(stored, indent=1) + "\n", mode=SECRET)
    return notes


def config_for_command(path: str | None) -> dict[str, Any]:
    """The config at ``path`` (default /etc/companion/config.toml); a bad one exits 2."""
    try:
        config = load(path)
    except ConfigError as exc:
        print(f"companion: config: {exc}", file=sys.stderr)
        raise SystemExit(2) from None
    if config["table"]["language"]:  # unless --lang chose already
        from companion import i18n

        i18n.use(str(config["table"]["language"]), explicit=False)
    return config
