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
from typing import TextIO

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


#: Values a typed argument may take (a table's number, a puzzle's size, a colour, a name): the
#: first its type accepts is given, so the command gets past it to its files and prompts.
TYPED = ("3", "1", "red", "Ada")


def _typed_value(a: argparse.Action) -> str | None:
    """A value ``a``'s type accepts, or None when ``a`` takes any text (a file, a name)."""
    if a.type is None or a.type is str:
        return None
    for value in TYPED:
        try:
            a.type(value)  # type: ignore[misc,operator]
        except (argparse.ArgumentTypeError, TypeError, ValueError):
            continue
        return value
    return None


def _command_line(path: list[str], p: argparse.ArgumentParser, positional: str,
                  options: dict[str, str]) -> list[str]:
    argv = list(path)
    for a in _positionals(p):
        typed = _typed_value(a)
        if a.choices:
            argv.append(next(iter(a.choices)))
        elif typed is not None:
            argv.append(typed)
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
        "binary file": (places["garbage"], good),
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
        monkeypatch: pytest.MonkeyPatch, stdin: TextIO | None = None) -> tuple[int, str]:
    monkeypatch.setattr(sys, "stdin", stdin or io.StringIO(""))
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



# ------------------------------------------------------------------ Ctrl-C and end of input

#: Ctrl-C's exit status (128 + SIGINT), beside 0, 1 and 2 (see docs/troubleshooting.md).
INTERRUPTED = 130


class CtrlC(io.StringIO):
    """A terminal where the player presses Ctrl-C instead of answering: every read raises
    KeyboardInterrupt, as Python's SIGINT handler does in a blocked read."""

    def read(self, size: int | None = -1) -> str:
        raise KeyboardInterrupt

    def readline(self, size: int | None = -1) -> str:
        raise KeyboardInterrupt

    def __next__(self) -> str:
        raise KeyboardInterrupt


def _key_line(folder: Path) -> str:
    """A table's public key line, of a key made for the purpose."""
    import tempfile

    from companion.keys import SigningKey

    made = Path(tempfile.mkdtemp(dir=folder)) / "table.key"
    return SigningKey.create(made).public.line()


#: Positionals given good values, so that a command gets as far as it goes (its prompt, its
#: screen, its server) before the input ends or Ctrl-C comes.
def _good_values(folder: Path) -> dict[str, list[str]]:
    return {"key": [_key_line(folder)], "players": ["Ada", "Ben"], "colours": ["red", "yellow"],
            "names": [], "pin": [], "dir": [str(folder / "new")], "files": [str(SCENARIO)]}


def good_command_line(command: str, folder: Path, config: str) -> list[str]:
    """``companion COMMAND ...`` with every argument usable: a scenario for a file, the good
    config, typed values, a free port and a new folder where a command serves or writes."""
    parser = LEAVES[command]
    values = _good_values(folder)
    argv = command.split()
    for a in _positionals(parser):
        typed = _typed_value(a)
        if a.nargs == "?":
            continue  # its default: a puzzle's lines typed at the terminal, say
        if a.dest in values:
            argv += values[a.dest]
        elif a.choices:
            argv.append(next(iter(a.choices)))
        elif typed is not None:
            argv.append(typed)
        else:
            argv.append(str(SCENARIO))
    flags = {flag for a in _options(parser) for flag in a.option_strings}
    if "--config" in flags:
        argv += ["--config", config]
    if "--port" in flags:
        argv += ["--port", str(_free_port())]
    for flag in OUTPUTS & flags:
        argv += [flag, str(folder / f"out{flag}")]
    return argv + _required(parser)


def _free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.mark.parametrize("command", sorted(LEAVES))
def test_ctrl_c_at_any_prompt_is_answered_in_one_line(
        command: str, places: dict[str, str], capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("HOME", str(tmp_path))
    argv = good_command_line(command, tmp_path, places["good_config"])
    if LEAVES[command].get_default("func") is None or _serves(command):
        pytest.skip("nothing to answer: it lists its commands, or it serves until stopped "
                    "(stopped by a real Ctrl-C below)")
    rc, text = run(argv, capsys, monkeypatch, stdin=CtrlC())
    assert "Traceback" not in text, f"companion {' '.join(argv)}\n{text}"
    assert rc in (0, 1, 2, INTERRUPTED), f"companion {' '.join(argv)} exited {rc}\n{text}"
    if rc == INTERRUPTED:
        said = [line for line in text.splitlines() if "Ctrl-C" in line]
        assert len(said) == 1, text


def _serves(command: str) -> bool:
    """Commands that run until they are stopped (a server, the daemon, the evening demo)."""
    return command in ("arbiter", "arbiter serve", "run", "tournament demo", "demo", "calibrate")


def test_end_of_input_at_the_enrolment_question_enrols_nothing(
        places: dict[str, str], capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.chdir(tmp_path)
    keyring = tmp_path / "keyring.json"
    argv = ["arbiter", "enroll", "3", _key_line(tmp_path), "--keyring", str(keyring)]
    rc, text = run(argv, capsys, monkeypatch)
    assert rc == 2 and "no answer (end of input): not enrolled" in text
    assert not keyring.exists()
    rc, text = run(argv, capsys, monkeypatch, stdin=CtrlC())
    assert rc == INTERRUPTED and "no answer (Ctrl-C): not enrolled" in text


def test_a_table_number_that_is_not_one_is_refused(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
        tmp_path: Path) -> None:
    for number in ("abc", "0", "-1"):
        rc, text = run(["arbiter", "enroll", number, _key_line(tmp_path)], capsys, monkeypatch)
        assert rc == 2 and "a table's number is 1 or more" in text
        rc, text = run(["new-game", "--table", number], capsys, monkeypatch)
        assert rc == 2 and "a table's number is 1 or more" in text


@pytest.mark.parametrize(("argv", "said"), [
    (["dispute", str(SCENARIO), "--at", "3", "--window", "-5"], "a number above 0"),
    (["replay", str(SCENARIO), "--frame-ms", "-1"], "milliseconds per move is 1 or more"),
    (["tantrix", "puzzle", "discovery", "99"], "N is a number of tiles, 3 to 30"),
    (["tokami", "play", "Ada", "Ada"], "two players have the same name"),
    (["tantrix", "gobble", "Ada", "Ada"], "each player of a race has his own name"),
    (["demo", "--window"], "use it with --interactive"),
])
def test_an_argument_that_makes_no_sense_is_refused_with_a_sentence(
        argv: list[str], said: str, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    rc, text = run(argv, capsys, monkeypatch)
    assert rc == 2 and said in text


def test_new_game_refuses_two_players_of_one_name(
        places: dict[str, str], capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    folder = tmp_path / "journals"
    for game in ("tamsk", "tokami"):
        rc, text = run(["new-game", "--as-root", "--game", game, "--players", "Ada,Ada",
                        "--journal-dir", str(folder), "--config", places["good_config"]],
                       capsys, monkeypatch)
        assert rc == 2 and ("same name" in text or "not both 'Ada'" in text), text
    assert not list(folder.glob("*.jsonl"))


def test_a_missing_key_file_is_called_missing(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
        tmp_path: Path) -> None:
    rc, text = run(["verify", str(SCENARIO), "--key", str(tmp_path / "table.pub")], capsys,
                   monkeypatch)
    assert rc == 2 and "table.pub: no such file" in text and "base64" not in text


def test_a_missing_file_is_named_once(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
        tmp_path: Path) -> None:
    missing = str(tmp_path / "gone.jsonl")
    for command in ("simulate", "replay", "notation"):
        rc, text = run([command, missing], capsys, monkeypatch)
        assert rc == 2 and text.count(missing) == 1, text


# ------------------------------------------------------------------ a real terminal

def _state(pid: int) -> str | None:
    """The process's scheduling state (``S``: asleep, waiting for input or a timer)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return None


def _in_a_terminal(argv: list[str], folder: Path, press: bytes | None) -> tuple[int, str]:
    """Run ``companion ARGV`` in a pseudo-terminal, as a player at a keyboard does; once it
    waits (asleep a while) or has run a few seconds, press Ctrl-C (``press`` None: SIGINT to
    its process group, as the terminal sends it) or type ``press``; its exit status and all it
    wrote."""
    import os
    import pty
    import select
    import subprocess
    import time

    master, slave = pty.openpty()
    env = {**os.environ, "HOME": str(folder), "LANGUAGE": "en", "COLUMNS": "140",
           "LINES": "40", "PYTHONUNBUFFERED": "1"}
    proc = subprocess.Popen([sys.executable, "-m", "companion", *argv], stdin=slave,
                            stdout=slave, stderr=subprocess.PIPE, cwd=folder, env=env,
                            start_new_session=True)
    os.close(slave)
    out = bytearray()

    def drain(wait: float) -> bool:
        ready, _, _ = select.select([master], [], [], wait)
        if ready:
            try:
                out.extend(os.read(master, 65536))
            except OSError:
                return False
        return bool(ready)

    started, asleep = time.monotonic(), 0
    while proc.poll() is None and time.monotonic() - started < 8.0:
        asleep = asleep + 1 if not drain(0.1) and _state(proc.pid) == "S" else 0
        if asleep >= 5:  # half a second asleep: waiting for the player
            break
    if proc.poll() is None:
        if press is None:
            os.killpg(proc.pid, signal.SIGINT)
        else:
            os.write(master, press)
    try:
        _, err = proc.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate()
        os.close(master)
        pytest.fail(f"companion {' '.join(argv)} did not stop")
    while drain(0.05):
        pass
    os.close(master)
    return proc.returncode, out.decode(errors="replace") + err.decode(errors="replace")


needs_a_terminal = pytest.mark.skipif(not Path("/proc/self/stat").exists(),
                                      reason="reads the process state from /proc (Linux)")


def _every_command_in_a_terminal(places: dict[str, str], folder: Path, press: bytes | None,
                                 commands: list[str]) -> list[str]:
    """Each command run in its own terminal (a few at once: most of the time each waits),
    ``press`` given; what went wrong, one entry per command."""
    from concurrent.futures import ThreadPoolExecutor

    def one(command: str) -> str | None:
        home = folder / command.replace(" ", "_")
        home.mkdir()
        argv = good_command_line(command, home, places["good_config"])
        rc, text = _in_a_terminal(argv, home, press)
        if "Traceback" in text or rc not in (0, 1, 2, INTERRUPTED):
            return f"companion {' '.join(argv)} exited {rc}:\n{text[-3000:]}"
        if rc == INTERRUPTED and sum("Ctrl-C" in line for line in text.splitlines()) != 1:
            return f"companion {' '.join(argv)}: Ctrl-C not said in one line:\n{text[-3000:]}"
        return None

    with ThreadPoolExecutor(max_workers=6) as pool:
        return [found for found in pool.map(one, commands) if found is not None]


@needs_a_terminal
def test_ctrl_c_in_a_terminal_stops_every_command_in_one_line(
        places: dict[str, str], tmp_path: Path) -> None:
    """Every command (servers, the daemon and the demos too), started as a player starts it
    and stopped with Ctrl-C once it waits (or has run a few seconds): exit 0, 1, 2 or 130, at
    most one line saying so, never a traceback."""
    wrong = _every_command_in_a_terminal(places, tmp_path, None, sorted(LEAVES))
    assert not wrong, "\n\n".join(wrong)


@needs_a_terminal
def test_end_of_input_in_a_terminal_ends_every_command_in_words(
        places: dict[str, str], tmp_path: Path) -> None:
    """Ctrl-D (the end of input) typed to every command that reads the terminal (a server,
    the daemon and the demos do not: Ctrl-C stops them, above)."""
    commands = [c for c in sorted(LEAVES) if not _serves(c)]
    wrong = _every_command_in_a_terminal(places, tmp_path, b"\x04", commands)
    assert not wrong, "\n\n".join(wrong)


# ------------------------------------------------------------------ help

def _every_parser() -> Iterator[list[str]]:
    def walk(p: argparse.ArgumentParser, path: list[str]) -> Iterator[list[str]]:
        yield path
        for a in p._actions:
            if isinstance(a, argparse._SubParsersAction):
                for name, child in a.choices.items():
                    yield from walk(child, [*path, name])

    yield from walk(cli.build_parser(), [])


@pytest.mark.parametrize("path", [" ".join(p) for p in _every_parser()])
def test_help_is_there_at_every_level(path: str, capsys: pytest.CaptureFixture[str],
                                      monkeypatch: pytest.MonkeyPatch) -> None:
    rc, text = run([*path.split(), "--help"], capsys, monkeypatch)
    assert rc == 0 and text.startswith(f"usage: companion {path}".rstrip()), text


def test_the_main_help_names_every_way_to_play(capsys: pytest.CaptureFixture[str],
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    rc, text = run(["--help"], capsys, monkeypatch)
    for word in ("tantrix", "rainbow", "solitaire", "gobble", "tokami", "demo"):
        assert word in text, word


def test_tokami_is_started_from_the_command_line_like_the_others(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    from companion.tokami.cli import play_config

    config = play_config(["Ada", "Ben"], 2)
    assert config["game"]["kind"] == "tokami"
    assert config["tokami"]["players"] == ["Ada", "Ben"] and config["tokami"]["rounds"] == 2
    rc, text = run(["tokami", "play", "Ada"], capsys, monkeypatch)
    assert rc == 2 and "2 to 5 players" in text
    rc, text = run(["tokami", "play", "Ada", "Ben"], capsys, monkeypatch)  # a pipe, no terminal
    assert rc == 2 and "needs a terminal" in text


@pytest.mark.skipif(Path("/dev/gpiochip0").exists(), reason="this machine has GPIO")
@pytest.mark.parametrize("backend", ["pi", "hub"])
def test_no_gpio_is_said_in_one_line_without_gpiozero_s_warnings(
        backend: str, places: dict[str, str], tmp_path: Path) -> None:
    import subprocess

    done = subprocess.run(
        [sys.executable, "-m", "companion", "run", "--backend", backend, "--config",
         places["good_config"], "--journal-dir", str(tmp_path)],
        capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL)
    said = [line for line in done.stderr.splitlines() if not line.startswith("INFO ")]
    assert done.returncode == 2 and len(said) == 1, done.stderr
    assert "no GPIO on this machine" in said[0] and "Warning" not in done.stderr
    if backend == "hub":
        assert "the buzzer is on the Pi's GPIO" in said[0]
