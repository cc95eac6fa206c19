"""The arbiter's page links to the printouts of the round in play and serves them from the
tournament file, the same pages as ``companion tournament sheet --kind ... --html``."""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import date
from pathlib import Path

import pytest

from companion.arbiter.pin import hash_pin
from companion.arbiter.settings import ArbiterSettings
from companion.arbiter.signing import arbiter_key
from companion.arbiter.web import ArbiterServer, page
from companion.config import defaults
from companion.tournament import printouts, store
from tests.arbiter.test_page_tournament import PairingRecorder, evening, get

__all__ = ["evening"]  # the fixture: two tournaments in the arbiter's folder


@pytest.fixture
def served(evening: Path) -> Iterator[ArbiterServer]:
    server = ArbiterServer(PairingRecorder(), ArbiterSettings(pin_hash=hash_pin("2468")),
                           port=0, signing_key=arbiter_key(defaults()), tournament_dir=evening)
    server.start()
    try:
        yield server
    finally:
        server.stop()


def test_each_tournament_links_to_its_printouts_of_the_round_in_play(
        served: ArbiterServer) -> None:
    info = json.loads(get(served, "/api/tournament")[1])
    links = {t["name"]: t["links"] for t in info["tournaments"]}
    assert links["Tamsk cup"]["pairings"] == "/print/pairings.html?t=Tamsk-cup&round=1"
    assert links["Tamsk cup"]["results"] == "/print/results.html?t=Tamsk-cup&round=1"
    assert links["Tamsk cup"]["standings"] == "/print/standings.html?t=Tamsk-cup&round=1"
    # a round robin prints its cross table, a Swiss its wall chart
    assert links["Tamsk cup"]["crosstable"] == "/print/crosstable.html?t=Tamsk-cup&round=1"
    assert "wallchart" not in links["Tamsk cup"]


def test_the_page_s_printout_is_the_command_line_s(served: ArbiterServer,
                                                   evening: Path) -> None:
    t = store.load(store.path_for("Tamsk cup", evening), arbiter_key(defaults()).public)
    for kind in printouts.KINDS:
        status, text = get(served, f"/print/{kind}.html?t=Tamsk-cup&round=1")
        assert status == 200, text
        assert text == printouts.html_page(printouts.printout(t, kind, 1,
                                                              printed=date.today()))


def test_a_printout_of_nothing_is_refused_in_one_line(served: ArbiterServer) -> None:
    assert get(served, "/print/menu.html?t=Tamsk-cup")[0] == 404
    assert get(served, "/print/pairings.html?t=Tamsk-cup&round=2")[0] == 404
    assert get(served, "/print/pairings.html?t=Tamsk-cup&round=x")[0] == 404
    assert get(served, "/print/pairings.html?t=nothing")[0] == 404
    status, text = get(served, "/print/pairings.html")
    assert status == 400 and text.count("\n") == 1


def test_the_page_offers_the_printouts_it_has_words_for() -> None:
    shown = page(True)
    for link in ("pairings", "results", "standings", "crosstable", "wallchart"):
        assert f'data-link="{link}"' in shown
    assert 'data-link-of="crosstable"' in shown and 'data-link-of="wallchart"' in shown
