"""The HTML viewer in a real browser: headless Chromium moves the slider, clicks a move,
presses keys, takes screenshots, and watches every request the page makes (there must be
none but the file itself).

Skipped when Chromium is not installed (Debian: ``apt-get install chromium``; `.ci/run`
installs it).
"""

from __future__ import annotations

import io
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from PIL import Image, ImageChops

from companion.replay import load
from companion.replay.html import page
from tests.replay.cdp import Browser, Tab
from tests.replay.games import scenario

CHROMIUM = next(
    (found for name in ("chromium", "chromium-browser", "google-chrome")
     if (found := shutil.which(name))),
    None,
)
pytestmark = pytest.mark.skipif(
    CHROMIUM is None,
    reason="Chromium is not installed (Debian: apt-get install chromium); "
    "the HTML viewer test needs a real browser",
)


@pytest.fixture(scope="module")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Browser]:
    assert CHROMIUM is not None
    b = Browser(CHROMIUM, tmp_path_factory.mktemp("chromium-profile"))
    yield b
    b.close()


def open_page(browser: Browser, path: Path) -> Tab:
    tab = browser.new_tab()
    tab.send("Network.enable")
    tab.send("Page.enable")
    tab.send("Page.navigate", url=path.as_uri())
    tab.wait_for("Page.loadEventFired")
    return tab


def requests(tab: Tab) -> list[str]:
    return [e["params"]["request"]["url"] for e in tab.events
            if e.get("method") == "Network.requestWillBeSent"]


def board_shot(tab: Tab) -> Image.Image:
    rect = tab.evaluate(
        "(() => { const r = document.getElementById('board').getBoundingClientRect();"
        " return {x: r.x, y: r.y, width: r.width, height: r.height}; })()"
    )
    return Image.open(io.BytesIO(tab.screenshot(rect))).convert("RGB")


def frame_on_show(tab: Tab) -> int:
    return int(tab.evaluate("document.body.getAttribute('data-frame')"))


def test_the_viewer_steps_through_a_game_without_any_network(browser: Browser,
                                                             tmp_path: Path) -> None:
    replay = load(scenario("p02_forfeit_adjusted"))
    path = tmp_path / "game.html"
    path.write_text(page(replay), encoding="utf-8")
    tab = open_page(browser, path)
    try:
        last = len(replay.frames) - 1
        assert frame_on_show(tab) == 0
        start = board_shot(tab)
        # the slider, as a person drags it
        tab.evaluate("(() => { const s = document.getElementById('slider'); s.value = s.max;"
                     " s.dispatchEvent(new Event('input')); })()")
        assert frame_on_show(tab) == last
        end = board_shot(tab)
        assert start.size == end.size
        assert ImageChops.difference(start, end).getbbox() is not None, "the board did not change"
        assert tab.evaluate("document.querySelector('#moves li.current').dataset.frame") == str(
            last
        )
        # a click in the move list, then the arrow keys
        tab.evaluate("document.querySelector('#moves li[data-frame=\"3\"]').click()")
        assert frame_on_show(tab) == 3
        tab.key("ArrowRight", 39)
        assert frame_on_show(tab) == 4
        tab.key("ArrowLeft", 37)
        tab.key("ArrowLeft", 37)
        assert frame_on_show(tab) == 2
        shown = tab.evaluate("document.getElementById('where').textContent")
        assert shown.startswith("move 2 of 7  0:07")  # the frames' heading, not a frame count
        # play and pause
        tab.evaluate("document.getElementById('play').click()")
        assert tab.evaluate("document.getElementById('play').textContent") == "pause"
        tab.evaluate("document.getElementById('play').click()")
        assert tab.evaluate("document.getElementById('play').textContent") == "play"
        # nothing was fetched: no request but the file itself, no resource loaded
        assert set(requests(tab)) <= {path.as_uri()}
        assert tab.evaluate("performance.getEntriesByType('resource').length") == 0
    finally:
        tab.close()


def test_the_network_watch_does_see_a_page_that_fetches(browser: Browser,
                                                        tmp_path: Path) -> None:
    """The check above would catch a request: a page that loads an image is seen doing it."""
    path = tmp_path / "fetching.html"
    path.write_text('<!doctype html><img src="http://127.0.0.1:9/nothing.png">',
                    encoding="utf-8")
    tab = open_page(browser, path)
    try:
        assert "http://127.0.0.1:9/nothing.png" in requests(tab)
    finally:
        tab.close()


def go_to(tab: Tab, address: str) -> int:
    """Type ``address`` into the address bar's fragment; the frame shown once the page has
    heard of it."""
    return int(tab.evaluate(
        "new Promise(done => { window.addEventListener('hashchange', () => done("
        "document.body.getAttribute('data-frame')), {once: true});"
        f" location.hash = '{address}'; }})"))


def test_the_address_names_the_position_by_its_move_number_as_replay_at_does(
        browser: Browser, tmp_path: Path) -> None:
    """``#move=N`` opens the position after move N (what ``--at N`` shows); stepping keeps the
    address a link to what is shown; an old ``#frame=N`` link still opens frame N."""
    replay = load(scenario("p02_forfeit_adjusted"))
    path = tmp_path / "game.html"
    path.write_text(page(replay), encoding="utf-8")
    after_3 = replay.frame_after_move(3)
    aside = next(f for f in replay.frames if f.index and not f.move)
    tab = browser.new_tab()
    tab.send("Page.enable")
    tab.send("Page.navigate", url=path.as_uri() + "#move=3")
    tab.wait_for("Page.loadEventFired")
    try:
        assert frame_on_show(tab) == after_3.index
        assert tab.evaluate("document.getElementById('where').textContent").startswith(
            "move 3 of 7")
        assert tab.evaluate("location.hash") == "#move=3"
        tab.key("ArrowRight", 39)
        shown = replay.frames[after_3.index + 1]
        expected = f"#move={shown.number}" if shown.move else f"#frame={shown.index}"
        assert tab.evaluate("location.hash") == expected
        assert tab.evaluate("document.getElementById('where').getAttribute('href')") == expected
        # a link in the move list, followed as a reader clicks it
        tab.evaluate("document.querySelector('#moves a[href=\"#move=5\"]').click()")
        assert frame_on_show(tab) == replay.frame_after_move(5).index
        # an old link by frame index, and a move typed into the address
        assert go_to(tab, f"#frame={aside.index}") == aside.index
        assert go_to(tab, "#move=0") == 0
    finally:
        tab.close()
