"""The documentation a new user follows: nothing left for the reader to guess, commands that
exist and work where the guide says to run them, and a package that builds without warnings."""

from __future__ import annotations

import re
import shlex
import tomllib
from pathlib import Path

import pytest

from companion import cli

REPO = Path(__file__).resolve().parents[1]
DOCS = sorted(
    [REPO / "README.md", REPO / "bench" / "README.md", *REPO.glob("docs/*.md"),
     *REPO.glob("hardware/**/*.md"), *REPO.glob("firmware/*.md"), *REPO.glob("systemd/*")]
)
#: A placeholder for a reader to fill in with an address: ``<repository URL>``, ``<repo>``.
ADDRESS_PLACEHOLDER = re.compile(r"<[^<>\n]*\b(?:URL|url|[Rr]epository|repo)\b[^<>\n]*>")


def text(path: Path) -> str:
    return path.read_text(encoding="utf-8")


@pytest.mark.parametrize("path", DOCS, ids=lambda p: str(p.relative_to(REPO)))
def test_no_address_placeholder_is_left_in_the_docs(path: Path) -> None:
    assert ADDRESS_PLACEHOLDER.search("git clone <repository URL> companion")  # as it was
    assert not ADDRESS_PLACEHOLDER.findall(text(path))


def test_mpremote_is_installed_in_a_venv_or_with_pipx_never_system_wide() -> None:
    """Raspberry Pi OS (Bookworm) refuses a plain ``pip install`` outside a venv."""
    installs = [(path, m.group(1)) for path in DOCS
                for m in re.finditer(r"`?(\S+?) install mpremote", text(path))]
    assert installs, "the flashing steps say how to get mpremote"
    for path, tool in installs:
        assert tool == "pipx" or tool.endswith("/.venv/bin/pip"), (path, tool)


def test_the_firmware_copied_by_mpremote_is_every_firmware_module() -> None:
    modules = {f"firmware/{p.name}" for p in (REPO / "firmware").glob("*.py")}
    for path in (REPO / "README.md", REPO / "firmware" / "README.md"):
        joined = re.sub(r"\\?\n\s*", " ", text(path))
        copy = re.search(r"mpremote connect \S+ cp ((?:firmware/\S+\.py\s+)+):", joined)
        assert copy is not None, path
        assert set(copy.group(1).split()) == modules, path


def test_the_package_license_is_an_spdx_expression_not_a_toml_table() -> None:
    """The TOML-table form (``license = {text = ...}``) and ``License ::`` classifiers are
    deprecated by setuptools 77, which reads the SPDX string (PEP 639)."""
    pyproject = tomllib.loads(text(REPO / "pyproject.toml"))
    project = pyproject["project"]
    assert isinstance(project["license"], str) and project["license"] == "MIT"
    assert not [c for c in project.get("classifiers", []) if c.startswith("License ::")]
    assert "setuptools>=77" in pyproject["build-system"]["requires"]


def test_the_licence_text_ships_with_the_package_and_the_font_s_with_it() -> None:
    """``license = "MIT"`` names the licence; the wheel must also carry its text (and the
    bundled font's own licence), which setuptools copies from ``license-files``."""
    project = tomllib.loads(text(REPO / "pyproject.toml"))["project"]
    files = project["license-files"]
    assert "LICENSE" in files
    assert text(REPO / "LICENSE").startswith("MIT License")
    for name in files:
        assert (REPO / name).is_file(), name
    assert any("fonts/LICENCE" in name for name in files)


# ------------------------------------------------------------------ the broker, step by step


def _broker_steps() -> str:
    guide = text(REPO / "docs" / "arbiter.md")
    start = guide.index("## Setting up, step by step")
    return guide[start : guide.index("\n## ", start + 5)]


def _companion_commands(section: str) -> list[list[str]]:
    """Every ``companion ...`` command line in the section's shell blocks, as argv."""
    commands = []
    for block in re.findall(r"```sh\n(.*?)```", section, flags=re.S):
        for line in re.sub(r"\\\n\s*", " ", block).splitlines():
            words = shlex.split(line, comments=True)
            for i, word in enumerate(words):
                if word.endswith("/bin/companion") or (
                        word == "companion" and (i == 0 or words[i - 1] in ("sudo",))):
                    commands.append(words[i + 1 :])
                    break
    return commands


def test_the_broker_setup_names_only_commands_and_options_that_exist() -> None:
    commands = _companion_commands(_broker_steps())
    assert [c[:2] for c in commands] == [
        ["arbiter", "broker-config"], ["keys", "init"], ["arbiter", "hash-pin"],
        ["keys", "init"], ["keys", "show"], ["arbiter", "enroll"], ["arbiter", "enroll"]]
    parser = cli.build_parser()
    for argv in commands:
        # a shell loop's variable ($n, the table's number) stands for a sample value
        argv = [re.sub(r"\$\{?n\}?", "1", word) for word in argv]
        parser.parse_args(argv)  # an unknown command or option exits 2 here


def test_the_broker_setup_writes_the_files_the_steps_copy(tmp_path: Path) -> None:
    from companion.arbiter.brokerconfig import write_broker_config

    section = _broker_steps()
    setup = write_broker_config(tmp_path / "companion", [1, 2, 3], hosts=["club-laptop.local"])
    named = set(re.findall(r"broker/([\w./-]+\.(?:conf|crt|toml))", section))
    assert {"mosquitto.conf", "ca.crt", "tables/table-3.toml"} <= named
    for name in named | {"passwd", "acl", "ca.key", "tables/arbiter.toml"}:
        assert (setup.folder / name).is_file(), name


# ------------------------------------------------------------------ notation examples


def test_the_notation_examples_read_back_and_show_no_float_noise(tmp_path: Path) -> None:
    from companion.simulate import load
    from companion.tamsk.notation import parse_line

    guide = text(REPO / "docs" / "replay.md")
    example = next(b for b in re.findall(r"```\n(.*?)```", guide, flags=re.S)
                   if b.startswith("; companion notation"))
    seconds = re.findall(r"\((\d+\.\d+)\)", example)
    assert seconds and all(len(s.split(".")[1]) <= 6 for s in seconds), seconds
    path = tmp_path / "example.txt"
    path.write_text(example, encoding="utf-8")
    assert len(load(path).scenario.events) > 6  # read as the game it shows, no line refused
    readme = re.search(r"one move per line: (.+)", text(REPO / "README.md"))
    assert readme is not None
    assert [e["ev"] for e in parse_line(readme.group(1), 1)] == ["release", "ring"]


# ------------------------------------------------------------------ what the docs claim is so

def test_the_readme_names_the_python_the_package_requires() -> None:
    needs = tomllib.loads(text(REPO / "pyproject.toml"))["project"]["requires-python"]
    assert needs == ">=3.11"
    readme = text(REPO / "README.md")
    assert "Python 3.11 or later" in readme and "python3-venv" in readme


def test_the_readme_names_the_terminal_the_desktop_oled_needs() -> None:
    from companion.desktop import terminal_too_small

    found = re.search(r"at least (\d+)×(\d+) characters \((\d+)×(\d+) for the colour panel\)",
                      text(REPO / "README.md"))
    assert found is not None
    columns, lines, colour_columns, colour_lines = map(int, found.groups())
    assert terminal_too_small((128, 64), columns, lines) is None
    assert terminal_too_small((128, 64), columns, lines - 1) is not None
    assert terminal_too_small((128, 128), colour_columns, colour_lines) is None
    assert terminal_too_small((128, 128), colour_columns, colour_lines - 1) is not None


def test_install_md_says_the_real_time_priority_the_unit_sets() -> None:
    unit = text(REPO / "systemd" / "companion.service")
    install = text(REPO / "docs" / "install.md")
    for setting in ("CPUSchedulingPolicy=fifo", "CPUSchedulingPriority=20"):
        assert setting in unit and setting in install
    assert "no realtime priority" not in install


def test_the_menu_button_is_documented_as_it_behaves() -> None:
    hardware = text(REPO / "hardware" / "README.md")
    row = next(line for line in hardware.splitlines() if line.startswith("| `pins.menu`"))
    assert "hold 2 s: end the game" in row and "new game" not in hardware


def test_the_replay_guide_points_at_the_folder_journals_are_written_to() -> None:
    from companion.config import defaults

    folder = str(defaults()["table"]["journal_dir"])
    guide = text(REPO / "docs" / "replay.md")
    shown = re.search(r"companion replay (\S+\.jsonl)", guide)
    assert shown is not None and str(Path(shown[1]).parent) == folder


def test_the_exit_statuses_of_troubleshooting_are_those_of_the_commands() -> None:
    guide = text(REPO / "docs" / "troubleshooting.md")
    statuses = re.findall(r"^\| (\d+) \|", guide, re.MULTILINE)
    assert statuses == ["0", "1", "2", str(cli.INTERRUPTED)]
    assert "exits with status 2;" not in guide


def test_no_doc_calls_tokami_s_d_a_stop() -> None:
    for path in (REPO / "README.md", REPO / "docs" / "tokami.md"):
        assert "`D` stop" not in text(path) and "D resign" in text(path).replace("`", "")
