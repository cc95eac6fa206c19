"""The Tokami rule book (tokami-rules-fr.txt), one test per rule, played as short games."""

from __future__ import annotations

import pytest

from companion.tokami import DEFAULT_BLOCKS, Game, IllegalTurn, Outcome, Setup, Turn


def new_game(*players: str, **options: object) -> Game:
    return Game(Setup(players or ("Anna", "Ben"), **options))  # type: ignore[arg-type]


def refused(game: Game, turn: Turn, by: str | None = None) -> IllegalTurn:
    """Play a turn the rules must refuse; check it changed nothing; return the refusal."""
    before = game.as_dict()
    with pytest.raises(IllegalTurn) as info:
        game.play(turn, by=by)
    assert game.as_dict() == before
    assert info.value.detail  # a reason a player can read
    return info.value


# -- the box and the table ------------------------------------------------------------------


def test_default_box_has_36_blocks_in_four_colours() -> None:
    assert sum(DEFAULT_BLOCKS.values()) == 36
    assert len(DEFAULT_BLOCKS) == 4
    assert new_game().blocks_left == 36


@pytest.mark.parametrize("count", [1, 6])
def test_tokami_is_for_two_to_five_players(count: int) -> None:
    with pytest.raises(ValueError, match="2 to 5 players"):
        Setup(tuple(f"P{i}" for i in range(count)))


def test_players_take_turns_clockwise_in_the_order_given() -> None:
    game = new_game("Anna", "Ben", "Chloé")
    seen = []
    for _ in range(4):
        seen.append(game.turn)
        game.play(Turn.moved("blue"))
    assert seen == ["Anna", "Ben", "Chloé", "Anna"]


def test_a_turn_entered_for_the_wrong_player_is_refused() -> None:
    game = new_game("Anna", "Ben")
    assert refused(game, Turn.moved("blue"), by="Ben").kind == "out of turn"
    assert refused(game, Turn.moved("blue"), by="Zoé").kind == "unknown player"
    game.play(Turn.moved("blue"), by="Anna")
    assert game.turn == "Ben"


# -- moving a block and taking a bonus ---------------------------------------------------------


def test_a_bonus_block_is_worth_one_point() -> None:
    game = new_game()
    game.play(Turn.moved("blue", bonus="green"))
    assert game.score("Anna") == 1
    assert game.hand("Anna").bonus["green"] == 1
    assert game.on_cross["green"] == 8


def test_a_red_bonus_block_is_worth_nothing() -> None:
    game = new_game()
    game.play(Turn.moved("blue", bonus="red"))
    assert game.hand("Anna").bonus["red"] == 1
    assert game.score("Anna") == 0


def test_moving_higher_without_a_bonus_takes_nothing_off_the_cross() -> None:
    game = new_game()
    game.play(Turn.moved("yellow"))
    assert game.score("Anna") == 0
    assert game.blocks_left == 36


def test_the_bonus_is_another_block_than_the_one_moved() -> None:
    game = new_game(blocks={"red": 5, "blue": 1})
    refused(game, Turn.moved("blue", bonus="blue"))
    game.play(Turn.moved("red", bonus="red"))  # two red blocks: fine
    assert game.on_cross == {"red": 4, "blue": 1}


# -- falls and failures -----------------------------------------------------------------------


def test_fallen_blocks_and_the_block_in_hand_all_become_malus() -> None:
    game = new_game()
    game.play(Turn.fell(["blue", "yellow"], in_hand="green"))
    hand = game.hand("Anna")
    assert (hand.malus["blue"], hand.malus["yellow"], hand.malus["green"]) == (1, 1, 1)
    assert game.score("Anna") == -3
    assert game.blocks_left == 33


def test_a_fall_needs_at_least_one_fallen_block() -> None:
    assert refused(new_game(), Turn.fell([], in_hand="blue")).kind == "nothing fell"


def test_a_malus_block_is_worth_minus_one() -> None:
    game = new_game()
    game.play(Turn.not_higher("blue"))
    assert game.score("Anna") == -1


def test_a_red_malus_block_is_still_minus_one() -> None:
    game = new_game()
    game.play(Turn.fell(["red"], in_hand="red"))
    assert game.score("Anna") == -2


def test_a_block_that_cannot_go_higher_becomes_malus() -> None:
    game = new_game()
    game.play(Turn.not_higher("yellow"))
    assert game.hand("Anna").malus["yellow"] == 1
    assert game.on_cross["yellow"] == 8


# -- getting rid of malus ---------------------------------------------------------------------


def test_a_bonus_discards_all_malus_of_its_colour() -> None:
    game = new_game()
    game.play(Turn.fell(["blue", "blue"], in_hand="blue"))
    game.play(Turn.moved("red"))
    game.play(Turn.moved("yellow", bonus="blue"))
    hand = game.hand("Anna")
    assert hand.malus["blue"] == 0
    assert hand.discarded["blue"] == 3
    assert game.score("Anna") == 1


def test_a_bonus_keeps_malus_of_other_colours() -> None:
    game = new_game()
    game.play(Turn.not_higher("green"))
    game.play(Turn.moved("red"))
    game.play(Turn.moved("yellow", bonus="blue"))
    assert game.hand("Anna").malus["green"] == 1
    assert game.score("Anna") == 0


def test_malus_taken_after_the_bonus_still_counts() -> None:
    game = new_game()
    game.play(Turn.moved("yellow", bonus="blue"))
    game.play(Turn.moved("red"))
    game.play(Turn.not_higher("blue"))
    assert game.hand("Anna").malus["blue"] == 1
    assert game.score("Anna") == 0


def test_a_red_bonus_discards_red_malus() -> None:
    game = new_game()
    game.play(Turn.not_higher("red"))
    game.play(Turn.moved("blue"))
    game.play(Turn.moved("yellow", bonus="red"))
    assert game.hand("Anna").malus["red"] == 0
    assert game.score("Anna") == 0


def test_a_bonus_only_discards_its_takers_malus() -> None:
    game = new_game()
    game.play(Turn.not_higher("blue"))
    game.play(Turn.moved("red", bonus="blue"))
    assert game.hand("Anna").malus["blue"] == 1
    assert game.score("Anna") == -1


# -- the forbidden block ----------------------------------------------------------------------


def test_the_block_just_placed_is_forbidden_to_the_next_player() -> None:
    game = new_game(blocks={"red": 4, "blue": 1, "green": 4})
    game.play(Turn.moved("blue"))
    assert game.forbidden == "blue"
    assert refused(game, Turn.moved("blue")).kind == "forbidden block"
    assert refused(game, Turn.moved("red", bonus="blue")).kind == "forbidden block"
    assert refused(game, Turn.not_higher("blue")).kind == "forbidden block"
    assert refused(game, Turn.fell(["red"], in_hand="blue")).kind == "forbidden block"


def test_another_block_of_the_forbidden_colour_may_be_taken() -> None:
    game = new_game()
    game.play(Turn.moved("blue"))
    game.play(Turn.moved("blue", bonus="blue"))
    assert game.score("Ben") == 1


def test_the_forbidden_block_may_fall() -> None:
    game = new_game(blocks={"red": 5, "blue": 1})
    game.play(Turn.moved("blue"))
    game.play(Turn.fell(["blue"]))
    assert game.hand("Ben").malus["blue"] == 1


def test_the_forbidden_block_binds_only_the_next_player() -> None:
    game = new_game("Anna", "Ben", "Chloé", blocks={"red": 5, "blue": 1})
    game.play(Turn.moved("blue"))
    game.play(Turn.moved("red"))
    assert game.forbidden == "red"
    game.play(Turn.moved("blue"))  # Chloé may move it again


def test_declining_takes_the_forbidden_block_as_malus() -> None:
    game = new_game()
    game.play(Turn.moved("green"))
    game.play(Turn.declined())
    assert game.hand("Ben").malus["green"] == 1
    assert game.on_cross["green"] == 8
    assert game.score("Ben") == -1
    assert game.forbidden is None


def test_declining_needs_a_block_just_placed() -> None:
    game = new_game()
    assert refused(game, Turn.declined()).kind == "no forbidden block"
    game.play(Turn.not_higher("blue"))  # nothing was placed higher
    assert refused(game, Turn.declined()).kind == "no forbidden block"


def test_nothing_is_forbidden_after_a_fall() -> None:
    game = new_game()
    game.play(Turn.moved("blue"))
    game.play(Turn.fell(["red"]))
    assert game.forbidden is None


# -- blocks left and the end of a round -------------------------------------------------------


def test_a_turn_cannot_take_more_blocks_than_remain() -> None:
    game = new_game()
    assert refused(game, Turn.fell(["yellow"] * 10)).kind == "too many blocks"
    game.play(Turn.fell(["yellow"] * 9))
    assert refused(game, Turn.moved("blue", bonus="yellow")).kind == "too many blocks"


def test_a_colour_not_in_the_box_is_refused() -> None:
    assert refused(new_game(), Turn.moved("purple")).kind == "unknown colour"


def test_the_round_ends_when_four_blocks_remain() -> None:
    game = new_game(blocks={"red": 3, "blue": 3})
    game.play(Turn.not_higher("red"))
    assert not game.is_over()
    game.play(Turn.not_higher("blue"))
    assert game.blocks_left == 4
    assert game.is_over() and game.reason == "rounds"
    assert game.turn is None
    assert refused(game, Turn.moved("red")).kind == "game over"


def test_a_round_also_ends_when_a_fall_leaves_fewer_than_four() -> None:
    game = new_game(blocks={"red": 3, "blue": 3})
    game.play(Turn.fell(["red", "red", "blue", "blue"], in_hand="blue"))
    assert game.blocks_left == 1
    assert game.is_over()


def test_a_new_round_puts_every_block_back_and_play_goes_on_clockwise() -> None:
    game = new_game("Anna", "Ben", "Chloé", blocks={"red": 3, "blue": 3}, rounds=2)
    game.play(Turn.moved("red"))
    game.play(Turn.fell(["blue", "blue"]))
    assert game.round == 2
    assert game.blocks_left == 6
    assert game.forbidden is None
    assert game.turn == "Chloé"
    assert game.hand("Ben").malus["blue"] == 0
    assert game.round_scores("Ben") == [-2, 0]


def test_rounds_add_up_and_the_highest_total_wins() -> None:
    game = new_game(blocks={"red": 3, "blue": 3}, rounds=2)
    game.play(Turn.moved("red", bonus="blue"))  # Anna +1
    game.play(Turn.fell(["red"]))  # Ben -1: round 1 over
    game.play(Turn.not_higher("blue"))  # Anna -1
    game.play(Turn.fell(["red"]))  # Ben -1: round 2 over
    assert game.round_scores("Anna") == [1, -1]
    assert game.round_scores("Ben") == [-1, -1]
    assert (game.score("Anna"), game.score("Ben")) == (0, -2)
    assert game.winner() == "Anna"


def test_equal_best_totals_are_a_tie() -> None:
    game = new_game(blocks={"red": 3, "blue": 3})
    game.play(Turn.not_higher("red"))
    game.play(Turn.not_higher("blue"))
    assert game.winner() == "tie"


def test_there_is_no_winner_before_the_end() -> None:
    game = new_game()
    game.play(Turn.moved("red", bonus="blue"))
    assert game.winner() is None


# -- corrections ------------------------------------------------------------------------------


def test_undo_takes_back_the_last_turn() -> None:
    game = new_game()
    before = game.as_dict()
    game.play(Turn.fell(["blue"], in_hand="green"))
    undone = game.undo()
    assert undone.player == "Anna" and undone.turn.outcome is Outcome.FELL
    assert game.as_dict() == before


def test_undo_reopens_a_finished_game() -> None:
    game = new_game(blocks={"red": 3, "blue": 3})
    game.play(Turn.not_higher("red"))
    game.play(Turn.not_higher("blue"))
    game.undo()
    assert not game.is_over()
    assert game.turn == "Ben"


def test_undo_with_nothing_played_is_refused() -> None:
    with pytest.raises(IllegalTurn, match="nothing to undo"):
        new_game().undo()


def test_a_stopped_game_keeps_its_totals_and_refuses_more() -> None:
    game = new_game(rounds=3)
    game.play(Turn.moved("red", bonus="green"))
    game.stop()
    assert game.is_over() and game.reason == "stopped"
    assert game.winner() == "Anna"
    assert game.round_scores("Anna") == [1]
    assert refused(game, Turn.moved("red")).kind == "game over"
    with pytest.raises(IllegalTurn):
        game.undo()


# -- the header --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("options", "words"),
    [
        ({"players": ("Anna", "Anna")}, "same name"),
        ({"players": ("Anna", "Ben"), "blocks": {"red": 2, "blue": 2}}, "too few"),
        ({"players": ("Anna", "Ben"), "blocks": {"red": 0, "blue": 9}}, "whole number"),
        ({"players": ("Anna", "Ben"), "worthless": "pink"}, "worthless"),
        ({"players": ("Anna", "Ben"), "rounds": 0}, "rounds"),
    ],
)
def test_an_unplayable_setup_is_refused_with_a_reason(
    options: dict[str, object], words: str
) -> None:
    with pytest.raises(ValueError, match=words):
        Setup(**options)  # type: ignore[arg-type]
