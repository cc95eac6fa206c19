"""No English left in French or Czech output: the replays in every format (text, move list,
pictures, GIF, web page), the puzzles typed a line at a time, and the lines a desktop game
ends with, each made by the command a player runs, in French and in Czech.

An English word is a word of the catalogs' English messages that the language's own
translations never use (so ``note``, ``points`` or ``table``, French words too, pass in
French); the players' names, the games' names and the notation (cells like ``c4``, glasses
like ``r1``, times) are no words of it. Games are played at real tables (the simulated players
of the club demo), so every record a table writes itself is in them: the final note, the
resignations, the arbiter's undo.
"""

from __future__ import annotations

import io
import json
import random
import re
import sys
from collections.abc import Iterator
from functools import cache
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
from babel.messages.pofile import read_po

from companion import cli, i18n, registry
from companion.clock import FakeClock
from companion.config import defaults
from companion.tables import make_table

#: Names a replay shows as they are: the games', the puzzles', and the players' of these tests.
NAMES = {"tamsk", "tantrix", "tokami", "discovery", "rainbow", "solitaire", "gobble", "ada",
         "ben", "chloé", "gipf", "oled"}
#: The players of each game, as configured at its table.
PLAYERS = {"tamsk": ["Ada", "Ben"], "tantrix": ["red", "yellow"],
           "tokami": ["Ada", "Ben", "Chloé"]}
WORD = re.compile(r"[^\W\d_]{3,}")
#: English all the same, though a translation writes them as codes to type (the arbiter page's
#: form hints: ``red (rouge) ou black (noir)``).
CODES = {"red", "black", "yellow", "green", "blue", "white", "tie", "wins"}


@cache
def english_words(lang: str) -> frozenset[str]:
    """The words of the English messages that ``lang``'s translations never use."""
    with (i18n.LOCALE_DIR / lang / "LC_MESSAGES" / "companion.po").open("rb") as f:
        catalog = read_po(f)
    english: set[str] = set()
    translated: set[str] = set()
    for message in catalog:
        if not message.id:
            continue
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        for text in ids:
            english |= {w.lower() for w in WORD.findall(re.sub(r"\{\w+\}", " ", text))
                        if w.isascii()}
        for text in strings:
            translated |= {w.lower() for w in WORD.findall(re.sub(r"\{\w+\}", " ", text or ""))}
    return frozenset((english - translated - NAMES) | CODES)


def english_in(texts: list[str], lang: str) -> dict[str, str]:
    """Each English word found in ``texts``, with the first text it was found in."""
    words = english_words(lang)
    found: dict[str, str] = {}
    for text in texts:
        for w in WORD.findall(text):
            if w.lower() in words:
                found.setdefault(w.lower(), text)
    return found


def test_the_check_finds_english_words_and_passes_french_ones() -> None:
    found = english_in(["Ada (red) v Ben (black)", "red gagne", "partie finie : noir gagne"],
                       "fr")
    assert set(found) == {"red", "black"}
    assert set(english_in(["vyhrává red", "konec hry: vyhrává černý"], "cs")) == {"red"}


# ------------------------------------------------------------------------------ the games

def played(game: str, folder: Path, seed: int = 3) -> Path:
    """A journal of a whole game played at a real table by the club demo's players."""
    import importlib

    config = defaults()
    config["game"]["kind"] = game
    kind = registry.get(game)
    kind.configure_players(config, PLAYERS[game])
    clock = FakeClock()
    table: Any = make_table(config, clock, folder)
    path = kind.start_from_config(table, config)
    if game == "tamsk":  # the simulated players' own remark, typed in English like any person's
        table.note = lambda text: None
    importlib.import_module(f"companion.{game}.club_demo").play(table, clock,
                                                               random.Random(seed))
    table.close()
    return Path(path)


class Page(HTMLParser):
    """Every word a reader of a replay page sees or hears: text, tooltips, accessible names,
    the play button's two words, and each frame's heading, move and the rules' remarks."""

    def __init__(self) -> None:
        super().__init__()
        self.texts: list[str] = []
        self._open: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self._open.append(tag)
        self.texts += [v for k, v in attrs
                       if k in ("title", "aria-label", "data-play", "data-pause") and v]

    def handle_endtag(self, tag: str) -> None:
        if tag in self._open:
            del self._open[len(self._open) - 1 - self._open[::-1].index(tag):]

    def handle_data(self, data: str) -> None:
        inside = self._open[-1] if self._open else ""
        if inside == "style" or not data.strip():
            return
        if inside == "script":
            if data.lstrip().startswith("{"):  # the frames
                frames = json.loads(data)
                for part in frames["parts"]:
                    inner = Page()
                    inner.feed(part)
                    self.texts += inner.texts
                for f in frames["frames"]:
                    self.texts += [*f["marks"], f["where"], f["label"]]
            return
        self.texts.append(data.strip())


@pytest.fixture
def drawn(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """Every text painted into a replay's pictures (PNG and GIF)."""
    from companion.replay import bitmap

    texts: list[str] = []
    paint = bitmap.draw

    def draw(image: Any, xy: tuple[int, int], text: str, *args: Any, **kwargs: Any) -> int:
        texts.append(text)
        return paint(image, xy, text, *args, **kwargs)

    monkeypatch.setattr(bitmap, "draw", draw)
    yield texts


def run(argv: list[str], capsys: pytest.CaptureFixture[str], stdin: str = "") -> str:
    old = sys.stdin
    sys.stdin = io.StringIO(stdin)
    try:
        assert cli.main(argv) in (0, 1)
    finally:
        sys.stdin = old
    out, err = capsys.readouterr()
    return out + err


def _lines(text: str, folder: Path) -> list[str]:
    """The lines of a command's output, without the paths of the files it wrote."""
    return [re.sub(r"\S*/\S*", "", line) for line in text.splitlines()]


LANGS = ("fr", "cs")


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("game", sorted(PLAYERS))
def test_a_replay_in_french_or_czech_has_no_english_word_in_any_format(
        game: str, lang: str, tmp_path: Path, capsys: pytest.CaptureFixture[str],
        drawn: list[str]) -> None:
    journal = str(played(game, tmp_path))
    page, gif, pictures = tmp_path / "game.html", tmp_path / "game.gif", tmp_path / "pictures"
    said = run(["--lang", lang, "replay", journal, "--html", str(page), "--gif", str(gif),
                "--png", str(pictures)], capsys)
    said += run(["--lang", lang, "replay", journal, "--list"], capsys)
    said += run(["--lang", lang, "replay", journal, "--at", "3"], capsys)
    said += run(["--lang", lang, "replay", journal], capsys)  # every position, as text
    reader = Page()
    reader.feed(page.read_text(encoding="utf-8"))
    assert drawn and reader.texts
    assert english_in(_lines(said, tmp_path), lang) == {}
    assert english_in(drawn, lang) == {}
    assert english_in(reader.texts, lang) == {}


@pytest.mark.parametrize("game", sorted(PLAYERS))
def test_a_czech_replay_page_has_no_english_word_but_names_and_notation(
        game: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    journal = str(played(game, tmp_path, seed=11))
    page = tmp_path / "hra.html"
    run(["--lang", "cs", "replay", journal, "--html", str(page)], capsys)
    html = page.read_text(encoding="utf-8")
    reader = Page()
    reader.feed(html)
    assert '<html lang="cs">' in html
    assert english_in(reader.texts, "cs") == {}
    if game == "tamsk":  # who played, as the heading says it: names, and colours in Czech
        assert "Ada (červený) - Ben (černý)" in reader.texts[0] or any(
            "Ada (červený) - Ben (černý)" in t for t in reader.texts)


def test_the_tables_final_note_is_said_in_the_players_language(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    journal = str(played("tokami", tmp_path))
    listed = run(["--lang", "cs", "replay", journal, "--list"], capsys)
    assert 'poznámka "Konec hry: záznam je úplný"' in listed
    notation = run(["notation", journal], capsys)  # the record keeps the table's English
    assert 'note "game over: the journal is complete"' in notation


DISCOVERY = "1 0 0 5\n2 b9 4\n1 b3 9\nnonsense\n-3\n2 c4 1\n"
RAINBOW = "1 0 0 0\n6 0 0 0\n7 b3 0\n6 b2 1\n"


@pytest.mark.parametrize("lang", LANGS)
def test_a_puzzle_typed_a_line_at_a_time_speaks_french_or_czech(
        lang: str, capsys: pytest.CaptureFixture[str]) -> None:
    said = run(["--lang", lang, "tantrix", "puzzle", "discovery", "4"], capsys, DISCOVERY)
    said += run(["--lang", lang, "tantrix", "puzzle", "rainbow", "blue"], capsys, RAINBOW)
    assert said.count("  ? ") >= 4  # the slips were answered
    assert english_in(said.splitlines(), lang) == {}


def test_a_desktop_game_ends_with_its_journal_said_in_czech(tmp_path: Path) -> None:
    from tests.test_no_traceback import _in_a_terminal, needs_a_terminal

    if needs_a_terminal.args[0]:
        pytest.skip(needs_a_terminal.kwargs["reason"])
    argv = ["--lang", "cs", "tokami", "play", "Ada", "Ben", "--journal-dir", str(tmp_path)]
    rc, text = _in_a_terminal(argv, tmp_path, None)
    last = _lines("\n".join(line for line in text.splitlines() if ": /" in line), tmp_path)[-2:]
    assert rc == 0 and [line.split(":")[0].strip() for line in last] == ["záznam", "klíč stolu"]
    assert english_in(last, "cs") == {}


@pytest.mark.parametrize(("lang", "letters"), [("en", "RYGB"), ("fr", "RJVB"), ("cs", "ČŽZM")])
def test_the_tantrix_tile_inset_letters_each_side_in_the_players_language(
        lang: str, letters: str) -> None:
    from companion.tantrix.screens import colour_letter

    i18n.use(lang)
    said = "".join(colour_letter(c) for c in ("red", "yellow", "green", "blue"))
    assert said == letters and colour_letter(None) == "?"
