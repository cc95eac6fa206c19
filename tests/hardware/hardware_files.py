"""Where the hardware files are, and hardware/draw_wiring.py loaded as a module.

hardware/ is not a package (it holds a script, a TOML file and drawings), so the script is
loaded from its path under a name of its own. Test modules and conftest.py both import this.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

REPO = Path(__file__).resolve().parents[2]
HARDWARE = REPO / "hardware"
SYSTEMD = REPO / "systemd"
_MODULE_NAME = "companion_hardware_draw_wiring"


def load_draw_wiring() -> ModuleType:
    """hardware/draw_wiring.py as a module, cached (dataclasses look their module up)."""
    if _MODULE_NAME in sys.modules:
        return sys.modules[_MODULE_NAME]
    spec = importlib.util.spec_from_file_location(_MODULE_NAME, HARDWARE / "draw_wiring.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[_MODULE_NAME] = module
    spec.loader.exec_module(module)
    return module
