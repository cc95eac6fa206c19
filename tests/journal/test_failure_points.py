"""A failure-point test in the spirit of SQLite's: a real journal is cut at a byte offset (a
power cut) and followed by what an SD card can leave there, then the table starts the way the
daemon does (find the game, take it up, or start a new one).

Every time: no acknowledged record is lost (a record is acknowledged once its line, newline
included, is on disk), no record the table did not write is folded (no phantom), the table
starts, and the journal it goes on with is intact again (verify passes).

The suite draws offsets with hypothesis; ``make failure-points`` runs every offset with every
kind of garbage (``FAILURE_POINTS=all``).
"""

from __future__ import annotations

import os
import random
import shutil
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from unittest import mock

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion import journal
from companion.clock import FakeClock
from companion.config import defaults
from companion.current import game_to_resume
from companion.daemon import take_up
from companion.journal import TORN_SUFFIX, read_path
from companion.tables import make_table
from tests.daemon.harness import make_rig


def _random(rng: random.Random) -> bytes:
    return rng.randbytes(rng.randint(1, 200))


def _brace(rng: random.Random) -> bytes:
    """Garbage that closes the cut line as JSON would: the phantom record of old."""
    return rng.choice([b"}\n", b'"}\n', b'"},"x":1}\n', rng.randbytes(rng.randint(1, 80)) + b"}\n"])


def _lines(rng: random.Random) -> bytes:
    return b"\n".join(rng.randbytes(rng.randint(0, 60)) for _ in range(rng.randint(2, 5)))


def _zeros(rng: random.Random) -> bytes:
    return b"\0" * rng.choice([1, 512, 4096]) + rng.choice([b"", b"\n"])


#: What follows the cut: nothing, random bytes, garbage ending in ``}\n``, garbage with
#: newlines, and a block of zeros (what a card often leaves).
GARBAGE: dict[str, Callable[[random.Random], bytes]] = {
    "none": lambda rng: b"",
    "random": _random,
    "ending in }\\n": _brace,
    "with newlines": _lines,
    "zeros": _zeros,
}


#: The table's key folder (JOURNAL_DIR/keys), shared by every cut: the journal is signed.
KEYS: list[Path] = []


@pytest.fixture(scope="module")
def real_journal(tmp_path_factory: pytest.TempPathFactory) -> bytes:
    """A short game played on the table (gpiozero mock pins, fake clock): its journal."""
    rig = make_rig(tmp_path_factory.mktemp("game"))
    rig.flip(1.0, "r1")
    rig.press(2.0, "ring.red")
    rig.flip(5.0, "b1")
    rig.press(6.0, "ring.black")
    rig.flip(9.0, "r2")
    rig.run(until=12)
    path = rig.table.journal_path
    assert path is not None
    KEYS[:] = [path.parent / "keys"]
    return path.read_bytes()


@pytest.fixture(autouse=True)
def no_fsync() -> Iterator[None]:
    """What is checked here is what is read back, not the disk: skip the (slow) syncs."""
    with mock.patch.object(os, "fsync"), mock.patch.object(journal, "_sync"):
        yield


def check_cut(sample: bytes, cut: int, garbage: bytes) -> None:
    """Cut ``sample`` at ``cut``, add ``garbage``, start the table on it, and check."""
    originals = [body for _, body in journal.read_bytes(sample).events]
    acked_events = sum(1 for i in range(cut) if sample[i] == ord("\n")) - 1
    folder = Path(tempfile.mkdtemp(prefix="cut-"))
    try:
        shutil.copytree(KEYS[0], folder / "keys")  # the same table, the same key
        path = folder / "tamsk-t1-20260921-141320.jsonl"
        damaged = sample[:cut] + garbage
        path.write_bytes(damaged)
        table = make_table(defaults(), FakeClock(), folder)
        found = game_to_resume(folder, "tamsk", 1)
        if found is None:  # the header itself is gone: the daemon starts a new game
            assert acked_events < 0, (cut, garbage)
            assert not take_up(table, path)
            return
        assert found == path
        assert take_up(table, path), (cut, garbage)
        table.close()
        again = read_path(path)
        assert again.intact, (cut, garbage, again.problems, again.torn)
        kept = [body for _, body in again.events]
        note = kept.pop()
        assert note["ev"] == "note" and str(note["text"]).startswith("resumed after")
        assert len(kept) >= acked_events, (cut, garbage)  # nothing acknowledged lost
        assert kept == originals[: len(kept)], (cut, garbage)  # no phantom
        _check_torn(path, damaged)
    finally:
        shutil.rmtree(folder)


def _check_torn(path: Path, damaged: bytes) -> None:
    """What was cut off is in FILE.torn, byte for byte: journal (before the note) + torn is
    what the card held."""
    data = path.read_bytes()
    before_note = data[: data.rindex(b"\n", 0, len(data) - 1) + 1]
    torn = path.with_name(path.name + TORN_SUFFIX)
    cut_off = torn.read_bytes() if torn.exists() else b""
    assert before_note + cut_off == damaged


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(data=st.data())
def test_a_cut_at_any_byte_then_any_garbage_loses_nothing_acknowledged_and_folds_no_phantom(
    real_journal: bytes, data: st.DataObject
) -> None:
    cut = data.draw(st.integers(0, len(real_journal)), label="cut")
    kind = data.draw(st.sampled_from(sorted(GARBAGE)), label="garbage")
    seed = data.draw(st.integers(0, 2**32 - 1), label="seed")
    check_cut(real_journal, cut, GARBAGE[kind](random.Random(seed)))


def test_a_cut_at_every_line_end_and_one_byte_either_side(real_journal: bytes) -> None:
    ends = [i + 1 for i, b in enumerate(real_journal) if b == ord("\n")]
    for end in [0, *ends]:
        for cut in {max(0, end - 1), end, min(len(real_journal), end + 1)}:
            for kind, make in GARBAGE.items():
                check_cut(real_journal, cut, make(random.Random(f"{cut} {kind}")))


@pytest.mark.skipif(
    os.environ.get("FAILURE_POINTS") != "all", reason="every offset: make failure-points"
)
def test_every_byte_offset_with_every_garbage(real_journal: bytes) -> None:
    cases = 0
    for cut in range(len(real_journal) + 1):
        for kind, make in GARBAGE.items():
            check_cut(real_journal, cut, make(random.Random(f"{cut} {kind}")))
            cases += 1
    print(f"\n{cases} failure points ({len(real_journal) + 1} offsets x {len(GARBAGE)} garbage)")
