"""Old notation front end against this one: the same syntax objects, spans and errors?

    .venv/bin/python scripts/compare_notation.py OLD_CHECKOUT [--generated N] [--mutations K]

Reads, with both checkouts' pbem (each in a process of its own, ``PYTHONPATH``):
every game of ``games/``; every string written in ``tests/`` (as a movetext and as a
game: most are records, turns or broken ones); N games made by ``pbem generate``; and K
broken copies of each of those records and games (a character deleted, doubled or
replaced). Each reading is dumped with every field of every syntax object, spans
included, or the error's code, message, line and column; ``pbem validate --json`` of
``games/`` and of the generated games is compared line by line too. Prints every kind
of difference with a few examples; exit 1 if there is any.
"""

from __future__ import annotations

import argparse
import ast
import dataclasses
import json
import os
import random
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
#: characters the old notation had no use for and the new reads as annotations
NEW_SYNTAX = "[]!?"
#: fields the new syntax objects have that the old do not: compared only when not empty
NEW_FIELDS = {"marks", "variations", "note_spans"}


def _dump(x: Any) -> Any:
    if dataclasses.is_dataclass(x) and not isinstance(x, type):
        out: dict[str, Any] = {"_": type(x).__name__}
        for f in dataclasses.fields(x):
            value = getattr(x, f.name)
            if f.name in NEW_FIELDS and not value:
                continue
            if f.name in ("header_text", "note_spans"):
                continue
            out[f.name] = _dump(value)
        return out
    if isinstance(x, tuple) and hasattr(x, "_fields"):  # Span
        return list(x)
    if isinstance(x, list | tuple):
        return [_dump(v) for v in x]
    if isinstance(x, dict):
        return {str(k): _dump(v) for k, v in x.items()}
    if isinstance(x, str | int | float | bool) or x is None:
        return x if not isinstance(x, str) else str(x)
    return repr(x)


def _corpus(generated: Path | None, mutations: int) -> list[tuple[str, str, str]]:
    """(id, start rule, text) of every reading to compare."""
    items: list[tuple[str, str, str]] = []
    records: list[tuple[str, str]] = []
    for path in sorted((REPO / "games").glob("*.realm")):
        records.append((f"games/{path.name}", path.read_text(encoding="utf-8")))
    if generated is not None:
        for path in sorted(generated.glob("*.realm"))[:400]:
            records.append((f"generated/{path.name}", path.read_text(encoding="utf-8")))
    for name, text in records:
        items.append((name, "file", text))
    seen: set[str] = set()
    for path in sorted((REPO / "tests").rglob("*.py")):
        try:
            tree = ast.parse(path.read_text(encoding="utf-8"))
        except SyntaxError:
            continue
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                s = node.value
                if 1 < len(s) < 20000 and s not in seen and any(c.isdigit() for c in s):
                    seen.add(s)
                    rel = path.relative_to(REPO)
                    items.append((f"{rel}:{node.lineno}", "movetext", s))
                    items.append((f"{rel}:{node.lineno}", "game", s))
    rng = random.Random(22)
    alphabet = "PEBRSx+()/,.;{}[]!? -1234567890abcdefghijklmnopqrstuvwxyzLIN\n\t…½*"
    for name, text in records:
        body = text
        for k in range(mutations):
            if not body:
                break
            i = rng.randrange(len(body))
            kind = rng.randrange(3)
            if kind == 0:
                broken = body[:i] + body[i + 1 :]
            elif kind == 1:
                broken = body[:i] + body[i] + body[i:]
            else:
                broken = body[:i] + rng.choice(alphabet) + body[i + 1 :]
            items.append((f"{name}~{k}", "file", broken))
    return items


def child(corpus_file: str, out_file: str) -> None:
    """``--child``: read every item with the pbem on ``sys.path`` and dump the readings."""
    from pbem.errors import PbemError
    from pbem.notation.parse import parse_game, parse_movetext
    from pbem.records.reader import read_games

    items = json.loads(Path(corpus_file).read_text(encoding="utf-8"))
    with open(out_file, "w", encoding="utf-8") as out:
        for ident, start, text in items:
            try:
                if start == "file":
                    got: Any = []
                    for src in read_games(text):
                        got.append({
                            "game": _dump(src.game),
                            "error": None if src.error is None else _error(src.error),
                            "warnings": [[w.code, w.message, list(w.span)] for w in src.warnings],
                        })
                elif start == "game":
                    got = _dump(parse_game(text))
                else:
                    got = _dump(parse_movetext(text))
            except PbemError as exc:
                got = _error(exc)
            except Exception as exc:  # a crash is a difference to show
                got = {"crash": f"{type(exc).__name__}: {exc}"}
            out.write(json.dumps([ident, start, got], ensure_ascii=False) + "\n")


def _error(exc: Any) -> dict[str, Any]:
    span = getattr(exc, "span", None)
    return {"error": type(exc).__name__, "code": getattr(exc, "code", None),
            "message": getattr(exc, "message", str(exc)),
            "span": list(span) if span is not None else None}


def _validate_json(tree: Path, folder: Path) -> list[dict[str, Any]]:
    env = {**os.environ, "PYTHONPATH": str(tree)}
    proc = subprocess.run([sys.executable, "-m", "pbem", "validate", "--json", "-j", "1",
                           str(folder)], capture_output=True, text=True, env=env, cwd=tree)
    rows = [json.loads(line) for line in proc.stdout.splitlines() if line.startswith("{")]
    for r in rows:
        r.pop("annotations", None)
    return rows


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("old", type=Path)
    ap.add_argument("--generated", type=int, default=200)
    ap.add_argument("--mutations", type=int, default=20)
    ap.add_argument("--child", nargs=2, help=argparse.SUPPRESS)
    ap.add_argument("--show", type=int, default=4)
    args = ap.parse_args()
    if args.child:
        child(*args.child)
        return
    old = args.old.resolve()
    with tempfile.TemporaryDirectory() as tmp:
        gen = None
        if args.generated:
            gen = Path(tmp) / "generated"
            subprocess.run([sys.executable, "-m", "pbem", "generate", "--games",
                            str(args.generated), "--seed", "22", "--ruleset", "random",
                            "--out", str(gen)], check=True, cwd=REPO, capture_output=True,
                           env={**os.environ, "PYTHONPATH": str(REPO)})
        items = _corpus(gen, args.mutations)
        corpus = Path(tmp) / "corpus.json"
        corpus.write_text(json.dumps(items), encoding="utf-8")
        dumps = {}
        for name, tree in (("old", old), ("new", REPO)):
            out = Path(tmp) / f"{name}.jsonl"
            env = {**os.environ, "PYTHONPATH": str(tree)}
            subprocess.run([sys.executable, __file__, str(old), "--child", str(corpus), str(out)],
                           check=True, env=env, cwd=tree)
            dumps[name] = out.read_text(encoding="utf-8").splitlines()
        differences: dict[str, list[str]] = {}
        for (_, _, text), a, b in zip(items, dumps["old"], dumps["new"], strict=True):
            if a != b:
                ident, start, got_old = json.loads(a)
                _, _, got_new = json.loads(b)
                kind = _kind(got_old, got_new)
                if any(c in text for c in NEW_SYNTAX):
                    kind += " (the text holds [, ], ! or ?: annotations are new syntax)"
                where, x, y = _first_difference(got_old, got_new, "")
                differences.setdefault(kind, []).append(
                    f"{ident} ({start}) at {where}:\n    old {json.dumps(x)[:300]}\n"
                    f"    new {json.dumps(y)[:300]}")
        folders = [REPO / "games"] + ([gen] if gen is not None else [])
        for folder in folders:
            rows_old, rows_new = _validate_json(old, folder), _validate_json(REPO, folder)
            for r_old, r_new in zip(rows_old, rows_new, strict=True):
                if r_old != r_new:
                    differences.setdefault("validate --json", []).append(
                        f"{r_old.get('path')}#{r_old.get('index')}:\n    old {r_old}\n"
                        f"    new {r_new}")
    print(f"{len(items)} readings compared, and validate --json of {len(folders)} folders")
    for kind, examples in sorted(differences.items()):
        print(f"\n{kind}: {len(examples)}")
        for e in examples[: args.show]:
            print("  " + e)
    sys.exit(1 if differences else 0)


def _first_difference(a: Any, b: Any, path: str) -> tuple[str, Any, Any]:
    """Where two dumps first differ, and what each holds there."""
    if isinstance(a, dict) and isinstance(b, dict) and set(a) == set(b):
        for k in a:
            if a[k] != b[k]:
                return _first_difference(a[k], b[k], f"{path}.{k}")
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            if x != y:
                return _first_difference(x, y, f"{path}[{i}]")
    return path or "top", a, b


def _kind(a: Any, b: Any) -> str:
    def what(x: Any) -> str:
        if isinstance(x, dict) and "crash" in x:
            return "crash"
        if isinstance(x, dict) and "error" in x:
            return "error"
        return "parsed"
    ka, kb = what(a), what(b)
    if ka == kb == "error" and isinstance(a, dict) and isinstance(b, dict):
        return "error: message" if a["message"] != b["message"] else "error: span or code"
    return f"{ka} -> {kb}"


if __name__ == "__main__":
    main()
