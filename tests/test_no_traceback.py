"""Every error a message: each ``companion`` subcommand, found by walking the argparse tree, is
run with bad arguments, missing files and devices, garbage input, EOF on stdin and folders it
cannot write to. Whatever it does, it answers in words (exit 0, 1 or 2), never a traceback.

The commands run in this process (fast); a command that waits for something that never comes
fails the test through an alarm instead of hanging the suite.
"""

from __future__ import annotations

import argparse
import io
import signal
import sys
from collections.abc import Iterator
from pathlib import Path
from types import FrameType

import pytest

from companion import cli

SCENARIO = Path(__file__).parent / "scenarios" / "tamsk" / "p01_opening_and_claim.jsonl"

#: Options whose value is a place the command writes to.
OUTPUTS = {"--journal-dir", "--gif", "--png", "--html", "--output", "-o", "--log-dir", "--csv",
           "--trf"}
#: Options with a value a command cannot use (a number out of range, a name that is not one).
NONSENSE = {"--speed": "-3", "--fps": "0", "--frame-ms": "-5", "--port": "70000",
            "--at": "soon", "--window": "-1", "--round": "-2", "--level": "9", "--table": "-1",
            "--host": "256.0.0.1", "--backend": "pi"}


def leaves() -> Iterator[tuple[list[str], argparse.ArgumentParser]]:
    """Every runnable ``companion ...`` command line prefix, with its parser."""

    def walk(p: argparse.ArgumentParser, path: list[str]) -> Iterator[
            tuple[list[str], argparse.ArgumentParser]]:
        subs = [a for a in p._actions if isinstance(a, argparse._SubParsersAction)]
        if not subs or p.get_default("func") is not None:
            yield path, p
        for s in subs:
            for name, child in s.choices.items():
                yield from walk(child, [*path, name])

    yield from walk(cli.build_parser(), [])


LEAVES = {" ".join(path): parser for path, parser in leaves()}


def _positionals(p: argparse.ArgumentParser) -> list[argparse.Action]:
    return [a for a in p._actions if not a.option_strings and a.nargs != argparse.PARSER]


def _options(p: argparse.ArgumentParser) -> list[argparse.Action]:
    return [a for a in p._actions if a.option_strings and a.nargs != 0
            and not isinstance(a, argparse._HelpAction | argparse._VersionAction)]


def _required(p: argparse.ArgumentParser) -> list[str]:
    """Values for the options a command cannot run without (``dispute --at``)."""
    out: list[str] = []
    for a in _options(p):
        if a.required:
            out += [a.option_strings[0], str(next(iter(a.choices))) if a.choices else "1"]
    return out


def _command_line(path: list[str], p: argparse.ArgumentParser, positional: str,
                  options: dict[str, str]) -> list[str]:
    argv = list(path)
    for a in _positionals(p):
        if a.choices:
            argv.append(next(iter(a.choices)))
        elif a.nargs == argparse.REMAINDER:
            argv += ["discovery", "3", positional]
        else:
            argv.append(positional)
    for a in _options(p):
        for flag in a.option_strings:
            if flag in options:
                argv += [flag, options[flag]]
                break
    return argv + _required(p)


@pytest.fixture
def places(tmp_path: Path) -> dict[str, str]:
    afile = tmp_path / "afile"
    afile.write_text("not a folder\n")
    garbage = tmp_path / "garbage.jsonl"
    garbage.write_bytes(b"\x00\xff{not json\n\x89PNG\r\n")
    empty = tmp_path / "empty.jsonl"
    empty.write_bytes(b"")
    bad_config = tmp_path / "bad.toml"
    bad_config.write_text('[display]\ndriver = "foo"\n[pins]\nmenu = 17\n')
    good_config = tmp_path / "good.toml"
    good_config.write_text(f'[table]\nbackend = "mock"\njournal_dir = "{tmp_path / "afile"}"\n'
                           '[arbiter]\nclub_key = "0123456789abcdef0123"\n'
                           '[mqtt]\nhost = "127.0.0.1"\nport = 1\n')
    return {"missing": str(tmp_path / "missing.jsonl"), "folder": str(tmp_path),
            "garbage": str(garbage), "empty": str(empty), "unwritable": str(afile / "sub"),
            "scenario": str(SCENARIO), "bad_config": str(bad_config),
            "good_config": str(good_config)}


def cases(p: argparse.ArgumentParser, places: dict[str, str]) -> dict[str, tuple[str, dict[
        str, str]]]:
    """name -> (the positional file, option values) for one command."""
    outputs = {flag: places["unwritable"] for a in _options(p) for flag in a.option_strings
               if flag in OUTPUTS}
    good = {"--config": places["good_config"]}
    return {
        "missing file": (places["missing"], good),
        "a folder for a file": (places["folder"], good),
        "garbage file": (places["garbage"], good),
        "empty file, EOF": (places["empty"], good),
        "missing config": (places["scenario"], {"--config": places["missing"]}),
        "bad config": (places["scenario"], {"--config": places["bad_config"]}),
        "unwritable folders": (places["scenario"], {**good, **outputs}),
        "nonsense values, missing devices": (places["scenario"], {**good, **NONSENSE}),
    }


class Blocked(Exception):
    """The command waited for something that never came."""


def _alarm(signum: int, frame: FrameType | None) -> None:
    raise Blocked


def run(argv: list[str], capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> tuple[int, str]:
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    monkeypatch.setenv("COMPANION_NO_TTY", "1")
    old = signal.signal(signal.SIGALRM, _alarm)
    signal.alarm(20)
    try:
        rc = cli.main(argv)
    except SystemExit as exc:
        rc = exc.code if isinstance(exc.code, int) else 2
    except Blocked:
        pytest.fail(f"companion {' '.join(argv)} waited on EOF stdin / bad input")
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)
    out, err = capsys.readouterr()
    return rc, out + err


@pytest.mark.parametrize("command", sorted(LEAVES))
def test_every_command_answers_bad_input_in_words(
        command: str, places: dict[str, str], capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.chdir(tmp_path)
    parser = LEAVES[command]
    for name, (positional, options) in cases(parser, places).items():
        argv = _command_line(command.split(), parser, positional, options)
        bad = {positional, *options.values()} - {places["scenario"], places["good_config"]}
        if not bad & set(argv):
            continue  # nothing wrong in this command line: a server would rightly serve on
        try:
            rc, text = run(argv, capsys, monkeypatch)
        except Exception as exc:  # noqa: BLE001 - the test is about exactly this
            pytest.fail(f"{name}: companion {' '.join(argv)} raised {exc!r}")
        assert "Traceback" not in text, f"{name}: companion {' '.join(argv)}\n{text}"
        assert rc in (0, 1, 2), f"{name}: companion {' '.join(argv)} exited {rc}\n{text}"
        if rc == 2:
            assert text.strip(), f"{name}: companion {' '.join(argv)} failed silently"


def test_an_unknown_option_is_refused_by_every_command(
        places: dict[str, str], capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    for command, parser in sorted(LEAVES.items()):
        argv = _command_line(command.split(), parser, places["scenario"], {})
        if parser._subparsers is not None and not _positionals(parser):
            argv = command.split()
        rc, text = run([*argv, "--no-such-option"], capsys, monkeypatch)
        assert rc == 2 and "--no-such-option" in text, command


@pytest.mark.parametrize("argv", [["arbiter", "hash-pin"], ["tantrix", "puzzle", "discovery", "3"],
                                  ["run", "--backend", "mock", "--pins-from-stdin"]])
def test_end_of_input_on_stdin_is_an_answer(
        argv: list[str], places: dict[str, str], capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.chdir(tmp_path)
    if argv[0] == "run":
        argv = [*argv, "--config", places["good_config"], "--journal-dir", str(tmp_path)]
    rc, text = run(argv, capsys, monkeypatch)
    assert "Traceback" not in text, text
    assert rc in (0, 1, 2) if argv[0] == "run" else rc in (1, 2), text


def test_hash_pin_on_end_of_input_says_no_pin(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    rc, text = run(["arbiter", "hash-pin"], capsys, monkeypatch)
    assert rc == 2 and "no PIN given" in text


def test_hash_pin_reads_one_pin_from_a_pipe(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO("1234\n"))
    assert cli.main(["arbiter", "hash-pin"]) == 0
    assert "pin_hash = \"scrypt$" in capsys.readouterr().out


def test_calibrate_without_i2c_names_the_bus(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
        tmp_path: Path) -> None:
    if Path("/dev/i2c-1").exists():
        pytest.skip("this machine has an I2C bus 1")
    (tmp_path / "c.toml").write_text("")
    rc, text = run(["calibrate", "--backend", "pi", "--config", str(tmp_path / "c.toml")],
                   capsys, monkeypatch)
    assert rc == 2 and len(text.strip().splitlines()) == 1
    assert "I2C bus 1" in text and "--backend mock" in text

