"""A configuration is checked when it is loaded: a setting the table cannot use is refused at
once, with the key named, instead of failing later when the daemon opens the device."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion import cli, config


def refusal(text: str) -> str:
    with pytest.raises(config.ConfigError) as caught:
        config.load(text=text)
    return str(caught.value)


def test_the_defaults_load() -> None:
    assert config.load(text="")["display"]["driver"] == "ssd1306"


def test_an_unknown_display_driver_is_refused_naming_the_key() -> None:
    assert "'display.driver'" in refusal('[display]\ndriver = "ssd1309x"\n')


def test_a_pin_used_twice_names_both_keys() -> None:
    message = refusal("[pins]\nmenu = 17\n")
    assert "'pins.menu'" in message and "'pins.tilt.r1'" in message and "GPIO 17" in message


def test_the_keypad_matrix_shares_no_pin_with_the_glasses() -> None:
    message = refusal("[pins.keypad]\nrows = [17, 18, 19, 20]\n")
    assert "'pins.keypad.rows[0]'" in message


def test_a_keypad_that_is_not_scanned_may_reuse_its_pins() -> None:
    config.load(text='[input]\nkeypad = "none"\n[pins.keypad]\nrows = [17, 18, 19, 20]\n')


def test_a_pin_outside_the_header_is_refused() -> None:
    assert "'pins.buzzer'" in refusal("[pins]\nbuzzer = 40\n")


def test_tantrix_players_must_be_two_to_four_colours() -> None:
    assert "'tantrix.players'" in refusal('[tantrix]\nplayers = ["red"]\n')
    assert "'tantrix.players'" in refusal('[tantrix]\nplayers = ["red", "pink"]\n')
    assert "'tantrix.players'" in refusal('[tantrix]\nplayers = ["red", "red"]\n')


def test_tokami_players_must_be_two_to_five_names() -> None:
    assert "'tokami'" in refusal('[tokami]\nplayers = ["Anna"]\n')
    assert "'tokami'" in refusal('[tokami]\ncolours = ["red"]\ncounts = [1, 2]\n')


def test_a_bad_buzzer_kind_is_refused() -> None:
    assert "'buzzer.kind'" in refusal('[buzzer]\nkind = "loud"\n')


def test_run_with_a_bad_config_says_which_key_and_exits_2(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "config.toml"
    bad.write_text('[tantrix]\nplayers = ["red"]\n')
    with pytest.raises(SystemExit) as exited:
        cli.main(["run", "--config", str(bad), "--backend", "mock"])
    assert exited.value.code == 2
    err = capsys.readouterr().err
    assert "'tantrix.players'" in err and "Traceback" not in err and len(err.splitlines()) == 1
