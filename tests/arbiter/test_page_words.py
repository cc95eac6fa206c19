"""The arbiter's page in the arbiter's language: its labels translated on the server, the words
its script writes handed over as JSON inside the page's one (nonce'd) script, and the language
chosen by ``--lang``, ``[arbiter] language`` or ``[table] language``. English stays as it was.

The last test opens the page in a headless Chromium (skipped when it is not installed) and
reads a Tantrix and a Tokami table's cards in Czech and in French.
"""

from __future__ import annotations

import importlib
import json
import re
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from companion import config, i18n
from companion.arbiter import cli as arbiter_cli
from companion.arbiter.kinds import arbiter_for
from companion.arbiter.settings import ArbiterSettings, arbiter_settings
from companion.arbiter.web import LABELS, PAGE, ArbiterServer, content_security_policy, page
from tests.arbiter.conftest import wait_until
from tests.arbiter.keys import TrustingView
from tests.arbiter.test_page import CHROMIUM_FLAGS
from tests.arbiter.test_web_games import (
    PREFIX,
    TANTRIX_HEADER,
    TANTRIX_MOVES,
    TANTRIX_REFUSED,
    TOKAMI_HEADER,
    TOKAMI_MOVES,
    ViewSource,
    chromium,
    journal,
    publish,
)


def script_words(html: str) -> dict[str, Any]:
    found = re.search(r"const W = (\{.*?\});  //", html)
    assert found is not None
    words: dict[str, Any] = json.loads(found.group(1))
    return words


def test_every_label_of_the_page_is_marked_for_the_catalogs() -> None:
    labels = {" ".join(text.split()) for text in re.findall(r"\[\[(.+?)\]\]", PAGE, re.S)}
    assert labels and labels <= set(LABELS)


@pytest.mark.parametrize("kind", ["tamsk", "tantrix", "tokami"])
def test_every_correction_field_label_is_marked_for_the_catalogs(kind: str) -> None:
    facet = arbiter_for(kind)
    assert facet is not None
    own = facet.correction_fields()
    marked = {" ".join(text.split()) for text in re.findall(r"\[\[(.+?)\]\]", own, re.S)}
    module = importlib.import_module(f"companion.{kind}.arbiter")
    assert marked and marked == set(module.LABELS)


def test_the_correction_fields_are_in_the_arbiters_language() -> None:
    i18n.use("fr")
    html = page(arbiter=True)
    assert ">sablier\n" in html and ">nouvelle tuile\n" in html  # Tamsk, Tantrix
    assert 'title="le joueur, par son nom comme sur la fiche (score)"' in html  # Tokami
    i18n.use("cs")
    html = page(arbiter=True)
    assert ">hodiny\n" in html and ">pole\n" in html and "[[" not in html


def test_the_page_s_labels_stay_english_in_english() -> None:
    html = page(arbiter=True)
    assert '<html lang="en">' in html and "[[" not in html
    assert "<title>companion: the tables</title>" in html
    assert "<b>Correction</b>" in html and 'value="arbiter&#x27;s ruling"' in html
    assert script_words(html)["head"] == "Table {table}: {players} ({status})"


def test_the_page_s_labels_are_in_french_and_czech() -> None:
    i18n.use("fr")
    html = page(arbiter=True)
    assert '<html lang="fr">' in html and "<b>Attribuer un appariement</b>" in html
    assert "toutes les tables, en direct" in html and 'value="décision de l&#x27;arbitre"' in html
    assert script_words(html)["head"] == "Table {table} : {players} ({status})"
    i18n.use("cs")
    html = page(arbiter=True)
    assert '<html lang="cs">' in html and "<b>Oprava</b>" in html and ">odeslat</button>" in html
    assert script_words(html)["round_of"] == "kolo {round} z {rounds}"
    assert script_words(html)["words"]["offline"] == "offline"


def test_the_script_s_words_cannot_close_the_script_and_keep_the_nonce() -> None:
    i18n.use("fr")
    html = page(arbiter=False, nonce="abc123")
    scripts = re.findall(r"<script[^>]*>", html)
    assert scripts == ['<script nonce="abc123">']  # one script, the nonce'd one
    body = html.split('<script nonce="abc123">', 1)[1].rsplit("</script>", 1)[0]
    assert "</" not in body.split("const W = ", 1)[1].split(";  //", 1)[0]
    assert "'nonce-abc123'" in content_security_policy("abc123")


def test_the_tantrix_card_s_words_are_the_arbiters_language() -> None:
    i18n.use("cs")
    html = page(arbiter=False)
    found = re.search(r"const TANTRIX_WORDS = (\{.*?\});\n", html)
    assert found is not None
    words = json.loads(found.group(1))
    assert words["forced"] == "vynucená pole: {cells}"
    assert words["colours"]["red"] == "červená"  # a Tantrix colour, not a Tamsk player's


def _config_file(tmp_path: Path, text: str) -> str:
    path = tmp_path / "config.toml"
    path.write_text(text, encoding="utf-8")
    return str(path)


def test_the_arbiter_language_setting_chooses_the_page_s_language(tmp_path: Path) -> None:
    loaded = config.load(_config_file(tmp_path, '[arbiter]\nlanguage = "cs"\n'))
    settings = arbiter_settings(loaded)
    assert settings.language == "cs"
    assert arbiter_cli.speak(settings.language) == "cs"
    assert "<b>Oprava</b>" in page(arbiter=True)


def test_the_table_language_is_the_page_s_when_the_arbiter_names_none(tmp_path: Path) -> None:
    loaded = config.load(_config_file(tmp_path, '[table]\nlanguage = "fr"\n'))
    assert arbiter_settings(loaded).language == ""
    assert arbiter_cli.speak(arbiter_settings(loaded).language
                             or loaded["table"]["language"]) == "fr"


def test_lang_on_the_command_line_wins_over_the_arbiter_language() -> None:
    i18n.use("fr")  # --lang fr
    assert arbiter_cli.speak("cs") == "fr"


def test_an_arbiter_language_without_a_catalog_is_refused_naming_the_key(tmp_path: Path) -> None:
    with pytest.raises(config.ConfigError, match=r"'arbiter\.language'"):
        config.load(_config_file(tmp_path, '[arbiter]\nlanguage = "tlh"\n'))


# ------------------------------------------------------------------------ in a browser


@pytest.fixture
def tantrix_page(tmp_path: Path) -> Iterator[int]:
    records = journal(tmp_path / "tantrix.jsonl", TANTRIX_HEADER,
                      [*TANTRIX_MOVES, TANTRIX_REFUSED])
    view = TrustingView(PREFIX)
    publish(view, 1, records, now=0.0)
    publish(view, 2, journal(tmp_path / "tokami.jsonl", TOKAMI_HEADER, TOKAMI_MOVES), now=0.0)
    server = ArbiterServer(ViewSource(view), ArbiterSettings(), port=0).start()
    try:
        yield server.port
    finally:
        server.stop()


def _dom(exe: str, port: int, profile: Path) -> str:
    return subprocess.run(
        [exe, *CHROMIUM_FLAGS, f"--user-data-dir={profile}", "--virtual-time-budget=3000",
         "--dump-dom", f"http://127.0.0.1:{port}/?transport=poll"],
        capture_output=True, text=True, timeout=90,
    ).stdout


@pytest.mark.parametrize(("lang", "expected"), [
    ("cs", ["Stůl 1: Ada (červená) – Bo (žlutá) (", "na tahu: Bo (žlutá)",
            "položeno destiček: 3, v pytlíku", "vynucená pole: c2",
            "na kříži zbývá kostek: ", "zakázaná kostka: "]),
    ("fr", ["Table 1 : Ada (rouge) – Bo (jaune) (", "au tour de Bo (jaune)",
            "3 tuiles posées, sac", "espaces forcés : c2",
            "blocs restent sur la croix", "bloc interdit : "]),
])
def test_a_browser_shows_keypad_cards_in_the_arbiters_language(
    tantrix_page: int, tmp_path: Path, lang: str, expected: list[str],
) -> None:
    exe = chromium()
    if exe is None:
        pytest.skip("chromium is not installed (apt-get install chromium)")
    i18n.use(lang)
    dom = _dom(exe, tantrix_page, tmp_path / "chromium")
    for text in expected:
        assert text in dom, (text, dom[-3000:])
    assert "(0, 0)" not in dom  # the forced space by its name on the map, never axial


def test_the_correction_form_sends_a_cell_named_as_on_the_map_as_q_and_r(
    tantrix_page: int, tmp_path: Path,
) -> None:
    """The arbiter types the name under the tile (``c2``); the table gets the engine's cell."""
    exe = chromium()
    if exe is None:
        pytest.skip("chromium is not installed (apt-get install chromium)")
    from tests.replay.cdp import Browser

    browser = Browser(exe, tmp_path / "cdp-profile")
    try:
        tab = browser.new_tab()
        tab.send("Page.enable")
        tab.send("Page.navigate",
                 url=f"http://127.0.0.1:{tantrix_page}/arbiter?transport=poll&table=1")
        tab.wait_for("Page.loadEventFired")
        ready = "document.body.dataset.updates > 0 && !!document.getElementById('table-1')"
        assert wait_until(lambda: tab.evaluate(ready) is True)
        sent = tab.evaluate("""(async () => {
          const bodies = [];
          window.fetch = (url, options) => {  // what the page would POST, kept here
            bodies.push(JSON.parse(options.body));
            return Promise.resolve(new Response('{"detail": "sent"}', {status: 200}));
          };
          const form = document.getElementById("correct");
          form.querySelector("fieldset:enabled [name=what]").value = "move";
          form.elements.tile.value = "4";
          form.elements.cell.value = "c2";
          form.requestSubmit();
          await new Promise(done => setTimeout(done, 200));
          form.elements.cell.value = "z9";
          form.requestSubmit();
          await new Promise(done => setTimeout(done, 200));
          return {bodies, reply: document.getElementById("reply").textContent};
        })()""")
    finally:
        browser.close()
    assert [b["correction"] for b in sent["bodies"]] == [
        {"what": "move", "reason": "arbiter's ruling", "tile": 4, "q": 0, "r": 0}]
    assert sent["reply"] == "no cell z9 on the table's map"  # nothing sent for it
