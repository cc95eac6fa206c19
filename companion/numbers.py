"""Numbers, times and dates as the reader's language writes them: ``80.9 s`` in English,
``80,9 s`` in French and Czech, ``3:43,2``, ``+5,8 %``, ``7 mars 2025``.

The symbols and patterns are CLDR's, as Babel ships them (``babel.numbers``, ``babel.dates``),
copied into :data:`CLDR` for the three languages the catalogs speak: Babel is a development
tool here (``make catalogs``), the table itself has only the standard library, and importing
Babel's locale data would cost the OLED's start-up far more than this module
(``bench/numbers_import.py``). ``tests/test_numbers.py`` checks every entry against Babel, so
the copy cannot drift from CLDR.

The CLDR group and percent spaces (U+00A0, U+202F) are written as plain spaces: the OLED's
bitmap font draws U+00A0 with no width (see ``docs/glossary.md``), and a screen, a replay
picture and a printed sheet read the same.

The notation file, a record other programs read, keeps its own syntax (``1:04.1``): it never
goes through here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from companion import i18n

if TYPE_CHECKING:  # the datetime module is not imported on the OLED's way to its first frame
    from datetime import date


class Cldr:
    """What CLDR says of one language's numbers and dates (the parts this project uses); a
    plain class, not a dataclass, so that importing this module costs the OLED's start
    next to nothing (``bench/numbers_import.py``)."""

    __slots__ = ("date_pattern", "decimal", "group", "minus", "months", "percent", "plus")

    def __init__(self, decimal: str, group: str, minus: str, plus: str, percent: str,
                 date_pattern: str, months: tuple[str, ...]) -> None:
        self.decimal = decimal
        self.group = group
        self.minus = minus
        self.plus = plus
        #: The percent sign with the space CLDR puts before it (``" %"``), or none.
        self.percent = percent
        #: The medium date's pattern (day, month and year), and the months as it names them.
        self.date_pattern = date_pattern
        self.months = months


#: CLDR 42 as Babel 2.x ships it (``tests/test_numbers.py`` checks each field).
CLDR: dict[str, Cldr] = {
    "en": Cldr(".", ",", "-", "+", "%", "{month} {day}, {year}",
               ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov",
                "Dec")),
    "fr": Cldr(",", " ", "-", "+", " %", "{day} {month} {year}",
               ("janv.", "févr.", "mars", "avr.", "mai", "juin", "juil.", "août", "sept.",
                "oct.", "nov.", "déc.")),
    "cs": Cldr(",", " ", "-", "+", " %", "{day}. {month}. {year}",
               tuple(str(m) for m in range(1, 13))),
}


def cldr(lang: str | None = None) -> Cldr:
    """The CLDR data of ``lang`` (default: the language being spoken)."""
    return CLDR.get(lang or i18n.language(), CLDR["en"])


def decimal(value: float, digits: int = 1, *, sign: bool = False,
            lang: str | None = None) -> str:
    """``value`` with ``digits`` decimals, rounded half away from zero as people round
    (``80.95`` -> ``81,0`` in French); ``sign`` writes ``+`` before a positive number."""
    data = cldr(lang)
    scaled = round_half_up(abs(value), digits)
    whole, _point, fraction = f"{scaled:.{digits}f}".partition(".")
    if len(whole) > 3:  # 1,234.5 / 1 234,5
        head = len(whole) % 3 or 3
        whole = whole[:head] + "".join(
            data.group + whole[i : i + 3] for i in range(head, len(whole), 3))
    text = whole + (data.decimal + fraction if digits > 0 else "")
    if value < 0 and scaled != 0:
        return data.minus + text
    return (data.plus if sign and scaled != 0 else "") + text


def round_half_up(value: float, digits: int) -> float:
    """``value`` rounded to ``digits`` decimals, halves away from zero (not to even)."""
    factor: int = 10**digits
    return int(abs(value) * factor + 0.5 + 1e-9) / factor * (1 if value >= 0 else -1)


def seconds(value: float, digits: int = 1, *, lang: str | None = None) -> str:
    """``80,9 s``: seconds with their unit, as every language here writes it."""
    return f"{decimal(value, digits, lang=lang)} s"


def percent(fraction: float, digits: int = 1, *, sign: bool = False,
            lang: str | None = None) -> str:
    """``-0.058`` -> ``-5.8%`` (English), ``-5,8 %`` (French, Czech)."""
    return decimal(fraction * 100, digits, sign=sign, lang=lang) + cldr(lang).percent


def clock(t: float, *, tenths: bool = True, lang: str | None = None) -> str:
    """Game time as people read it, ``3:43.2`` (``3:43,2`` in French and Czech), the tenths
    cut like a clock's (never rounded up to a second not yet reached); ``h:mm:ss`` past an
    hour; without ``tenths``, ``3:43``."""
    sign = "-" if t < 0 else ""
    tenth_count = int(abs(t) * 10 + 1e-6)
    whole, tenth = divmod(tenth_count, 10)
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    text = f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"
    if tenths:
        text += cldr(lang).decimal + str(tenth)
    return sign + text


def day(when: date, *, lang: str | None = None) -> str:
    """``Mar 7, 2025`` / ``7 mars 2025`` / ``7. 3. 2025``: CLDR's medium date."""
    data = cldr(lang)
    return data.date_pattern.format(day=when.day, month=data.months[when.month - 1],
                                    year=when.year)
