"""Replaying recorded games: step through them, draw them, share them.

* :mod:`.model`: :class:`~.model.Replay` and :class:`~.model.Frame`, the stepping model: a
  game's inputs folded through its own engine, one frame per line of its notation;
* :mod:`.kinds`: :class:`~.kinds.ReplayGame`, what each game provides (its package's
  ``replay`` module, found through :mod:`companion.registry`): the fold (the engines' own
  ``apply``/``advance``, ``play``/``end_turn``/``undo``..., no second copy of the rules), its
  pictures as lists of shapes, its text and its chart;
* :mod:`.chains`: which tiles make each Tantrix player's scoring line or loop;
* :mod:`.shapes`: paints shapes with Pillow or writes them as SVG (pure functions), with
  :mod:`.palette` (fixed colours) and :mod:`.bitmap` (a font that is the same everywhere);
  :mod:`.panel` opens every picture's side panel;
* :mod:`.gif`: pictures, PNG folders and animated GIFs; :mod:`.html` and :mod:`.chart`: the
  self-contained HTML viewer and its chart;
* :mod:`.text`, :mod:`.terminal`: a frame as text and the key-driven stepper;
* :mod:`.cli`: ``companion replay`` and ``companion notation``.

Nothing here changes a game: like ``chess.svg`` beside ``chess``, it only reads states. This
package names no game: it reaches each one through its replay facet.
"""

from companion.replay.model import Frame, Replay, build, load

__all__ = ["Frame", "Replay", "build", "load"]
