"""The Tantrix puzzles game kind, as the registry (entry point ``companion.games``) finds it."""

from __future__ import annotations

from companion.kindbase import PackageKind

KIND = PackageKind("puzzle", "Tantrix puzzles", "companion.puzzle")
