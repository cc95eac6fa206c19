"""Gobble solo's opening at the keypad table, as the French rule book's rule 1 says: "Mettre
les 56 tuiles dans le sac et en piocher 2 au hasard avant de les placer ensemble sur la table
en faisant correspondre leurs couleurs". The screen asks for the second tile's number after the
first, then offers the two for laying; undo takes the opening back step by step; and a game
laid from this opening is played to the end on the keypad, SOLVED on the screen and in
``companion simulate``'s replay of the journal."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.simulate import simulate_file
from companion.tantrix.game import Placement
from companion.tantrix.solo import GobbleSolo
from tests.tables.driving import Seat, lay_solo, play_solo_events, seat

SCENARIOS = Path(__file__).resolve().parent.parent / "scenarios" / "tantrix"
#: A whole Gobble game opened as the book says, with gobbles, discards and returns.
BOOK_GAME = SCENARIOS / "g37_gobble_solved.jsonl"


@pytest.fixture
def s(tmp_path: Path) -> Iterator[Seat]:
    one = seat("tantrix", tmp_path)
    yield one
    one.table.close()


def _events(path: Path) -> list[dict[str, object]]:
    lines = [ln for ln in path.read_text(encoding="utf-8").splitlines() if ln.startswith("{")]
    return [json.loads(ln) for ln in lines[1:]]


def _journaled(s: Seat) -> list[str]:
    return [str(e.get("ev")) for e in s.journal_lines() if e.get("ev")]


def test_the_screen_asks_for_the_second_tile_after_the_first(s: Seat) -> None:
    s.table.start_solo("gobble")
    assert s.view["entry"]["prompt"].startswith("1st tile no.?")
    s.press("55#")
    view = s.view
    assert view["held"] == [55] and view["placed"] == 0 and view["bag"] == 55
    assert view["entry"]["mode"] == "tile" and view["entry"]["prompt"].startswith("55 + 2nd tile?")
    assert s.table.error is None
    s.press("25#")
    view = s.view
    assert view["held"] == [55, 25] and view["bag"] == 54
    assert view["entry"]["mode"] == "place" and view["entry"]["tile"] == 55
    assert _journaled(s)[-2:] == ["draw", "draw"]


def test_the_two_opening_tiles_are_laid_together_matching(s: Seat) -> None:
    s.table.start_solo("gobble")
    s.press("55#25#")
    lay_solo(s, Placement(55, 0, 0, 1), type_number=False)
    assert s.view["held"] == [25]
    assert s.view["entry"]["prompt"].endswith("tile 25 drawn: # to lay it")
    s.press("#")  # tile 25 offered: only beside tile 55, matching it
    entry = s.view["entry"]
    assert entry["tile"] == 25 and entry["mode"] == "place"
    offered = set()
    for _ in range(entry["spot_count"]):
        offered.add(tuple(s.view["entry"]["spot"]))
        s.press("A")
    twin = GobbleSolo()
    twin.draw(55)
    twin.draw(25)
    twin.place(Placement(55, 0, 0, 1))
    assert offered == {p.cell for p in twin.table.spots(25)}
    assert all(abs(q) + abs(r) + abs(q + r) == 2 for q, r in offered)  # all touch tile 55
    lay_solo(s, Placement(25, 0, 1, 4), type_number=False)
    out = simulate_file(s.journal)
    assert out["violations"] == [] and out["placed"] == 2 and out["held"] == []
    assert _journaled(s)[-4:] == ["draw", "draw", "place", "place"]


def test_either_opening_tile_may_go_down_first(s: Seat) -> None:
    s.table.start_solo("gobble")
    s.press("55#25#*")  # tile 55 offered; back to the table page
    assert s.view["entry"]["prompt"].endswith("55+25 drawn: # to lay")
    lay_solo(s, Placement(25, 0, 0, 4))  # its number typed: tile 25 offered instead
    lay_solo(s, Placement(55, 0, -1, 1))
    out = simulate_file(s.journal)
    assert out["violations"] == [] and out["placed"] == 2


def test_a_third_tile_is_not_drawn_before_the_opening_pair_is_laid(s: Seat) -> None:
    s.table.start_solo("gobble")
    s.press("55#25#")
    lay_solo(s, Placement(55, 0, 0, 1), type_number=False)
    s.press("49#")  # tile 25 still waits: typing a number offers it, nothing is drawn
    assert s.view["entry"]["tile"] == 25 and s.view["bag"] == 54
    assert _journaled(s).count("draw") == 2


def test_undo_takes_back_the_opening_step_by_step(s: Seat) -> None:
    s.table.start_solo("gobble")
    s.press("55#25#")
    lay_solo(s, Placement(55, 0, 0, 1), type_number=False)
    s.press("#")
    lay_solo(s, Placement(25, 0, 1, 4), type_number=False)
    seen = []
    for _ in range(4):
        s.press("D5")  # Gobble menu: 5 undo
        assert s.table.error is None
        seen.append((s.view["placed"], s.view["held"]))
    assert seen == [(1, [25]), (0, [55, 25]), (0, [55]), (0, [])]
    assert s.view["entry"]["prompt"].endswith("1st tile no.? _ #")
    out = simulate_file(s.journal)
    assert out["violations"] == [] and out["bag"] == 56


def test_a_gobble_laid_from_the_books_opening_is_solved_on_the_desktop_keypad(s: Seat) -> None:
    events = _events(BOOK_GAME)
    assert [e["ev"] for e in events[:4]] == ["draw", "draw", "place", "place"]
    assert {"discard", "return"} <= {str(e["ev"]) for e in events}
    s.table.start_solo("gobble")
    play_solo_events(s, events)
    view = s.view
    assert s.table.error is None
    assert view["solved"] and view["placed"] == 56 and view["discard"] == []
    assert view["gobbles"] == 6 and "SOLVED" in view["lines"]
    out = simulate_file(s.journal)
    assert out["violations"] == [] and out["solved"] is True and out["gobbles"] == 6
    journaled = [e for e in s.journal_lines() if e.get("ev")]
    assert [e["ev"] for e in journaled[:4]] == ["draw", "draw", "place", "place"]
