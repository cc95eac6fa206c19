"""The arbiter's corrections at a keypad table are honoured wherever the game is folded again:
the table's own state, its resume after a restart, the page's mirror and the replay all agree
with ``companion simulate`` (issue 15). No broker: the signed command is handed to the hooks
as the MQTT thread hands it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from companion.arbiter.commands import make_command
from companion.arbiter.hooks import ArbiterHooks
from companion.arbiter.kinds import arbiter_for
from companion.arbiter.station import game_id_of
from companion.clock import FakeClock
from companion.config import defaults
from companion.inputs import RawInput
from companion.journal import read_path
from companion.replay.model import load
from companion.simulate import simulate_file
from companion.tables import make_table, start_configured_game
from tests.arbiter.keys import ARBITER, table_arbiter


class Rig:
    """A keypad table with its arbiter hooks; the answers it would publish are collected."""

    def __init__(self, folder: Path, kind: str, **section: Any) -> None:
        folder.mkdir(parents=True, exist_ok=True)
        self.folder = folder
        self.clock = FakeClock()
        self.config = defaults()
        self.config["game"]["kind"] = kind
        self.config["table"]["number"] = 3
        self.config["arbiter"].update(table_arbiter())
        if section:
            self.config[kind] = section
        self.hooks = ArbiterHooks(self.config, self.clock)
        self.table: Any = make_table(self.config, self.clock, folder)
        start_configured_game(self.table, self.config)
        self.hooks.attach(self.table)
        self.answers: list[dict[str, Any]] = []
        self.hooks._answer = lambda outcome: self.answers.append(  # type: ignore[method-assign]
            outcome.to_dict())

    def keys(self, keys: str) -> None:
        for k in keys:
            self.clock.advance(1.0)
            self.table.feed(RawInput("key", k, True, self.clock.now()))

    def correct(self, correction: dict[str, Any]) -> dict[str, Any]:
        game = game_id_of(self.table.journal_path)
        assert game is not None
        command = make_command(correction, table=3, game=game, key=ARBITER,
                               issued=self.clock.wall())
        self.hooks._command_arrived(json.dumps(command).encode())
        return self.answers[-1]

    def resumed(self) -> Any:
        """The same journal resumed by a fresh table (the daemon after a restart)."""
        path = self.table.journal_path
        self.table.close()
        again: Any = make_table(self.config, FakeClock(), self.folder)
        again.resume(path)
        return again

    def mirrored(self) -> dict[str, Any]:
        """The page's mirror fed the journal's records one by one."""
        journal = read_path(self.table.journal_path)
        assert journal.header is not None
        facet = arbiter_for(journal.header["game"])
        assert facet is not None
        mirror = facet.mirror(journal.header)
        assert mirror is not None
        for _, record in journal.events:
            mirror.apply(record)
        return mirror.snapshot()

    def replayed(self) -> dict[str, Any]:
        state: dict[str, Any] = load(self.table.journal_path).frames[-1].state
        return state


def test_a_tantrix_take_back_is_honoured_live_on_resume_in_the_mirror_and_the_replay(
    tmp_path: Path,
) -> None:
    rig = Rig(tmp_path, "tantrix")
    rig.keys("12##")
    assert rig.table.game.placed == 1
    assert rig.correct({"what": "take-back", "reason": "typed the wrong tile"})["ok"] is True
    assert rig.table.game.placed == 0 and rig.table.view()["tiles"] == []
    assert simulate_file(rig.table.journal_path)["placed"] == 0
    assert rig.mirrored()["placed"] == 0
    assert rig.replayed()["placed"] == 0
    assert rig.resumed().game.placed == 0


def test_after_a_tantrix_move_correction_the_keypad_plays_on_from_the_corrected_game(
    tmp_path: Path,
) -> None:
    rig = Rig(tmp_path, "tantrix")
    rig.keys("12##")
    answer = rig.correct({"what": "move", "tile": 12, "q": 0, "r": 0, "rot": 3,
                          "reason": "it was turned"})
    assert answer["ok"] is True
    assert rig.table.view()["tiles"][0]["rot"] == 3
    assert rig.table.entry.game.placements == rig.table.game.placements  # the keypad's twin


def test_a_tantrix_result_correction_ends_the_game_with_a_final_record(tmp_path: Path) -> None:
    rig = Rig(tmp_path, "tantrix")
    rig.keys("12##")
    assert rig.correct({"what": "result", "winner": "red", "reason": "yellow resigned"})["ok"]
    view = rig.table.view()
    assert view["over"] and view["winner"] == "red" and view["reason"] == "arbiter"
    last = json.loads(rig.table.journal_path.read_text().splitlines()[-1])
    assert last["final"]["winner"] == "red"
    assert rig.mirrored()["winner"] == "red" and rig.replayed()["winner"] == "red"
    resumed = rig.resumed()
    assert resumed.ended and resumed.view()["winner"] == "red"


def test_with_hands_only_the_result_correction_is_taken_the_rest_answered_why(
    tmp_path: Path,
) -> None:
    rig = Rig(tmp_path, "tantrix", players=["red", "yellow"], hands=True)
    answer = rig.correct({"what": "turn", "player": "yellow", "reason": "skipped"})
    assert answer["ok"] is False and "with hands" in answer["detail"]
    assert rig.correct({"what": "result", "winner": "tie", "reason": "agreed"})["ok"] is True


def test_a_tokami_score_correction_is_honoured_live_on_resume_in_the_mirror_and_the_replay(
    tmp_path: Path,
) -> None:
    rig = Rig(tmp_path, "tokami")
    second = rig.table.game.players[1]
    answer = rig.correct({"what": "score", "player": second, "points": 4, "reason": "miscount"})
    assert answer["ok"] is True
    assert rig.table.view()["standings"][0] == [second, 4]
    assert simulate_file(rig.table.journal_path)["standings"][0] == [second, 4]
    assert rig.mirrored()["standings"][0] == [second, 4]
    assert rig.replayed()["standings"][0] == [second, 4]
    assert rig.resumed().view()["standings"][0] == [second, 4]


def test_a_tokami_turn_correction_the_rules_refuse_changes_nothing_and_says_why(
    tmp_path: Path,
) -> None:
    rig = Rig(tmp_path, "tokami")
    answer = rig.correct({"what": "turn", "index": 3, "turn": {"ev": "higher", "block": "red"},
                          "reason": "?"})
    assert answer["ok"] is False and "there is no turn 3" in answer["detail"]
    assert simulate_file(rig.table.journal_path)["violations"][-1]["kind"] == "correction"


def test_a_correction_of_the_wrong_shape_is_refused_before_the_journal(tmp_path: Path) -> None:
    rig = Rig(tmp_path, "tokami")
    answer = rig.correct({"what": "score", "player": "nobody", "reason": "no points given"})
    assert answer["ok"] is False and '"points"' in answer["detail"]
    records = [json.loads(x) for x in rig.table.journal_path.read_text().splitlines()]
    assert not any(r.get("ev") == "correct" for r in records)
    assert records[-1]["arbiter"] == "correction-refused"


def test_the_tournament_demo_s_corrections_are_ones_these_tables_take(tmp_path: Path) -> None:
    from companion.tantrix import club_demo as tantrix_demo
    from companion.tokami import club_demo as tokami_demo

    tantrix = Rig(tmp_path / "tantrix", "tantrix")
    tantrix.keys("12##")
    assert tantrix.correct(dict(tantrix_demo.DEMO_CORRECTION))["ok"] is True
    tokami = Rig(tmp_path / "tokami", "tokami")
    assert tokami.correct(dict(tokami_demo.DEMO_CORRECTION))["ok"] is True
    assert simulate_file(tokami.table.journal_path)["notes"] == ["demo: the arbiter watched "
                                                                 "this turn"]
