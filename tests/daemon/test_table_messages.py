"""What the Tamsk table says on its screen: a refusal whole until the next input, the space
a player types by its name, and time up, forfeit and pass in words."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion import i18n
from companion.tamsk.game import Rules
from companion.tamsk.screens import screen
from companion.tamsk.words import entry_in_words, penalty_notice
from tests.daemon.harness import make_rig

OLED = {"size": (128, 64), "mode": "1"}


def test_a_refusal_stays_on_the_screen_long_after_it_was_made(tmp_path: Path) -> None:
    rig = make_rig(tmp_path, rules=Rules(level=2))
    rig.flip(3.0, "b1")  # black moves on red's turn
    rig.sample(30.0, "much later")
    rig.run(until=31.0)
    view = rig.samples["much later"]["view"]
    assert view["error"] == "it is red's turn, not black's"


def test_the_next_key_clears_a_refusal(tmp_path: Path) -> None:
    rig = make_rig(tmp_path, rules=Rules(level=2))
    rig.flip(3.0, "b1")
    rig.keys(8.0, "1")
    rig.sample(8.5, "after the key")
    rig.run(until=9.0)
    assert rig.samples["after the key"]["view"]["error"] is None


def test_the_refusal_page_shows_the_whole_reason_not_one_cut_line() -> None:
    reason = ("each player's first three moves use his three glasses: move r2 or r3, "
              "not r1 again")
    view = {"game": "tamsk", "error": reason, "level": 3, "t": 12.0}
    from companion.screens.text import wrap

    assert len(wrap(reason, 21)) > 1  # it would not fit the warning bar's single line
    other_end = {**view, "error": reason.replace("not r1 again", "not r1 later")}
    pages = [(screen({**view, "error_page": p}, **OLED).tobytes(),
              screen({**other_end, "error_page": p}, **OLED).tobytes()) for p in range(4)]
    assert any(a != b for a, b in pages)  # the reason's last words are on one of its pages


def test_a_typed_destination_is_echoed_as_the_space_not_its_digits() -> None:
    assert entry_in_words("33") == "c3"
    assert entry_in_words("3") == "c"
    assert entry_in_words("233", "red") == "r2 c3"
    assert entry_in_words("99") == "99"  # no such space: the digits as typed


def test_a_forfeit_is_said_in_words(tmp_path: Path) -> None:
    rig = make_rig(tmp_path)
    rig.flip(3.0, "r1")
    rig.press(4.0, "timer15.red")  # red times black, who does not move: a forfeit at 19.0
    rig.sample(19.5, "time up")
    rig.run(until=20.0)
    warning = rig.samples["time up"]["view"]["warning"]
    assert warning == "Ben: time up, this turn and the next are lost"


def test_time_up_is_said_in_the_players_language() -> None:
    i18n.use("fr")
    assert penalty_notice("late", "NOIR") == "NOIR : temps écoulé, le tour suivant est passé"
    i18n.use("cs")
    assert penalty_notice("forfeit", "ČERNÝ").startswith("ČERNÝ: čas vypršel")


def test_a_refusal_longer_than_the_screen_turns_its_pages() -> None:
    reason = ("each player's first three moves use his three glasses: move r2 or r3, "
              "not r1 again, and more words so that it takes two pages of the screen")
    first = screen({"game": "tamsk", "error": reason, "error_page": 0}, **OLED)
    second = screen({"game": "tamsk", "error": reason, "error_page": 1}, **OLED)
    again = screen({"game": "tamsk", "error": reason, "error_page": 2}, **OLED)
    assert first.tobytes() != second.tobytes()
    assert again.tobytes() == first.tobytes()  # round again, until the next input


def test_journal_times_are_whole_microseconds_not_float_noise(tmp_path: Path) -> None:
    rig = make_rig(tmp_path)
    rig.flip(3.0, "r1")
    rig.press(4.0, "timer15.red")  # black forfeits at 19.0: the game's time jumps to a deadline
    rig.flip(19.7, "b1")
    rig.press(20.1, "ring.black")
    rig.run(until=22.0)
    times = [float(r["t"]) for r in rig.records() if "t" in r]
    assert times and all(round(t, 6) == t for t in times), times


def test_microseconds_never_move_a_time_earlier() -> None:
    from companion.tamsk.table import microseconds

    for t in (12.367077057054303, 0.1 + 0.2, 5.0, 59.9999999):
        assert microseconds(t) >= t and round(microseconds(t), 6) == microseconds(t)


def test_the_screen_echoes_typed_digits_as_the_space_they_name(tmp_path: Path) -> None:
    rig = make_rig(tmp_path)
    rig.keys(3.0, "33")
    rig.sample(3.5, "typed")
    rig.run(until=4.0)
    view = rig.samples["typed"]["view"]
    assert view["entry"] == "33"
    as_typed = screen(view, **OLED)
    assert as_typed.tobytes() == screen({**view, "entry": "c3"}, **OLED).tobytes()
    assert as_typed.tobytes() != screen({**view, "entry": "d3"}, **OLED).tobytes()


def test_a_long_warning_turns_its_lines_in_the_bar_and_stays_until_the_last(
    tmp_path: Path,
) -> None:
    from companion.pages import PAGE_S
    from companion.screens.layout import warning_lines

    rig = make_rig(tmp_path)
    rig.flip(3.0, "r1")
    rig.press(4.0, "timer15.red")  # black does not move: a forfeit at 19.0, said in words
    lines = len(warning_lines("Ben: time up, this turn and the next are lost", 128))
    for i in range(lines):
        rig.sample(19.5 + i * PAGE_S, f"line {i}")
    rig.run(until=19.5 + lines * PAGE_S)
    views = [rig.samples[f"line {i}"]["view"] for i in range(lines)]
    assert lines >= 3  # longer than the six seconds a penalty notice stays at least
    assert all(v["warning"] == "Ben: time up, this turn and the next are lost" for v in views)
    assert [v["warning_page"] for v in views] == list(range(lines))
    bars = {rig.samples[f"line {i}"]["image"].crop((0, 54, 128, 64)).tobytes()
            for i in range(lines)}
    assert len(bars) == lines  # each line of it drawn in turn


def footer_of(view: dict[str, object], monkeypatch: pytest.MonkeyPatch) -> str:
    """The new-game menu's last line: what ``*`` does, when it does anything."""
    from tests.screens.fitting import drawn

    return drawn(lambda: screen(view, **OLED)).texts()[-1]


def test_the_menu_footer_names_the_key_that_closes_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    rig = make_rig(tmp_path)
    rig.keys(3.0, "D")  # the menu over the game in play
    rig.sample(3.5, "menu")
    rig.keys(4.0, "3")
    rig.sample(4.5, "typed")
    rig.keys(5.0, "*")  # the footer said "*: clear"
    rig.sample(5.5, "cleared")
    rig.keys(6.0, "*")  # the footer said "*: back"
    rig.sample(6.5, "closed")
    rig.run(until=7.0)
    menu, typed = rig.samples["menu"]["view"], rig.samples["typed"]["view"]
    assert menu["paused"] and footer_of(menu, monkeypatch).endswith("*: back")
    assert footer_of(typed, monkeypatch).endswith("*: clear")
    cleared = rig.samples["cleared"]["view"]
    assert cleared["paused"] and cleared["entry"] == ""
    assert not rig.samples["closed"]["view"]["paused"]
    assert "D" not in footer_of(menu, monkeypatch)


def test_with_no_game_the_menu_footer_offers_no_way_back(monkeypatch: pytest.MonkeyPatch) -> None:
    assert "*" not in footer_of({"game": None, "entry": ""}, monkeypatch)


def test_a_refusal_page_turn_asks_for_a_redraw_whether_or_not_sand_runs(tmp_path: Path) -> None:
    from companion.pages import PAGE_S

    rig = make_rig(tmp_path, rules=Rules(level=2))
    rig.flip(3.0, "b1")  # black moves on red's turn: refused
    rig.run(until=4.0)
    table = rig.table
    assert table.error is not None
    page = table.view()["error_page"]
    due = table.next_wakeup()
    assert due is not None and due <= rig.clock.now() + PAGE_S
    table.changed = False
    rig.clock.set(due)
    table.poll()
    assert table.changed and table.view()["error_page"] == page + 1
