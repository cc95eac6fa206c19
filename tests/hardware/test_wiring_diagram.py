"""hardware/draw_wiring.py turns the pin map into the diagram and the README table.

The committed wiring.svg and the README table must be what the script makes from the
committed pin map today, so a moved wire can never leave a stale picture behind.
"""

from __future__ import annotations

import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from PIL import Image

from .hardware_files import HARDWARE

SCRIPT = HARDWARE / "draw_wiring.py"
SVG_NS = "{http://www.w3.org/2000/svg}"


def _run(*args: str | Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(SCRIPT), *map(str, args)], capture_output=True, text=True, timeout=120
    )


def _svg_texts(svg: Path) -> list[str]:
    root = ET.parse(svg).getroot()
    return [t.text or "" for t in root.iter(f"{SVG_NS}text")]


@pytest.fixture(scope="module")
def drawn(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("wiring")
    result = _run("--out-dir", out)
    assert result.returncode == 0, result.stderr
    return out


def test_script_writes_an_svg_and_a_png(drawn: Path, wiring: ModuleType) -> None:
    root = ET.parse(drawn / "wiring.svg").getroot()
    assert root.tag == f"{SVG_NS}svg"
    assert (root.get("width"), root.get("height")) == (str(wiring.WIDTH), str(wiring.HEIGHT))
    with Image.open(drawn / "wiring.png") as png:
        assert png.size == (wiring.WIDTH, wiring.HEIGHT)


def test_png_is_not_blank(drawn: Path) -> None:
    with Image.open(drawn / "wiring.png") as png:
        colours = png.convert("RGB").getcolors(maxcolors=1 << 20)
    assert colours is not None and len(colours) > 50


def test_diagram_names_every_signal_and_numbers_every_pin(drawn: Path, pinmap: Any) -> None:
    texts = _svg_texts(drawn / "wiring.svg")
    joined = "\n".join(texts)
    for s in pinmap.signals:
        assert s.device in joined, s.key
        if s.variant == "base":
            assert f"[{s.key}]" in joined, s.key
    for p in pinmap.power:
        assert p.device in joined, p.device
    assert {str(n) for n in range(1, 41)} <= set(texts)


def test_committed_svg_is_what_the_pin_map_draws(drawn: Path) -> None:
    committed = (HARDWARE / "wiring.svg").read_text(encoding="utf-8")
    fresh = (drawn / "wiring.svg").read_text(encoding="utf-8")
    assert committed == fresh, "run `python hardware/draw_wiring.py` and commit the result"


def test_committed_png_has_the_diagram_size(wiring: ModuleType) -> None:
    with Image.open(HARDWARE / "wiring.png") as png:
        assert png.size == (wiring.WIDTH, wiring.HEIGHT)


def test_readme_table_is_what_the_pin_map_says(wiring: ModuleType, pinmap: Any) -> None:
    readme = HARDWARE / "README.md"
    assert wiring.readme_table(readme) == wiring.markdown_table(pinmap), (
        "run `python hardware/draw_wiring.py --update-readme hardware/README.md`"
    )


def test_table_has_a_row_per_signal_and_per_supply_wire(wiring: ModuleType, pinmap: Any) -> None:
    rows = [line for line in wiring.markdown_table(pinmap).splitlines() if line.startswith("| ")]
    header_rows = 2
    assert len(rows) == len(pinmap.signals) + len(pinmap.power) + header_rows


def test_update_readme_rewrites_only_the_generated_block(
    wiring: ModuleType, pinmap: Any, tmp_path: Path
) -> None:
    readme = tmp_path / "README.md"
    readme.write_text(
        f"# Before\n\n{wiring.TABLE_START}\nold table\n{wiring.TABLE_END}\n\nAfter.\n",
        encoding="utf-8",
    )
    assert wiring.update_readme(readme, pinmap) is True
    text = readme.read_text(encoding="utf-8")
    assert text.startswith("# Before\n") and text.endswith("\nAfter.\n")
    assert "old table" not in text
    assert wiring.readme_table(readme) == wiring.markdown_table(pinmap)
    assert wiring.update_readme(readme, pinmap) is False


def test_script_refuses_a_pin_map_with_a_doubled_pin_and_writes_nothing(tmp_path: Path) -> None:
    text = (HARDWARE / "pinmap.toml").read_text(encoding="utf-8")
    doubled = text.replace("bcm = 26\nphysical = 37", "bcm = 17\nphysical = 11", 1)
    assert doubled != text
    bad = tmp_path / "pinmap.toml"
    bad.write_text(doubled, encoding="utf-8")
    out = tmp_path / "out"
    result = _run("--pinmap", bad, "--out-dir", out)
    assert result.returncode == 2
    assert "GPIO17 is used by pins.tilt.r1 and pins.menu" in result.stderr
    assert not out.exists()


def test_script_names_the_file_with_a_toml_syntax_error(tmp_path: Path) -> None:
    bad = tmp_path / "pinmap.toml"
    bad.write_text("[[signal]]\nkey = \n", encoding="utf-8")
    result = _run("--pinmap", bad, "--check")
    assert result.returncode == 2
    assert str(bad) in result.stderr
