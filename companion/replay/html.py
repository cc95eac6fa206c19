"""One self-contained HTML file to look back at a game in any browser, offline.

The page holds everything inline: the board as SVG (drawn by the same shapes as the PNGs),
every distinct piece of a frame (a space, a glass, a panel line) once as an SVG fragment and each
frame as the list of its pieces in a JSON block, the move list, the chart, the
CSS and a small script (slider, play/pause, click a move to jump, arrow keys, and the position
in the address). Its Content-Security-Policy forbids every fetch (``default-src 'none'``), so the
page cannot reach the network even by mistake, and it has no external link, image or font.

The address names the position shown by its move number, as the move list, the headings and
``companion replay --at N`` do: ``#move=12`` is the position right after move 12 (``#move=0``
the start), and the page keeps its address in step as the reader moves through the game, so
what he copies is a link to what he sees. A frame that is not a move (a refused input, a
timer's event between two moves) has no move number of its own and is ``#frame=N``, counted
from 0 over every frame; old links of that form keep working.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from html import escape

from companion.i18n import _, language
from companion.i18n import say as say_remark
from companion.replay.kinds import of
from companion.replay.model import Replay, where
from companion.replay.palette import Ink, hex_of
from companion.replay.panel import clock
from companion.replay.shapes import FONT, Shape, svg_body

CSP = (
    "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; "
    "img-src data:; base-uri 'none'; form-action 'none'"
)

STYLE = """
body{margin:0;font:14px/1.4 system-ui,sans-serif;background:#f7f4ec;color:#181818}
header{padding:10px 16px 0}h1{font-size:18px;margin:0}header p{margin:2px 0;color:#666}
main{display:flex;gap:16px;padding:10px 16px;align-items:flex-start;flex-wrap:wrap}
#view{flex:0 1 760px;min-width:320px}#board,#chart{width:100%;height:auto;display:block}
#board{border:1px solid #c8c4ba;background:#f7f4ec}
#controls{display:flex;gap:6px;align-items:center;margin:8px 0;flex-wrap:wrap}
#controls button{min-width:36px}#slider{flex:1;min-width:160px}
#where{font-family:monospace;min-width:12em;color:inherit;text-decoration:none}
#moves .n a{color:inherit;text-decoration:none}
#marks{min-height:2.8em;font-size:13px;color:#333;margin:0 0 8px}
#marks .refused{color:#a01e1e}
aside{flex:1 1 260px;max-height:90vh;overflow:auto;border:1px solid #c8c4ba;background:#fff}
#moves{margin:0;padding:4px 0 4px 0;list-style:none;font-family:monospace;font-size:13px}
#moves li{padding:1px 8px;cursor:pointer;white-space:nowrap}
#moves li:hover{background:#f1ede2}#moves li.current{background:#ffd24d}
#moves li.refused .label{color:#a01e1e}#moves li.auto{color:#777;font-style:italic}
#moves .n{display:inline-block;width:3.5em;color:#888;text-align:right;margin-right:6px}
#moves li.aside .label{padding-left:1em}
#notes{font-size:12px;color:#8a5a00}
"""

SCRIPT = """
(function () {
  var D = JSON.parse(document.getElementById('frames').textContent);
  var P = D.parts, F = D.frames;
  var dyn = document.getElementById('dyn');
  var slider = document.getElementById('slider');
  var where = document.getElementById('where');
  var marks = document.getElementById('marks');
  var play = document.getElementById('play');
  var speed = document.getElementById('speed');
  var items = Array.prototype.slice.call(document.querySelectorAll('#moves li'));
  var chartSvg = document.getElementById('chart');
  var cursor = document.getElementById('cursor');
  var cur = -1, timer = null;
  function link(i) {  // the address of frame i: #move=N for a move's position, else #frame=i
    var f = F[i];
    return f.move !== null ? 'move=' + f.move : 'frame=' + i;
  }
  function fromAddress() {  // the frame the address names (#move=N, or an old #frame=N)
    var m = /(?:^#|&)move=(\\d+)/.exec(location.hash);
    if (m) return D.moves[Math.min(+m[1], D.moves.length - 1)];
    m = /(?:^#|&)frame=(\\d+)/.exec(location.hash);
    return m ? +m[1] : 0;
  }
  function cursorAt(t) {
    if (!chartSvg || !cursor) return;
    var x0 = +chartSvg.dataset.x0, x1 = +chartSvg.dataset.x1, t1 = +chartSvg.dataset.t1;
    var x = x0 + (x1 - x0) * Math.min(t, t1) / t1;
    cursor.setAttribute('x1', x); cursor.setAttribute('x2', x);
  }
  function show(i) {
    i = Math.max(0, Math.min(F.length - 1, i | 0));
    if (i === cur) return;
    if (cur >= 0 && items[cur]) items[cur].classList.remove('current');
    cur = i;
    var f = F[i];
    dyn.innerHTML = f.svg.map(function (k) { return P[k]; }).join('');
    slider.value = i;
    if (items[i]) {
      items[i].classList.add('current');
      items[i].scrollIntoView({block: 'nearest'});
    }
    where.textContent = f.where + '  ' + f.clock;
    where.setAttribute('href', '#' + link(i));
    if (location.hash !== '#' + link(i)) {
      try { history.replaceState(null, '', '#' + link(i)); } catch (e) { /* no history */ }
    }
    marks.textContent = '';
    f.marks.forEach(function (m, k) {
      var d = document.createElement('div');
      d.textContent = m;
      if (f.refused.indexOf(k) >= 0) d.className = 'refused';
      marks.appendChild(d);
    });
    cursorAt(f.t);
    document.body.setAttribute('data-frame', i);
  }
  function delay(i) {
    var v = speed.value;
    if (v.charAt(0) === 'm') return +v.slice(1);
    var k = +v.slice(1);
    var dt = i + 1 < F.length ? (F[i + 1].t - F[i].t) * 1000 / k : 1000;
    return Math.max(40, Math.min(8000, dt));
  }
  function tick() {
    if (cur >= F.length - 1) { stop(); return; }
    show(cur + 1);
    timer = setTimeout(tick, delay(cur));
  }
  function start() {
    if (cur >= F.length - 1) show(0);
    play.textContent = play.dataset.pause; play.setAttribute('aria-pressed', 'true');
    timer = setTimeout(tick, delay(cur));
  }
  function stop() {
    if (timer !== null) clearTimeout(timer);
    timer = null; play.textContent = play.dataset.play; play.setAttribute('aria-pressed', 'false');
  }
  play.addEventListener('click', function () { if (timer === null) start(); else stop(); });
  slider.addEventListener('input', function () { show(+slider.value); });
  function button(id, go) {
    document.getElementById(id).addEventListener('click', function () { stop(); show(go()); });
  }
  button('first', function () { return 0; });
  button('prev', function () { return cur - 1; });
  button('next', function () { return cur + 1; });
  button('last', function () { return F.length - 1; });
  items.forEach(function (li) {
    li.addEventListener('click', function () { stop(); show(+li.getAttribute('data-frame')); });
  });
  document.addEventListener('keydown', function (e) {
    if (e.target && e.target.tagName === 'SELECT') return;
    if (e.key === 'ArrowRight' || e.key === 'n') { stop(); show(cur + 1); }
    else if (e.key === 'ArrowLeft' || e.key === 'p') { stop(); show(cur - 1); }
    else if (e.key === 'Home') { stop(); show(0); }
    else if (e.key === 'End') { stop(); show(F.length - 1); }
    else if (e.key === ' ') { e.preventDefault(); play.click(); }
    else return;
    if (e.target === slider) e.preventDefault();
  });
  window.addEventListener('hashchange', function () { stop(); show(fromAddress()); });
  show(fromAddress());
})();
"""


_TAG = re.compile(r"<[^>]+>")


def _single_quoted(svg: str) -> str:
    """The same SVG with its attributes in single quotes, which JSON need not escape (the
    frames are a third smaller). Attribute values never hold a quote: they are escaped."""
    return _TAG.sub(lambda m: m.group(0).replace('"', "'"), svg)


def _dynamic_parts(
    shapes: Sequence[Shape], defs: dict[str, str], memo: dict[Shape, int], parts: list[str]
) -> list[int]:
    """A frame's changing part as indices into ``parts`` (single-quoted SVG fragments).

    Most of a frame is what the frame before showed (of 37 spaces and 6 glasses, one or two
    change), so each distinct top-level shape is turned into text once per page and each frame
    only lists its fragments: the page grows with what changes, like its JSON data does.
    """
    out = []
    for shape in shapes:
        k = memo.get(shape)
        if k is None:
            k = memo[shape] = len(parts)
            parts.append(_single_quoted(svg_body((shape,), defs)))
        out.append(k)
    return out


def _frames_json(data: dict[str, object]) -> str:
    """JSON safe inside a ``<script>`` element (no ``</`` can close it early)."""
    return json.dumps(data, ensure_ascii=False, separators=(",", ":")).replace("</", "<\\/")


def _move_link(number: int) -> str:
    """A move's number in the move list, a link to the position after it (``#move=N``)."""
    return f'<a href="#move={number}">{number}.</a>'


def page(replay: Replay) -> str:
    """The whole HTML document of a game (a pure function: a replay in, text out)."""
    #: the page's visible words, escaped once
    say = {
        "the_board": escape(_("the board")),
        "start_home": escape(_("start (Home)")),
        "back_left_arrow": escape(_("back (left arrow)")),
        "play": escape(_("play")),
        "pause": escape(_("pause")),
        "forward_right_arrow": escape(_("forward (right arrow)")),
        "end_end": escape(_("end (End)")),
        "move": escape(_("move")),
        "speed": escape(_("speed")),
    }
    game = of(replay.game)
    who = game.title(replay)
    heading = f"{replay.game.capitalize()}" + (f": {who}" if who else "")
    defs: dict[str, str] = {}
    static = svg_body(game.static(replay), defs)
    memo: dict[Shape, int] = {}
    parts: list[str] = []
    dyns = [_dynamic_parts(shapes, defs, memo, parts) for shapes in game.dynamics(replay)]
    size = game.size(replay)
    #: where each frame sits on the chart (its time; a Tokami record without times: its number)
    at = game.axis(replay)
    frames = [
        {"t": round(x, 3), "clock": clock(f.t), "where": where(f, replay.moves),
         "label": f.shown, "marks": [say_remark(m) for m in f.marks],
         "move": f.number if f.move or f.index == 0 else None,
         "refused": [k for k, m in enumerate(f.marks) if m.startswith("refused")], "svg": d}
        for f, d, x in zip(replay.frames, dyns, at, strict=True)
    ]
    #: the frame of the position after each move (0: the start), as ``--at`` finds it
    moves = [replay.frame_after_move(n).index for n in range(replay.moves + 1)]
    items = []
    for f in replay.frames:
        cls = []
        if f.refused:
            cls.append("refused")
        if f.record is None and f.index:
            cls.append("auto")
        if f.index and not f.move:
            cls.append("aside")  # not a move: under the move before it, without a number
        number = _move_link(f.number) if f.move else ""
        attr = f' class="{" ".join(cls)}"' if cls else ""
        said = " / ".join(say_remark(m) for m in f.marks)
        items.append(
            f'<li data-frame="{f.index}"{attr} title="{escape(said)}">'
            f'<span class="n">{number}</span><span class="label">{escape(f.shown)}</span></li>'
        )
    w, h = size
    board = (
        f'<svg id="board" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {w} {h}" '
        f'style="{FONT}" role="img" aria-label="{say["the_board"]}">'
        f"<defs>{''.join(defs.values())}</defs>"
        f'<rect width="{w}" height="{h}" fill="{hex_of(Ink.PAPER)}"/>'
        f'<g id="static">{static}</g><g id="dyn">{"".join(parts[k] for k in dyns[0])}</g></svg>'
    )
    notes = "".join(
        "<p>" + escape(_("note: {note}").format(note=n)) + "</p>" for n in replay.notes)
    last = replay.frames[-1].state
    if last.get("over"):
        winner = last.get("winner")
        result = (_("a tie") if winner == "tie"
                  else _("{player} wins").format(player=game.player(replay, str(winner))))
        summary = _("{result}, {moves} moves, {time}").format(
            result=result, moves=replay.moves, time=clock(replay.duration))
    else:
        summary = _("{moves} moves, {time} (not finished)").format(
            moves=replay.moves, time=clock(replay.duration))
    speeds = "".join(
        f'<option value="{value}"{" selected" if value == "m500" else ""}>{escape(words)}</option>'
        for value, words in (
            ("m1000", _("1 move a second")),
            ("m500", _("2 moves a second")),
            ("m200", _("5 moves a second")),
            ("r1", _("real time")),
            ("r5", _("real time x5")),
            ("r20", _("real time x20")),
        )
    )

    return (
        "<!doctype html>\n"
        f'<html lang="{language()}"><head><meta charset="utf-8">'
        f'<meta http-equiv="Content-Security-Policy" content="{CSP}">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        '<meta name="referrer" content="no-referrer">'
        f"<title>{escape(heading)}</title><style>{STYLE}</style></head>\n"
        f"<body data-frame=\"0\"><header><h1>{escape(heading)}</h1><p>{escape(summary)}</p>"
        f'<div id="notes">{notes}</div></header>\n'
        f'<main><section id="view">{board}'
        '<div id="controls">'
        f'<button id="first" title="{say["start_home"]}">|&lt;</button>'
        f'<button id="prev" title="{say["back_left_arrow"]}">&lt;</button>'
        f'<button id="play" aria-pressed="false" data-play="{say["play"]}" '
        f'data-pause="{say["pause"]}">{say["play"]}</button>'
        f'<button id="next" title="{say["forward_right_arrow"]}">&gt;</button>'
        f'<button id="last" title="{say["end_end"]}">&gt;|</button>'
        f'<input type="range" id="slider" min="0" max="{len(frames) - 1}" value="0" '
        f'aria-label="{say["move"]}">'
        f'<select id="speed" aria-label="{say["speed"]}">{speeds}</select>'
        '<a id="where" href="#move=0"></a></div>'
        '<div id="marks"></div>'
        f"{game.chart(replay)}"
        "</section>\n"
        f'<aside><ol id="moves">{"".join(items)}</ol></aside></main>\n'
        f'<script type="application/json" id="frames">'
        f'{_frames_json({"parts": parts, "frames": frames, "moves": moves})}</script>\n'
        f"<script>{SCRIPT}</script>\n</body></html>\n"
    )
