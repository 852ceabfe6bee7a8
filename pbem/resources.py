"""Where the grammar and templates are: inside the installed package, or in the checkout.

The wheel maps the checkout's top-level ``grammar/`` and ``templates/`` to
``pbem/grammar`` and ``pbem/templates`` (and the ruleset presets in ``games/`` to
``pbem/games``); a checkout run (``python -m pbem``
without installing) finds them beside the ``pbem`` folder.
"""

from __future__ import annotations

import functools
from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent


@functools.cache  # where pbem is installed does not change while it runs
def _data_dir(name: str) -> Path:
    installed = _PACKAGE / name
    if installed.is_dir():
        return installed
    return _PACKAGE.parent / name


def grammar_path() -> Path:
    return _data_dir("grammar") / "realm.lark"


def templates_dir() -> Path:
    return _data_dir("templates")


def presets_dir() -> Path:
    """The ruleset presets (``*.yaml``), kept beside the bundled games."""
    return _data_dir("games")


def rules_page(name: str) -> Path:
    """A game's rules page (``rules.md``, ``games/classic.md``): the wheel carries the
    checkout's ``docs/rules.md`` and ``docs/games/*.md`` as ``pbem/docs``, so that the
    referee can mail a game's rules (the ``rules`` command) from an installed copy."""
    return _data_dir("docs") / name
