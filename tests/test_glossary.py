"""The catalogs speak the rule books' words: one word per game concept (``docs/glossary.md``),
colours that agree with their noun, and each language's typography.

Each test is one line of the glossary: a word it forbids never appears in a translation, so a
message added later with a colleague's synonym fails here rather than at the table.
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po

from companion import i18n

ROOT = Path(__file__).resolve().parents[1]
GLOSSARY = ROOT / "docs" / "glossary.md"


@cache
def catalog(lang: str) -> Catalog:
    with (i18n.LOCALE_DIR / lang / "LC_MESSAGES" / "companion.po").open("rb") as f:
        return read_po(f)


def translations(lang: str) -> list[tuple[str | None, str, str]]:
    """(context, msgid, msgstr) of every message, plural forms one by one."""
    out = []
    for m in catalog(lang):
        if not m.id:
            continue
        ids = (m.id,) if isinstance(m.id, str) else tuple(m.id)
        strings = (m.string,) if isinstance(m.string, str) else tuple(m.string)
        out.extend((m.context, ids[0], s) for s in strings)
    return out


def offenders(lang: str, pattern: str, *, msgid: str | None = None) -> list[str]:
    """The translations matching ``pattern`` (of messages whose msgid matches ``msgid``)."""
    rx = re.compile(pattern, re.IGNORECASE)
    wanted = re.compile(msgid, re.IGNORECASE) if msgid else None
    return [s for _, mid, s in translations(lang)
            if rx.search(s) and (wanted is None or wanted.search(mid))]


def test_the_glossary_names_every_forbidden_variant_checked_here() -> None:
    text = GLOSSARY.read_text(encoding="utf-8")
    for word in ("minuteur", "odpočet", "úroveň", "dílek", "kámen", "sáček", "čára", "énigme",
                 "case", "place", "forfait", "pions", "ronde", "hrací plocha", "zadní strana",
                 "15s hodiny", "časovač", "zbylé", "garder", "vzdal", "action suivante",
                 "další vstup", "Au tour de :"):
        assert f"*{word}*" in text, f"docs/glossary.md does not list {word!r}"


# -- Tamsk -----------------------------------------------------------------------------------


def test_the_15_second_glass_is_a_sablier_never_a_minuteur() -> None:
    assert offenders("fr", r"minuteur|chrono") == []


def test_the_15_second_glass_is_hodiny_never_odpocet() -> None:
    assert offenders("cs", r"odpočet|odpočt") == []


def test_the_level_is_obtiznost_as_in_the_czech_book() -> None:
    assert offenders("cs", r"úrov[eň]") == []


def test_the_tamsk_board_is_deska() -> None:
    assert offenders("cs", r"hrací ploch") == []


def test_level_1_glasses_are_pieces_as_in_the_french_book() -> None:
    assert offenders("fr", r"\bpions?\b") == []


def test_a_penalty_forfeit_is_a_lost_turn_not_a_lost_game() -> None:
    assert catalog("fr").get("forfeit", "penalty").string == "coup perdu"
    assert catalog("cs").get("forfeit", "penalty").string == "ztráta tahu"
    assert offenders("fr", r"forfait", msgid=r"penalty|1 late 2 forfeit") == []


def test_a_player_given_a_forfeit_loses_his_turn_in_words_a_player_reads() -> None:
    """Not "noir coup perdu" / "černý ztráta tahu": a sentence, the verb of the books."""
    assert catalog("fr").get("{player} forfeit").string == "{player} perd son tour"
    assert catalog("cs").get("{player} forfeit").string == "{player} ztrácí tah"


def test_adjusted_and_original_say_whose_they_are_the_rules() -> None:
    """"(ajustées)" alone has no noun: "règles ajustées", "upravená pravidla"."""
    assert catalog("fr").get("adjusted").string == "règles ajustées"
    assert catalog("cs").get("adjusted").string == "upravená pravidla"
    assert offenders("cs", r"pravidla upravená|začátek standardní") == []


def test_whose_turn_is_au_tour_de_with_no_colon() -> None:
    assert offenders("fr", r"au tour de :") == []


def test_the_15_second_glass_is_never_15s_hodiny_but_the_books_15vterinove() -> None:
    assert offenders("cs", r"15s hodiny") == []
    assert offenders("cs", r"časovač") == []  # a timer; the book's is an hourglass


def test_the_15_second_glass_leaves_seconds_to_a_player_not_against_him_in_french() -> None:
    assert "il reste {left} s à {player}" in catalog("fr").get(
        "15-second timer: {left} s left against {player}").string


def test_rings_left_are_zbyvajici_krouzky_one_word_for_one_thing() -> None:
    assert offenders("cs", r"zbyl[éý]") == []


def test_a_space_holds_rings_portant_not_de() -> None:
    assert offenders("fr", r"case de n anneaux") == []


def test_the_next_input_clears_a_refusal_in_clear_words() -> None:
    """"action suivante : retour" / "další vstup: zpět" said nothing a player could act on."""
    assert offenders("fr", r"action suivante") == []
    assert offenders("cs", r"další vstup") == []


def test_a_pass_is_passer_son_tour_never_un_passe() -> None:
    assert offenders("fr", r"\bun passe\b") == []


@pytest.mark.parametrize(("lang", "red", "black"), [("fr", "rouge", "noir"),
                                                   ("cs", "červený", "černý")])
def test_the_tamsk_players_are_masculine_as_the_books_say(lang: str, red: str,
                                                           black: str) -> None:
    assert catalog(lang).get("red", "player").string == red
    assert catalog(lang).get("black", "player").string == black
    assert catalog(lang).get("RED").string == red.upper()
    assert catalog(lang).get("BLACK").string == black.upper()


# -- Tantrix ---------------------------------------------------------------------------------


def test_a_czech_tantrix_tile_is_always_a_desticka() -> None:
    assert offenders("cs", r"\bdíl(ek|ku|ky|ků|kem|cích|kům)\b|\bk[aá]m(en|eny|enů|ene)\b") == []


def test_a_french_tantrix_tile_is_a_tuile() -> None:
    assert offenders("fr", r"\bpièces?\b", msgid=r"\btiles?\b") == []


def test_the_czech_bag_is_pytlik() -> None:
    assert offenders("cs", r"\bsáč(ek|ku|ky|kem)\b") == []


def test_a_czech_tantrix_line_is_linie() -> None:
    assert offenders("cs", r"\bčár", msgid=r"^(?!white line)") == []


def test_a_tantrix_cell_is_an_espace_in_french() -> None:
    assert offenders("fr", r"\bcases?\b|\bplaces?\b", msgid=r"\b(cells?|spot)\b") == []


def test_the_controlled_cells_are_espaces_controles() -> None:
    assert offenders("fr", r"cases? contrôlée") == []


def test_a_tantrix_puzzle_is_a_puzzle_as_in_the_french_book() -> None:
    assert offenders("fr", r"énigme") == []


def test_the_tile_back_is_rub() -> None:
    assert offenders("cs", r"zadní stran") == []


def test_a_turn_ended_is_said_as_a_sentence() -> None:
    """The move list's "red done": "rouge a fini son tour", "červená ukončila tah"."""
    assert catalog("fr").get("done", "turn").string == "a fini son tour"
    assert catalog("cs").get("done", "turn").string == "ukončila tah"


# -- Tokami ----------------------------------------------------------------------------------


def test_a_tokami_round_is_a_manche() -> None:
    # Tokami's cross, not a tournament's crosstable (which has rondes)
    assert offenders("fr", r"\brondes?\b", msgid=r"blocks|\bcross\b") == []


def test_a_tokami_turn_is_validated_not_kept() -> None:
    assert offenders("fr", r"\bgard", msgid=r"^(save|saved|save this\?|#: save)") == []
    assert catalog("fr").get("save").string == "valider"


def test_the_forbidden_block_is_interdit_and_zakaz() -> None:
    assert catalog("fr").get("forbidden: {colour}").string == "interdit : {colour}"
    assert catalog("cs").get("forbidden: {colour}").string == "zákaz: {colour}"
    assert catalog("fr").get("{n} left").string == "{n} restants"


def test_declining_a_turn_is_not_resigning_the_game() -> None:
    """Czech "vzdal" (gave up) said 5, declined, as well as D, resign: two words now."""
    for lang in ("fr", "cs"):
        declined = {catalog(lang).get("declined").string,
                    catalog(lang).get("declined", "tokami choice").string}
        resign = catalog(lang).get("resign").string
        assert len(declined) == 1 and resign not in declined
        assert not any(word.startswith(resign[:4]) for word in declined)


# -- both languages --------------------------------------------------------------------------


@pytest.mark.parametrize(("lang", "words"), [("fr", "partie finie"), ("cs", "konec hry")])
def test_game_over_opens_with_a_capital_wherever_it_opens_a_message(lang: str,
                                                                    words: str) -> None:
    """Not "partie finie :" here and "Partie finie :" there."""
    assert [s for _, _, s in translations(lang) if s.startswith(words)] == []


# -- colours ---------------------------------------------------------------------------------


def test_french_colour_words_are_masculine_singular() -> None:
    fr = catalog("fr")
    assert [fr.get(c).string for c in ("blue", "green", "white", "black", "purple")] == [
        "bleu", "vert", "blanc", "noir", "violet"]


def test_a_french_colour_placeholder_never_follows_a_noun_it_cannot_agree_with() -> None:
    nouns = r"(lignes?|boucles?|bandes?|tuiles?|couleurs?|blocs|côtés|faces?)"
    assert offenders("fr", rf"\b{nouns} \{{(colour2?|back)\}}") == []


def test_czech_colour_words_are_feminine_for_lines_loops_and_blocks() -> None:
    cs = catalog("cs")
    for colour in ("red", "blue", "green", "yellow", "white", "black", "orange", "purple"):
        assert cs.get(colour).string.endswith("á"), colour


# -- typography ------------------------------------------------------------------------------


def test_french_puts_a_space_before_colon_semicolon_question_and_exclamation_marks() -> None:
    # A mark that ends a word (followed by a space or the end) has a space before it; key
    # notation such as ``#:poser`` or ``pas:{colour}`` (nothing after the colon) is exempt, as
    # is the map's ``!!`` marker and JSON in the arbiter's hints.
    glued = re.compile(r"(?<=[^\s\xa0!])[:;?!](?=\s|$)")
    bad = [s for _, _, s in translations("fr") if glued.search(s) and '{"' not in s]
    assert bad == []


def test_czech_puts_no_space_before_a_colon() -> None:
    assert offenders("cs", r" :(\s|$)") == []


def test_no_translation_uses_a_no_break_space_the_oled_font_draws_zero_wide() -> None:
    # The OLED's Latin-1 bitmap font has no glyph for U+00A0: it would glue two words together.
    assert offenders("fr", "\xa0") == [] and offenders("cs", "\xa0") == []


def test_czech_addresses_the_players_as_vy_like_the_french_vous() -> None:
    # An abbreviation such as "polož." (položeno) is no imperative, nor is a key's label in the
    # compact footer notation "#:polož".
    informal = r"(?<!:)\b(táhni|polož|zadej|napiš|zvedni|odlož|vrať|stiskni|hraj)\b(?!\.)"
    assert offenders("cs", informal) == []
