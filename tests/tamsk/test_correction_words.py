"""The arbiter reads a refused correction in the table's language: the rules refuse in English
(they never import gettext) and the shell translates by template, keeping the glasses, spaces
and numbers."""

from __future__ import annotations

import ast
import inspect

import pytest

from companion import i18n
from companion.i18n import match_template
from companion.tamsk import corrections
from companion.tamsk.correction_words import KINDS, PROBLEMS, correction_refusal_in_words
from companion.tamsk.corrections import correction
from companion.tamsk.events import Event
from companion.tamsk.game import Game, Rules


def _problems_in_the_rules() -> list[str]:
    """Every problem text :mod:`companion.tamsk.corrections` can return, with each value it
    fills in replaced by ``X`` (read from its source, so a new refusal is never missed)."""
    tree = ast.parse(inspect.getsource(corrections))
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Return) and node.value is not None:
            value = node.value
            if isinstance(value, ast.Constant) and isinstance(value.value, str):
                out.append(value.value)
            elif isinstance(value, ast.JoinedStr):
                out.append("".join(
                    part.value if isinstance(part, ast.Constant) else "X"
                    for part in value.values))
    return out


def test_every_problem_the_rules_give_has_a_template_to_translate() -> None:
    problems = _problems_in_the_rules()
    assert len(problems) > 15
    for problem in problems:
        assert match_template(problem, PROBLEMS) is not None, problem


def test_every_correction_has_a_name_in_the_table_language() -> None:
    named = {getattr(corrections, n) for n in dir(corrections) if n.isupper()
             and isinstance(getattr(corrections, n), str)}
    assert set(KINDS) >= named & set(corrections._APPLY)
    assert set(KINDS) == set(corrections._APPLY)


def _refused(game: Game, event: Event) -> str:
    violation = game.apply(event)
    assert violation is not None
    return violation.detail


def test_a_refused_sand_correction_reads_in_french_with_its_numbers_kept() -> None:
    game = Game(Rules(level=3))
    detail = _refused(game, correction(1.0, "sand", "test", glass="r1", sand=500.0))
    assert detail == "sand: r1 holds at most 180 s, not 500"
    assert correction_refusal_in_words(detail) == detail
    i18n.use("fr")
    assert correction_refusal_in_words(detail) == "sable : r1 contient au plus 180 s, pas 500"


def test_a_refused_turn_correction_names_the_player_in_czech() -> None:
    game = Game(Rules(level=3))
    detail = _refused(game, correction(1.0, "turn", "test", player=game.turn))
    assert detail == f"turn: it is already {game.turn}'s turn"
    i18n.use("cs")
    who = "červený" if game.turn == "red" else "černý"
    assert correction_refusal_in_words(detail) == f"tah: {who} už je na tahu"


@pytest.mark.parametrize("lang", ["fr", "cs"])
def test_a_problem_the_list_does_not_know_is_shown_as_the_rules_wrote_it(lang: str) -> None:
    i18n.use(lang)
    assert correction_refusal_in_words("sand: a rule from next year").endswith(
        ": a rule from next year")
    assert correction_refusal_in_words("no colon at all") == "no colon at all"
