"""The players' language: the catalogs are complete and compiled, every marked string is in
them, the rule book's words are used, and ``--lang``/``[table] language``/``LANG`` choose it."""

from __future__ import annotations

import gettext
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po
from hypothesis import given, settings
from PIL import Image, ImageDraw

from companion import cli, i18n
from companion.tamsk.simulate import simulate
from companion.tamsk.words import REFUSALS, refusal_in_words, template_of
from companion.tokami import Setup
from tests.tokami.test_tokami_properties import games

ROOT = Path(__file__).resolve().parents[1]
CATALOGS = sorted(i18n.LOCALE_DIR.glob("*/LC_MESSAGES/companion.po"))
SCENARIOS = sorted((ROOT / "tests" / "scenarios" / "tamsk").glob("*.jsonl"))


def test_there_is_a_catalog_for_french_and_czech() -> None:
    assert sorted(p.parts[-3] for p in CATALOGS) == ["cs", "fr"]


@pytest.mark.parametrize("po", CATALOGS, ids=lambda p: p.parts[-3])
def test_every_message_is_translated_and_none_is_fuzzy(po: Path) -> None:
    with po.open("rb") as f:
        catalog = read_po(f)
    untranslated = [m.id for m in catalog if m.id and not all(
        m.string if isinstance(m.string, tuple) else [m.string])]
    fuzzy = [m.id for m in catalog if m.id and m.fuzzy]
    assert untranslated == [] and fuzzy == []


@pytest.mark.parametrize("po", CATALOGS, ids=lambda p: p.parts[-3])
def test_msgfmt_checks_the_catalog(po: Path) -> None:
    msgfmt = shutil.which("msgfmt")
    if msgfmt is None:
        pytest.skip("msgfmt is not installed: apt-get install gettext (the CI installs it)")
    done = subprocess.run([msgfmt, "--check", "--statistics", "-o", "/dev/null", str(po)],
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert "untranslated" not in done.stderr and "fuzzy" not in done.stderr, done.stderr


@pytest.mark.parametrize("po", CATALOGS, ids=lambda p: p.parts[-3])
def test_the_shipped_mo_is_compiled_from_the_current_po(po: Path) -> None:
    mo = po.with_suffix(".mo")
    assert mo.exists(), f"{mo} missing: run make catalogs"
    with po.open("rb") as f:
        catalog = read_po(f)
    with mo.open("rb") as f:
        compiled = gettext.GNUTranslations(f)
    for message in catalog:
        if message.id and isinstance(message.id, str):
            got = (compiled.pgettext(message.context, message.id) if message.context
                   else compiled.gettext(message.id))
            assert got == message.string, (
                f"{mo} is older than its .po ({message.id!r}): run make catalogs")


def test_every_marked_string_is_in_the_catalogs() -> None:
    marked = {
        msgid if isinstance(msgid, str) else msgid[0]
        for _, _, msgid, _, _ in extract_from_dir(
            str(ROOT / "companion"), method_map=[("**.py", "python")],
            keywords={"_": None, "N_": None, "ngettext": (1, 2)})
    }
    for po in CATALOGS:
        with po.open("rb") as f:
            known = {m.id if isinstance(m.id, str) else m.id[0] for m in read_po(f) if m.id}
        assert sorted(marked - known) == [], f"{po}: run make catalogs and translate"


def test_every_refusal_of_the_scenarios_is_one_the_table_can_translate() -> None:
    from companion.scenario import parse_lines

    seen = 0
    for path in SCENARIOS:
        scenario = parse_lines(path.read_text(encoding="utf-8").splitlines())
        for violation in simulate(scenario.header, scenario.events).get("violations", []):
            if violation["kind"] in ("correction", "not-arbiter"):  # the arbiter's page
                continue
            seen += 1
            assert template_of(violation["detail"]) is not None, violation["detail"]
    assert seen > 10


def test_a_refusal_keeps_its_spaces_and_glasses_in_another_language() -> None:
    i18n.use("fr")
    assert refusal_in_words("d4 is not next to c3: move one space at a time") == (
        "d4 n'est pas voisine de c3 : une case à la fois")
    i18n.use("cs")
    assert refusal_in_words("it is red's turn, not black's") == "na tahu je červený, ne černý"


def test_an_unknown_refusal_is_shown_in_english_rather_than_lost() -> None:
    i18n.use("cs")
    assert refusal_in_words("a rule from next year") == "a rule from next year"


@pytest.mark.parametrize(("lang", "words"), [
    ("fr", ("sablier", "anneau", "case")),
    ("cs", ("hodiny", "kroužek", "pole")),
])
def test_the_refusals_use_the_rule_books_words(lang: str, words: tuple[str, ...]) -> None:
    i18n.use(lang)
    text = " ".join(i18n._(t) for t in REFUSALS).lower()
    for word in words:
        assert word in text, f"{lang}: {word!r} never used"


def test_lang_on_the_command_line_wins_over_the_config(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config = tmp_path / "c.toml"
    config.write_text('[table]\nlanguage = "cs"\n')
    cli.main(["--lang", "fr", "config", "--config", str(config)])
    assert i18n.language() == "fr"
    cli.main(["config", "--config", str(config), "--lang", "fr"])
    assert i18n.language() == "fr"


def test_the_config_chooses_the_language_when_the_command_line_does_not(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from companion.config import config_for_command

    config = tmp_path / "c.toml"
    config.write_text('[table]\nlanguage = "cs"\n')
    cli.main(["config", "--print-default"])
    config_for_command(str(config))
    assert i18n.language() == "cs"


def test_lang_follows_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("LANGUAGE", raising=False)
    monkeypatch.delenv("LC_ALL", raising=False)
    monkeypatch.delenv("LC_MESSAGES", raising=False)
    monkeypatch.setenv("LANG", "fr_FR.UTF-8")
    assert i18n.use(None) == "fr"
    monkeypatch.setenv("LANG", "de_DE.UTF-8")
    assert i18n.use(None) == "en"


def test_a_language_without_a_catalog_is_refused_naming_the_key(
        capsys: pytest.CaptureFixture[str]) -> None:
    from companion import config

    with pytest.raises(config.ConfigError, match="'table.language'"):
        config.load(text='[table]\nlanguage = "de"\n')
    with pytest.raises(SystemExit):
        cli.main(["--lang", "de", "config", "--print-default"])
    assert "no catalog for language 'de'" in capsys.readouterr().err


def _ink(text: str) -> bytes:
    from companion.screens.text import draw_text

    image = Image.new("1", (60, 12))
    draw_text(ImageDraw.Draw(image), 0, 2, text, 1)
    return image.tobytes()


@pytest.mark.parametrize("letter", "čřěšžůňťďýáíéúČŘĚŠŽŮŇŤĎ")
def test_the_oled_font_draws_czech_letters_with_their_accents(letter: str) -> None:
    from unicodedata import normalize

    base = normalize("NFKD", letter)[0]
    assert _ink(letter) != _ink(base), f"{letter} drawn as {base}"
    assert _ink(letter) != _ink("?")


@pytest.mark.parametrize("letter", "éèêàâçôîûùëïü")
def test_the_oled_font_draws_french_letters_with_their_accents(letter: str) -> None:
    from unicodedata import normalize

    assert _ink(letter) != _ink(normalize("NFKD", letter)[0])


def test_the_font_and_its_licence_ship_in_the_package() -> None:
    fonts = ROOT / "companion" / "screens" / "fonts"
    assert (fonts / "courB08-latin2.pil").exists() and (fonts / "courB08-latin2.pbm").exists()
    assert "Adobe" in (fonts / "LICENCE-courB08.txt").read_text(encoding="utf-8")


@settings(max_examples=60, deadline=None)
@given(games())
def test_every_refusal_of_a_tokami_game_is_one_the_table_can_translate(
        game: tuple[Setup, list[Any]]) -> None:
    from companion.i18n import match_template
    from companion.tokami import Game, IllegalTurn
    from companion.tokami.words import REFUSALS as TOKAMI_REFUSALS

    setup, actions = game
    played = Game(setup)
    for action in actions:
        try:
            played.undo() if action == "undo" else played.play(action)
        except IllegalTurn as refused:
            assert match_template(refused.detail, TOKAMI_REFUSALS) is not None, refused.detail


def test_a_tokami_refusal_keeps_its_colour_in_another_language() -> None:
    from companion.tokami.words import refusal_in_words as tokami_refusal

    i18n.use("fr")
    assert tokami_refusal("no red block is left on the cross") == (
        "il ne reste aucun bloc rouge sur la croix")


def test_every_refusal_of_the_tantrix_scenarios_is_one_the_table_can_translate() -> None:
    from companion.i18n import match_template
    from companion.scenario import parse_lines
    from companion.tantrix.simulate import simulate as tantrix_simulate
    from companion.tantrix.words import REFUSALS as TANTRIX_REFUSALS

    seen = 0
    for path in sorted((ROOT / "tests" / "scenarios" / "tantrix").glob("*.jsonl")):
        scenario = parse_lines(path.read_text(encoding="utf-8").splitlines())
        for violation in tantrix_simulate(scenario.header, scenario.events)["violations"]:
            seen += 1
            assert match_template(violation["detail"], TANTRIX_REFUSALS) is not None, violation
    assert seen > 5
