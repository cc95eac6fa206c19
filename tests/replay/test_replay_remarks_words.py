"""The rules' remarks on each move (a glass lost, a refusal, the end) in the players' language.

The folds write each remark as a :class:`~companion.remark.Remark`: it is the English text the
notation file keeps for good, and it knows its message id, so a replay's page, text and picture
say it in French or Czech. These tests replay the project's scenario files.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from companion import i18n
from companion.remark import Remark
from companion.replay import load
from companion.replay.text import frame_text, move_list
from tests.replay.games import SCENARIOS, scenario

ALL = sorted(SCENARIOS.glob("*/*.jsonl"))
CATALOGS = {lang: i18n.LOCALE_DIR / lang / "LC_MESSAGES" / "companion.po" for lang in ("fr", "cs")}


def catalog_ids(lang: str) -> set[str]:
    from babel.messages.pofile import read_po

    with CATALOGS[lang].open("rb") as f:
        return {str(m.id) for m in read_po(f) if m.id and m.string}


def remarks(path: Path) -> list[Remark]:
    return [m for f in load(path).frames for m in f.marks if isinstance(m, Remark)]


@pytest.mark.parametrize("path", ALL, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_every_remark_of_a_replay_knows_its_message_and_the_catalogs_translate_it(
        path: Path) -> None:
    replay = load(path)
    marks = [m for f in replay.frames for m in f.marks]
    assert all(isinstance(m, Remark) for m in marks), [m for m in marks
                                                        if not isinstance(m, Remark)]
    for lang in ("fr", "cs"):
        missing = {m.msgid for m in marks if m.words is None} - catalog_ids(lang)
        assert missing == set(), f"{lang}: {missing}"


@pytest.mark.parametrize("path", ALL, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_the_notation_keeps_the_remarks_in_english_whatever_the_language(path: Path) -> None:
    english = load(path).notation()
    i18n.use("cs")
    assert load(path).notation() == english


def test_a_lost_glass_and_a_refusal_are_said_in_french_and_czech() -> None:
    path = scenario("s05_dead_glass_blocks_and_never_moves")
    english = frame_text(load(path), load(path).frames[7])
    assert "b1 ran out of sand at 0:25.0: lost" in english
    i18n.use("fr")
    replay = load(path)
    assert "b1 s'est écoulé à 0:25,0 : perdu" in frame_text(replay, replay.frames[7])
    assert "refusé : e1 est occupée par b1 (un sablier perdu)" in move_list(replay)
    assert "Partie finie : rouge gagne (départage au temps)" in move_list(replay)
    i18n.use("cs")
    replay = load(path)
    assert "b1 se vysypaly v 0:25,0: ztraceny" in frame_text(replay, replay.frames[7])
    assert "odmítnuto: " in move_list(replay)
    assert "Konec hry: vyhrává červený (rozhodnutí časem)" in move_list(replay)


def test_the_english_remark_is_the_notation_comment_byte_for_byte() -> None:
    path = scenario("s05_dead_glass_blocks_and_never_moves")
    comments = [line.comment for line in load(path).lines if line.comment]
    assert "game over: red wins (time-tiebreak)" in comments[-1]
    i18n.use("fr")
    assert [line.comment for line in load(path).lines if line.comment] == comments


def test_tantrix_forced_spaces_and_the_end_are_said_in_the_players_language() -> None:
    path = next(p for p in ALL if p.parent.name == "tantrix"
                and any("forced space" in m for m in remarks(p)))
    english = [str(m) for m in remarks(path)]
    i18n.use("fr")
    french = [i18n.say(m) for m in remarks(path)]
    assert any("espace" in m and "forcé" in m for m in french)
    i18n.use("cs")
    czech = [i18n.say(m) for m in remarks(path)]
    assert any("vynucen" in m for m in czech)
    assert [str(m) for m in remarks(path)] == english


def test_tokami_scores_and_the_forbidden_block_are_said_in_the_players_language() -> None:
    path = next(p for p in ALL if p.parent.name == "tokami"
                and any("is forbidden to" in m for m in remarks(p)))
    i18n.use("fr")
    french = [i18n.say(m) for m in remarks(path)]
    assert any("est interdit à" in m for m in french)
    assert any(", total " in m and " : " in m for m in french)
    i18n.use("cs")
    czech = [i18n.say(m) for m in remarks(path)]
    assert any("je zakázaná pro hráče" in m for m in czech)
    assert any("celkem" in m for m in czech)


def test_a_remark_in_english_is_said_exactly_as_written() -> None:
    remark = Remark("{player} passes", player=Remark("red", context="player"))
    assert remark == "red passes" and i18n.say(remark) == "red passes"
    i18n.use("cs")
    assert i18n.say(remark) == "červený vynechává tah"
