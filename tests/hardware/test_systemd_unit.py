"""systemd/companion.service runs the daemon as the issue asks, and systemd accepts it.

A unit file may repeat a key (DeviceAllow=, SystemCallFilter=, ...), which configparser
cannot represent, so a small reader of systemd's syntax is used: comments start with # or ;,
a trailing backslash continues a line, and every assignment of a key is kept in order.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from .hardware_files import SYSTEMD

UNIT = SYSTEMD / "companion.service"
SYSUSERS = SYSTEMD / "companion.sysusers.conf"
VENV_COMPANION = "/opt/companion/.venv/bin/companion"

Unit = dict[str, dict[str, list[str]]]


def read_unit(text: str) -> Unit:
    """Sections -> keys -> every value assigned, in order (systemd.syntax(7))."""
    unit: Unit = {}
    section: dict[str, list[str]] | None = None
    pending = ""
    for raw in text.splitlines():
        line = pending + raw.strip()
        pending = ""
        if not line or line[0] in "#;":
            continue
        if line.endswith("\\"):
            pending = line[:-1] + " "
            continue
        if line.startswith("[") and line.endswith("]"):
            section = unit.setdefault(line[1:-1], {})
            continue
        if section is None or "=" not in line:
            raise ValueError(f"not a unit file line: {raw!r}")
        key, value = (part.strip() for part in line.split("=", 1))
        section.setdefault(key, []).append(value)
    return unit


@pytest.fixture(scope="module")
def service() -> dict[str, list[str]]:
    return read_unit(UNIT.read_text(encoding="utf-8"))["Service"]


def one(service: dict[str, list[str]], key: str) -> str:
    values = service.get(key)
    assert values, f"{key}= missing from [Service]"
    return values[-1]


def words(service: dict[str, list[str]], key: str) -> list[str]:
    return [w for value in service.get(key, []) for w in value.split()]


def seconds(value: str) -> float:
    """A systemd time span such as 10s, 1min 30s or 500ms, in seconds."""
    units = {"ms": 0.001, "s": 1, "sec": 1, "min": 60, "m": 60, "h": 3600, "": 1}
    total = 0.0
    for number, unit in re.findall(r"(\d+(?:\.\d+)?)\s*([a-z]*)", value):
        total += float(number) * units[unit]
    return total


# --- the reader itself ------------------------------------------------------------------------


def test_reader_keeps_every_assignment_of_a_repeated_key() -> None:
    unit = read_unit("[Service]\nDeviceAllow=char-a rw\n# note\nDeviceAllow=char-b r\n")
    assert unit["Service"]["DeviceAllow"] == ["char-a rw", "char-b r"]


def test_reader_joins_continued_lines() -> None:
    unit = read_unit("[Service]\nSystemCallFilter=@system-service \\\n  @io-event\n")
    [value] = unit["Service"]["SystemCallFilter"]
    assert value.split() == ["@system-service", "@io-event"]


def test_reader_refuses_a_line_outside_a_section() -> None:
    with pytest.raises(ValueError, match="not a unit file line"):
        read_unit("Type=notify\n")


# --- what the daemon needs --------------------------------------------------------------------


def test_daemon_tells_systemd_itself_when_it_is_ready(service: dict[str, list[str]]) -> None:
    assert one(service, "Type") == "notify"
    assert one(service, "NotifyAccess") == "main"


def test_watchdog_kills_a_stuck_main_loop(service: dict[str, list[str]]) -> None:
    assert 2 <= seconds(one(service, "WatchdogSec")) <= 60


def test_a_crash_restarts_the_daemon_but_a_clean_stop_does_not(
    service: dict[str, list[str]],
) -> None:
    assert one(service, "Restart") == "on-failure"


def test_the_venv_daemon_is_started(service: dict[str, list[str]]) -> None:
    assert one(service, "ExecStart").split() == [VENV_COMPANION, "run"]


def test_runs_as_companion_in_the_hardware_groups(service: dict[str, list[str]]) -> None:
    assert one(service, "User") == "companion"
    assert {"gpio", "i2c", "dialout", "input"} <= set(words(service, "SupplementaryGroups"))


def test_journals_live_in_var_lib_companion(service: dict[str, list[str]]) -> None:
    assert one(service, "StateDirectory") == "companion"


def test_config_comes_from_etc_companion(service: dict[str, list[str]]) -> None:
    assert one(service, "ConfigurationDirectory") == "companion"


def test_lgpio_can_create_its_pipes_in_the_working_directory(
    service: dict[str, list[str]],
) -> None:
    """lgpio makes .lgd-nfy* FIFOs in the current directory; / is read-only here."""
    writable = {f"/run/{d}" for d in words(service, "RuntimeDirectory")}
    writable |= {f"/var/lib/{d}" for d in words(service, "StateDirectory")}
    writable |= {f"%t/{d}" for d in words(service, "RuntimeDirectory")}
    assert one(service, "WorkingDirectory") in writable
    env = dict(w.split("=", 1) for w in words(service, "Environment"))
    assert env.get("LG_WD") == one(service, "WorkingDirectory")


# --- hardening that still reaches the hardware ------------------------------------------------


def test_file_system_is_read_only_apart_from_its_own_directories(
    service: dict[str, list[str]],
) -> None:
    assert one(service, "ProtectSystem") == "strict"
    assert one(service, "ProtectHome") == "yes"
    assert one(service, "PrivateTmp") == "yes"
    assert one(service, "NoNewPrivileges") == "yes"


def test_only_gpio_i2c_serial_and_input_devices_are_open(service: dict[str, list[str]]) -> None:
    assert one(service, "DevicePolicy") == "closed"
    allowed = {}
    for value in service.get("DeviceAllow", []):
        assert re.fullmatch(r"(char-[\w*?+-]+|block-[\w*?+-]+|/dev/\S+) [rwm]+", value), value
        spec, rights = value.split()
        allowed[spec] = rights
    for needed in ("char-gpiochip", "char-i2c", "char-ttyACM", "char-ttyUSB", "char-input"):
        assert needed in allowed and "r" in allowed[needed], needed
    for written in ("char-gpiochip", "char-i2c", "char-ttyACM"):
        assert "w" in allowed[written], written


def test_device_nodes_are_not_hidden(service: dict[str, list[str]]) -> None:
    """PrivateDevices=yes would hide /dev/gpiochip*, /dev/i2c-* and the serial ports."""
    assert service.get("PrivateDevices", ["no"])[-1] in {"no", "false", "0"}


def test_device_groups_still_apply(service: dict[str, list[str]]) -> None:
    """In a user namespace (PrivateUsers=yes) the gpio/i2c groups would not map."""
    assert service.get("PrivateUsers", ["no"])[-1] in {"no", "false", "0"}


def test_board_revision_stays_readable(service: dict[str, list[str]]) -> None:
    """gpiozero reads /proc/device-tree or /proc/cpuinfo; ProcSubset=pid hides both."""
    assert service.get("ProcSubset", ["all"])[-1] == "all"


def test_kernel_and_cgroups_are_protected(service: dict[str, list[str]]) -> None:
    for key in ("ProtectKernelTunables", "ProtectKernelModules", "ProtectControlGroups",
                "LockPersonality", "MemoryDenyWriteExecute", "RestrictSUIDSGID"):
        assert one(service, key) == "yes", key


def test_sockets_are_limited_to_unix_and_ip(service: dict[str, list[str]]) -> None:
    assert set(words(service, "RestrictAddressFamilies")) == {"AF_UNIX", "AF_INET", "AF_INET6"}


def test_system_calls_are_filtered(service: dict[str, list[str]]) -> None:
    assert "@system-service" in words(service, "SystemCallFilter")
    assert one(service, "SystemCallArchitectures") == "native"


def test_sysusers_puts_companion_in_every_supplementary_group(
    service: dict[str, list[str]],
) -> None:
    rows = [
        line.split()
        for line in SYSUSERS.read_text(encoding="utf-8").splitlines()
        if line.strip() and not line.lstrip().startswith("#")
    ]
    users = {row[1] for row in rows if row[0] == "u"}
    memberships = {row[2] for row in rows if row[0] == "m" and row[1] == "companion"}
    assert one(service, "User") in users
    assert set(words(service, "SupplementaryGroups")) <= memberships


# --- systemd's own opinion ----------------------------------------------------------------------


def _unit_with_runnable_execstart(tmp_path: Path) -> Path:
    """A copy of the unit whose ExecStart exists here (verify checks the binary is executable)."""
    stand_in = tmp_path / "companion"
    stand_in.write_text("#!/bin/sh\nexit 0\n", encoding="utf-8")
    stand_in.chmod(0o755)
    unit = tmp_path / "companion.service"
    unit.write_text(
        UNIT.read_text(encoding="utf-8").replace(VENV_COMPANION, str(stand_in)), encoding="utf-8"
    )
    return unit


needs_systemd_analyze = pytest.mark.skipif(
    shutil.which("systemd-analyze") is None,
    reason="systemd-analyze not installed: unit not checked by systemd itself",
)


@needs_systemd_analyze
def test_systemd_analyze_verify_accepts_the_unit(tmp_path: Path) -> None:
    unit = _unit_with_runnable_execstart(tmp_path)
    result = subprocess.run(
        ["systemd-analyze", "verify", str(unit)],
        capture_output=True, text=True, timeout=60, cwd=tmp_path,
    )
    complaints = [
        line for line in (result.stdout + result.stderr).splitlines() if unit.name in line
    ]
    assert result.returncode == 0 and not complaints, result.stdout + result.stderr


@needs_systemd_analyze
def test_systemd_analyze_rates_the_exposure_ok_or_better(tmp_path: Path) -> None:
    unit = _unit_with_runnable_execstart(tmp_path)
    result = subprocess.run(
        ["systemd-analyze", "security", "--offline=true", "--no-pager", str(unit)],
        capture_output=True, text=True, timeout=60, cwd=tmp_path,
    )
    if "offline" in result.stderr and result.returncode != 0:
        pytest.skip("this systemd-analyze has no --offline security review (systemd < 250)")
    match = re.search(r"Overall exposure level for \S+: ([\d.]+) (\w+)", result.stdout)
    assert match, result.stdout + result.stderr
    assert match.group(2) in {"PERFECT", "SAFE", "OK"}, match.group(0)


@pytest.mark.skipif(
    shutil.which("systemd-sysusers") is None, reason="systemd-sysusers not installed"
)
def test_systemd_sysusers_would_create_the_user_and_groups(tmp_path: Path) -> None:
    result = subprocess.run(
        ["systemd-sysusers", "--dry-run", f"--root={tmp_path}", str(SYSUSERS)],
        capture_output=True, text=True, timeout=60,
    )
    output = result.stdout + result.stderr
    assert result.returncode == 0, output
    assert re.search(r"(Creating|Would create) user 'companion'", output), output
    for group in ("gpio", "i2c", "dialout", "input", "spi"):
        assert re.search(rf"(Creating|Would create) group '{group}'", output), group


def test_the_daemon_runs_before_ordinary_processes_but_below_kernel_interrupts(
    service: dict[str, list[str]],
) -> None:
    """A timekeeper: real-time FIFO at a low priority (the kernel's IRQ threads run at 50)."""
    assert one(service, "CPUSchedulingPolicy") == "fifo"
    assert 1 <= int(one(service, "CPUSchedulingPriority")) < 50
    assert int(one(service, "Nice")) < 0  # if a drop-in forbids real time


def test_journal_writes_go_ahead_of_other_processes_io(service: dict[str, list[str]]) -> None:
    assert one(service, "IOSchedulingClass") == "realtime"
    assert 0 <= int(one(service, "IOSchedulingPriority")) <= 7
