"""The HTML viewer: one self-contained file with every frame, the move list and the chart."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from html.parser import HTMLParser

from companion.replay import load
from companion.replay.chart import chart
from companion.replay.html import page
from tests.replay.games import scenario

SVG = "{http://www.w3.org/2000/svg}"


class Links(HTMLParser):
    """Every element with its attributes, and the text of the frames' JSON block."""

    def __init__(self) -> None:
        super().__init__()
        self.elements: list[tuple[str, dict[str, str | None]]] = []
        self.frames = ""
        self._in_frames = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.elements.append((tag, dict(attrs)))
        self._in_frames = tag == "script" and dict(attrs).get("id") == "frames"

    def handle_endtag(self, tag: str) -> None:
        self._in_frames = False

    def handle_data(self, data: str) -> None:
        if self._in_frames:
            self.frames += data


def parsed(name: str) -> tuple[str, Links]:
    text = page(load(scenario(name)))
    links = Links()
    links.feed(text)
    return text, links


def test_the_page_needs_no_network_at_all() -> None:
    text, links = parsed("p02_forfeit_adjusted")
    csp = [a["content"] for t, a in links.elements if a.get("http-equiv") ==
           "Content-Security-Policy"]
    assert csp and "default-src 'none'" in (csp[0] or "")
    for tag, attrs in links.elements:
        for name in ("src", "href", "action", "poster", "srcset", "data"):
            value = attrs.get(name)
            assert value is None or value.startswith("#"), (tag, name, value)
        assert tag not in ("link", "iframe", "object", "embed", "img")
    # the only URL is the SVG namespace, a name that is never fetched
    assert set(re.findall(r"https?://[^\s\"'<>]+", text)) == {"http://www.w3.org/2000/svg"}


def test_the_page_holds_every_frame_and_the_move_list_jumps_to_them() -> None:
    replay = load(scenario("p02_forfeit_adjusted"))
    links = Links()
    links.feed(page(replay))
    data = json.loads(links.frames)
    frames, parts = data["frames"], data["parts"]
    assert [f["label"] for f in frames] == [f.label for f in replay.frames]
    items = [a for t, a in links.elements if t == "li"]
    assert [int(a["data-frame"] or -1) for a in items] == list(range(len(replay.frames)))
    slider = next(a for t, a in links.elements if a.get("id") == "slider")
    assert slider["type"] == "range" and slider["max"] == str(len(frames) - 1)
    for f in frames:
        svg = "".join(parts[k] for k in f["svg"])
        ET.fromstring(f'<g xmlns="http://www.w3.org/2000/svg">{svg}</g>')


def test_each_piece_of_a_frame_is_written_once_and_frames_list_their_pieces() -> None:
    """A page grows with what changes between frames, not with frames times the board."""
    replay = load(scenario("p01_opening_and_claim"))
    links = Links()
    links.feed(page(replay))
    data = json.loads(links.frames)
    parts = data["parts"]
    assert len(set(parts)) == len(parts)
    used = {k for f in data["frames"] for k in f["svg"]}
    assert used == set(range(len(parts)))
    # one move changes two spaces and a glass: the first two frames share most pieces
    first, second = data["frames"][0]["svg"], data["frames"][1]["svg"]
    assert len(set(first) & set(second)) >= 30


def test_a_frame_cannot_end_the_script_block_early() -> None:
    replay = load(scenario("p01_opening_and_claim"))
    replay.notes.append("</script><b>")
    text = page(replay)
    assert text.count("</script>") == 2


def test_the_chart_draws_each_glass_sand_over_the_game() -> None:
    replay = load(scenario("p02_forfeit_adjusted"))
    root = ET.fromstring(chart(replay))
    lines = {p.get("data-glass"): p for p in root.iter(f"{SVG}polyline")}
    assert set(lines) == {"r1", "r2", "r3", "b1", "b2", "b3"}
    assert root.find(f".//{SVG}line[@id='cursor']") is not None
    # every corner of a glass's line is its sand at that time, between 0 and its period
    for glass, points in replay.sand.items():
        assert all(0 <= s <= replay.periods[glass] for _, s in points)
        assert all(a[0] <= b[0] for a, b in zip(points, points[1:], strict=False))


def test_the_sand_line_is_what_the_glasses_held_at_each_frame() -> None:
    replay = load(scenario("p01_opening_and_claim"))
    for frame in replay.frames:
        for glass, g in frame.state["glasses"].items():
            points = replay.sand[glass]
            before = [p for p in points if p[0] <= frame.t]
            t0, s0 = before[-1]
            after = [p for p in points if p[0] > frame.t]
            if after and g["running"]:
                t1, s1 = after[0]
                expected = s0 + (s1 - s0) * (frame.t - t0) / (t1 - t0)
            else:
                expected = s0 - (frame.t - t0) if g["running"] else s0
            assert abs(max(0.0, expected) - g["sand"]) < 0.01, (frame.index, glass)


def test_a_level_1_game_says_there_is_no_sand() -> None:
    replay = load(scenario("s29_level1_tie"))
    assert "no sand" in chart(replay)


def test_a_tantrix_page_charts_each_players_points() -> None:
    replay = load(scenario("t35_full_game_four_players"))
    root = ET.fromstring(chart(replay))
    players = {p.get("data-player") for p in root.iter(f"{SVG}polyline")}
    assert players == set(replay.header["players"])
    assert "<svg id=\"board\"" in page(replay)


def test_the_page_links_each_move_to_the_position_after_it_as_replay_at_finds_it() -> None:
    """``#move=N`` is the position after move N (``--at N``): the page's table of moves maps
    each move number to that frame, and the move list links each move by its number."""
    replay = load(scenario("p02_forfeit_adjusted"))
    html = page(replay)
    data = json.loads(html.split('id="frames">', 1)[1].split("</script>", 1)[0])
    assert data["moves"] == [replay.frame_after_move(n).index for n in range(replay.moves + 1)]
    for n in range(1, replay.moves + 1):
        assert f'<a href="#move={n}">{n}.</a>' in html
        assert data["frames"][data["moves"][n]]["move"] == n
    assert all(f["move"] is None for f, frame in zip(data["frames"], replay.frames, strict=True)
               if frame.index and not frame.move)
