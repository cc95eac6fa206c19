"""Whether this machine's wall clock can be believed, to count the time the table was dark.

Game time is monotonic and journal-relative: ``t`` in the journal counts from the game's start
on the monotonic clock, which never jumps, so a wall-clock jump while the table runs changes
nothing. The wall clock matters only across a restart: the time the power was off is "wall
clock now minus the wall clock of the last record", and that is true only when the clock is
right. A Raspberry Pi has no real-time clock: it boots with the time ``fake-hwclock`` saved at
shutdown (or older), and jumps when NTP syncs, hours later if the network is down. So the outage
is counted only when one of these says the time is right:

* a real-time clock set the system clock at boot (``/sys/class/rtc/rtcN/hctosys`` is ``1``: a
  DS3231 on I2C with ``dtoverlay=i2c-rtc,ds3231``, or a Pi 5's own RTC with its battery);
* the kernel's NTP state is synchronised (``adjtimex`` with no change asked returns a state
  other than ``TIME_ERROR``; read-only, but systemd's ``ProtectClock=`` may deny it);
* systemd-timesyncd has synchronised (``/run/systemd/timesync/synchronized`` exists);
* ``timedatectl show -p NTPSynchronized --value`` says ``yes``.

Anything else (no answer, an error, a denied call) is "not known to be right": the table then
resumes paused and the players confirm the sand (see :mod:`companion.tamsk.table`).
"""

from __future__ import annotations

import ctypes
import ctypes.util
import logging
import shutil
import subprocess
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

log = logging.getLogger(__name__)

#: adjtimex(2)'s state when the clock is not synchronised.
TIME_ERROR = 5
#: ``struct timex`` is 208 bytes on 64-bit Linux; a larger zeroed buffer is safe everywhere.
_TIMEX_BYTES = 512


@dataclass(frozen=True)
class Trust:
    """Whether the wall clock is right, and the evidence (for the log and the journal)."""

    trusted: bool
    why: str

    def __bool__(self) -> bool:
        return self.trusted


def rtc_set_the_clock(sys_rtc: Path = Path("/sys/class/rtc")) -> str | None:
    """The RTC that set the system clock at boot (``rtc0``), or None."""
    try:
        devices = sorted(sys_rtc.iterdir())
    except OSError:
        return None
    for device in devices:
        try:
            if (device / "hctosys").read_text().strip() == "1":
                return device.name
        except OSError:
            continue
    return None


def kernel_ntp_synchronised() -> bool | None:
    """The kernel's NTP state via ``adjtimex`` (modes 0: read only); None if it cannot be
    asked (not Linux, or the call is denied, as under systemd's ``ProtectClock=``)."""
    name = ctypes.util.find_library("c")
    if name is None:
        return None
    try:
        libc = ctypes.CDLL(name, use_errno=True)
        adjtimex = libc.adjtimex
    except (OSError, AttributeError):
        return None
    buffer = ctypes.create_string_buffer(_TIMEX_BYTES)  # modes = 0: change nothing
    state = int(adjtimex(buffer))
    if state < 0:
        return None
    return state != TIME_ERROR


def timesyncd_synchronised(flag: Path = Path("/run/systemd/timesync/synchronized")) -> bool:
    """systemd-timesyncd touches this file once it has synchronised the clock."""
    return flag.exists()


def timedatectl_synchronised(timeout: float = 2.0) -> bool | None:
    """``timedatectl show -p NTPSynchronized --value``; None when it cannot answer."""
    exe = shutil.which("timedatectl")
    if exe is None:
        return None
    try:
        out = subprocess.run(
            [exe, "show", "-p", "NTPSynchronized", "--value"],
            capture_output=True,
            text=True,
            timeout=timeout,
            check=False,
        )
    except (OSError, subprocess.SubprocessError):
        return None
    if out.returncode != 0:
        return None
    return out.stdout.strip() == "yes"


def wall_clock_trust() -> Trust:
    """Ask the machine whether its wall clock is right (see the module docstring)."""
    rtc = rtc_set_the_clock()
    if rtc is not None:
        return Trust(True, f"the real-time clock {rtc} set the time at boot")
    if kernel_ntp_synchronised():
        return Trust(True, "NTP-synchronised (adjtimex)")
    if timesyncd_synchronised():
        return Trust(True, "NTP-synchronised (systemd-timesyncd)")
    if timedatectl_synchronised():
        return Trust(True, "NTP-synchronised (timedatectl)")
    return Trust(False, "no real-time clock and no NTP synchronisation")


#: What a table asks: injectable, so tests and the demo decide without asking the machine.
TrustProbe = Callable[[], Trust]


def probe_for(setting: str) -> TrustProbe:
    """The probe the config's ``[table] wall_clock`` names: auto, trusted or untrusted."""
    return {"trusted": always_trusted, "untrusted": never_trusted}.get(setting, wall_clock_trust)


def always_trusted() -> Trust:
    """A fake clock's wall time is right by construction (tests, the demo, a replay)."""
    return Trust(True, "a fake clock")


def never_trusted() -> Trust:
    return Trust(False, "the config says not to trust the wall clock")


__all__ = [
    "Trust",
    "TrustProbe",
    "always_trusted",
    "kernel_ntp_synchronised",
    "never_trusted",
    "probe_for",
    "rtc_set_the_clock",
    "timedatectl_synchronised",
    "timesyncd_synchronised",
    "wall_clock_trust",
]
