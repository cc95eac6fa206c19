"""The desktop backend's OLED window (luma.emulator's pygame device), on SDL's dummy driver."""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

import pytest
from PIL import Image

from companion.desktop import WINDOW_SCALE, open_window, window_wanted
from companion.hw.display import pick_screen
from tests.tables.screen_views import DISCOVERY_4, lay_tile, puzzle_seat


def solved_puzzle_frame(size: tuple[int, int], mode: str) -> Image.Image:
    with tempfile.TemporaryDirectory() as folder:
        s = puzzle_seat(Path(folder))
        s.table.start_game(4)
        for p in DISCOVERY_4:
            lay_tile(s, p)
        image = pick_screen(s.view, size, mode)
        s.table.close()
    return image


def test_the_window_is_asked_for_with_companion_window_1() -> None:
    assert window_wanted({"COMPANION_WINDOW": "1"})
    assert not window_wanted({}) and not window_wanted({"COMPANION_WINDOW": "0"})


def test_without_pygame_the_window_is_refused_with_what_to_install(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(sys.modules, "pygame", None)  # import pygame now raises ImportError
    window, why = open_window((128, 64), "1")
    assert window is None
    assert "pip install pygame luma.emulator" in why and "terminal" in why


@pytest.mark.parametrize(("size", "mode"), [((128, 64), "1"), ((128, 128), "RGB")])
def test_the_window_shows_the_oled_enlarged_pixel_for_pixel(
    monkeypatch: pytest.MonkeyPatch, size: tuple[int, int], mode: str
) -> None:
    pygame = pytest.importorskip("pygame")
    pytest.importorskip("luma.emulator.device")
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    window, why = open_window(size, mode)
    assert window is not None, why
    image = solved_puzzle_frame(size, mode)
    try:
        assert window.show(image)
        surface = pygame.display.get_surface()
        assert surface.get_size() == (size[0] * WINDOW_SCALE, size[1] * WINDOW_SCALE)
        rgb = image.convert("RGB")
        for y in range(0, size[1], 3):
            for x in range(0, size[0], 3):
                shown = surface.get_at((x * WINDOW_SCALE + 1, y * WINDOW_SCALE + 1))[:3]
                assert tuple(shown) == rgb.getpixel((x, y)), (x, y)
    finally:
        pygame.quit()


def test_closing_the_window_stops_showing_frames(monkeypatch: pytest.MonkeyPatch) -> None:
    pygame = pytest.importorskip("pygame")
    pytest.importorskip("luma.emulator.device")
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    window, why = open_window((128, 64), "1")
    assert window is not None, why
    image = solved_puzzle_frame((128, 64), "1")
    try:
        pygame.event.post(pygame.event.Event(pygame.QUIT))
        assert not window.show(image) and window.closed
        assert not window.show(image)
    finally:
        pygame.quit()


def test_escape_in_the_window_closes_no_window_and_quits_nothing(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """luma's window quits on Esc by itself; at the table Esc is ``*``, a dialog's back."""
    pygame = pytest.importorskip("pygame")
    pytest.importorskip("luma.emulator.device")
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    window, why = open_window((128, 64), "1")
    assert window is not None, why
    image = solved_puzzle_frame((128, 64), "1")
    held = {pygame.K_ESCAPE}
    monkeypatch.setattr(pygame.key, "get_pressed", lambda: type(
        "Keys", (), {"__getitem__": lambda self, k: k in held})())
    try:
        assert window.show(image) and not window.closed
        assert window.show(image)
    finally:
        pygame.quit()
