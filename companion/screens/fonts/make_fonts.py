"""Rebuild ``courB08-latin2.pil``/``.pbm`` from the X.Org font (apt-get install xfonts-100dpi).

    python -m companion.screens.fonts.make_fonts

Not run at build time: the converted font is small and shipped in the package, so the Pi needs
neither the X fonts nor this script.
"""

from __future__ import annotations

import gzip
import io
from pathlib import Path

from PIL.PcfFontFile import PcfFontFile

SOURCE = Path("/usr/share/fonts/X11/100dpi/courB08.pcf.gz")
HERE = Path(__file__).parent


def main() -> None:
    font = PcfFontFile(io.BytesIO(gzip.decompress(SOURCE.read_bytes())), "iso8859-2")
    font.save(str(HERE / "courB08-latin2"))


if __name__ == "__main__":
    main()
