"""`companion tantrix puzzle discovery N` from typed (or keypad) lines."""

from __future__ import annotations

import io

from companion.puzzle.cli import main, parse_line


def test_a_keypad_line_uses_dots_and_a_star_for_minus() -> None:
    assert parse_line("3.*1.1.1") == ("lay", 3, (-1, 1, 1))
    assert parse_line("-3") == ("lift", 3, None)


def test_discovery_4_is_solved_by_a_red_loop_and_says_so() -> None:
    out = io.StringIO()
    lines = io.StringIO("1 0 0 5\n2 1 0 4\nnonsense\n4 0 1 4\n3 -1 1 1\n")
    assert main(["discovery", "4"], stdin=lines, out=out) == 0
    text = out.getvalue()
    assert "one red loop through tiles 1 to 4" in text
    assert "? not numbers" in text
    assert text.rstrip().endswith("SOLVED: a red loop of 4 tiles")


def test_an_unsolved_layout_exits_1() -> None:
    out = io.StringIO()
    assert main(["discovery", "4"], stdin=io.StringIO("1 0 0 5\n"), out=out) == 1
    assert "1/4 tiles laid" in out.getvalue()
