"""companion: keeps a physical game table honest, timed and recorded.

The game rules live in pure packages (:mod:`companion.tamsk`, :mod:`companion.tantrix`,
:mod:`companion.tokami`) that know nothing of clocks, pins or files; everything else in this
package is an adapter around them.
"""

__version__ = "0.1.0"
