"""The referee's code reads one way: every import in ``pbem/referee`` (those inside
functions and under ``TYPE_CHECKING`` too) points down the chain of its sub-packages

    clock, turns -> config -> store -> intake, public -> outgoing -> work -> commands -> entry

so there is no import cycle, no module reaches for another's private names, and no SQL is
written outside the store. The layers are the packages: a module sits in one of them, never
loose in ``pbem/referee``."""

from __future__ import annotations

import ast
import re
from pathlib import Path

PKG = Path(__file__).resolve().parents[2] / "pbem" / "referee"

#: each sub-package's layer; a module may import only from its own package's layer or below
LAYERS: dict[str, int] = {
    "clock": 0,     # time: deadlines, banks, vacations, "now"; pure
    "turns": 0,     # a mailed turn checked, worded, conditional turns; pure
    "config": 1,    # the data folder and config.yaml
    "store": 2,     # every SQL statement
    "intake": 3,    # a mail in: sources, reading, orders, keys
    "public": 3,    # what the world may see: export, site, club ratings
    "outgoing": 4,  # what is said and its delivery
    "work": 5,      # the unit of work and its commit
    "commands": 6,  # the mail commands and their registry
    "entry": 7,     # a mail, a tick, a game master's command
}


def _modules() -> dict[str, Path]:
    found = {}
    for path in PKG.rglob("*.py"):
        parts = path.relative_to(PKG).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        found[".".join(("pbem", "referee", *parts))] = path
    return found


MODULES = _modules()


def _imports(path: Path, name: str) -> set[str]:
    """Every referee module ``path`` imports, wherever the import statement is."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join(package.split(".")[: len(package.split(".")) - node.level + 1]
                                + ([base] if base else []))
            targets = [base] + [f"{base}.{a.name}" for a in node.names]
        else:
            continue
        found |= {t for t in targets if t in MODULES and t != name}
    return found


GRAPH = {name: _imports(path, name) for name, path in MODULES.items()}


def _layer(name: str) -> int:
    top = name.split(".")[2] if name.count(".") >= 2 else ""
    assert top in LAYERS, f"{name}: put it in a sub-package of pbem/referee (see LAYERS)"
    return LAYERS[top]


def test_every_module_sits_in_a_layer_package() -> None:
    """The packages on disk are the layers: none is missing from ``LAYERS``, none is listed
    that does not exist, and no module lies loose beside them."""
    packages = {p.parent.name for p in PKG.glob("*/__init__.py")}
    assert packages == set(LAYERS)
    loose = sorted(p.name for p in PKG.glob("*.py") if p.name != "__init__.py")
    assert not loose, f"put these in a sub-package of pbem/referee: {loose}"


def test_every_package_says_what_it_is_for() -> None:
    """Each layer's ``__init__`` opens with a docstring: the map a newcomer reads first."""
    from_docs = {name: ast.get_docstring(ast.parse((PKG / name / "__init__.py").read_text(
        encoding="utf-8"))) for name in LAYERS}
    assert all(doc and len(doc) > 80 for doc in from_docs.values()), from_docs


def test_there_is_no_import_cycle() -> None:
    state: dict[str, int] = {}
    stack: list[str] = []
    cycles = []

    def visit(node: str) -> None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(GRAPH[node]):
            if state.get(nxt) == 1:
                cycles.append([*stack[stack.index(nxt):], nxt])
            elif nxt not in state:
                visit(nxt)
        stack.pop()
        state[node] = 2

    for node in sorted(GRAPH):
        if node not in state:
            visit(node)
    assert not cycles, "\n".join(" -> ".join(c) for c in cycles)


def test_imports_point_down_the_layers() -> None:
    up = [f"{a} imports {b}" for a, targets in GRAPH.items() for b in targets
          if a != "pbem.referee" and b != "pbem.referee" and _layer(a) < _layer(b)]
    assert not up, up


def _private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def _reached(node: ast.AST, foreign: set[str]) -> str | None:
    """The private name ``node`` reaches for from outside, if it does."""
    if isinstance(node, ast.ImportFrom) and (node.level or (node.module or "").startswith("pbem")):
        names = [a.name for a in node.names if _private(a.name)]
        return f"imports {node.module}.{names[0]}" if names else None
    if isinstance(node, ast.Import):
        names = [a.name for a in node.names if any(map(_private, a.name.split(".")[1:]))]
        return f"imports {names[0]}" if names else None
    if isinstance(node, ast.Attribute) and _private(node.attr):
        root = node.value
        while isinstance(root, ast.Attribute):
            root = root.value
        own = isinstance(node.value, ast.Name) and node.value.id in ("self", "cls")
        theirs = isinstance(root, ast.Name) and root.id in foreign
        return None if own or theirs else f"uses {ast.unparse(node)}"
    if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
            and node.func.id in ("getattr", "setattr", "hasattr") and len(node.args) > 1
            and isinstance(node.args[1], ast.Constant) and isinstance(node.args[1].value, str)
            and _private(node.args[1].value)):
        return f"uses {ast.unparse(node)}"
    return None


def test_no_module_uses_another_modules_private_names() -> None:
    """Not ``from m import _name``, not ``m._name`` (a module's or a dotted path's), and not
    ``obj._name`` on anything but ``self`` or ``cls``: a private name is its module's own.
    (Other libraries' names, ``argparse._SubParsersAction`` in a hint, are theirs.)"""
    bad = []
    for name, path in MODULES.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        foreign = {(a.asname or a.name).split(".")[0] for node in ast.walk(tree)
                   if isinstance(node, ast.Import) for a in node.names
                   if not a.name.startswith("pbem")}
        for node in ast.walk(tree):
            said = _reached(node, foreign)
            if said is not None:
                bad.append(f"{name}:{getattr(node, 'lineno', 0)} {said}")
    assert not bad, bad


#: the DB-API calls that run SQL, and how an SQL statement begins
SQL_CALLS = {"execute", "executemany", "executescript", "commit", "rollback", "cursor"}
SQL_TEXT = re.compile(r"\s*(SELECT|INSERT|UPDATE|DELETE|CREATE|DROP|ALTER|BEGIN|COMMIT|ROLLBACK|"
                      r"SAVEPOINT|RELEASE|PRAGMA|REPLACE|VACUUM|ATTACH|WITH)\s")


def test_the_store_owns_all_sql() -> None:
    """Outside ``pbem/referee/store`` no module runs a statement, commits, opens a database
    or so much as spells SQL: it calls the store's functions, named for what they do."""
    bad = []
    for name, path in MODULES.items():
        if name == "pbem.referee.store" or name.startswith("pbem.referee.store."):
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and (
                    node.func.attr in SQL_CALLS or ast.unparse(node.func) == "sqlite3.connect"):
                bad.append(f"{name}:{node.lineno} calls {ast.unparse(node.func)}")
            elif (isinstance(node, ast.Constant) and isinstance(node.value, str)
                  and SQL_TEXT.match(node.value)):
                bad.append(f"{name}:{node.lineno} spells SQL: {node.value[:40]!r}")
    assert not bad, bad


def test_the_service_stays_small() -> None:
    lines = (PKG / "entry" / "service.py").read_text(encoding="utf-8").count("\n")
    assert lines <= 156, f"service.py has {lines} lines: move the work into units and commands"
