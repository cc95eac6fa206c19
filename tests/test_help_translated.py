"""``--help`` speaks the players' language: every help and description of every command, and
argparse's own words (``usage:``, ``options``, its refusals), in French and in Czech, chosen
as the command chooses its language (``--lang`` anywhere, the config's ``[table] language``,
``LANG``); English stays as it was."""

from __future__ import annotations

import argparse
import io
import re
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from companion import cli, config, i18n

LANGUAGES = ("fr", "cs")

#: argparse's words that are the same in the other language (nothing of ours is: a help
#: string always differs from its English).
SAME_WORDS = {
    "fr": {"options"},
    "cs": {"%(heading)s:", "argument %(argument_name)s: %(message)s"},
}

#: What only the English help says (argparse's own words); "options" is French too.
ENGLISH_ONLY = ("usage:", "positional arguments", "show this help message and exit")

#: Helps made of codes only: their translation says what the codes are, and shows them too.
CODES_ONLY = {"GM, IM, FM, CM, WGM, WIM, WFM, WCM"}

PLACEHOLDER = re.compile(r"%\((\w+)\)[sdr]")


Command = tuple[tuple[str, ...], argparse.ArgumentParser]


def _parsers(parser: argparse.ArgumentParser, path: tuple[str, ...] = ()) -> Iterator[Command]:
    """Every command at every level, with the words that call it."""
    yield path, parser
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, child in action.choices.items():
                yield from _parsers(child, (*path, name))


def _words(parser: argparse.ArgumentParser) -> list[tuple[str, str | None]]:
    """A parser's own words, each named: its description, each option's and argument's help
    and each subcommand's one-line help."""
    out: list[tuple[str, str | None]] = [("description", parser.description),
                                         ("epilog", parser.epilog)]
    for action in parser._actions:
        name = "/".join(action.option_strings) or str(action.dest)
        out.append((name, action.help))
        if isinstance(action, argparse._SubParsersAction):
            out.extend((f"{name} {choice.dest}", choice.help)
                       for choice in action._get_subactions())
    return out


def _tree(lang: str) -> dict[tuple[str, ...], list[tuple[str, str | None]]]:
    i18n.use(lang)
    return {path: _words(p) for path, p in _parsers(cli.build_parser())}


@pytest.fixture(autouse=True)
def _no_config_here(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """This machine's /etc/companion/config.toml, if any, chooses no language here."""
    monkeypatch.setattr(config, "DEFAULT_PATH", tmp_path / "absent.toml")


def _run(argv: list[str], capsys: pytest.CaptureFixture[str],
         monkeypatch: pytest.MonkeyPatch) -> tuple[int, str, str]:
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    monkeypatch.setenv("COLUMNS", "100")
    try:
        rc = cli.main(argv)
    except SystemExit as exc:
        rc = exc.code if isinstance(exc.code, int) else 2
    out, err = capsys.readouterr()
    return rc, out, err


def _flat(text: str) -> str:
    return " ".join(text.split())


# ------------------------------------------------------------------------------ the words

def test_the_walk_reaches_every_command_of_every_level() -> None:
    paths = set(_tree("en"))
    for path in [(), ("tournament",), ("tournament", "pair"), ("arbiter", "enroll"),
                 ("tantrix", "puzzle", "rainbow"), ("keys", "show"), ("replay",)]:
        assert path in paths, path
    assert len(paths) > 50


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_help_and_description_is_translated(lang: str) -> None:
    english, translated = _tree("en"), _tree(lang)
    assert english.keys() == translated.keys()
    untranslated = [
        f"companion {' '.join(path)}: {name}: {en!r}"
        for path in english
        for (name, en), (_name, there) in zip(english[path], translated[path], strict=True)
        if en and en is not argparse.SUPPRESS and there == en
    ]
    assert untranslated == []


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_translated_help_keeps_argparse_s_placeholders_and_escapes_its_percent(
        lang: str) -> None:
    english, translated = _tree("en"), _tree(lang)
    wrong = []
    for path in english:
        for (name, en), (_name, there) in zip(english[path], translated[path], strict=True):
            if not en or not there or en is argparse.SUPPRESS:
                continue
            lone = PLACEHOLDER.sub("", there).replace("%%", "")
            if sorted(PLACEHOLDER.findall(en)) != sorted(PLACEHOLDER.findall(there)) or (
                    "%" in lone):
                wrong.append(f"companion {' '.join(path)}: {name}: {there!r}")
    assert wrong == []


@pytest.mark.parametrize("lang", LANGUAGES)
def test_argparse_s_own_words_are_translated(lang: str) -> None:
    i18n.use(lang)
    same = [w for w in i18n.ARGPARSE_WORDS if i18n._(w) == w and w not in SAME_WORDS[lang]]
    assert same == []
    for word in i18n.ARGPARSE_WORDS:  # the same placeholders, argparse %-formats them
        assert sorted(PLACEHOLDER.findall(i18n._(word))) == sorted(PLACEHOLDER.findall(word))
    for n in (1, 2, 5):
        i18n.use("en")
        english = i18n.argparse_plurals(n)
        i18n.use(lang)
        assert all(a != b for a, b in zip(english, i18n.argparse_plurals(n), strict=True))


def test_the_words_that_stay_the_same_are_argparse_s_only() -> None:
    for lang, words in SAME_WORDS.items():
        assert words <= set(i18n.ARGPARSE_WORDS), lang


# --------------------------------------------------------------------------------- --help

@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_command_s_help_has_an_english_line(
        lang: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    english = _tree("en")
    wrong = []
    for path, words in english.items():
        rc, out, err = _run([*path, "--help", "--lang", lang], capsys, monkeypatch)
        assert rc == 0 and err == "", (path, err)
        shown = _flat(out)
        wrong += [f"companion {' '.join(path)} --help: {w}" for w in ENGLISH_ONLY if w in out]
        wrong += [f"companion {' '.join(path)} --help: {en!r}" for _name, en in words
                  if en and en is not argparse.SUPPRESS and en not in CODES_ONLY
                  and _flat(en) in shown]
    assert wrong == []


@pytest.mark.parametrize("argv", [["--lang", "fr", "tournament", "--help"],
                                  ["tournament", "--help", "--lang", "fr"],
                                  ["tournament", "--help", "--lang=fr"],
                                  ["--lang", "cs", "tournament", "--help", "--lang", "fr"]])
def test_lang_anywhere_on_the_line_chooses_the_help_s_language(
        argv: list[str], capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    rc, out, _err = _run(argv, capsys, monkeypatch)
    assert rc == 0 and out.startswith("utilisation : companion tournament"), out
    assert "un tournoi de club" not in out and "créer un fichier de tournoi" in out


def test_the_environment_s_language_is_the_help_s_without_lang(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LANG", "cs_CZ.UTF-8")
    rc, out, _err = _run(["replay", "--help"], capsys, monkeypatch)
    assert rc == 0 and out.startswith("použití: companion replay"), out
    assert "přepínače:" in out


def test_the_config_s_table_language_is_the_help_s_before_the_environment(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
        tmp_path: Path) -> None:
    conf = tmp_path / "config.toml"
    conf.write_text('[table]\nlanguage = "fr"\n', encoding="utf-8")
    rc, out, _err = _run(["run", "--config", str(conf), "--help"], capsys, monkeypatch)
    assert rc == 0 and out.startswith("utilisation : companion run"), out
    monkeypatch.setattr(config, "DEFAULT_PATH", conf)  # the default config names it too
    rc, out, _err = _run(["simulate", "--help"], capsys, monkeypatch)
    assert rc == 0 and "afficher l'état final en un objet JSON" in out, out
    rc, out, _err = _run(["simulate", "--help", "--lang", "cs"], capsys, monkeypatch)
    assert rc == 0 and out.startswith("použití:"), out  # --lang first


def test_an_unreadable_config_leaves_the_help_to_the_environment(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
        tmp_path: Path) -> None:
    conf = tmp_path / "config.toml"
    conf.write_text("[table\n", encoding="utf-8")
    rc, out, _err = _run(["run", "--config", str(conf), "--help"], capsys, monkeypatch)
    assert rc == 0 and out.startswith("usage: companion run"), out


def test_english_help_is_argparse_s_as_before(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    rc, out, _err = _run(["tournament", "--help"], capsys, monkeypatch)
    assert rc == 0 and out.startswith("usage: companion tournament [-h]"), out
    assert "\npositional arguments:\n" in out and "\noptions:\n" in out
    assert "show this help message and exit" in out and "make a tournament file" in out


# ------------------------------------------------------------------------------- refusals

ERROR = {"en": ": error: ", "fr": " : erreur : ", "cs": ": chyba: "}
USAGE = {"en": "usage: ", "fr": "utilisation : ", "cs": "použití: "}


def _refusal(err: str, lang: str) -> str:
    """The one line that says what is wrong, in ``lang``; the lines above it are the usage
    (argparse shows it before its refusal, as it always did)."""
    usage, error = USAGE[lang], ERROR[lang]
    lines = err.rstrip("\n").split("\n")
    assert "Traceback" not in err
    assert lines[0].startswith(usage), err
    assert all(line.startswith(" ") for line in lines[1:-1]), err  # the usage, wrapped
    assert [line for line in lines if error in line] == [lines[-1]], err
    return lines[-1]


@pytest.mark.parametrize(("lang", "said"), [
    ("fr", "companion tournament pair : erreur : argument --engine : choix non valable : 'foo' "
           "(choisissez parmi 'bbpPairings', 'javafo')"),
    ("cs", "companion tournament pair: chyba: argument --engine: neplatná volba: 'foo' "
           "(vyberte z 'bbpPairings', 'javafo')"),
])
def test_an_unknown_choice_is_refused_in_the_players_language_in_one_line(
        lang: str, said: str, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    rc, out, err = _run(["--lang", lang, "tournament", "pair", "T", "--engine", "foo"],
                        capsys, monkeypatch)
    assert rc == 2 and out == ""
    assert _refusal(err, lang) == said


@pytest.mark.parametrize(("lang", "said"), [
    ("fr", "companion arbiter enroll : erreur : les arguments suivants sont requis : table, key"),
    ("cs", "companion arbiter enroll: chyba: jsou nutné tyto argumenty: table, key"),
])
def test_a_missing_argument_is_refused_in_the_players_language_in_one_line(
        lang: str, said: str, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    rc, out, err = _run(["arbiter", "enroll", "--lang", lang], capsys, monkeypatch)
    assert rc == 2 and out == ""
    assert _refusal(err, lang) == said


def test_an_unknown_command_is_refused_in_the_players_language(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    rc, _out, err = _run(["--lang", "cs", "nosuch"], capsys, monkeypatch)
    assert rc == 2
    assert _refusal(err, "cs").startswith(
        "companion: chyba: argument COMMAND: neplatná volba: 'nosuch' (vyberte z ")


def test_an_unknown_lang_is_refused_in_one_line_as_before(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    rc, _out, err = _run(["--lang", "xx", "demo"], capsys, monkeypatch)
    assert rc == 2
    assert _refusal(err, "en") == (
        "companion: error: argument --lang: no catalog for language 'xx': choose en, fr, cs")


def test_an_unknown_lang_is_refused_in_the_environment_s_language(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LANGUAGE", "fr")
    rc, _out, err = _run(["demo", "--lang", "xx"], capsys, monkeypatch)
    assert rc == 2
    assert _refusal(err, "fr") == (
        "companion demo : erreur : argument --lang : pas de catalogue pour la langue 'xx' : "
        "choisissez en, fr, cs")


def test_the_command_still_speaks_as_it_chose_after_a_translated_help(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
        tmp_path: Path) -> None:
    """Choosing the help's language early changes nothing after parsing: without --lang the
    command speaks the environment's language until it reads a config naming one."""
    conf = tmp_path / "config.toml"
    conf.write_text('[table]\nlanguage = "fr"\n', encoding="utf-8")
    monkeypatch.setattr(config, "DEFAULT_PATH", conf)
    scenario = tmp_path / "empty.jsonl"
    scenario.write_text("", encoding="utf-8")
    _run(["simulate", str(scenario)], capsys, monkeypatch)
    assert i18n.language() == "en"  # simulate reads no config: LANGUAGE=en, as before
