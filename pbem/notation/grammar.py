"""The LALR parser, built once per process from ``grammar/realm.lark``.

Its terminals are read by ``pbem.notation.lexer`` (lark's public custom-lexer
interface); the transformer runs inside the parser (no parse tree is built), and lark
caches the built tables on disk keyed by the grammar's hash, which keeps the cold
start of ``pbem validate`` short.
"""

from __future__ import annotations

import functools
import hashlib
import os
import tempfile
from pathlib import Path

from lark import Lark

from pbem.notation.lexer import RealmLexer
from pbem.notation.transform import ToSyntax
from pbem.resources import grammar_path

START_RULES = ["file", "game", "movetext"]


def _cache_file(grammar: str) -> str | bool:
    digest = hashlib.sha256(grammar.encode("utf-8")).hexdigest()[:16]
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(Path.home(), ".cache")
    for folder in (Path(base) / "pbem", Path(tempfile.gettempdir())):
        try:
            folder.mkdir(parents=True, exist_ok=True)
            if os.access(folder, os.W_OK):
                return str(folder / f"realm-{digest}.lark-cache")
        except OSError:
            continue
    return False


@functools.cache
def _built() -> tuple[Lark, ToSyntax]:
    grammar = grammar_path().read_text(encoding="utf-8")
    transformer = ToSyntax()
    lark = Lark(
        grammar,
        parser="lalr",
        lexer=RealmLexer,
        start=START_RULES,
        maybe_placeholders=False,
        transformer=transformer,
        cache=_cache_file(grammar),
    )
    return lark, transformer


def parser() -> Lark:
    """The one parser of this process; it returns syntax objects, not a tree."""
    return _built()[0]


def transformer() -> ToSyntax:
    """The transformer inside ``parser()``; set its ``line_offset`` before parsing."""
    return _built()[1]


def build_strict() -> Lark:
    """A fresh parser in lark's strict mode: fails on any conflict."""
    return Lark(
        grammar_path().read_text(encoding="utf-8"),
        parser="lalr",
        lexer=RealmLexer,
        start=START_RULES,
        maybe_placeholders=False,
        strict=True,
    )
