"""The Tamsk game kind, as the registry (entry point ``companion.games``) finds it."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.kindbase import PackageKind


class TamskKind(PackageKind):
    """Tamsk: its summary says the rules' refusals in the players' language too."""

    def summary(self, result: Mapping[str, Any]) -> str:
        from companion import i18n
        from companion.tamsk.simulate import summary
        from companion.tamsk.words import refusal_in_words, rule_in_words

        return summary(dict(result), _=i18n._, pgettext=i18n.pgettext,
                       refusal=refusal_in_words, rule=rule_in_words)


KIND = TamskKind("tamsk", "Tamsk", "companion.tamsk")
