"""A replay picture's side panel in every language: no word over another, over a bar or off
the picture (a Czech ``ztracené`` once covered the sand figure, ``červený`` touched the rings
bar, and a long heading ran under the clock)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from pathlib import Path

import pytest

from companion import i18n
from companion.replay import bitmap, load
from companion.replay.kinds import of
from companion.replay.shapes import Rect, Shape, Text

SCENARIOS = Path(__file__).resolve().parents[1] / "scenarios"
#: Every Tamsk game (its panel holds the most words) and a few of each other game.
GAMES = [*sorted((SCENARIOS / "tamsk").glob("*.jsonl")),
         *sorted((SCENARIOS / "tokami").glob("*.jsonl"))[:6],
         *sorted((SCENARIOS / "tantrix").glob("*.jsonl"))[:6]]

Box = tuple[float, float, float, float]


def flat(shapes: Iterable[Shape]) -> Iterator[Shape]:
    for shape in shapes:
        children = getattr(shape, "children", None)
        if children is not None:
            yield from flat(children)
        else:
            yield shape


def text_box(t: Text) -> Box:
    """The pixels a text's capitals take (descenders may meet the next line)."""
    w = bitmap.width(t.text, t.scale)
    x = t.x - (w if t.anchor[0] == "r" else w // 2 if t.anchor[0] == "m" else 0)
    y = t.y - (bitmap.CAP_HEIGHT * t.scale) // 2 if t.anchor[1] == "m" else t.y
    return x, y, x + w - 2, y + bitmap.CAP_HEIGHT * t.scale - 1


def meet(a: Box, b: Box) -> bool:
    return a[0] <= b[2] and b[0] <= a[2] and a[1] <= b[3] and b[1] <= a[3]


def panel_defects(path: Path, lang: str) -> list[str]:
    i18n.use(lang)
    try:
        replay = load(str(path))
        kind = of(replay.game)
        width, _height = kind.size(replay)
        found = []
        for frame_shapes in kind.dynamics(replay):
            shapes = list(flat(frame_shapes))
            texts = [s for s in shapes if isinstance(s, Text) and s.text.strip()
                     and s.x > width // 2]  # the panel: the right of the picture
            bars = [s for s in shapes if isinstance(s, Rect) and s.x0 > width // 2
                    and 4 <= s.y1 - s.y0 <= 10 and s.x1 - s.x0 > 20]
            for i, t in enumerate(texts):
                box = text_box(t)
                if box[0] < 0 or box[2] > width:
                    found.append(f"off the picture: {t.text!r}")
                found += [f"{t.text!r} over {u.text!r}" for u in texts[i + 1 :]
                          if meet(box, text_box(u))]
                found += [f"{t.text!r} over a bar" for r in bars
                          if meet(box, (r.x0, r.y0, r.x1, r.y1))]
        return sorted(set(found))
    finally:
        i18n.reset()


@pytest.mark.parametrize("lang", ["en", "fr", "cs"])
@pytest.mark.parametrize("path", GAMES, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_no_word_of_the_panel_is_drawn_over_another_or_a_bar(path: Path, lang: str) -> None:
    assert panel_defects(path, lang) == []
