"""`companion tantrix puzzle discovery N` from typed (or keypad) lines."""

from __future__ import annotations

import io

from hypothesis import given, settings
from hypothesis import strategies as st

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


def test_the_format_is_said_before_the_first_line() -> None:
    out = io.StringIO()
    main(["discovery", "3"], stdin=io.StringIO(""), out=out)
    first = out.getvalue().splitlines()[:3]
    assert first[0] == "Discovery 3: one yellow loop through tiles 1 to 3"
    assert "e.g. 1 b2 0" in first[1] and "row letter" in first[2]


def test_a_cell_is_typed_and_named_as_the_map_names_it() -> None:
    out = io.StringIO()
    main(["discovery", "4"], stdin=io.StringIO("1 b2 5\n2 b3 4\n"), out=out)
    text = out.getvalue()
    assert "2/4 tiles laid: 1 at b2 turned 5, 2 at b3 turned 4" in text
    assert "(0, 0)" not in text and "(1, 0)" not in text
    out = io.StringIO()  # the same spots typed as the engine's axial numbers
    main(["discovery", "4"], stdin=io.StringIO("1 0 0 5\n2 1 0 4\n"), out=out)
    assert "1 at b2 turned 5, 2 at b3 turned 4" in out.getvalue()


def test_a_refusal_names_the_cell_as_the_map_does() -> None:
    out = io.StringIO()
    main(["discovery", "4"], stdin=io.StringIO("1 b2 5\n2 b2 0\n"), out=out)
    assert "? tile 1 already lies at b2" in out.getvalue()


def test_one_missing_tile_is_said_in_the_singular() -> None:
    out = io.StringIO()
    main(["discovery", "3"], stdin=io.StringIO("1 0 0 0\n2 1 0 0\n"), out=out)
    text = out.getvalue()
    assert "missing: tiles 2, 3" in text and "missing: tile 3" in text
    assert "missing: tiles 3" not in text


def test_lifting_a_tile_that_is_not_laid_is_answered() -> None:
    out = io.StringIO()
    assert main(["discovery", "3"], stdin=io.StringIO("-2\n"), out=out) == 1
    assert "? tile 2 is not on the table" in out.getvalue()


@given(st.lists(st.text(max_size=30), max_size=8))
@settings(max_examples=60, deadline=None)
def test_any_typed_line_is_answered_never_raised(lines: list[str]) -> None:
    text = "\n".join(line.replace("\n", " ") for line in lines) + "\n"
    for argv in (["discovery", "4"], ["rainbow", "green"]):
        assert main(argv, stdin=io.StringIO(text), out=io.StringIO()) in (0, 1)
