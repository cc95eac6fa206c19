"""The players' language: English, French or Czech, with the standard gettext workflow.

What a player or an arbiter reads (the OLED, the keypad prompts, the replays) is marked with
:func:`_` and translated through the ``companion`` gettext domain. The catalogs live in the
package (``companion/locale/<lang>/LC_MESSAGES/companion.po``, compiled to ``.mo`` beside it):
``make catalogs`` extracts the strings with Babel (``babel.cfg``), updates the ``.po`` files and
compiles them; the compiled ``.mo`` files are committed with their ``.po`` so that a plain
``pip install`` (or a Pi with no Babel) has them, and ``tests/test_i18n.py`` fails when one is
older than its ``.po``.

The language is, first to last: ``--lang``, ``[table] language``, the environment
(``LANGUAGE``, ``LC_ALL``, ``LC_MESSAGES``, ``LANG``, as gettext reads them), English. The pure
rules modules never import this module: they give stable English reasons, and the shell
translates them when it shows them.
"""

from __future__ import annotations

import gettext
import re
from collections.abc import Sequence
from functools import cache
from pathlib import Path

from companion.remark import Remark

DOMAIN = "companion"
LOCALE_DIR = Path(__file__).parent / "locale"
#: The languages with a catalog, and English (the source strings).
LANGUAGES = ("en", "fr", "cs")

_translation: gettext.NullTranslations = gettext.NullTranslations()
_chosen: str | None = None


def available() -> tuple[str, ...]:
    return LANGUAGES


def _normalise(lang: str) -> str:
    """``fr_FR.UTF-8`` -> ``fr``; ``C``/``POSIX`` -> ``en``."""
    base = lang.split(".")[0].split("@")[0].split("_")[0].split("-")[0].lower()
    return "en" if base in ("", "c", "posix") else base


def check(lang: str) -> str:
    """The language code of ``lang`` (``fr_FR.UTF-8`` -> ``fr``); ValueError if no catalog."""
    code = _normalise(lang)
    if code not in LANGUAGES:
        raise ValueError(f"no catalog for language {lang!r}: choose {', '.join(LANGUAGES)}")
    return code


def use(lang: str | None = None, *, explicit: bool = True) -> str:
    """Speak ``lang`` from now on (None: the environment's); returns the language used.

    An ``explicit`` choice (``--lang``) is kept when a configuration later names another with
    ``use(..., explicit=False)``.
    """
    global _translation, _chosen
    if not explicit and _chosen is not None:
        return language()
    if explicit:
        _chosen = lang
    if lang:
        languages: list[str] | None = [check(lang)]
    else:
        languages = None  # gettext reads LANGUAGE, LC_ALL, LC_MESSAGES, LANG
    _translation = gettext.translation(DOMAIN, LOCALE_DIR, languages=languages, fallback=True)
    return language()


def reset() -> None:
    """Back to English with no choice made (tests)."""
    global _translation, _chosen
    _translation, _chosen = gettext.NullTranslations(), None


def language() -> str:
    """The language being spoken: ``en``, ``fr`` or ``cs``."""
    info = _translation.info()
    return _normalise(info.get("language", "en")) if info else "en"


def _(message: str) -> str:
    """``message`` in the players' language."""
    return _translation.gettext(message)


def pgettext(context: str, message: str) -> str:
    """``message`` in the players' language, as meant in ``context`` (a Tamsk player's colour
    is not a Tantrix tile's: Czech says ``červený`` for one and ``červená`` for the other)."""
    return _translation.pgettext(context, message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """The singular or plural form for ``n`` in the players' language (Czech has three)."""
    return _translation.ngettext(singular, plural, n)


def say(text: str) -> str:
    """``text`` in the players' language when it is a :class:`~companion.remark.Remark` (its
    values said too), else as it is: what a replay shows of the rules' remarks. In English it
    is the remark as the notation file writes it, but for what a remark's own words say
    differently for a reader (a Tantrix cell named as the map names it, not ``(1, 0)``)."""
    if not isinstance(text, Remark) or (language() == "en" and not text.in_english):
        return str(text)
    if text.words is not None:
        return text.words(str(text))
    message = pgettext(text.context, text.msgid) if text.context else _(text.msgid)
    if not text.values:
        return message
    return message.format(**{key: say(value) for key, value in text.values.items()})


def N_(message: str) -> str:
    """Mark ``message`` for extraction only; it is translated where it is shown."""
    return message


@cache
def _compiled(templates: tuple[str, ...]) -> tuple[tuple[re.Pattern[str], str], ...]:
    out = []
    for template in templates:
        parts = re.split(r"\{(\w+)\}", template)
        regex = "".join(
            re.escape(part) if i % 2 == 0 else f"(?P<{part}>.+?)" for i, part in enumerate(parts)
        )
        out.append((re.compile(f"^{regex}$"), template))
    return tuple(out)


def match_template(text: str, templates: Sequence[str]) -> tuple[str, dict[str, str]] | None:
    """The English template (``"{glass} was not lifted"``) ``text`` was made from, with its
    values (``{"glass": "r1"}``), or None: how the shell translates what the pure rules, which
    never import this module, said in English."""
    for pattern, template in _compiled(tuple(templates)):
        match = pattern.match(text)
        if match is not None:
            return template, match.groupdict()
    return None


# ------------------------------------------------------------------------- argparse's own words

def argparse_speaks() -> None:
    """argparse's own words (``usage:``, ``options``, ``show this help message and exit``, its
    refusals: ``invalid choice: ...``, ``the following arguments are required: ...``) in the
    players' language, from now on.

    CPython's argparse takes them with ``from gettext import gettext as _, ngettext``: two
    names of its module it calls as it builds a parser, prints help or refuses a command line.
    ``gettext.gettext`` reads the global text domain, and only the environment chooses that
    domain's language (``dgettext`` asks ``gettext.translation`` with no ``languages``):
    pointing the global domain at our catalog would follow ``LANG`` but not ``--lang`` or
    ``[table] language``, short of rewriting ``os.environ``, which every program the command
    starts would inherit. So argparse's two names are pointed at :func:`_` and
    :func:`ngettext` instead, which speak whatever :func:`use` chose; in English (no catalog)
    they give each msgid back unchanged, as gettext did, and a msgid our catalog lacks (a newer
    Python's) stays English. :data:`ARGPARSE_WORDS` and :func:`argparse_plurals` carry the
    msgids so that the catalogs translate them. Calling this again changes nothing."""
    import argparse

    vars(argparse).update(_=_, ngettext=ngettext)


#: The msgids argparse passes to ``gettext``: the union of Python 3.11's (read from this
#: machine's Lib/argparse.py, 3.11.7) and 3.13's (read from a CPython 3.13 Lib/argparse.py).
#: 3.12's source was not at hand: one of its msgids that is neither 3.11's nor 3.13's, if there
#: is one, stays English. 3.13 added "%(heading)s:" (before it, the colon after a group's title
#: is argparse's own, outside the catalog), the help of ``--version`` and the ``deprecated=``
#: warnings. Most are refusals a user meets; the others (``conflicting subparser``, ``dest= is
#: required``...) only a programmer's mistake shows, translated all the same.
ARGPARSE_WORDS = (
    N_("usage: "),
    N_("%(heading)s:"),
    N_("positional arguments"),
    N_("options"),
    N_("subcommands"),
    N_("show this help message and exit"),
    N_("show program's version number and exit"),
    N_(" (default: %(default)s)"),
    N_("%(prog)s: error: %(message)s\n"),
    N_("%(prog)s: warning: %(message)s\n"),
    N_("argument %(argument_name)s: %(message)s"),
    N_("unrecognized arguments: %s"),
    N_("the following arguments are required: %s"),
    N_("one of the arguments %s is required"),
    N_("invalid choice: %(value)r (choose from %(choices)s)"),
    N_("invalid %(type)s value: %(value)r"),
    N_("expected one argument"),
    N_("expected at most one argument"),
    N_("expected at least one argument"),
    N_("ambiguous option: %(option)s could match %(matches)s"),
    N_("not allowed with argument %s"),
    N_("ignored explicit argument %r"),
    N_("unexpected option string: %s"),
    N_("unknown parser %(parser_name)r (choices: %(choices)s)"),
    N_("can't open '%(filename)s': %(error)s"),
    N_("argument \"-\" with mode %r"),
    N_("command '%(parser_name)s' is deprecated"),
    N_("option '%(option)s' is deprecated"),
    N_("argument '%(argument_name)s' is deprecated"),
    N_("%r is not callable"),
    N_(".__call__() not defined"),
    N_("conflicting subparser: %s"),
    N_("conflicting subparser alias: %s"),
    N_("cannot merge actions - two groups are named %r"),
    N_("'required' is an invalid argument for positionals"),
    N_("invalid option string %(option)r: must start with a character %(prefix_chars)r"),
    N_("dest= is required for options like %r"),
    N_("invalid conflict_resolution value: %r"),
    N_("mutually exclusive arguments must be optional"),
    N_("cannot have multiple subparser arguments"),
)


def argparse_plurals(n: int) -> tuple[str, str]:
    """argparse's two words with a plural (3.11 to 3.13), for ``n``, in the players' language
    (the place the catalogs take them from, and what the tests check)."""
    return (ngettext("expected %s argument", "expected %s arguments", n),
            ngettext("conflicting option string: %s", "conflicting option strings: %s", n))
