"""The journal: append-only, fsynced, hash-chained; torn tails dropped, edits caught."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion import journal
from companion.journal import JournalWriter, read_bytes, read_path
from companion.keys import SigningKey
from companion.scenario import MalformedInput
from companion.simulate import simulate_file
from companion.tamsk.game import Game, Rules
from companion.verify import verify_path
from tests.tamsk.strategies import event_sequences, rules

HEADER = {
    "game": "tamsk",
    "level": 3,
    "ruleset": "adjusted",
    "names": {"red": "Zoë", "black": "Jiří"},
}
EVENTS = [
    {"t": 2.5, "ev": "lift", "glass": "r1"},
    {"t": 3.0, "ev": "release", "glass": "r1", "to": "a2"},
    {"t": 3.2, "ev": "ring", "player": "red"},
    {"t": 6.0, "ev": "release", "glass": "b3", "to": "b5"},
    {"t": 9.0, "ev": "release", "glass": "b1", "to": "c1"},  # out of turn: refused, still journaled
]


#: The table's key these journals are signed with.
KEY = SigningKey.generate()


def write(path: Path, header: dict = HEADER, events: list = EVENTS) -> bytes:
    with JournalWriter.create(path, header, KEY) as w:
        for e in events:
            w.append(e)
    return path.read_bytes()


def test_every_record_is_one_canonical_line_chained_to_the_one_before(tmp_path: Path) -> None:
    data = write(tmp_path / "g.jsonl")
    lines = data.decode().splitlines()
    assert len(lines) == 1 + len(EVENTS)
    prev = journal.GENESIS
    for seq, line in enumerate(lines):
        rec = json.loads(line)
        assert rec["seq"] == seq and rec["prev"] == prev
        prev = rec["hash"]
    assert "Zoë" in lines[0]  # names stay readable, not escaped


def test_a_journal_folds_back_into_the_same_state_as_its_events(tmp_path: Path) -> None:
    path = tmp_path / "g.jsonl"
    write(path)
    from companion.tamsk.events import parse_event

    game = Game(Rules(level=3))
    for e in EVENTS:
        game.apply(parse_event(e, e["t"]))
    assert simulate_file(path) == game.snapshot()


def test_refused_inputs_are_recorded_and_refused_again_on_replay(tmp_path: Path) -> None:
    path = tmp_path / "g.jsonl"
    write(path)
    state = simulate_file(path)
    assert [v["kind"] for v in state["violations"]] == ["out-of-turn"]


def test_create_refuses_to_overwrite_a_journal(tmp_path: Path) -> None:
    path = tmp_path / "g.jsonl"
    write(path)
    with pytest.raises(FileExistsError):
        JournalWriter.create(path, HEADER)


def test_a_torn_last_line_is_dropped_with_a_note_and_nothing_before_it_is_lost(
    tmp_path: Path,
) -> None:
    path = tmp_path / "g.jsonl"
    data = write(path)
    torn = data + b'{"t":12.0,"ev":"li'
    j = read_bytes(torn)
    assert j.torn is not None and j.torn.line == len(EVENTS) + 2
    assert [e for _, e in j.events] == EVENTS
    assert not j.problems


def test_resume_keeps_the_torn_bytes_aside_and_continues_the_chain(tmp_path: Path) -> None:
    path = tmp_path / "g.jsonl"
    data = write(path)
    path.write_bytes(data + b'{"t":12.0,"ev":"li')
    writer, j = JournalWriter.resume(path, KEY)
    assert j.torn is not None
    writer.append({"t": 12.5, "ev": "lift", "glass": "b3"})
    writer.close()
    assert (tmp_path / "g.jsonl.torn").read_bytes() == b'{"t":12.0,"ev":"li'
    again = read_path(path)
    assert again.intact
    assert again.events[-1][1] == {"t": 12.5, "ev": "lift", "glass": "b3"}
    assert verify_path(path).ok


def test_verify_names_the_line_of_an_edited_record(tmp_path: Path) -> None:
    path = tmp_path / "g.jsonl"
    data = write(path)
    path.write_bytes(data.replace(b'"to":"a2"', b'"to":"b2"'))
    verdict = verify_path(path)
    assert not verdict.ok
    assert [p.line for p in verdict.journal.problems] == [3]
    assert "edited" in verdict.report()


def test_verify_catches_a_removed_record(tmp_path: Path) -> None:
    path = tmp_path / "g.jsonl"
    lines = write(path).splitlines(keepends=True)
    path.write_bytes(b"".join(lines[:2] + lines[3:]))
    verdict = verify_path(path)
    assert not verdict.ok
    assert verdict.journal.problems[0].kind == "chain"
    assert verdict.journal.problems[0].line == 3


def test_verify_catches_two_records_swapped(tmp_path: Path) -> None:
    path = tmp_path / "g.jsonl"
    lines = write(path).splitlines(keepends=True)
    lines[2], lines[3] = lines[3], lines[2]
    path.write_bytes(b"".join(lines))
    assert not verify_path(path).ok


@pytest.fixture(scope="module")
def sample(tmp_path_factory: pytest.TempPathFactory) -> bytes:
    return write(tmp_path_factory.mktemp("j") / "g.jsonl")


@settings(
    max_examples=400, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(data=st.data())
def test_any_single_byte_change_is_caught_by_verify(
    sample: bytes, data: st.DataObject, tmp_path: Path
) -> None:
    offset = data.draw(st.integers(0, len(sample) - 1))
    new = data.draw(st.integers(0, 255).filter(lambda b: b != sample[offset]))
    changed = sample[:offset] + bytes([new]) + sample[offset + 1 :]
    path = tmp_path / "changed.jsonl"
    path.write_bytes(changed)
    try:  # the chain, or (a byte of a signature) the signature check, or the readers' limits
        assert not verify_path(path, key=KEY.public).ok
    except MalformedInput:
        pass


def test_truncating_at_every_byte_offset_never_raises_nor_loses_a_complete_record(
    sample: bytes,
) -> None:
    ends = [i + 1 for i, b in enumerate(sample) if b == ord("\n")]
    for cut in range(len(sample) + 1):
        j = read_bytes(sample[:cut])
        complete = sum(1 for end in ends if end <= cut)
        kept = (1 if j.header is not None else 0) + len(j.events)
        assert kept == complete, cut
        assert not j.problems or cut == 0
        assert (j.torn is None) == (cut in ends or cut == 0)


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(r=rules, events=event_sequences(max_size=40))
def test_journal_round_trip_gives_the_same_state(tmp_path: Path, r: Rules, events: list) -> None:
    header = {
        "game": "tamsk",
        "level": r.level,
        "ruleset": r.ruleset,
        "start": r.start,
        "periods": {**dict(r.periods), "timer15": r.timer_period},
    }
    path = tmp_path / "round-trip.jsonl"
    path.unlink(missing_ok=True)
    with JournalWriter.create(path, header) as w:
        for e in events:
            w.append(e.to_dict())
    direct = Game(r)
    direct.apply_all(events)
    expected = direct.snapshot(events[-1].t if events else 0.0)
    assert simulate_file(path) == expected
    path.unlink()
