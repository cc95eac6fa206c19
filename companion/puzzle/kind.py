"""The Tantrix puzzles game kind, as the registry (entry point ``companion.games``) finds it."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.kindbase import PackageKind


class PuzzleKind(PackageKind):
    """The puzzles: their summary says the rules' problems in the players' language too."""

    def summary(self, result: Mapping[str, Any]) -> str:
        from companion import i18n
        from companion.puzzle.simulate import summary
        from companion.puzzle.words import in_words

        return summary(dict(result), _=i18n._, pgettext=i18n.pgettext, words=in_words)


KIND = PuzzleKind("puzzle", "Tantrix puzzles", "companion.puzzle")
