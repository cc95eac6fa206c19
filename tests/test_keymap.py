"""One key map: the keypad's letters mean the same on a computer, the hourglasses use other
keys, a dialog closes with * (Backspace, Esc) and nothing in a dialog quits."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion import cli, keymap

README = Path(__file__).resolve().parents[1] / "README.md"


@pytest.mark.parametrize("letter", "ABCD")
def test_a_keypad_letter_is_the_same_key_in_either_case(letter: str) -> None:
    assert keymap.part_for(letter) == keymap.part_for(letter.lower()) == f"key:{letter}"


def test_no_hourglass_key_is_a_keypad_key() -> None:
    glasses = {ch for ch in map(chr, range(32, 127)) if (keymap.part_for(ch) or "").startswith(
        "tilt:")}
    assert glasses == set("qweiop")


@pytest.mark.parametrize("ch", ["*", "\x7f", "\x08", "\x1b"])
def test_backspace_and_escape_close_a_dialog_as_star_does(ch: str) -> None:
    assert keymap.part_for(ch) == "key:*"


def test_only_ctrl_q_ctrl_c_and_ctrl_d_quit() -> None:
    quitting = {ch for ch in map(chr, range(128)) if keymap.part_for(ch) == "quit"}
    assert quitting == {"\x11", "\x03", "\x04"}


def test_keys_help_prints_the_table(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        cli.main(["keys", "--help"])
    assert keymap.table_text() in capsys.readouterr().out


def test_the_readme_shows_the_same_table() -> None:
    indented = "\n".join("    " + line for line in keymap.table_text().splitlines())
    assert indented in README.read_text(encoding="utf-8")


def test_the_desktop_turns_the_keys_into_the_same_inputs() -> None:
    from companion.desktop import KeyboardTable

    delivered: list[str] = []

    class Pins:
        def tilt_levels(self) -> dict[str, bool]:
            return {}

        def pin(self, kind: str, name: str) -> object:
            raise KeyError(name)

    class Clock:
        def now(self) -> float:
            return 0.0

    table = KeyboardTable(Pins(), Clock(), lambda raw: delivered.append(raw.name),  # type: ignore[arg-type]
                          lambda delay, fn: None)
    for ch in "d\x1b\r1":
        table.key(ch)
    assert delivered == ["D", "*", "#", "1"]


def test_a_terminal_too_small_for_the_oled_is_told_so() -> None:
    from companion.desktop import terminal_too_small

    assert terminal_too_small((128, 64), 128, 35) is None
    message = terminal_too_small((128, 64), 100, 30)
    assert message is not None and "128x35" in message and "100x30" in message


def test_the_terminal_hint_is_in_the_players_language() -> None:
    from companion import i18n
    from companion.keymap import hint_line, keypad_hint_line

    english = (hint_line(), keypad_hint_line())
    i18n.use("cs")
    try:
        czech = (hint_line(), keypad_hint_line())
    finally:
        i18n.reset()
    assert all("klávesnice" in line and "quit" not in line for line in czech)
    assert all("keypad" in line for line in english)
