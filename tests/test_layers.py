"""Imports point one way: errors <- rules <- players <- notation <- records <- {render, referee}
<- cli. ``players`` (random-game policies) sit beside the rules core, outside it: a policy
may import its own game's rules, and only ``records`` (``pbem generate``) uses them."""

from __future__ import annotations

import ast
from pathlib import Path

PKG = Path(__file__).resolve().parents[1] / "pbem"

# what each layer may import from pbem
ALLOWED = {
    "rules": {"errors", "rules"},
    "ratings": {"errors", "ratings"},
    "tournaments": {"errors", "tournaments"},
    "players": {"errors", "rules", "players"},
    "notation": {"errors", "rules", "notation", "resources"},
    "records": {"errors", "rules", "players", "notation", "records", "resources", "ratings"},
    "render": {
        "errors", "rules", "notation", "records", "render", "resources", "ratings", "tournaments",
    },
    "referee": {
        "errors", "rules", "notation", "records", "render", "referee", "resources", "ratings",
        "tournaments",
    },
    # the command line over everything: one package, one module per command or group
    "cli": {
        "errors", "rules", "players", "notation", "records", "render", "referee", "cli",
        "resources", "ratings", "tournaments",
    },
}


def _pbem_imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("pbem."):
            found.add(node.module.split(".")[1])
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.startswith("pbem."):
                    found.add(alias.name.split(".")[1])
    return found


def test_every_package_has_a_layer():
    """A new package of ``pbem`` must say where it sits before it may import anything."""
    packages = {p.parent.name for p in PKG.glob("*/__init__.py")}
    assert packages == set(ALLOWED), packages ^ set(ALLOWED)


def test_layers_point_one_way():
    bad = []
    for layer, allowed in ALLOWED.items():
        for path in (PKG / layer).rglob("*.py"):
            for imported in _pbem_imports(path) - allowed:
                bad.append(f"{path.relative_to(PKG)} imports pbem.{imported}")
    assert not bad, bad


def test_rules_core_uses_the_standard_library_only():
    stdlib_ok = {"__future__", "abc", "dataclasses", "enum", "typing", "collections", "itertools",
                 "functools", "operator", "reprlib"}
    bad = []
    for path in (PKG / "rules").rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            else:
                continue
            for name in names:
                top = name.split(".")[0]
                if top != "pbem" and top not in stdlib_ok:
                    bad.append(f"{path.name}: {name}")
    assert not bad, bad


def _game_packages() -> set[str]:
    return {p.parent.name for p in (PKG / "rules").glob("*/__init__.py")}


def test_only_a_game_and_the_registry_import_a_game():
    """The layers above the rules name no game: they go through ``pbem.rules.game`` and
    ``pbem.rules.registry``. A game's package imports itself (or a sibling game whose
    engine it shares: Medieval builds on Classic's); its random player
    (``pbem/players/<game>.py``, ``<game>_*.py``) imports it too; nothing else does."""
    games = _game_packages()
    assert "realm" in games
    bad = []
    for path in PKG.rglob("*.py"):
        rel = path.relative_to(PKG)
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            elif isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            else:
                continue
            for name in names:
                parts = name.split(".")
                if parts[:2] != ["pbem", "rules"] or len(parts) < 3 or parts[2] not in games:
                    continue
                game = parts[2]
                allowed = (
                    (rel.parts[0] == "rules" and rel.parts[1] in games)
                    or rel == Path("rules/registry.py")
                    or (rel.parts[0] == "players" and rel.stem.split("_")[0] == game)
                )
                if not allowed:
                    bad.append(f"{rel} imports {name}")
    assert not bad, bad
