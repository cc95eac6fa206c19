"""The solo modes at the table, key by key: Solitaire, Rainbow and Gobble journaled, replayed
by ``companion simulate`` to the same state, with the rule book's refusals on the screen."""

from __future__ import annotations

import random
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.simulate import simulate_file
from companion.tantrix.game import Placement
from companion.tantrix.solo import rainbow_tiles
from tests.tables.driving import Seat, lay_solo, play_solo_events, seat

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tantrix"))
from solo_play import random_gobble, random_solitaire  # noqa: E402
from tantrix_pyramid import find_line  # noqa: E402


@pytest.fixture
def s(tmp_path: Path) -> Iterator[Seat]:
    one = seat("tantrix", tmp_path)
    yield one
    one.table.close()


def test_a_whole_solitaire_typed_on_the_keypad_replays_to_the_same_state(s: Seat) -> None:
    game, events = random_solitaire(random.Random(4))
    s.table.start_solo("solitaire", target="line")
    play_solo_events(s, events)
    out = simulate_file(s.journal)
    assert out["violations"] == [] and out["placed"] == 56
    assert out["red_line"] == game.red()["red_line"]
    assert s.view["lines"][0].startswith("red line")


def test_solitaire_offers_only_the_forced_spaces_the_tile_fills(s: Seat) -> None:
    s.table.start_solo("solitaire")
    for seed in range(200):
        game, events = random_solitaire(random.Random(seed), stop_after=20)
        # find the first draw whose tile had to fill a forced space
        from companion.tantrix.solo import Solitaire, apply_event

        twin = Solitaire()
        for i, e in enumerate(events):
            apply_event(twin, e)
            if e["ev"] == "draw" and twin.fills():
                s.table.start_solo("solitaire")
                play_solo_events(s, events[: i + 1])
                offered = set()
                for _ in range(s.view["entry"]["spot_count"]):
                    offered.add(tuple(s.view["entry"]["spot"]))
                    s.press("A")
                assert offered == set(twin.fills())
                return
    raise AssertionError("no forced fill in 200 games")


def test_a_rainbow_puzzle_laid_on_the_keypad_is_solved(s: Seat) -> None:
    found = find_line(rainbow_tiles("blue"), 4, "B")
    layout = [Placement(t, q, r, rot) for (q, r), (t, rot) in found.items()]
    s.table.start_solo("rainbow", puzzle="blue")
    left = list(layout)
    laid: list[Placement] = []
    while left:
        p = next(p for p in left if not laid or any(
            abs(p.q - o.q) + abs(p.r - o.r) + abs(p.q + p.r - o.q - o.r) == 2 for o in laid))
        lay_solo(s, p)
        left.remove(p)
        laid.append(p)
    assert s.view["solved"] and "SOLVED" in s.view["lines"]
    s.press(f"D1{layout[0].tile}#")  # lift a tile: no longer solved
    assert not s.view["solved"]
    out = simulate_file(s.journal)
    assert out["solved"] is False and out["placed"] == 9 and out["violations"] == []


def test_rainbow_a_tile_of_another_back_is_refused_on_the_screen(s: Seat) -> None:
    s.table.start_solo("rainbow", puzzle="green")
    s.press("1#")
    assert s.table.error is not None and "not in this puzzle" in s.table.error


def test_rainbow_next_puzzle_opens_a_new_journal(s: Seat) -> None:
    s.table.start_solo("rainbow", puzzle="green")
    first = s.journal
    s.press("D3")
    assert s.view["puzzle"] == "yellow" and s.journal != first


def test_a_whole_gobble_typed_on_the_keypad_replays_to_the_same_state(s: Seat) -> None:
    game, events = random_gobble(random.Random(1))
    s.table.start_solo("gobble")
    play_solo_events(s, events)
    out = simulate_file(s.journal)
    assert out["violations"] == [] and out["discard"] == game.discard
    assert out["gobbles"] == game.gobbles and out["solved"] == game.solved


def test_gobble_discarding_a_tile_that_fits_is_refused_with_a_spot(s: Seat) -> None:
    s.table.start_solo("gobble")
    s.press("1#2#")  # the opening's two tiles drawn; tile 1 offered
    s.press("#")  # laid in the middle
    s.press("#*")  # tile 2 offered beside it, back to the table page
    s.press("D1")
    assert s.table.error is not None and s.table.error.startswith("the tile fits")


def test_a_solo_journal_resumes(s: Seat, tmp_path: Path) -> None:
    s.table.start_solo("solitaire")
    s.press("12##")
    path = s.journal
    s.table.close()
    other = seat("tantrix", tmp_path)
    try:
        other.table.resume(path)
        assert other.view["placed"] == 1 and other.view["mode"] == "solitaire"
    finally:
        other.table.close()


def test_the_gobble_race_on_the_keypad_ranks_the_finishers(s: Seat) -> None:
    s.table.start_solo("gobble", players=["Ada", "Ben", "Chloé"])
    s.clock.advance(61)
    s.press("21")  # Ben gives Ada a tile
    s.press("2#")  # Ben finished
    s.press("3#")  # Chloé finished
    view = s.view
    assert view["ranking"] == ["Ben", "Chloé", "Ada"] and view["over"]
    assert view["gobbles"]["Ben"] == 1 and view["clock"] > 60
    out = simulate_file(s.journal)
    assert out["ranking"] == ["Ben", "Chloé", "Ada"] and out["violations"] == []


def test_the_race_clock_wakes_the_table_every_second(s: Seat) -> None:
    s.table.start_solo("gobble", players=["Ada", "Ben"])
    s.clock.advance(0.4)
    due = s.table.next_wakeup()
    assert due is not None and 0.0 < due - s.clock.now() <= 0.6 + 1e-9
    s.press("1#")
    s.press("2#")
    assert s.table.next_wakeup() is None or s.table.error is not None


def _journal_events(s: Seat) -> list[str]:
    import json

    lines = s.journal.read_text(encoding="utf-8").splitlines()
    return [json.loads(ln).get("ev", "") for ln in lines if ln.strip()]


def test_solitaire_undo_takes_back_a_mistyped_draw(s: Seat) -> None:
    s.table.start_solo("solitaire")
    s.press("12#*")  # tile 12 typed by mistake: drawn, back to the table page
    s.press("D2")  # menu: undo
    assert s.table.error is None and s.view["drawn"] is None
    s.press("21#")  # the tile really turned over
    out = simulate_file(s.journal)
    assert out["violations"] == [] and out["drawn"] == 21 and out["bag"] == 55
    assert "undo" in _journal_events(s)


def test_solitaire_undo_lifts_a_tile_laid_on_the_wrong_spot(s: Seat) -> None:
    s.table.start_solo("solitaire")
    s.press("12##")  # laid at once
    s.press("21##")  # laid on the first spot offered, say the wrong one
    s.press("D2")
    assert s.view["placed"] == 1 and s.view["drawn"] == 21  # lifted, still the drawn tile
    s.press("#")  # offered again
    assert s.view["entry"]["mode"] == "place" and s.view["entry"]["tile"] == 21
    s.press("A#")  # the next spot
    out = simulate_file(s.journal)
    assert out["violations"] == [] and out["placed"] == 2 and out["drawn"] is None


def test_undo_with_nothing_to_take_back_is_refused_on_the_screen(s: Seat) -> None:
    s.table.start_solo("gobble")
    s.press("D5")  # Gobble menu: 5 undo
    assert s.table.error is not None
    out = simulate_file(s.journal)
    assert [v["kind"] for v in out["violations"]] == ["nothing to undo"]


def test_gobble_undo_takes_back_a_discard(s: Seat) -> None:
    game, events = random_gobble(random.Random(1))
    at = next(i for i, e in enumerate(events) if e["ev"] == "discard")
    s.table.start_solo("gobble")
    play_solo_events(s, events[: at + 1])
    assert len(s.view["discard"]) == 1
    s.press("D5")
    assert s.view["discard"] == [] and s.view["drawn"] == events[at - 1]["tile"]
    out = simulate_file(s.journal)
    assert out["violations"] == [] and out["discard"] == []
