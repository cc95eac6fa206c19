"""Replays in the players' language: the web page's words, the text a terminal shows, and the
demo's last lines. The pictures' reference images per language are in
``test_replay_pictures.py`` and ``test_replay_tokami.py``.

The text snapshots in ``tests/reference/replay/text/`` were made by this code and read by a
speaker of each language; after a deliberate change redraw them with
``COMPANION_REDRAW_REFERENCE=1 pytest tests/replay/test_replay_languages.py``.
"""

from __future__ import annotations

import os
import re
from html.parser import HTMLParser

import pytest

from companion import i18n
from companion.replay import Replay, load
from companion.replay.html import page
from companion.replay.terminal import screen
from companion.replay.text import frame_text
from tests.replay.games import REFERENCE, SCENARIOS, scenario

#: Every word the page itself writes (not the players' names, the notation or the rules'
#: marks), in English: none may be left on a French or Czech page.
ENGLISH_LABELS = (
    "the board", "start (Home)", "back (left arrow)", "play", "pause",
    "forward (right arrow)", "end (End)", "move", "speed", "1 move a second",
    "2 moves a second", "5 moves a second", "real time", "real time x5", "real time x20",
    "wins", "a tie", "moves", "not finished", "note:", "sand in the upper part (s)",
    "level 1: the glasses are plain pieces, no sand", "points", "total points (by time)",
)


class Labels(HTMLParser):
    """What a reader sees or hears of the page's own furniture: the heading and summary, the
    buttons and their tooltips, the accessible names, the speed menu and the chart's words."""

    def __init__(self) -> None:
        super().__init__()
        self.lang = ""
        self.words: list[str] = []
        self._inside: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        if tag == "html":
            self.lang = found.get("lang") or ""
        for name in ("title", "aria-label", "data-play", "data-pause"):
            if tag != "li" and found.get(name):
                self.words.append(str(found[name]))
        self._inside.append(tag)

    def handle_endtag(self, tag: str) -> None:
        if tag in self._inside:
            del self._inside[len(self._inside) - 1 - self._inside[::-1].index(tag):]

    def handle_data(self, data: str) -> None:
        if self._inside and self._inside[-1] in ("h1", "p", "button", "option", "text"):
            if data.strip():
                self.words.append(data.strip())


def labels(replay: Replay) -> Labels:
    parser = Labels()
    parser.feed(page(replay))
    return parser


#: Words French spells as English does.
SAME_WORD = {"fr": {"pause", "points"}, "cs": set()}


def english_left(words: list[str], replay: Replay, lang: str = "en") -> set[str]:
    """The English labels among ``words``, leaving out the rules' marks (what the fold said of
    each move, drawn on the board) and the words a language shares with English."""
    marks = {m for f in replay.frames for m in f.marks}
    return {label for label in ENGLISH_LABELS for w in words
            if w not in marks and label not in SAME_WORD.get(lang, set())
            and re.search(rf"(^|[\s,(]){re.escape(label)}($|[\s,.:)])", w)}


GAMES = {
    "tamsk": scenario("p02_forfeit_adjusted"),
    "tamsk level 1": scenario("s29_level1_tie"),
    "tantrix": scenario("t01_discovery_red_loop"),
    "tokami": SCENARIOS / "tokami" / "k11_several_rounds_add_up.jsonl",
}


@pytest.mark.parametrize("lang", ["fr", "cs"])
@pytest.mark.parametrize("game", sorted(GAMES))
def test_the_page_in_french_or_czech_has_no_english_label_left(game: str, lang: str) -> None:
    i18n.use(lang)
    replay = load(GAMES[game])
    found = labels(replay)
    assert found.lang == lang
    assert found.words, "the page has words to translate"
    assert english_left(found.words, replay, lang) == set()


def test_the_english_page_says_it_is_english_and_the_list_catches_english_words() -> None:
    replay = load(GAMES["tamsk"])
    found = labels(replay)
    assert found.lang == "en"
    assert {"play", "speed", "real time", "wins"} <= english_left(found.words, replay)


def test_the_play_button_says_pause_in_the_players_language() -> None:
    i18n.use("fr")
    html = page(load(GAMES["tantrix"]))
    assert 'data-play="lecture" data-pause="pause"' in html
    assert "play.dataset.pause" in html and "'pause'" not in html


#: Text snapshots: name -> (language, journal, frame index).
TEXTS = {
    "fr_tamsk_forfeit": ("fr", GAMES["tamsk"], -1),
    "cs_tamsk_forfeit": ("cs", GAMES["tamsk"], -1),
    "fr_tantrix_loop": ("fr", GAMES["tantrix"], -1),
    "cs_tantrix_loop": ("cs", GAMES["tantrix"], -1),
    "fr_tokami_rounds": ("fr", GAMES["tokami"], -1),
    "cs_tokami_rounds": ("cs", GAMES["tokami"], 3),
}


@pytest.mark.parametrize("name", sorted(TEXTS))
def test_the_text_replay_speaks_the_players_language(name: str) -> None:
    lang, path, index = TEXTS[name]
    i18n.use(lang)
    replay = load(path)
    text = frame_text(replay, replay.frames[index]) + "\n"
    reference = REFERENCE / "text" / f"{name}.txt"
    if os.environ.get("COMPANION_REDRAW_REFERENCE"):
        reference.parent.mkdir(exist_ok=True)
        reference.write_text(text, encoding="utf-8")
    assert text == reference.read_text(encoding="utf-8")


def test_the_terminal_help_line_is_in_the_players_language() -> None:
    replay = load(GAMES["tantrix"])
    english = screen(replay, 0)
    i18n.use("cs")
    czech = screen(replay, 0)
    assert "forward" in english and "forward" not in czech and "vpřed" in czech


def test_the_demo_says_how_the_game_ended_in_the_players_language() -> None:
    from companion.tamsk.demo import result_line

    over = {"over": True, "winner": "red", "reason": "full-space", "turn": None}
    assert result_line(over) == "game over: red wins (moved onto a full space)"
    i18n.use("fr")
    assert result_line(over) == "Partie finie : rouge gagne (sur une case pleine)"
