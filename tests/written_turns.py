"""Written actions played through a game's interface, for the family games' tests."""

from __future__ import annotations

from typing import Any

import pytest

from pbem.errors import RuleError
from pbem.notation.parse import parse_movetext


def action(text: str) -> Any:
    """``text`` as White's one written action of an entry (``Pc10g10``, ``Rh5(Pg4)``)."""
    return parse_movetext(f"1.{text}").entries[0].white.actions[0]


def play(game: Any, position: Any, *texts: str) -> tuple[Any, list[Any]]:
    """One turn of the written ``texts``: its state at the end, and each Resolved."""
    state = game.begin_turn(position, [action(t) for t in texts])
    out = []
    for t in texts:
        state, resolved = game.resolve_action(state, action(t))
        out.append(resolved)
    return state, out


def refusal(game: Any, position: Any, text: str) -> tuple[Any, tuple[str, tuple[str, ...]]]:
    """The turn state a refused ``text`` met, and the game's explanation of the refusal."""
    state = game.begin_turn(position, [action(text)])
    with pytest.raises(RuleError) as info:
        game.resolve_action(state, action(text))
    return state, game.explain_refusal(state, action(text), info.value)
