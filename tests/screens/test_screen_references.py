"""Every golden case still draws exactly its reference image, pixel for pixel.

The font and the digits are bitmaps drawn by our own code, so a frame is the same on any
machine; a difference here is a real change to what the players see. After an intended change,
run ``tests/screens/make_references.py --preview DIR`` and look at the new images.
"""

from __future__ import annotations

import pytest
from PIL import Image, ImageChops

from tests.screens.screen_cases import CASES, REFERENCE_DIR


def assert_identical_image(reference: Image.Image, drawn: Image.Image, name: str) -> None:
    assert drawn.mode == reference.mode, f"{name}: mode {drawn.mode} != {reference.mode}"
    assert drawn.size == reference.size, f"{name}: size {drawn.size} != {reference.size}"
    bbox = ImageChops.difference(reference.convert("RGB"), drawn.convert("RGB")).getbbox()
    assert bbox is None, f"{name}: differs from its reference inside {bbox}"


@pytest.mark.parametrize("name", sorted(CASES))
def test_screen_matches_its_reference_image(name: str) -> None:
    path = REFERENCE_DIR / f"{name}.png"
    assert path.exists(), f"no reference for {name}: run tests/screens/make_references.py"
    with Image.open(path) as reference:
        reference.load()
        assert_identical_image(reference, CASES[name](), name)


def test_every_reference_image_has_a_case() -> None:
    stale = sorted(p.stem for p in REFERENCE_DIR.glob("*.png") if p.stem not in CASES)
    assert stale == [], f"reference images without a case: {stale}"


def test_drawing_twice_gives_the_same_frame() -> None:
    for name, draw in CASES.items():
        assert_identical_image(draw(), draw(), name)
