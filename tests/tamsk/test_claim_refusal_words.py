"""A claim after the claimant's own move is refused with words that name the rule ("the claim
came after your own move"), wherever the refusal is read: on the table's screen (English, French,
Czech), in ``companion simulate`` (its JSON and its summary), in the replay and in the arbiter's
dispute account. The game is scenario s45: black moved b2 before red set his late r1 down, and
black's ring at 41.5 would claim r1's.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from companion import i18n
from companion.clock import FakeClock
from companion.config import defaults
from companion.replay import load
from companion.replay.text import frame_text
from companion.scenario import parse_lines
from companion.tamsk.arbiter import dispute
from companion.tamsk.game import Rules
from companion.tamsk.kind import KIND
from companion.tamsk.simulate import simulate
from companion.tamsk.table import RawInput, Table

GAME = Path(__file__).resolve().parents[1] / "scenarios" / "tamsk" / (
    "s45_claim_after_own_move_refused.jsonl")
ENGLISH = "the claim came after your own move: r1's ring is claimed before you lift a glass"
#: The refusal, and its rule's name, as each language says them.
WORDS = {
    "en": (ENGLISH, "claim-after-own-move"),
    "fr": ("réclamation après votre propre coup : l'anneau de r1 se réclame avant de lever un "
           "sablier", "réclamé après son coup"),
    "cs": ("nárok přišel až po vašem vlastním tahu: kroužek na r1 se nárokuje dřív, než "
           "zvednete hodiny", "nárok až po vlastním tahu"),
}


def scenario() -> tuple[dict[str, Any], list[tuple[int, dict[str, Any]]]]:
    parsed = parse_lines(GAME.read_text(encoding="utf-8").splitlines())
    return dict(parsed.header), list(parsed.events)


def refused_claim(result: dict[str, Any]) -> dict[str, Any]:
    [v] = result["violations"]
    return dict(v)


@pytest.mark.parametrize("lang", sorted(WORDS))
def test_at_the_table_the_screen_says_the_claim_came_after_his_own_move(
    tmp_path: Path, lang: str
) -> None:
    """The table plays the game as its sensors and keypad give it; black presses B (his ring)
    after red's late release: the screen shows the refusal in the players' language."""
    i18n.use(lang)
    clock = FakeClock()
    table = Table(clock, tmp_path, config=defaults(), sound=lambda pattern: None)
    table.start_game(Rules(level=3, ruleset="adjusted"))
    _, events = scenario()
    for _line, body in events:
        clock.set(table.mono0 + float(body["t"]))
        table.poll()
        if body == {"t": 41.5, "ev": "ring", "player": "black"}:
            table.feed(RawInput("key", "B", True, clock.now()))
            assert table.view()["error"] == WORDS[lang][0]
            break
        table.submit(clock.now(), {k: v for k, v in body.items() if k != "t"})
        assert table.view()["error"] is None, body
    else:
        pytest.fail("black's claim is not in the game")
    game = table.game
    assert game is not None and game.violations[-1].kind == "claim-after-own-move"


def test_simulate_reports_the_claim_as_refused_by_its_rule() -> None:
    header, events = scenario()
    v = refused_claim(simulate(header, events))
    assert (v["t"], v["player"], v["kind"], v["detail"]) == (
        41.5, "black", "claim-after-own-move", ENGLISH)


@pytest.mark.parametrize("lang", sorted(WORDS))
def test_simulates_summary_says_the_refusal_in_the_players_language(lang: str) -> None:
    header, events = scenario()
    result = simulate(header, events)
    i18n.use(lang)
    detail, rule = WORDS[lang]
    lines = [line for line in KIND.summary(result).splitlines() if detail in line]
    assert len(lines) == 1 and rule in lines[0], KIND.summary(result)


@pytest.mark.parametrize("lang", sorted(WORDS))
def test_the_replay_shows_the_refusal_and_its_rule(lang: str) -> None:
    replay = load(GAME)
    i18n.use(lang)
    detail, rule = WORDS[lang]
    text = frame_text(replay, replay.frames[-1])
    assert f"{detail} ({rule})" in text, text


def test_the_arbiters_dispute_account_names_the_rule_at_the_moment_asked_about() -> None:
    header, events = scenario()
    lines = dispute(header, events, moment=41.5, lo=40.0, hi=43.0)
    at = next(i for i, line in enumerate(lines) if "<== the moment asked about" in line)
    assert "ring player=black" in lines[at]
    assert lines[at + 1].strip() == f"REFUSED (claim-after-own-move): {ENGLISH}"
