"""The whole suite speaks English unless a test chooses a language: the golden images and the
messages the tests read are English, whatever LANG the machine running them has."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

from companion import i18n

os.environ["LANGUAGE"] = "en"  # gettext reads LANGUAGE first: a French CI stays English


@pytest.fixture(autouse=True)
def _english() -> Iterator[None]:
    i18n.reset()
    yield
    i18n.reset()
