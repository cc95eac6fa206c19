"""docs/install.md installs what the repository ships and the unit expects.

The guide is prose, but its commands name files, paths and extras that can drift: the unit's
ExecStart, the venv it runs from, the sysusers file, the `pi`/`rpigpio` extras.
"""

from __future__ import annotations

import re
import tomllib

import pytest

from .hardware_files import REPO, SYSTEMD

GUIDE = REPO / "docs" / "install.md"


@pytest.fixture(scope="module")
def guide() -> str:
    return GUIDE.read_text(encoding="utf-8")


def _exec_start() -> str:
    for line in (SYSTEMD / "companion.service").read_text(encoding="utf-8").splitlines():
        if line.startswith("ExecStart="):
            return line.removeprefix("ExecStart=")
    raise AssertionError("companion.service has no ExecStart=")


def test_guide_builds_the_venv_the_unit_starts(guide: str) -> None:
    executable = _exec_start().split()[0]
    venv = executable.removesuffix("/bin/companion")
    assert venv == "/opt/companion/.venv"
    assert "python3 -m venv --system-site-packages .venv" in guide
    assert "sudo git clone ~/companion /opt/companion" in guide
    assert "<repository URL>" not in guide  # no placeholder left for the reader to guess


def test_guide_installs_files_that_exist(guide: str) -> None:
    installed = set(re.findall(r"install -m 0644 (\S+) ", guide))
    assert {"systemd/companion.service", "systemd/companion.sysusers.conf"} <= installed
    for path in installed:
        assert (REPO / path).is_file(), path


def test_guide_uses_extras_that_pyproject_defines(guide: str) -> None:
    extras = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"][
        "optional-dependencies"
    ]
    used = {name for group in re.findall(r"\.\[([\w,]+)\]", guide) for name in group.split(",")}
    assert used == {"pi", "rpigpio"}
    assert used <= set(extras)


def test_guide_installs_lgpio_from_apt_and_enables_i2c(guide: str) -> None:
    assert re.search(r"apt install -y [^\n]*python3-lgpio", guide)
    assert "raspi-config nonint do_i2c 0" in guide


def test_guide_selects_rpi_gpio_with_gpiozeros_variable(guide: str) -> None:
    assert "Environment=GPIOZERO_PIN_FACTORY=rpigpio" in guide


def test_guide_writes_the_default_config_where_the_unit_reads_it(guide: str) -> None:
    assert "companion config --print-default | sudo tee /etc/companion/config.toml" in guide
    unit = (SYSTEMD / "companion.service").read_text(encoding="utf-8")
    assert "ConfigurationDirectory=companion" in unit
