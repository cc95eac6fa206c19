"""``make demo``'s closing words agree with the records it points to."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from companion import cli
from companion.simulate import simulate_file
from companion.tamsk.demo import main as demo_main
from companion.tamsk.simulate import summary


def test_the_demo_shows_the_final_position_at_the_time_the_replay_shows_it(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert demo_main(600.0, None, tmp_path) == 0
    said = capsys.readouterr().out
    journal = next(tmp_path.glob("tamsk-*.jsonl"))
    assert summary(simulate_file(journal)) in said  # what `companion simulate` prints
    demo_time = re.search(r"\) at (\d+:\d\d\.\d)\n", said)
    assert demo_time is not None, said
    assert cli.main(["replay", str(journal)]) == 0  # no terminal: every position, last last
    replayed = capsys.readouterr().out
    last = replayed.rsplit("-" * 72, 1)[1].strip().splitlines()[0]  # the last position's heading
    assert f"[{demo_time.group(1)}]" in last, (demo_time.group(1), last)
    # each record the demo echoes carries the time the replay shows for it
    first_move = re.search(r"journal +\d+ @(\d+:\d\d\.\d): \{'t': [\d.]+, 'ev': 'release'", said)
    assert first_move is not None, said[:500]
    move_1 = replayed.split("Tamsk move 1 of ", 1)[1].splitlines()[0]
    assert move_1.endswith(f"@{first_move.group(1)}"), (first_move.group(1), move_1)


def test_the_demo_says_its_summary_in_the_players_language(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from companion import i18n

    i18n.use("cs")
    assert demo_main(600.0, None, tmp_path) == 0
    said = capsys.readouterr().out
    assert "Zbývající kroužky: červený" in said
    assert "Rings left" not in said
