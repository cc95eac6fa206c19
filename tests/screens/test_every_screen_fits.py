"""Every screen of every game, in English, French and Czech, shows whole what a player needs.

The screens are the ones players really meet (``every_screen.py``: tables played key by key,
the Tamsk views and menus), each drawn on the one-bit 128x64 panel and the 128x128 colour one;
:func:`tests.screens.fitting.defects` reads each frame: no line cut (a player's name in a row
of standings excepted), none off the picture or over another, every key offered on screen.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest

from companion import i18n
from tests.screens import every_screen
from tests.screens.every_screen import PANELS, Shown
from tests.screens.fitting import defects, drawn, players_of

FAMILIES: dict[str, Callable[[], Iterator[Shown]]] = {
    "tokami": every_screen.tokami_screens,
}


def unreadable(shown: Shown) -> list[str]:
    """The defects of ``shown`` on both panels, each named with where it was met."""
    found = []
    # A refusal takes the question's place until the next key (any key clears it).
    entry = shown.view.get("entry") or {}
    choices = [] if shown.view.get("error") else entry.get("choices") or []
    for size, mode in PANELS:
        frame = drawn(lambda: shown.image(size, mode))  # noqa: B023 - drawn at once
        for defect in defects(frame, names=players_of(shown.view), choices=choices):
            found.append(f"{size[0]}x{size[1]} {shown.where}: {defect}")
    return found


@pytest.mark.parametrize("lang", ["en", "fr", "cs"])
@pytest.mark.parametrize("family", sorted(FAMILIES))
def test_every_screen_shows_its_question_and_choices_whole(family: str, lang: str) -> None:
    i18n.use(lang)
    try:
        found = [defect for shown in FAMILIES[family]() for defect in unreadable(shown)]
    finally:
        i18n.reset()
    assert found == [], f"{len(found)} defects, the first: " + "\n".join(found[:25])
