"""`companion tantrix puzzle rainbow COLOUR [FILE]` and `companion tantrix play ...`: the
one-command ways to try the new modes."""

from __future__ import annotations

import io
from pathlib import Path

from tantrix_pyramid import find_line

from companion.clock import FakeClock
from companion.puzzle.cli import main, rainbow_config
from companion.tables import make_table, start_configured_game
from companion.tantrix.solo import Rainbow, rainbow_tiles


def _blue_lines() -> list[str]:
    found = find_line(rainbow_tiles("blue"), 4, "B")
    placed: list[tuple[int, int]] = []
    lines = []
    left = sorted(found.items())
    while left:
        (q, r), (t, rot) = next(
            item for item in left
            if not placed or any(abs(item[0][0] - a) + abs(item[0][1] - b)
                                 + abs(item[0][0] + item[0][1] - a - b) == 2 for a, b in placed)
        )
        left.remove(((q, r), (t, rot)))
        placed.append((q, r))
        lines.append(f"{t} {q} {r} {rot}")
    return lines


def test_rainbow_from_a_file_says_solved(tmp_path: Path) -> None:
    path = tmp_path / "blue.txt"
    path.write_text("\n".join(_blue_lines()) + "\n")
    out = io.StringIO()
    assert main(["rainbow", "blue", str(path)], out=out) == 0
    assert out.getvalue().rstrip().endswith("SOLVED (blue)")


def test_rainbow_not_solved_exits_1_and_names_the_problem() -> None:
    out = io.StringIO()
    lines = io.StringIO("\n".join(_blue_lines()[:4]) + "\n1 5 5 0\n")
    assert main(["rainbow", "blue"], stdin=lines, out=out) == 1
    assert "not in this puzzle" in out.getvalue()


def test_rainbow_needs_a_puzzle_colour() -> None:
    out = io.StringIO()
    assert main(["rainbow", "purple"], out=out) == 2


def test_the_rainbow_table_config_starts_the_puzzle(tmp_path: Path) -> None:
    config = rainbow_config("red")
    table = make_table(config, FakeClock(), tmp_path)
    try:
        start_configured_game(table, config)
        game = table.solo  # type: ignore[attr-defined]
        assert isinstance(game, Rainbow) and game.puzzle == "red" and game.size == 15
    finally:
        table.close()


def test_tantrix_play_reads_hands_and_refuses_bad_seats() -> None:
    from companion.puzzle.cli import play_strategy

    out = io.StringIO()
    assert play_strategy(["--hands", "red", "purple"], out) == 2
    assert "purple" in out.getvalue() and "unknown option" not in out.getvalue()
    out = io.StringIO()
    assert play_strategy(["gobble", "Ada"], out) == 2  # a race needs 2 to 6
