"""The Tokami game kind, as the registry (entry point ``companion.games``) finds it."""

from __future__ import annotations

from companion.kindbase import PackageKind

KIND = PackageKind("tokami", "Tokami", "companion.tokami")
