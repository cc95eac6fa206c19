"""``companion simulate``: the summary a person reads speaks the players' language; the JSON
contract (SCENARIOS.md) is the same in every language, and the English summary is unchanged."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion import cli

SCENARIOS = Path(__file__).resolve().parent / "scenarios"
GAMES = {
    "tamsk": SCENARIOS / "tamsk" / "s05_dead_glass_blocks_and_never_moves.jsonl",
    "tantrix": SCENARIOS / "tantrix" / "h02_step1_fill_accepted.jsonl",
    "tokami": sorted((SCENARIOS / "tokami").glob("*.jsonl"))[0],
}
#: A line of each game's summary, in English, French and Czech.
WORDS = {
    "tamsk": ("Rings left: red", "Anneaux restants : rouge", "Zbývající kroužky: červený"),
    "tantrix": ("Scores:", "Scores :", "Skóre:"),
    "tokami": ("blocks left on the cross", "blocs restent sur la croix", "na kříži zbývá"),
}


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    assert cli.main(list(argv)) == 0
    return capsys.readouterr().out


@pytest.mark.parametrize("game", sorted(GAMES))
def test_the_summary_is_in_the_players_language(game: str,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    path = str(GAMES[game])
    english, french, czech = WORDS[game]
    assert english in run(capsys, "simulate", path)
    fr = run(capsys, "--lang", "fr", "simulate", path)
    assert french in fr and english not in fr
    cs = run(capsys, "--lang", "cs", "simulate", path)
    assert czech in cs and english not in cs


@pytest.mark.parametrize("game", sorted(GAMES))
def test_the_json_contract_is_the_same_in_every_language(
        game: str, capsys: pytest.CaptureFixture[str]) -> None:
    path = str(GAMES[game])
    outputs = [json.loads(run(capsys, "--lang", lang, "simulate", "--json", path))
               for lang in ("en", "fr", "cs")]
    assert outputs[0] == outputs[1] == outputs[2]


def test_the_tamsk_summary_names_the_end_in_the_rule_book_words(
        capsys: pytest.CaptureFixture[str]) -> None:
    path = str(GAMES["tamsk"])
    assert "Game over: red (time-tiebreak)" in run(capsys, "simulate", path)
    assert "Partie finie : rouge (départage au temps)" in run(capsys, "--lang", "fr",
                                                              "simulate", path)
    assert "Konec hry: červený (rozhodnutí časem)" in run(capsys, "--lang", "cs",
                                                          "simulate", path)


def test_a_tantrix_solo_summary_is_in_the_players_language(
        capsys: pytest.CaptureFixture[str]) -> None:
    path = str(SCENARIOS / "tantrix" / "g37_gobble_solved.jsonl")
    assert "Tantrix Gobble solo: " in run(capsys, "simulate", path)
    assert "Tantrix Gobble solo : " in run(capsys, "--lang", "fr", "simulate", path)
    assert "VYŘEŠENO" in run(capsys, "--lang", "cs", "simulate", path)

