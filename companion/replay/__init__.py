"""Replaying recorded games: step through them, draw them, share them.

* :mod:`.model`: :class:`~.model.Replay` and :class:`~.model.Frame`, the stepping model: a
  game's inputs folded through its own engine, one frame per line of its notation;
* :mod:`.tamsk_fold`, :mod:`.tantrix_fold`: the folds of each game (the engines' own
  ``apply``/``advance`` and ``play``/``end_turn``/``undo``, no second copy of the rules);
* :mod:`.chains`: which tiles make each Tantrix player's scoring line or loop;
* :mod:`.tamsk_picture`, :mod:`.tantrix_picture`: a frame drawn as a list of shapes
  (:mod:`.tamsk_layout` holds the Tamsk board's geometry);
* :mod:`.shapes`: paints shapes with Pillow or writes them as SVG (pure functions), with
  :mod:`.palette` (fixed colours) and :mod:`.bitmap` (a font that is the same everywhere);
* :mod:`.gif`: pictures, PNG folders and animated GIFs; :mod:`.html` and :mod:`.chart`: the
  self-contained HTML viewer and its sand (or points) chart;
* :mod:`.text`, :mod:`.terminal`: a frame as text and the key-driven stepper;
* :mod:`.cli`: ``companion replay`` and ``companion notation``.

Nothing here changes a game: like ``chess.svg`` beside ``chess``, it only reads states.
"""

from companion.replay.model import Frame, Replay, build, load

__all__ = ["Frame", "Replay", "build", "load"]
