"""The Tokami replay picture says each thing once."""

from __future__ import annotations

from companion.replay import load
from companion.replay.shapes import Text
from companion.tokami import picture as pic
from tests.replay.games import SCENARIOS


def test_the_last_picture_says_who_won_once_and_keeps_the_final_scores() -> None:
    replay = load(SCENARIOS / "tokami" / "k11_several_rounds_add_up.jsonl")
    frame = replay.frames[-1]
    texts = [s.text for s in pic.shapes(frame) if isinstance(s, Text)]
    assert sum("wins" in t for t in texts) == 1, texts
    assert any("final scores: Anna 0, Ben -2" in t for t in texts), texts
