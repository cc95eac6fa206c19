"""The keypad dialogue, driven the way a player at the table types."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from companion.tantrix.entry import FORCED, MENU, PLACE, SCORES, TILE, UNDO, KeypadEntry, Screen
from companion.tantrix.game import Game, Placement
from companion.tantrix.simulate import simulate, state

C_SHAPE = [(1, 1, -1, 1), "done", (7, 1, 0, 0), "done", (4, 0, 1, 1), "done"]


def table(moves: Sequence[object], players: tuple[str, ...] = ("red", "yellow")) -> Game:
    game = Game(players)
    for m in moves:
        if m == "done":
            game.end_turn()
        else:
            assert isinstance(m, tuple)
            game.play(Placement(*m))
    return game


def type_keys(entry: KeypadEntry, keys: str) -> list[Screen]:
    return [entry.press(k) for k in keys]


def test_typing_a_tile_number_then_hash_offers_its_legal_spots() -> None:
    entry = KeypadEntry(Game())
    screens = type_keys(entry, "12")
    assert screens[-1].mode == TILE and screens[-1].typed == "12" and "12" in screens[-1].prompt
    screen = entry.press("#")
    assert screen.mode == PLACE and screen.tile == 12
    assert screen.spot == (0, 0) and screen.rotation == 0 and screen.legal


def test_hash_places_the_tile_and_returns_the_event_to_journal() -> None:
    game = Game()
    entry = KeypadEntry(game)
    screen = type_keys(entry, "12#C#")[-1]
    assert screen.action == {"ev": "place", "tile": 12, "q": 0, "r": 0, "rot": 1}
    assert game.tile_at((0, 0)) == (12, 1)
    assert screen.mode == TILE and "tile 12 placed" in screen.prompt


def test_a_forced_space_is_offered_first_with_the_turn_that_fits() -> None:
    entry = KeypadEntry(table(C_SHAPE))
    screen = type_keys(entry, "2#")[-1]
    assert screen.spot == (0, 0) and screen.spot_is_forced and screen.rotation == 1
    assert screen.spots[0] == (0, 0) and len(screen.spots) > 1
    assert screen.facing == ("red", "red", "blue", None, None, None)
    assert screen.colours == ("red", "red", "blue", "yellow", "yellow", "blue")
    assert "forced space 1/" in screen.prompt


def test_a_and_b_step_through_the_spots_and_c_turns_the_tile() -> None:
    entry = KeypadEntry(table(C_SHAPE))
    first = type_keys(entry, "2#")[-1]
    second = entry.press("A")
    assert second.spot == first.spots[1] and second.legal
    back = entry.press("B")
    assert back.spot == first.spot
    turned = entry.press("C")
    assert turned.rotation == 2 and not turned.legal
    assert first.colours is not None
    assert turned.colours == first.colours[-1:] + first.colours[:-1]
    assert [entry.press("C").rotation for _ in range(5)] == [3, 4, 5, 0, 1]


def test_an_illegal_choice_is_refused_with_the_reason_and_a_beep() -> None:
    game = table(C_SHAPE)
    entry = KeypadEntry(game)
    screen = type_keys(entry, "2#C#")[-1]
    assert screen.beep and screen.error is not None
    assert screen.error.startswith("golden rule: side NE of tile 2")
    assert screen.action is None
    assert screen.refused == {"ev": "place", "tile": 2, "q": 0, "r": 0, "rot": 2}
    assert game.placed == 3 and screen.mode == PLACE


def test_a_restriction_is_named_on_the_screen() -> None:
    game = table(C_SHAPE[:4])
    entry = KeypadEntry(game)
    screen = type_keys(entry, "4#")[-1]
    while screen.spot != (0, 1):
        screen = entry.press("A")
    while screen.rotation != 3:  # red NW: (0,0) would face three reds
        screen = entry.press("C")
    screen = entry.press("#")
    assert screen.error is not None and screen.error.startswith("restriction 1")
    assert game.placed == 2


def test_star_cancels_the_tile() -> None:
    game = Game()
    entry = KeypadEntry(game)
    screen = type_keys(entry, "5#*")[-1]
    assert screen.mode == TILE and screen.tile is None and game.placed == 0
    assert type_keys(entry, "4*")[-1].typed == ""


@pytest.mark.parametrize(
    ("keys", "reason"),
    [
        ("#", "type the number"),
        ("57#", "there is no tile 57"),
        ("0#", "there is no tile 0"),
        ("123", "two digits at most: 123 cleared"),
        ("A", "type a tile number first"),
    ],
)
def test_mistyped_numbers_are_explained(keys: str, reason: str) -> None:
    screen = type_keys(KeypadEntry(Game()), keys)[-1]
    assert screen.beep and screen.error is not None and reason in screen.error


def test_a_third_digit_clears_the_number_so_hash_never_confirms_another() -> None:
    """``134#`` is not tile 13: the third digit is refused and what was typed cleared, so the
    ``#`` after it finds no number (the screen showed none) instead of placing tile 13."""
    entry = KeypadEntry(Game())
    screens = type_keys(entry, "134")
    assert screens[-1].error is not None and "134 cleared" in screens[-1].error
    assert screens[-1].typed == ""
    after = type_keys(entry, "#")[-1]
    assert after.mode == TILE and after.tile is None and "type the number" in str(after.error)
    assert type_keys(entry, "13#")[-1].mode == PLACE  # typed again: offered


def test_after_the_free_move_with_no_forced_space_the_refusal_says_how_to_end_the_turn() -> None:
    """The status line says no space is forced: the refusal must not say one is open."""
    game = table([(1, 0, 0, 0)])  # red's free move: the first tile, nothing forced
    assert game.free_move_used and not game.forced_spaces()
    screen = type_keys(KeypadEntry(game), "2#")[-1]
    assert screen.error is not None and "only forced spaces" not in screen.error
    assert "no forced space is open; D then 1 ends the turn" in screen.error


def test_a_tile_already_on_the_table_is_refused_with_its_place() -> None:
    entry = KeypadEntry(table(C_SHAPE))
    screen = type_keys(entry, "7#")[-1]
    assert screen.error == "tile 7 already lies at (1, 0)"  # the screen names the cell


def test_a_tile_that_fits_nowhere_is_refused() -> None:
    game = table(C_SHAPE[:4] + [(4, 0, 1, 1)])  # red's free move is spent
    screen = type_keys(KeypadEntry(game), "9#")[-1]
    assert screen.error is not None and "fits nowhere" in screen.error
    assert "only forced spaces" in screen.error


def test_menu_end_turn_journals_done() -> None:
    game = table([(1, 0, 0, 0)])
    entry = KeypadEntry(game)
    assert entry.press("D").mode == MENU
    screen = entry.press("1")
    assert screen.action == {"ev": "done"} and game.turn == "yellow"
    assert screen.status[0].startswith("yellow to play")


def test_menu_undo_asks_first_and_journals_a_correction() -> None:
    game = table([(1, 0, 0, 0), "done", (2, 1, 0, 0)])
    entry = KeypadEntry(game)
    ask = type_keys(entry, "D2")[-1]
    assert ask.mode == UNDO and ask.tile == 2 and "undo tile 2" in ask.prompt
    assert entry.press("*").mode == MENU and game.placed == 2
    entry.press("2")
    screen = entry.press("#")
    assert screen.action == {"ev": "undo"} and game.placed == 1 and game.turn == "yellow"
    assert "lift it off" in screen.prompt


def test_menu_undo_with_nothing_to_undo_beeps() -> None:
    screen = type_keys(KeypadEntry(Game()), "D2")[-1]
    assert screen.error == "nothing to undo" and screen.mode == MENU


def test_menu_cursor_with_a_b_and_hash() -> None:
    game = table([(1, 0, 0, 0)])
    entry = KeypadEntry(game)
    screen = type_keys(entry, "DAA")[-1]
    assert screen.cursor == 2
    assert entry.press("#").mode == SCORES


def test_menu_scores_and_forced_spaces() -> None:
    entry = KeypadEntry(table(C_SHAPE))
    scores = type_keys(entry, "D3")[-1]
    assert scores.mode == SCORES
    assert scores.lines == ("red: line 1, loop 0, 1 points", "yellow: line 2, loop 0, 2 points")
    assert entry.press("#").mode == TILE
    forced = type_keys(entry, "D4")[-1]
    assert forced.mode == FORCED and forced.spot == (0, 0)
    assert forced.lines == ("c2: RRB---",)  # the forced space (0, 0) as the map names it
    assert any(c.q == 1 and c.r == 0 and c.tile == 7 for c in forced.around)
    assert entry.press("*").mode == TILE


def test_menu_star_returns_to_the_tile_in_hand() -> None:
    entry = KeypadEntry(table(C_SHAPE))
    type_keys(entry, "2#A")
    screen = type_keys(entry, "D*")[-1]
    assert screen.mode == PLACE and screen.tile == 2 and screen.spot == screen.spots[1]


def test_the_table_screen_shows_turn_bag_phase_forced_spaces_and_scores() -> None:
    screen = KeypadEntry(table(C_SHAPE, ("red", "yellow", "green"))).screen
    assert screen.status == (
        "red to play | bag 35 restricted",
        "forced: 1 c2",
        "red line 1 = 1",
        "yellow line 2 = 2",
        "green line 0 = 0",
    )


def test_the_small_map_shows_the_tile_in_hand_on_the_candidate_spot() -> None:
    screen = type_keys(KeypadEntry(table(C_SHAPE)), "2#")[-1]
    centre = [c for c in screen.around if c.candidate]
    assert len(centre) == 1 and centre[0].tile == 2 and centre[0].sides == screen.colours
    assert len(screen.around) == 19  # the spot and two rings around it
    neighbours = {(c.q, c.r): c.tile for c in screen.around if c.tile and not c.candidate}
    assert neighbours == {(1, -1): 1, (1, 0): 7, (0, 1): 4}


def test_keys_outside_the_keypad_are_rejected() -> None:
    with pytest.raises(ValueError, match="not a keypad key"):
        KeypadEntry(Game()).press("x")


def test_the_journal_of_a_keypad_game_replays_to_the_same_state() -> None:
    game = Game()
    entry = KeypadEntry(game)
    journal = []
    for keys in ["1##", "D1", "2##", "D1", "4##", "D2#", "D1"]:
        for screen in type_keys(entry, keys):
            if screen.action:
                journal.append(screen.action)
    assert [e["ev"] for e in journal] == ["place", "done", "place", "done", "place", "undo", "done"]
    assert game.placed == 2 and game.turn == "yellow"
    out = simulate({"game": "tantrix", "players": ["red", "yellow"]}, list(enumerate(journal, 2)))
    assert out["violations"] == []
    live = state(game)
    assert {k: out[k] for k in live} == live


def test_the_place_slip_names_the_hash_key_as_the_footer_does() -> None:
    """One word for one key: the place-mode footer says ``#:lay`` and ``*`` goes back (the key
    map's word), so the slip for a wrong key says the same, and French/Czech say it too."""
    from companion import i18n
    from companion.tantrix import messages
    from companion.tantrix.words import refusal_in_words

    screen = type_keys(KeypadEntry(Game()), "5#0")[-1]
    assert screen.beep and screen.error == messages.PLACE_KEYS
    assert "#: lay" in screen.error and "*: back" in screen.error and "place" not in screen.error
    for lang in ("fr", "cs"):
        i18n.use(lang)
        try:
            said = refusal_in_words(screen.error)
            footer_word = i18n._("A/B:spot C:rot. #:lay").split("#:")[1]
        finally:
            i18n.reset()
        assert said != screen.error and footer_word.rstrip("~") in said
