"""The keypad dialogue, tested like a player typing at the table.

Colours are numbered in the order of the default box: 1 red, 2 yellow, 3 green, 4 blue.
Outcomes: 1 higher + bonus, 2 higher, 3 fell, 4 not higher, 5 declined; A undo, D stop;
# confirms, * goes back.
"""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.scenario import parse_lines
from companion.tokami import Game, Setup
from companion.tokami.entry import KEYS, KeypadEntry, Screen, Stage, Step
from companion.tokami.simulate import simulate


def table(*players: str, **options: Any) -> KeypadEntry:
    return KeypadEntry(Game(Setup(players or ("Anna", "Ben"), **options)))


def stage(entry: KeypadEntry) -> Stage:
    return entry.stage


def type_keys(entry: KeypadEntry, keys: str) -> list[Step]:
    return [entry.press(key) for key in keys]


def events(steps: list[Step]) -> list[dict[str, Any]]:
    return [s.event for s in steps if s.event is not None]


def assert_refused(entry: KeypadEntry, key: str, words: str) -> None:
    """The key is refused with a message and nothing else changes."""
    before_screen, before_game = entry.screen, entry.game.as_dict()
    step = entry.press(key)
    assert step.event is None
    assert step.screen.error is not None and words in step.screen.error, step.screen.error
    assert replace(step.screen, error=None) == before_screen
    assert entry.game.as_dict() == before_game


# -- saving turns -------------------------------------------------------------------------------


def test_the_first_screen_asks_the_first_player_what_happened() -> None:
    screen = table().screen
    assert screen.player == "Anna"
    assert screen.prompt == "Anna: what happened?"
    assert "1 higher + bonus" in screen.choices and "3 blocks fell" in screen.choices
    assert screen.standings == (("Anna", 0), ("Ben", 0))
    assert screen.blocks_left == 36


def test_typing_a_bonus_turn_saves_it_and_shows_the_standings() -> None:
    entry = table()
    steps = type_keys(entry, "143")
    assert steps[-1].screen.prompt == "Anna: blue higher, bonus green?"
    saved = entry.press("#", now=12.5)
    assert saved.event == {
        "ev": "bonus", "block": "blue", "bonus": "green", "player": "Anna", "t": 12.5
    }
    assert saved.screen.standings == (("Anna", 1), ("Ben", 0))
    assert saved.screen.player == "Ben"
    assert saved.screen.forbidden == "blue"
    assert saved.screen.notice == "saved: Anna: blue higher, bonus green"


def test_typing_a_move_without_bonus() -> None:
    entry = table()
    saved = events(type_keys(entry, "22#"))
    assert saved == [{"ev": "higher", "block": "yellow", "player": "Anna"}]


def test_typing_a_fall_with_the_block_in_hand() -> None:
    entry = table()
    steps = type_keys(entry, "3" "411" "#" "3")
    assert steps[-1].screen.entered == "blocks fell: blue red red + green in hand"
    saved = entry.press("#")
    assert saved.event == {
        "ev": "fell", "fallen": ["blue", "red", "red"], "in_hand": "green", "player": "Anna"
    }
    assert saved.screen.standings == (("Ben", 0), ("Anna", -4))


def test_typing_a_fall_with_nothing_in_hand() -> None:
    entry = table()
    saved = events(type_keys(entry, "34#0#"))
    assert saved == [{"ev": "fell", "fallen": ["blue"], "player": "Anna"}]


def test_typing_a_block_that_would_not_go_higher() -> None:
    entry = table()
    saved = events(type_keys(entry, "41#"))
    assert saved == [{"ev": "not_higher", "block": "red", "player": "Anna"}]
    assert entry.screen.standings == (("Ben", 0), ("Anna", -1))


def test_typing_a_decline_takes_the_forbidden_block() -> None:
    entry = table()
    type_keys(entry, "23#")
    assert "5 declined" in entry.screen.choices
    steps = type_keys(entry, "5")
    assert steps[-1].screen.prompt == "Ben: declined, took green?"
    assert events(type_keys(entry, "#")) == [{"ev": "declined", "player": "Ben"}]
    assert entry.game.hand("Ben").malus["green"] == 1


def test_star_drops_the_last_fallen_block() -> None:
    entry = table()
    type_keys(entry, "3442*")
    assert entry.screen.entered == "blocks fell: blue blue"


def test_star_goes_back_one_question_at_a_time() -> None:
    entry = table()
    type_keys(entry, "143")  # at the confirmation
    entry.press("*")
    assert stage(entry) is Stage.BONUS and entry.screen.entered == "higher + bonus: blue"
    entry.press("*")
    assert stage(entry) is Stage.BLOCK
    entry.press("*")
    assert stage(entry) is Stage.OUTCOME and entry.screen.entered == ""
    assert entry.game.history == []


def test_the_end_of_a_round_is_announced_and_the_next_round_starts() -> None:
    entry = table(blocks={"red": 3, "blue": 3}, rounds=2)
    type_keys(entry, "41#")
    saved = type_keys(entry, "42#")[-1]
    assert saved.screen.notice == "saved: Ben: blue not higher; round 1 is over"
    assert saved.screen.round == 2
    assert saved.screen.blocks_left == 6
    assert saved.screen.standings == (("Anna", -1), ("Ben", -1))


def test_the_last_round_ends_on_a_game_over_screen() -> None:
    entry = table(blocks={"red": 3, "blue": 3})
    type_keys(entry, "11" "2#")  # Anna: red higher, bonus blue
    saved = type_keys(entry, "41#")[-1]  # Ben: red not higher, 4 left
    assert saved.screen.prompt == "game over: Anna wins"
    assert saved.screen.player is None
    assert saved.screen.choices == ("A undo",)


# -- corrections -------------------------------------------------------------------------------


def test_undo_asks_for_confirmation_then_journals_an_undo() -> None:
    entry = table()
    type_keys(entry, "41#")
    asked = entry.press("A")
    assert asked.event is None and asked.screen.prompt == "undo Anna: red not higher?"
    done = entry.press("#", now=30.0)
    assert done.event == {"ev": "undo", "t": 30.0}
    assert done.screen.player == "Anna"
    assert done.screen.standings == (("Anna", 0), ("Ben", 0))


def test_undo_can_be_called_off() -> None:
    entry = table()
    type_keys(entry, "41#A*")
    assert entry.stage is Stage.OUTCOME
    assert len(entry.game.history) == 1


def test_undo_after_the_game_ended_reopens_it() -> None:
    entry = table(blocks={"red": 3, "blue": 3})
    type_keys(entry, "41#42#")
    assert stage(entry) is Stage.OVER
    assert events(type_keys(entry, "A#")) == [{"ev": "undo"}]
    assert stage(entry) is Stage.OUTCOME and entry.screen.player == "Ben"


def test_calling_off_an_undo_after_the_game_ended_keeps_the_game_over_screen() -> None:
    entry = table(blocks={"red": 3, "blue": 3})
    type_keys(entry, "41#42#A*")
    assert stage(entry) is Stage.OVER
    assert entry.screen.prompt == "game over: a tie"


def test_ending_the_game_at_the_keypad_is_a_confirmed_resignation_of_the_player_on_turn() -> None:
    entry = table()
    type_keys(entry, "143#")
    assert events(type_keys(entry, "D")) == []  # asked first
    assert entry.screen.prompt == "Ben: resign the game?"
    assert events(type_keys(entry, "#")) == [{"ev": "resign", "player": "Ben"}]
    assert entry.screen.prompt == "game over: Anna wins"
    assert entry.screen.choices == ()


# -- impossible key sequences -------------------------------------------------------------------


def test_confirm_before_saying_what_happened_is_refused() -> None:
    assert_refused(table(), "#", "1 to 5")


def test_an_outcome_key_out_of_range_is_refused() -> None:
    assert_refused(table(), "7", "1 to 5")


def test_a_colour_number_beyond_the_box_is_refused() -> None:
    entry = table()
    entry.press("2")
    assert_refused(entry, "7", "choose a colour: 1 to 4")
    assert_refused(entry, "0", "choose a colour: 1 to 4")
    assert_refused(entry, "#", "choose a colour")


def test_a_fall_needs_a_fallen_block_before_confirming() -> None:
    entry = table()
    entry.press("3")
    assert_refused(entry, "#", "at least one fallen block")


def test_declining_with_no_forbidden_block_is_refused() -> None:
    entry = table()
    assert "5 declined" not in entry.screen.choices
    assert_refused(entry, "5", "no forbidden block")


def test_the_forbidden_block_is_refused_while_typing() -> None:
    entry = table(blocks={"red": 4, "blue": 1, "green": 4})
    type_keys(entry, "22#")  # Anna moves the only blue block higher
    entry.press("2")
    assert_refused(entry, "2", "forbidden to Ben")


def test_too_many_fallen_blocks_are_refused_while_typing() -> None:
    entry = table(blocks={"red": 5, "blue": 1})
    type_keys(entry, "32")
    assert_refused(entry, "2", "only 1 blue left")


def test_a_bonus_of_a_colour_gone_from_the_cross_is_refused() -> None:
    entry = table(blocks={"red": 5, "blue": 1})
    type_keys(entry, "32#0#")  # the blue block fell
    type_keys(entry, "11")
    assert_refused(entry, "2", "no blue block is left")


def test_undo_with_nothing_played_is_refused() -> None:
    assert_refused(table(), "A", "nothing to undo")


def test_keys_after_a_resignation_are_refused() -> None:
    entry = table()
    type_keys(entry, "D#")
    for key in "1#A*":
        assert_refused(entry, key, "resigned")


def test_a_key_the_keypad_does_not_have_is_refused() -> None:
    assert_refused(table(), "E", "not a key")


def test_a_confirmation_screen_takes_only_confirm_or_back() -> None:
    entry = table()
    type_keys(entry, "22")
    assert_refused(entry, "3", "# saves")


# -- the dialogue and the journal agree ---------------------------------------------------------


def visible(screen: Screen) -> Screen:
    return replace(screen, error=None)


colour_key = st.sampled_from("1234")  # 4 is one past the three colours used below
#: What a player types for one turn (or a correction), now and then with a stray key.
turn_keys = st.one_of(
    st.tuples(st.just("1"), colour_key, colour_key, st.just("#")),
    st.tuples(st.just("2"), colour_key, st.just("#")),
    st.tuples(
        st.just("3"),
        st.lists(colour_key, min_size=1, max_size=3).map("".join),
        st.just("#"),
        st.sampled_from("0123"),
        st.just("#"),
    ),
    st.tuples(st.just("4"), colour_key, st.just("#")),
    st.tuples(st.just("5#")),
    st.tuples(st.sampled_from(["A#", "A*", "D*", "*"])),
    st.tuples(st.sampled_from(sorted(KEYS))),
).map("".join)


@settings(max_examples=150, deadline=None)
@given(
    players=st.integers(min_value=2, max_value=5),
    typed=st.lists(turn_keys, max_size=40),
    stop=st.booleans(),
)
def test_any_key_sequence_is_safe_and_its_journal_replays_to_the_same_game(
    players: int, typed: list[str], stop: bool
) -> None:
    names = tuple(f"P{i}" for i in range(1, players + 1))
    entry = KeypadEntry(Game(Setup(names, blocks={"red": 3, "yellow": 2, "blue": 3}, rounds=2)))
    journal: list[dict[str, Any]] = []
    keys = "".join(typed) + ("D#" if stop else "")
    for t, key in enumerate(keys):
        before_screen, before_game = visible(entry.screen), entry.game.as_dict()
        step = entry.press(key, now=float(t))
        if step.screen.error is not None:
            assert step.event is None
            assert visible(step.screen) == before_screen
            assert entry.game.as_dict() == before_game
        if step.event is not None:
            journal.append(step.event)
        if entry.game.is_over():
            assert stage(entry) in (Stage.OVER, Stage.CONFIRM_UNDO)
            assert step.screen.player is None
        else:
            assert stage(entry) is not Stage.OVER
            assert step.screen.player == entry.game.turn
    header = entry.game.setup.to_header()
    scenario = parse_lines([json.dumps(header), *(json.dumps(e) for e in journal)])
    replayed = simulate(scenario.header, scenario.events)
    assert replayed["violations"] == []
    ours = entry.game.as_dict()
    assert {k: replayed[k] for k in ours} == ours
