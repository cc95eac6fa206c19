"""The Tokami screen: the standings after every turn and the question being typed.

``tokami_screen(view)`` draws the object :meth:`companion.tokami.table.TokamiTable.view`
returns: whose turn it is, the blocks left on the cross, the block forbidden to the player on
turn, the standings (best first, the player on turn marked), and under ``"entry"`` the keypad
dialogue's question and the keys that answer it. A refusal (``view["error"]``) takes the place
of the question until the next key.

The choices are the dialogue's own (``"1 higher + bonus"``, ``"2 yellow"``, ``"* back"``);
they are shortened here to fit: on a 128x64 panel to seven characters (``"1 bonus"``,
``"4 stuck"``, ``"2 yello"``), two to a row beside a narrow standings column. A 128x128 panel
also shows how many blocks of each colour are left, in their colours, the forbidden one crossed.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from PIL import Image, ImageDraw

from companion.i18n import N_, _, pgettext
from companion.screens.layout import (
    BAR,
    PITCH,
    draw_paragraph,
    draw_refusal_box,
    draw_title_bar,
    draw_warning_bar,
)
from companion.screens.palette import Colour, Palette, Size, blank
from companion.screens.text import (
    LINE_HEIGHT,
    clip,
    columns,
    draw_text,
    draw_text_right,
    printable,
    text_width,
    wrap,
)

#: From this height on, the roomier layout is used.
TALL_HEIGHT = 112

#: Block colours a colour panel can show as themselves; any other colour is drawn white.
BLOCK_COLOURS: dict[str, tuple[int, int, int]] = {
    "red": (230, 40, 40),
    "yellow": (245, 210, 0),
    "green": (40, 190, 70),
    "blue": (60, 120, 255),
    "orange": (255, 140, 0),
    "purple": (170, 80, 220),
    "white": (240, 240, 240),
    "black": (130, 130, 155),
    "natural": (215, 180, 130),
    "wood": (215, 180, 130),
}

def _tall_words() -> dict[str, str]:
    """The dialogue's outcome words, shortened for a tall panel's column of choices."""
    return {
        "higher + bonus": pgettext("tokami choice", "bonus"),
        "higher, no bonus": pgettext("tokami choice", "higher"),
        "blocks fell": pgettext("tokami choice", "fell"),
        "not higher": pgettext("tokami choice", "not higher"),
        "declined": pgettext("tokami choice", "declined"),
    }


def _short_words() -> dict[str, str]:
    """The same in a word each, for the rows of a short panel."""
    return {
        "higher + bonus": pgettext("tokami choice", "bonus"),
        "higher, no bonus": pgettext("tokami choice", "up"),
        "blocks fell": pgettext("tokami choice", "fell"),
        "not higher": pgettext("tokami choice", "stuck"),
        "declined": pgettext("tokami choice", "pass"),
    }


#: The other words of the choices: the block colours and the keys' actions.
CHOICE_WORDS = (
    N_("red"), N_("yellow"), N_("green"), N_("blue"), N_("orange"), N_("purple"), N_("white"),
    N_("black"), N_("natural"), N_("wood"), N_("undo"), N_("stop"), N_("back"), N_("done"),
    N_("save"), N_("none"),
)

#: The question of each stage in one line, for a tall panel.
_TALL_QUESTIONS = {
    "outcome": N_("what happened?"),
    "block": N_("which block went up?"),
    "bonus": N_("which bonus block?"),
    "fallen": N_("which blocks fell?"),
    "in_hand": N_("which block in hand?"),
}

#: The question of each stage in a few words, for a short panel.
_SHORT_QUESTIONS = {
    "outcome": N_("what happened?"),
    "block": N_("which block?"),
    "bonus": N_("bonus block?"),
    "fallen": N_("which fell?"),
    "in_hand": N_("in hand?"),
    "confirm": N_("save this?"),
    "confirm_undo": N_("undo this?"),
    "confirm_stop": N_("stop the game?"),
    "over": N_("game over"),
}


def tokami_screen(
    view: Mapping[str, Any], *, size: Size = (128, 64), mode: str = "1"
) -> Image.Image:
    """Draw the Tokami screen for ``view`` on a new image of ``size`` and ``mode``.

    Example::

        image = tokami_screen(table.view(), size=device.size, mode=device.mode)
    """
    image, palette = blank(size, mode)
    draw = ImageDraw.Draw(image)
    width, height = image.size
    if height >= TALL_HEIGHT:
        _draw_tall(draw, palette, view, width, height)
    else:
        _draw_compact(draw, palette, view, width, height)
    warning = view.get("warning")
    if warning and not view.get("error"):
        draw_warning_bar(draw, palette, str(warning), width, height,
                         page=int(view.get("warning_page") or 0))
    return image


# -- words ---------------------------------------------------------------------------------------


def question(view: Mapping[str, Any]) -> str:
    """The dialogue's question without the player's name (the title bar carries it)."""
    entry = view.get("entry") or {}
    prompt = str(entry.get("prompt") or "")
    player = entry.get("player")
    if player and prompt.startswith(f"{player}: "):
        prompt = prompt[len(player) + 2 :]
    return prompt


def short_choice(choice: str, width: int, words: Mapping[str, str]) -> str:
    """``"1 higher + bonus"`` -> ``"1 bonus"`` (``words``: the dialogue's English labels and
    their short words in the players' language); a label still longer than ``width`` is cut
    with the screens' ``~``."""
    key, _space, label = choice.partition(" ")
    if label not in words:  # the dialogue speaks the players' language: its English label
        label = next((english for english in words if _(english) == label), label)
    return clip(f"{key} {words.get(label, label)}", width)


def _title(view: Mapping[str, Any]) -> str:
    if view.get("over"):
        winner = view.get("winner")
        verdict = _("a tie") if winner == "tie" else _("{player} wins").format(player=winner)
        return (_("stopped: ") if view.get("reason") == "stopped" else "") + verdict
    return str(view.get("turn") or "")


def forbidden_mark(view: Mapping[str, Any]) -> str:
    """``"forbidden: red"`` while a block is forbidden to the player on turn, else ``""``."""
    forbidden = view.get("forbidden")
    if not forbidden or view.get("over"):
        return ""
    return _("forbidden: {colour}").format(colour=_(str(forbidden)))


def _ink(palette: Palette, colour: str | None) -> Colour:
    if isinstance(palette.background, tuple) and colour in BLOCK_COLOURS:
        return BLOCK_COLOURS[str(colour)]
    return palette.foreground


def _standings(view: Mapping[str, Any]) -> list[tuple[str, int]]:
    return [(str(p), int(s)) for p, s in view.get("standings") or []]


def _draw_standings(
    draw: ImageDraw.ImageDraw,
    palette: Palette,
    view: Mapping[str, Any],
    left: int,
    right: int,
    top: int,
    rows: int,
) -> None:
    """One player a row, best first, the score flush right; the player on turn in a box."""
    chars = columns(right - left - 1)
    turn = view.get("turn")
    for i, (player, score) in enumerate(_standings(view)[:rows]):
        y = top + i * PITCH
        points = str(score)
        ink = palette.foreground
        if player == turn and not view.get("over"):
            draw.rectangle((left, y - 1, right, y + LINE_HEIGHT - 1), fill=palette.accent)
            ink = palette.on_fill
        name = clip(printable(player), max(1, chars - len(points) - 1))
        draw_text(draw, left + 1, y, name, ink)
        draw_text_right(draw, right, y, points, ink)


def _draw_refusal(
    draw: ImageDraw.ImageDraw,
    palette: Palette,
    view: Mapping[str, Any],
    left: int,
    right: int,
    top: int,
    bottom: int,
) -> None:
    """``Not allowed`` in a warning bar, the reason wrapped under it (paged when long)."""
    draw_refusal_box(draw, palette, _("Not allowed"), str(view["error"]),
                     (left, top, right, bottom), page=int(view.get("error_page") or 0))


def typed_so_far(view: Mapping[str, Any]) -> str:
    """The answers given for the turn being typed: ``"blue yellow"`` after two fallen blocks."""
    entered = str((view.get("entry") or {}).get("entered") or "")
    return entered.partition(": ")[2]


def _compact_question(view: Mapping[str, Any], stage: str, room: int) -> str:
    """The question in a few words; while fallen blocks are typed, those typed so far (each
    colour cut to three letters), as many as fit in ``room`` and the others counted (``+2``)."""
    typed = typed_so_far(view)
    if stage == "fallen" and typed:
        lead = _("fell:")
        said = [_(colour)[:3] for colour in typed.split()]
        for shown in range(len(said), -1, -1):
            rest = len(said) - shown
            text = " ".join([lead, *said[:shown], *([f"+{rest}"] if rest else [])])
            if len(text) <= room:
                return text
        return clip(lead, room)
    return _(_SHORT_QUESTIONS[stage]) if stage in _SHORT_QUESTIONS else question(view)


def _confirm_words(view: Mapping[str, Any]) -> str | None:
    """What a confirmation asks about: the turn typed, or the turn an undo takes back."""
    stage = (view.get("entry") or {}).get("stage")
    if stage in ("confirm", "confirm_undo", "confirm_stop"):
        text = question(view)
        head = _("undo {turn}?").split("{turn}")[0]  # the undo prompt's words before the turn
        if stage == "confirm_undo" and head and text.startswith(head):
            text = text[len(head) :]
        return text.rstrip("?")
    return None


def prompt_page(view: Mapping[str, Any]) -> int:
    """Which page of the choices is up (the table counts them from the last key)."""
    return int(view.get("prompt_page") or 0)


# -- choices a page at a time ----------------------------------------------------------------


def flow(
    items: Sequence[str], width: int, lines: int, last_width: int | None = None
) -> list[list[str]]:
    """Items laid left to right, a space between them, in at most ``lines`` lines of
    ``width`` characters (the last one ``last_width``, when given); the items that do not fit
    are left out (see :func:`pages_of`, which shows them on the next page)."""
    out: list[list[str]] = [[]]
    used = 0
    for item in items:
        room = last_width if last_width is not None and len(out) == lines else width
        need = len(item) + (1 if out[-1] else 0)
        if used + need > room:
            if len(out) == lines:
                break
            out.append([])
            used, need = 0, len(item)
            room = last_width if last_width is not None and len(out) == lines else width
            if need > room:
                break
        out[-1].append(item)
        used += need
    return out


def pages_of(items: Sequence[str], width: int, lines: int) -> list[list[list[str]]]:
    """``items`` flowed into pages of ``lines`` lines: one page when they all fit, else as
    many as they take, the last line of each keeping room for the page mark (``2/3``)."""
    whole = flow(items, width, lines)
    if sum(len(row) for row in whole) == len(items):
        return [whole]
    pages: list[list[list[str]]] = []
    rest = list(items)
    while rest:
        page = flow(rest, width, lines, last_width=width - len(PAGE_MARK))
        placed = sum(len(row) for row in page)
        if placed == 0:  # an item wider than a line: shown cut rather than never
            page, placed = [[clip(rest[0], width - len(PAGE_MARK))]], 1
        pages.append(page)
        rest = rest[placed:]
    return pages


#: Room the page mark takes at the end of a page's last line (`` 2/3``).
PAGE_MARK = " 9/9"


def _draw_page_mark(
    draw: ImageDraw.ImageDraw, palette: Palette, page: int, pages: int, right: int, y: int
) -> None:
    """``2/3`` flush right on line ``y``: which page of the choices is up."""
    if pages > 1:
        draw_text_right(draw, right, y, f"{page + 1}/{pages}", palette.dim)


# -- 128x64 ----------------------------------------------------------------------------------------

#: What ``#`` and ``*`` do on each confirmation, for a short panel's question line.
_CONFIRM_KEYS = {
    "confirm": N_("#: save  *: back"),
    "confirm_undo": N_("#: undo  *: back"),
    "confirm_stop": N_("#: stop  *: back"),
}


def _standing_items(view: Mapping[str, Any], width: int, lines: int) -> list[str]:
    """``"Anna 3"`` for each player, names cut just enough for everyone to fit."""
    standings = _standings(view)
    for cut in (12, 8, 6, 5, 4, 3, 2):
        items = [f"{clip(printable(p), cut)} {s}" for p, s in standings]
        if sum(len(f) for f in flow(items, width, lines)) == len(items):
            return items
    return [f"{clip(printable(p), 2)} {s}" for p, s in standings]


def _draw_flowed(
    draw: ImageDraw.ImageDraw,
    palette: Palette,
    rows: list[list[str]],
    top: int,
    *,
    marked: int | None = None,
) -> None:
    """Draw flowed rows; item number ``marked`` (counting across rows) in a filled box."""
    index = 0
    for r, row in enumerate(rows):
        x = 1
        y = top + r * PITCH
        for item in row:
            ink = palette.foreground
            if index == marked:
                draw.rectangle(
                    (x - 1, y - 1, x + text_width(item), y + LINE_HEIGHT - 1), fill=palette.accent
                )
                ink = palette.on_fill
            draw_text(draw, x, y, item, ink)
            x += text_width(item) + 6
            index += 1


def _blocks_left(view: Mapping[str, Any]) -> str:
    """The title bar's count: the blocks left on the cross (and the round, if several)."""
    rounds = int(view.get("rounds") or 1)
    left = view.get("blocks_left", 0)
    if rounds == 1:
        return _("{n} left").format(n=left)
    return _("r{round}/{rounds} {n}").format(round=view.get("round"), rounds=rounds, n=left)


def _draw_compact(
    draw: ImageDraw.ImageDraw,
    palette: Palette,
    view: Mapping[str, Any],
    width: int,
    height: int,
) -> None:
    """Title: whose turn and the blocks left. Then the question (the forbidden colour beside
    it, or under it when both do not fit), the choices (a page at a time when they are more
    than the rows hold), and the standings with the player on turn boxed."""
    room = columns(width - 2)
    turn = view.get("turn")
    players = [p for p, _score in _standings(view)]
    marked = players.index(turn) if turn in players and not view.get("over") else None
    standing_rows = flow(_standing_items(view, room, 2), room, 2)
    first = height - LINE_HEIGHT - PITCH * (len(standing_rows) - 1)
    rows = [BAR + 2 + i * PITCH for i in range(8) if BAR + 2 + i * PITCH + LINE_HEIGHT <= first - 3]
    entry = view.get("entry") or {}
    stage = str(entry.get("stage") or "outcome")
    mark = forbidden_mark(view) if _confirm_words(view) is None else ""
    ask = _compact_question(view, stage, room)
    # The forbidden colour beside the question; else on a line of its own while three lines
    # of choices remain; else in the title bar, in the place of the blocks left.
    beside = len(ask) + 1 + len(mark) <= room
    own_line = not beside and len(rows) >= 5
    title = _title(view)
    right = mark if mark and not beside and not own_line else _blocks_left(view)
    if view.get("over"):
        right = ""  # the result whole: the count says nothing more once the game is over
    elif right == mark:  # the player on turn is boxed in the standings: his name gives way
        title = clip(printable(title), max(1, columns(width - 4) - len(mark) - 1))
    top = draw_title_bar(draw, palette, title, width, right=right)
    draw.line((0, first - 3, width - 1, first - 3), fill=palette.dim)
    _draw_flowed(draw, palette, standing_rows, first, marked=marked)
    if view.get("error"):
        _draw_refusal(draw, palette, view, 0, width - 1, top - 1, first - 4)
        return
    page = prompt_page(view)
    confirm = _confirm_words(view)
    if confirm is not None:
        keys = _(_CONFIRM_KEYS[stage]) if stage in _CONFIRM_KEYS else ""
        draw_text(draw, 1, rows[0], clip(keys, room), palette.foreground)
        draw_paragraph(draw, palette, confirm, 0, width - 1, rows[1], rows[-1] + LINE_HEIGHT - 1,
                       page=page)
        return
    draw_text(draw, 1, rows[0], clip(ask, room), palette.foreground)
    if mark and beside:
        draw_text_right(draw, width - 1, rows[0], mark, palette.warning)
    elif mark and own_line:
        rows = rows[1:]
        draw_text(draw, 1, rows[0], mark, palette.warning)
    rows = rows[1:]
    words = _short_words()
    choices = [short_choice(str(c), room, words) for c in entry.get("choices") or []]
    if not rows or not choices:
        return
    pages = pages_of(choices, room, len(rows))
    shown = pages[page % len(pages)]
    _draw_flowed(draw, palette, shown, rows[0])
    _draw_page_mark(draw, palette, page % len(pages), len(pages), width - 1, rows[-1])


# -- 128x128 ---------------------------------------------------------------------------------------


def _draw_blocks_left(
    draw: ImageDraw.ImageDraw,
    palette: Palette,
    view: Mapping[str, Any],
    width: int,
    y: int,
) -> None:
    """Each colour's blocks left on the cross as a coloured square and a count, the forbidden
    colour's square crossed; the total flush right."""
    on_cross = view.get("on_cross") or {}
    forbidden = view.get("forbidden")
    x = 1
    for colour in view.get("colours") or list(on_cross):
        count = str(on_cross.get(colour, 0))
        box = (x, y, x + 6, y + 6)
        if isinstance(palette.background, tuple):
            draw.rectangle(box, fill=_ink(palette, colour))
        else:
            draw.rectangle(box, outline=palette.foreground)
            draw_text(draw, x + 1, y, str(colour)[:1].upper(), palette.foreground)
        if colour == forbidden:
            draw.line((x - 1, y - 1, x + 7, y + 7), fill=palette.warning, width=2)
            draw.line((x - 1, y + 7, x + 7, y - 1), fill=palette.warning, width=2)
        draw_text(draw, x + 9, y, count, palette.foreground)
        x += 9 + text_width(count) + 6
        if x > width - 30:
            break
    draw_text_right(draw, width - 1, y, f"={view.get('blocks_left', 0)}", palette.foreground)


def _tall_question(view: Mapping[str, Any], stage: str, room: int) -> list[str]:
    """The question in one line when the long form fits, else the short form, else wrapped
    in two lines (a result: ``game over: Chloé wins``)."""
    if stage in _TALL_QUESTIONS:
        for ask in (_(_TALL_QUESTIONS[stage]), _(_SHORT_QUESTIONS[stage])):
            if len(ask) <= room:
                return [ask]
        return wrap(_(_SHORT_QUESTIONS[stage]), room, max_lines=2)
    return wrap(question(view), room, max_lines=2)


def _typed_line(view: Mapping[str, Any]) -> str:
    """The turn typed so far, its outcome said in the choices' short word (``bonus: red``)."""
    label, _colon, typed = str((view.get("entry") or {}).get("entered") or "").partition(": ")
    words = _tall_words()
    english = label if label in words else next((e for e in words if _(e) == label), label)
    return f"{words.get(english, label)}: {typed}"


def _draw_tall(
    draw: ImageDraw.ImageDraw,
    palette: Palette,
    view: Mapping[str, Any],
    width: int,
    height: int,
) -> None:
    rounds = int(view.get("rounds") or 1)
    title = _title(view)
    right = _("round {n}/{of}").format(n=view.get("round"), of=rounds)
    if len(title) + 1 + len(right) > columns(width - 4):
        right = f"{view.get('round')}/{rounds}"
    top = draw_title_bar(draw, palette, title, width, right=right)
    room = columns(width - 2)
    _draw_blocks_left(draw, palette, view, width, top)
    y = top + PITCH
    forbidden = view.get("forbidden")
    if forbidden and not view.get("over"):
        label, _colour, after = _("forbidden: {colour}").partition("{colour}")
        draw_text(draw, 1, y, label.rstrip(), palette.warning)
        draw_text(draw, 1 + text_width(label), y, _(str(forbidden)) + after,
                  _ink(palette, forbidden))
    else:
        draw_text(draw, 1, y, _("nothing forbidden") if not view.get("over") else "",
                  palette.dim)
    y += PITCH
    entry = view.get("entry") or {}
    stage = str(entry.get("stage") or "outcome")
    page = prompt_page(view)
    confirm = _confirm_words(view)
    if confirm is not None:
        draw_paragraph(draw, palette, confirm + "?", 0, width - 1, y, y + PITCH + LINE_HEIGHT - 1,
                       page=page)
    else:
        lines = _tall_question(view, stage, room)
        for i, line in enumerate(lines):
            draw_text(draw, 1, y + i * PITCH, line, palette.foreground)
        typed, notice = typed_so_far(view), view.get("notice")
        more = (_typed_line(view) if typed
                else str(notice) if notice and stage == "outcome" else "")
        if more and len(lines) == 1:  # a line of its own, a part at a time when long
            ink = palette.foreground if typed else palette.dim
            parts = wrap(more, room)
            draw_text(draw, 1, y + PITCH, parts[page % len(parts)], ink)
    y += 2 * PITCH + 2
    draw.line((0, y - 2, width - 1, y - 2), fill=palette.dim)
    split = width - 50
    draw.line((split - 2, y - 1, split - 2, height - 1), fill=palette.dim)
    rows = (height - y + 1) // PITCH
    _draw_standings(draw, palette, view, split, width - 1, y, rows)
    error = view.get("error")
    if error:
        _draw_refusal(draw, palette, view, 0, width - 1, y - 2, height - 1)
        return
    colours = set(view.get("colours") or [])
    words = _tall_words()
    labels = [short_choice(str(c), columns(split - 4), words) for c in entry.get("choices") or []]
    pages = [labels[i : i + rows - 1] for i in range(0, len(labels), rows - 1)]
    if len(labels) <= rows:
        pages = [labels]
    shown = pages[page % len(pages)] if pages else []
    for i, label in enumerate(shown):
        word = label.partition(" ")[2]
        if word not in colours:  # a colour in the players' language: its English name
            word = next((c for c in colours if _(c) == word), word)
        draw_text(draw, 1, y + i * PITCH, label, _ink(palette, word) if word in colours else (
            palette.foreground
        ))
    if len(pages) > 1:
        _draw_page_mark(draw, palette, page % len(pages), len(pages), split - 4,
                        y + (rows - 1) * PITCH)


def screen(view: Mapping[str, Any], *, size: tuple[int, int], mode: str) -> Image.Image:
    """The registry's entry to this game's OLED screen."""
    return tokami_screen(view, size=size, mode=mode)
