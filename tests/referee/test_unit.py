"""The unit of work says what it does: a command changes its unit, and the few that write to
the store themselves are listed here; an offer is an ``Offer`` above the store, and its
stored text (``'draw:w'``) is read and written by the store alone."""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from pathlib import Path

import pytest

from pbem.referee.store.offers import Offer, OfferKind, from_stored, stored
from pbem.rules.pieces import Side

PKG = Path(__file__).resolve().parents[2] / "pbem"


@pytest.mark.parametrize("text, offer", [
    ("draw:w", Offer(OfferKind.DRAW, Side.WHITE)),
    ("end:b", Offer(OfferKind.END, Side.BLACK)),
    ("takeback:w", Offer(OfferKind.TAKEBACK, Side.WHITE)),
    (None, None),
])
def test_an_offer_is_stored_as_it_always_was(text: str | None, offer: Offer | None) -> None:
    """The column keeps its old text, so a store written before the type needs no step."""
    assert from_stored(text) == offer
    assert stored(offer) == text


def test_only_the_store_reads_or_writes_an_offers_text() -> None:
    """``from_stored``/``stored`` are called in ``pbem/referee/store`` and nowhere else."""
    outside = []
    for path in PKG.rglob("*.py"):
        if path.is_relative_to(PKG / "referee" / "store"):
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module == "pbem.referee.store.offers":
                outside += [f"{path.relative_to(PKG)} imports {a.name}" for a in node.names
                            if a.name in ("from_stored", "stored")]
    assert not outside, outside


# -- which commands write to the store themselves --------------------------------------------
REFEREE = PKG / "referee"
#: how an SQL statement that changes the store begins
WRITES = re.compile(r"\s*(INSERT|UPDATE|DELETE|REPLACE)\s")


@dataclass
class Module:
    name: str
    functions: dict[str, ast.FunctionDef]
    #: a local name for a referee module (``from pbem.referee.store import games``)
    modules: dict[str, str]
    #: a local name for a name of another module (``from ...games import load_game``)
    names: dict[str, tuple[str, str]]


def _read(path: Path) -> Module:
    name = ".".join(("pbem", *path.relative_to(PKG).with_suffix("").parts))
    name = name.removesuffix(".__init__")
    tree = ast.parse(path.read_text(encoding="utf-8"))
    module = Module(name, {}, {}, {})
    for node in tree.body:
        if isinstance(node, ast.FunctionDef):
            module.functions[node.name] = node
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("pbem.referee"):
            for a in node.names:
                target = f"{node.module}.{a.name}"
                if _path(target) is not None:
                    module.modules[a.asname or a.name] = target
                else:
                    module.names[a.asname or a.name] = (str(node.module), a.name)
    return module


def _path(name: str) -> Path | None:
    base = PKG.parent / Path(*name.split("."))
    for path in (base.with_suffix(".py"), base / "__init__.py"):
        if path.is_file():
            return path
    return None


MODULES = {m.name: m for m in map(_read, REFEREE.rglob("*.py"))}


def _resolve(module: str, name: str, depth: int = 0) -> tuple[str, str] | None:
    """The module-level function ``name`` means in ``module`` (through its imports)."""
    found = MODULES.get(module)
    if found is None or depth > 5:
        return None
    if name in found.functions:
        return module, name
    if name in found.names:
        return _resolve(*found.names[name], depth + 1)
    return None


def _calls(module: Module, function: ast.FunctionDef) -> set[tuple[str, str]]:
    """The referee functions ``function`` calls by name (``f(...)``, ``games.f(...)``)."""
    called = set()
    for node in ast.walk(function):
        if not isinstance(node, ast.Call):
            continue
        target = None
        if isinstance(node.func, ast.Name):
            target = _resolve(module.name, node.func.id)
        elif (isinstance(node.func, ast.Attribute) and isinstance(node.func.value, ast.Name)
              and node.func.value.id in module.modules):
            target = _resolve(module.modules[node.func.value.id], node.func.attr)
        if target is not None:
            called.add(target)
    return called


def _writers() -> set[tuple[str, str]]:
    """Every referee function that changes the store: it spells an INSERT, UPDATE, DELETE
    or REPLACE, or calls one that does."""
    calls = {(m.name, f): _calls(m, node) for m in MODULES.values()
             for f, node in m.functions.items()}
    found = {(m.name, f) for m in MODULES.values() for f, node in m.functions.items()
             if any(isinstance(c, ast.Constant) and isinstance(c.value, str)
                    and WRITES.match(c.value) for c in ast.walk(node))}
    while True:
        more = {f for f, called in calls.items() if called & found} - found
        if not more:
            return found
        found |= more


WRITERS = _writers()

#: the command modules that write to the store themselves, inside the mail's savepoint,
#: and what they call to do it (``pbem/referee/work/unit.py`` says why). Every other
#: command changes only its unit, which ``work/commit.py`` writes.
WRITE_THEMSELVES = {
    # the sender's own matters: there is no game to commit
    "challenge": {"store.accounts.add_challenge", "store.accounts.decide_challenge",
                  "store.accounts.ensure_account", "work.starting.start_game"},
    "digest": {"store.accounts.set_digest"},
    "notify": {"store.delivery.set_player_hook"},
    "observe": {"store.accounts.observe", "store.accounts.unobserve"},
    "profile": {"store.accounts.set_display_name", "store.accounts.set_timezone"},
    "tournaments": {"work.tournament.enter", "work.tournament_play.withdraw"},
    "vacation": {"store.accounts.save_book", "store.games.save_clock", "store.games.log"},
    # the one game command: the turn goes at once, so that the mail's later orders and
    # its conditional turns work on the game as taken back
    "takeback": {"work.rollback.rollback_to"},
}


def test_the_scan_knows_a_writer_from_a_reader() -> None:
    """The scan below finds writers directly and through other functions."""
    assert ("pbem.referee.store.games", "log") in WRITERS
    assert ("pbem.referee.work.rollback", "rollback_to") in WRITERS  # through games, undo_log
    assert ("pbem.referee.store.games", "load_game") not in WRITERS
    assert ("pbem.referee.store.standing_conditions", "load") not in WRITERS


def test_commands_change_only_their_unit_but_those_listed() -> None:
    """No command module calls a function that writes to the store, except those in
    ``WRITE_THEMSELVES``, each with exactly the writers listed there."""
    found: dict[str, set[str]] = {}
    for module in MODULES.values():
        if not module.name.startswith("pbem.referee.commands.") or module.name.endswith(
                ".registry"):
            continue
        for node in module.functions.values():
            for target, name in _calls(module, node) & WRITERS:
                short = target.removeprefix("pbem.referee.")
                found.setdefault(module.name.rsplit(".", 1)[1], set()).add(f"{short}.{name}")
    assert found == WRITE_THEMSELVES


def test_of_the_game_commands_only_takeback_writes_itself() -> None:
    """A command that writes itself is about the sender (scope ``player``), but
    ``takeback``'s ``accept``."""
    from pbem.referee import commands
    from pbem.referee.commands.registry import COMMANDS

    assert commands
    writing = {f"pbem.referee.commands.{m}" for m in WRITE_THEMSELVES if m != "takeback"}
    assert {c.name for c in COMMANDS.values() if c.run.__module__ in writing
            and c.scope != "player"} == set()
