"""What writing numbers in the reader's language costs the OLED's start: import times.

``companion.numbers`` carries CLDR's symbols itself so the table never imports Babel. Each
figure is the median of RUNS fresh interpreters (``python -c "import ..."``, wall time of the
import alone, measured inside the process), so the interpreter's own start is not counted:

* the Tamsk OLED screen module (what the daemon imports to draw the first frame);
* ``companion.numbers`` alone;
* Babel's number formatting with its French data loaded (the cost avoided).

    python bench/numbers_import.py [--runs 15] [--root DIR]

``--root`` measures another checkout (e.g. the main branch before this module existed).
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
from pathlib import Path

CASES = {
    "companion.tamsk.screens (the OLED's first frame)": "import companion.tamsk.screens",
    "companion.numbers alone": "import companion.numbers; companion.numbers.decimal(1.5)",
    "babel.numbers with French data (avoided)":
        "import babel.numbers; babel.numbers.format_decimal(1.5, locale='fr')",
}


def timed(code: str, root: Path) -> float:
    """Seconds the statement takes in a fresh interpreter (the interpreter's start excluded)."""
    probe = ("import time; t = time.perf_counter(); " + code +
             "; print(time.perf_counter() - t)")
    out = subprocess.run([sys.executable, "-c", probe], cwd=root, capture_output=True,
                         text=True, check=False)
    if out.returncode != 0:
        raise RuntimeError(out.stderr.strip().splitlines()[-1] if out.stderr else "failed")
    return float(out.stdout.strip())


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--root", type=Path, default=Path(__file__).resolve().parent.parent)
    args = parser.parse_args()
    print(f"| import ({args.root}) | median of {args.runs} |")
    print("| --- | --- |")
    for name, code in CASES.items():
        try:
            times = [timed(code, args.root) for _ in range(args.runs)]
        except RuntimeError as exc:
            print(f"| {name} | not measured: {exc} |")
            continue
        print(f"| {name} | {statistics.median(times) * 1000:.1f} ms |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
