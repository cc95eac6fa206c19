"""Games for the replay tests: the project's scenario files, journals written with the real
journal writer, and random event sequences (hypothesis)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from hypothesis import strategies as st

from companion.journal import JournalWriter
from companion.tamsk.board import SPACES

ROOT = Path(__file__).resolve().parents[1]
SCENARIOS = ROOT / "scenarios"
TAMSK = sorted((SCENARIOS / "tamsk").glob("*.jsonl"))
TANTRIX = sorted((SCENARIOS / "tantrix").glob("*.jsonl"))
REFERENCE = ROOT / "reference" / "replay"

GLASSES = ("r1", "r2", "r3", "b1", "b2", "b3")
PLAYERS = ("red", "black")


def scenario(name: str) -> Path:
    """A scenario file by its name without the extension, e.g. ``p01_opening_and_claim``."""
    game = "tamsk" if name[0] in "ps" else "tantrix"
    return SCENARIOS / game / f"{name}.jsonl"


def journal(path: Path, header: dict[str, Any], events: list[dict[str, Any]]) -> Path:
    """A real hash-chained journal, with the wall clock and source fields the daemon adds."""
    with JournalWriter.create(path, header) as w:
        for e in events:
            w.append({**e, "wall": 1_790_000_000.0 + float(e.get("t", 0)), "src": "table"})
    return path


#: Times as journals hold them: whole seconds, tenths, microseconds, float sums, tiny values.
times = st.one_of(
    st.integers(0, 600).map(float),
    st.floats(0, 600, allow_nan=False, allow_infinity=False),
    st.sampled_from((0.1 + 0.2, 1e-7, 59.99999999, 60.0, 83.057305, 3599.9)),
)


@st.composite
def tamsk_events(draw: st.DrawFn, max_size: int = 30) -> list[dict[str, Any]]:
    """Valid Tamsk inputs in time order, legal or not: whatever a table may record."""
    stamps = sorted(draw(st.lists(times, min_size=0, max_size=max_size)))
    out: list[dict[str, Any]] = []
    for t in stamps:
        kind = draw(st.sampled_from(("lift", "release", "release", "ring", "ring", "timer15",
                                     "pass", "putback", "note", "end")))
        e: dict[str, Any] = {"t": t, "ev": kind}
        if kind in ("lift", "release", "putback"):
            e["glass"] = draw(st.sampled_from(GLASSES))
        if kind == "release" and draw(st.booleans()):
            e["to"] = draw(st.sampled_from(SPACES))
        if kind in ("ring", "timer15", "pass"):
            e["player"] = draw(st.sampled_from(PLAYERS))
        if kind == "ring" and draw(st.integers(0, 3)) == 0:
            e["space"] = draw(st.sampled_from(SPACES))
        if kind == "note":
            e["text"] = draw(st.text(max_size=12))
        out.append(e)
    return out
