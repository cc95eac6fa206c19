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
#: Random codes are never words to translate, whatever they happen to spell: a key's fingerprints
#: (``5YYK-RAIL-O22G-BOX2`` once spelt "box", and CI met it; ``SHA256:`` base64 may spell
#: anything) and any run of letters and digits (a hex seed may spell "dead" or "add").
FINGERPRINT = re.compile(r"\b[A-Z2-7]{4}(?:-[A-Z2-7]{4}){3}\b|SHA256:[A-Za-z0-9+/]+"
                         r"|\b[^\W_]*\d[^\W_]*\b")


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
        for w in WORD.findall(FINGERPRINT.sub(" ", text)):
            if w.lower() in words:
                found.setdefault(w.lower(), text)
    return found


def test_the_check_passes_a_key_fingerprint_that_happens_to_spell_a_word() -> None:
    assert english_in(["klíč rozhodčího (5YYK-RAIL-O22G-BOX2)", "SHA256:boxWINDOWgame+/x",
                       "semínko 3fa9dead2add"], "cs") == {}
    assert set(english_in(["klíč rozhodčího (5YYK-RAIL-O22G-BOX2) box"], "cs")) == {"box"}


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
    """The lines of a command's output, without the paths of the files it wrote and the
    command's own name (``companion dispute: ...``)."""
    return [re.sub(r"\S*/\S*|^companion [a-z]+:", "", line) for line in text.splitlines()]


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


# ------------------------------------------------------------------ verify and dispute


def _damaged(journal: Path, folder: Path) -> dict[str, Path]:
    """The journal hand-edited, re-chained by a forger, cut short, missing a record, with a
    line that is no record, and one beyond the reader's limits: each a copy."""
    from tests.tournament.helpers import rechain

    lines = journal.read_text(encoding="utf-8").splitlines(keepends=True)
    out: dict[str, Path] = {}

    def copy(name: str, text: str) -> None:
        out[name] = folder / f"{name}.jsonl"
        out[name].write_text(text, encoding="utf-8")

    copy("edited", "".join(lines[:3]) + lines[3].replace('"t":', '"t": ', 1)
         + lines[4].replace('"src":"table"', '"src":"tabla"') + "".join(lines[5:]))
    copy("rechained", "".join(lines))
    rechain(out["rechained"], lambda body: {**body, "t": body["t"] + 1} if "t" in body
            else body)
    copy("torn", "".join(lines) + lines[-1][: len(lines[-1]) // 2])
    copy("removed", "".join(lines[:3] + lines[4:]))
    copy("not-json", "".join(lines[:3]) + "not a record\n" + "".join(lines[3:]))
    copy("too-long", "".join(lines[:2]) + '{"x": "' + "a" * (1 << 20) + '"}\n')
    copy("bom", "".join(lines[:2]) + "\ufeff" + "".join(lines[2:]))
    copy("nul", "".join(lines[:2]) + '{"x": "\x00"}\n' + "".join(lines[2:]))
    return out


@pytest.mark.parametrize("lang", LANGS)
def test_verify_speaks_french_or_czech_of_good_and_damaged_journals(
        lang: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from companion.keys import Keyring, SigningKey

    said = ""
    for game in sorted(PLAYERS):
        folder = tmp_path / game
        folder.mkdir()
        journal = played(game, folder)
        key = str(folder / "keys" / "table.key.pub")
        said += run(["--lang", lang, "verify", str(journal), "--key", key], capsys)
    journal = next((tmp_path / "tamsk").glob("tamsk-*.jsonl"))
    key = str(tmp_path / "tamsk" / "keys" / "table.key.pub")
    for name, path in _damaged(journal, tmp_path).items():
        out = _verify(["--lang", lang, "verify", str(path), "--key", key], capsys)
        assert out, name
        said += out
    other = SigningKey.generate().public.line()
    said += run(["--lang", lang, "verify", str(journal), "--key", other], capsys)
    ring = tmp_path / "keyring.json"
    Keyring(ring).save()
    said += run(["--lang", lang, "verify", str(journal), "--keyring", str(ring)], capsys)
    said += _verify(["--lang", lang, "verify", str(journal), "--key", "%%%"], capsys)
    said += _verify(["--lang", lang, "verify", str(tmp_path / "none.jsonl"), "--key", key],
                    capsys)
    lines = _lines(said, tmp_path)
    for expected in {"fr": ("ÉCHEC", "OK", "chaîne de hachage"),
                     "cs": ("NEPROŠLO", "OK", "řetěz otisků")}[lang]:
        assert expected in said
    assert english_in(lines, lang) == {}


def _verify(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    """A command that may refuse its input (exit 2) as well as fail its check (exit 1)."""
    assert cli.main(argv) in (0, 1, 2)
    out, err = capsys.readouterr()
    return out + err


def _disputed(folder: Path) -> tuple[Path, str]:
    """A Tamsk game at table 2 with all a dispute tells: moves, the 15-second timer run out,
    a refused move, a ring, the table's note after a power cut, the arbiter's correction, the
    end and the final record; signed with the table's key (the key's line returned)."""
    from companion.journal import JournalWriter
    from companion.keys import SigningKey

    key = SigningKey.generate()
    header = {"game": "tamsk", "level": 3, "table": 2, "wall0": 1_790_000_000.0,
              "names": {"red": "Ada", "black": "Ben"}}
    events: list[dict[str, Any]] = [
        {"t": 3.0, "ev": "release", "glass": "r1", "to": "a2"},
        {"t": 3.2, "ev": "ring", "player": "red", "space": "a2"},
        {"t": 4.0, "ev": "timer15", "player": "red"},
        {"t": 21.0, "ev": "release", "glass": "b1", "to": "c1"},
        {"t": 22.0, "ev": "note", "text": "resumed after 80.9 s", "src": "daemon"},
        {"t": 23.0, "ev": "correct", "what": "sand", "glass": "r1", "sand": 63.5,
         "reason": "r1 ?", "by": "arbiter", "auth": "pin"},
        {"t": 24.0, "ev": "lift", "glass": "b2"},
        {"t": 25.0, "ev": "end"},
        {"t": 25.0, "ev": "note", "text": "game over: the journal is complete",
         "final": {"winner": "red", "reason": "rings"}},
    ]
    path = folder / "dispute.jsonl"
    with JournalWriter.create(path, header, signer=key) as w:
        for body in events:
            w.append({"src": "table", **body, "wall": 1_790_000_000.0 + body["t"]})
    return path, key.public.line()


@pytest.mark.parametrize("lang", LANGS)
def test_dispute_speaks_french_or_czech(lang: str, tmp_path: Path,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    journal, key = _disputed(tmp_path)
    said = run(["--lang", lang, "dispute", str(journal), "--at", "0:20", "--window", "10",
                "--key", key, "--dir", str(tmp_path)], capsys)
    said += run(["--lang", lang, "dispute", str(journal), "--at", "5", "--window", "2",
                 "--key", key, "--dir", str(tmp_path)], capsys)
    lines = journal.read_text(encoding="utf-8").splitlines(keepends=True)
    edited = tmp_path / "z.jsonl"
    edited.write_text("".join(lines[:2]) + lines[2].replace('"a2"', '"a3"') + "".join(lines[3:]),
                      encoding="utf-8")
    said += run(["--lang", lang, "dispute", str(edited), "--at", "5", "--key", key,
                 "--dir", str(tmp_path)], capsys)
    said += _verify(["--lang", lang, "dispute", str(journal), "--at", "x:y", "--key",
                     key, "--dir", str(tmp_path)], capsys)
    assert "{'" not in said and "'red'" not in said  # no Python dict of the players
    assert {"fr": "rouge : Ada, noir : Ben", "cs": "červený: Ada, černý: Ben"}[lang] in said
    assert {"fr": "80,9 s", "cs": "80,9 s"}[lang] in said  # the note's seconds, a decimal comma
    assert english_in(_lines(said, tmp_path), lang) == {}


def test_dispute_in_english_keeps_the_journal_s_codes(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    journal, key = _disputed(tmp_path)
    said = run(["dispute", str(journal), "--at", "0:20", "--window", "10", "--key", key,
                "--dir", str(tmp_path)], capsys)
    assert "players: red: Ada, black: Ben" in said
    assert "release glass=b1, to=c1" in said and "REFUSED (out-of-turn)" in said


# ------------------------------------------------------------------ the tournament's sheets

#: The players of the tournament the sheets are printed for (names are shown as written).
ENTRANTS = ("Jiří Novák", "Zoë Müller", "Łukasz Żak", "Anne-Sophie Lefèvre", "Bob")


def _evening(folder: Path) -> str:
    """A Swiss of five over three rounds through the command line: a tie, a forfeit, a bye
    every round, the last result missing; the tournament's name."""
    from tests.tournament.helpers import run as tournament

    name, d = "Podzimní Tamsk", str(folder)
    assert tournament(["tournament", "new", name, "--game", "tamsk", "--system", "swiss",
                       "--rounds", "3", "--dir", d]) == 0
    for i, who in enumerate(ENTRANTS):
        assert tournament(["tournament", "add-player", name, who, "--rating",
                           str(1800 - 50 * i), "--dir", d]) == 0
    results = {1: ("½-½", "-+"), 2: ("1-0", "0-1"), 3: ("½-½",)}
    for n, typed in results.items():
        assert tournament(["tournament", "pair", name, "--dir", d]) == 0
        for board, result in enumerate(typed, start=1):
            assert tournament(["tournament", "result", name, "--round", str(n), "--board",
                               str(board), result, "--dir", d]) == 0
    return name


def _without_names(texts: list[str], names: tuple[str, ...]) -> list[str]:
    out = []
    for text in texts:
        for name in names:
            text = text.replace(name, " ")
        out.append(text)
    return out


@pytest.mark.parametrize("lang", LANGS)
def test_the_tournament_sheets_and_printouts_print_no_english_word_but_names(
        lang: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    from tests.tournament.helpers import laptop

    laptop(monkeypatch, tmp_path)
    name = _evening(tmp_path)
    capsys.readouterr()
    said, pages = "", []
    for kind in ("round", "pairings", "results", "standings", "crosstable", "wallchart"):
        for number in ("1", "3"):
            base = ["--lang", lang, "tournament", "sheet", name, "--dir", str(tmp_path),
                    "--kind", kind, "--round", number]
            said += run(base, capsys)
            page = tmp_path / f"{kind}-{number}.html"
            said += run([*base, "--html", str(page)], capsys)
            reader = Page()
            reader.feed(page.read_text(encoding="utf-8"))
            assert f'lang="{lang}"' in page.read_text(encoding="utf-8").replace("'", '"')
            pages += reader.texts
    said += run(["--lang", lang, "tournament", "standings", name, "--dir", str(tmp_path)],
                capsys)
    names = (name, *ENTRANTS)
    assert {"fr": "ronde", "cs": "kolo"}[lang] in said
    assert english_in(_without_names(_lines(said, tmp_path), names), lang) == {}
    assert english_in(_without_names(pages, names), lang) == {}


def test_companion_lang_cs_tournament_sheet_prints_czech(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    from tests.tournament.helpers import laptop

    laptop(monkeypatch, tmp_path)
    name = _evening(tmp_path)
    capsys.readouterr()
    said = run(["--lang", "cs", "tournament", "sheet", name, "--dir", str(tmp_path),
                "--kind", "wallchart"], capsys)
    assert said.startswith("Podzimní Tamsk: nástěnná tabulka po kole 3\n")
    assert "Kolo 1" in said and "švýcarský systém" in said
    said = run(["--lang", "cs", "tournament", "sheet", name, "--dir", str(tmp_path)], capsys)
    assert "Pořadí po kole 3" in said and "volno (1)" in said


def _any_code(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    """What a command prints, whatever its exit code (a refusal is said in words too)."""
    cli.main(argv)
    out, err = capsys.readouterr()
    return out + err


@pytest.mark.parametrize("lang", LANGS)
def test_every_tournament_verb_speaks_french_or_czech(
        lang: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """`show`, the audit trail (settings, engines, byes), `verify`, the standings and the
    refusals an arbiter meets on the night: no English word but names and codes."""
    from tests.tournament.helpers import laptop

    laptop(monkeypatch, tmp_path)
    name = _evening(tmp_path)
    d = ["--dir", str(tmp_path)]
    assert cli.main(["tournament", "settings", name, *d, "--city", "Brno", "--chief-arbiter",
                     "Jana Králová", "--max-byes", "2"]) == 0
    capsys.readouterr()
    said = ""
    for verb in (["show"], ["history"], ["verify"], ["standings"], ["pair"],
                 ["unpair", "--why", "x"], ["bye", "Nobody", "--points", "0.5"],
                 ["withdraw", "Nobody"], ["collect", str(tmp_path / "nowhere")]):
        said += _any_code(["--lang", lang, "tournament", verb[0], name, *verb[1:], *d], capsys)
    names = (name, *ENTRANTS, "Nobody", "Brno", "Jana Králová")
    assert {"fr": "ronde", "cs": "kolo"}[lang] in said
    assert {"fr": "ville : Brno", "cs": "město: Brno"}[lang] in said
    assert english_in(_without_names(_lines(said, tmp_path), names), lang) == {}
