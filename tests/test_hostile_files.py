"""Hostile files never crash a reader: `companion simulate` and `companion verify`, run as
processes, refuse a line beyond the readers' limits with exit 2 and ``line N: ...``, never a
traceback (companion.lines)."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from companion import lines
from companion.journal import JournalWriter, read_bytes, refused
from companion.scenario import MalformedInput, parse_lines

ROOT = Path(__file__).resolve().parent.parent
HEADER = b'{"game": "tamsk", "level": 3}'
GOOD = b'{"t": 2, "ev": "release", "glass": "r1", "to": "a2"}'

#: name -> (line, where it goes: 1 replaces the header, 2 comes after it)
HOSTILE: dict[str, tuple[bytes, int]] = {
    "400-digit t": (b'{"t": 1' + b"0" * 399 + b', "ev": "end"}', 2),
    "4300-digit int": (b'{"t": 1, "ev": "note", "n": ' + b"9" * 4300 + b"}", 2),
    "1000-deep nesting": (b'{"t": 1, "ev": "note", "x": ' + b"[" * 1000 + b"]" * 1000 + b"}", 2),
    "non-UTF-8 byte": (b'{"t": 1, "ev": "note", "text": "\xff"}', 2),
    "NUL": (b'{"t": 1, "ev": "note",\x00 "text": "x"}', 2),
    "BOM": (b"\xef\xbb\xbf" + HEADER, 1),
    "50 MB line": (b'{"t": 1, "ev": "note", "text": "' + b"a" * (50 << 20) + b'"}', 2),
    "t beyond the sane range": (b'{"t": 1e300, "ev": "end"}', 2),
    "Infinity": (b'{"t": Infinity, "ev": "end"}', 2),
}


def scenario_file(tmp_path: Path, hostile: bytes, where: int) -> Path:
    body = [hostile] if where == 1 else [HEADER, hostile]
    path = tmp_path / "hostile.jsonl"
    path.write_bytes(b"\n".join([*body, GOOD, b""]))
    return path


def journal_file(tmp_path: Path, hostile: bytes, where: int) -> Path:
    path = tmp_path / "journal.jsonl"
    with JournalWriter.create(path, {"game": "tamsk", "level": 3}) as w:
        w.append({"t": 2.0, "ev": "release", "glass": "r1", "to": "a2"})
    data = path.read_bytes().split(b"\n")
    if where == 1:
        data[0] = hostile
    else:
        data.insert(1, hostile)
    path.write_bytes(b"\n".join(data))
    return path


def run(command: str, path: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "companion.cli", command, str(path)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )


@pytest.mark.parametrize("command", ["simulate", "verify"])
@pytest.mark.parametrize("name", list(HOSTILE))
def test_a_hostile_line_is_refused_with_exit_2_and_its_line_number(
    tmp_path: Path, name: str, command: str
) -> None:
    line, where = HOSTILE[name]
    for path in (scenario_file(tmp_path, line, where), journal_file(tmp_path, line, where)):
        done = run(command, path)
        assert "Traceback" not in done.stderr, done.stderr
        assert done.returncode == 2, (name, command, path.name, done.stdout, done.stderr)
        assert re.search(rf"line {where}\b", done.stderr), done.stderr[:500]


def test_the_limits_are_named() -> None:
    for text, limit in (
        ('{"n": ' + "9" * 31 + "}", "30 digits"),
        ('{"x": ' + "[" * 33 + "]" * 33 + "}", "32 levels"),
        ('{"x": 1e999}', "finite"),
        ('{"x": NaN}', "NaN"),
    ):
        with pytest.raises(MalformedInput, match=limit):
            lines.loads(text, 7)


def test_ordinary_lines_are_read_as_before() -> None:
    scenario = parse_lines(['{"game": "tamsk"}', "", "# c", '{"t": 1.5, "ev": "end", "n": -3}'])
    assert scenario.events == [(4, {"t": 1.5, "ev": "end", "n": -3})]


def test_a_journal_reader_collects_a_hostile_line_as_a_problem_and_never_raises() -> None:
    data = b"\n".join([HEADER, HOSTILE["1000-deep nesting"][0], GOOD, b""])
    j = read_bytes(data)  # nothing in it checks itself: every line is damage, none is folded
    bad = refused(j)
    assert bad is not None and bad.line == 2 and not j.events
    assert json.dumps(j.header)
