"""Solo Tantrix puzzles as a game of their own for journals and ``companion simulate``.

A puzzle journal's header says ``"game": "puzzle"``, so :mod:`companion.simulate` finds its
replay in :mod:`companion.puzzle.simulate`. The rules themselves (which layout solves a Discovery
puzzle) live in :mod:`companion.puzzle.rules`; this package only reads and replays records.
"""
