"""Each game's replay and notation facets provide what their protocols promise."""

from __future__ import annotations

import inspect
from pathlib import Path

import pytest

from companion import notation, registry
from companion.notation import NotationGame
from companion.replay.kinds import ReplayGame, replay_games
from companion.scenario import MalformedInput
from companion.simulate import load, simulator_for


def _members(protocol: type) -> dict[str, list[str]]:
    """Each method of a protocol with its parameter names (``self`` left out)."""
    return {
        name: list(inspect.signature(fn).parameters)[1:]
        for name, fn in vars(protocol).items()
        if inspect.isfunction(fn) and not name.startswith("_")
    }


def _check(module: object, protocol: type) -> None:
    for name, params in _members(protocol).items():
        fn = getattr(module, name, None)
        assert callable(fn), f"{module} has no {name}()"
        assert list(inspect.signature(fn).parameters) == params, f"{module}.{name}"


@pytest.mark.parametrize("game", sorted(replay_games()))
def test_every_replay_facet_has_the_protocols_functions(game: str) -> None:
    _check(replay_games()[game], ReplayGame)


@pytest.mark.parametrize("game", notation.notation_games())
def test_every_notation_facet_has_the_protocols_functions(game: str) -> None:
    _check(notation.facet(game), NotationGame)


def test_the_games_with_a_notation_can_be_replayed() -> None:
    assert set(notation.notation_games()) <= set(replay_games())


def test_an_unknown_game_is_refused_with_the_registered_names(tmp_path: Path) -> None:
    path = tmp_path / "go.jsonl"
    path.write_text('# a comment\n{"game": "go"}\n', encoding="utf-8")
    with pytest.raises(MalformedInput) as caught:
        load(path)
    assert caught.value.line == 2
    assert f"one of {', '.join(registry.names())}, got 'go'" in str(caught.value)
    with pytest.raises(ImportError):  # as when each game was a module to import
        simulator_for("go")
    with pytest.raises(registry.UnknownGame):
        simulator_for("go")
