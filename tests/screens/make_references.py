"""Redraw the golden images in tests/reference/screens/ from the cases in screen_cases.py.

Run after an intended change to a screen, then look at every changed image (enlarged, e.g.
``--preview /tmp/screens``) before committing it:

    .venv/bin/python tests/screens/make_references.py [--preview DIR] [NAME ...]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # the repository root

from companion.screens import upscale  # noqa: E402
from tests.screens.screen_cases import CASES, REFERENCE_DIR  # noqa: E402

PREVIEW_FACTOR = 4


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="*", help="cases to redraw (default: all)")
    parser.add_argument("--preview", type=Path, help=f"also write {PREVIEW_FACTOR}x copies here")
    args = parser.parse_args(argv)
    unknown = sorted(set(args.names) - set(CASES))
    if unknown:
        parser.error(f"unknown case(s): {', '.join(unknown)}; known: {', '.join(CASES)}")
    REFERENCE_DIR.mkdir(parents=True, exist_ok=True)
    if args.preview:
        args.preview.mkdir(parents=True, exist_ok=True)
    for name in args.names or CASES:
        image = CASES[name]()
        image.save(REFERENCE_DIR / f"{name}.png")
        if args.preview:
            upscale(image, PREVIEW_FACTOR).save(args.preview / f"{name}.png")
        print(f"{name}: {image.size[0]}x{image.size[1]} {image.mode}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
