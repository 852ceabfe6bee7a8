"""Rulesets by name, file or mapping: the presets in ``games/*.yaml`` and options on top.

A record's front matter may say ``ruleset: original``, name a YAML file, or give a
mapping (``{preset: original, checkpoint: true}``, ``{game: classic, double_moves:
true}``); ``pbem validate --ruleset`` takes a name or a file. A preset or mapping
names its game with ``game:`` (the Featured Game when none is named, and a preset's
own game below it). Every mistake is a RulesetError naming the option, the value and
what is allowed.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import yaml

from pbem.errors import RulesetError
from pbem.resources import presets_dir
from pbem.rules.registry import featured, game_for, game_names, game_of

#: keys of a ruleset mapping that are not options
_EXTRA_KEYS = ("game", "preset", "description")
_MAX_DEPTH = 8


def preset_paths() -> dict[str, Path]:
    """Every preset by name, from the YAML files beside the bundled games.

    Listed once per change of the folder (its mtime), not once per record: every
    record's ruleset is looked up here, and listing the folder cost a validated
    Featured game a tenth of its time once the other games' presets joined it."""
    folder = presets_dir()
    try:
        stamp = folder.stat().st_mtime_ns
    except OSError:
        return {}
    return dict(_presets_in(str(folder), stamp))


@functools.lru_cache(maxsize=4)
def _presets_in(folder: str, stamp: int) -> tuple[tuple[str, Path], ...]:
    path = Path(folder)
    return tuple((p.stem, p) for p in sorted(path.glob("*.yaml"))) if path.is_dir() else ()


def preset_names(game: str | None = None) -> list[str]:
    """Every preset's name; with ``game``, only the presets of that game."""
    names = list(preset_paths())
    if game is None:
        return names
    return [n for n in names if load_ruleset(n).game == game]


def load_ruleset(
    spec: str | Mapping[str, Any] | None, *, base: Path | None = None, files: bool = True
) -> Any:
    """The ruleset ``spec`` names: a preset, a YAML file, or a mapping of options.

    ``base`` is a record's own folder: a file name is looked up there, and the file
    (after symbolic links) must lie inside it, so that a record never makes pbem read
    and publish a file from elsewhere (``../x.yaml``, ``/etc/...``). ``files=False``
    allows presets and mappings only (a ruleset named in a stranger's mail). Without
    either, any file may be named (the user's own ``--ruleset``).
    """
    if not files:
        return _load(spec, base, _NO_FILES, 0)
    if base is not None and isinstance(spec, str):
        # a preset or a game needs no file, so the folder a file must lie in is not
        # worked out: resolving each record's folder cost a validated game about 1%
        found = _named(spec.strip(), 0)
        if found is not None:
            return found
    return _load(spec, base, None if base is None else base.resolve(), 0)


#: the ``root`` of a lookup that may read no file at all
_NO_FILES = Path("/nonexistent/pbem-no-ruleset-files")


def _load(spec: Any, base: Path | None, root: Path | None, depth: int) -> Any:
    if depth > _MAX_DEPTH:
        raise RulesetError(
            "rulesets name each other in a circle (preset within preset)",
            code="ruleset.cycle",
        )
    if spec is None:
        return featured().default_ruleset()
    if isinstance(spec, Mapping):
        return _from_mapping(spec, base, root, depth, where="the ruleset mapping")
    if not isinstance(spec, str):
        if hasattr(spec, "options") and hasattr(type(spec), "game"):  # a ruleset already
            return spec
        raise RulesetError(
            f"a ruleset is a preset name, a YAML file or a mapping of options, not {spec!r}",
            code="ruleset.form",
        )
    name = spec.strip()
    found = _named(name, depth)
    if found is not None:
        return found
    presets = preset_paths()
    if root is _NO_FILES:
        raise RulesetError(
            f"unknown ruleset {name!r}: name a preset ({', '.join(presets) or 'none found'}) "
            f"or a game ({', '.join(sorted(game_names()))})",
            code="ruleset.unknown",
        )
    path = _find_file(name, base, root)
    if path is not None:
        return _preset(str(path), root, depth)
    known = ", ".join(presets) or "none found"
    raise RulesetError(
        f"unknown ruleset {name!r}: not a preset ({known}) and not a ruleset file",
        code="ruleset.unknown",
    )


def _named(name: str, depth: int) -> Any | None:
    """The preset called ``name``, or the game (its own rules, every option default), or
    None."""
    presets = preset_paths()
    if name in presets:
        return _preset(str(presets[name]), None, depth)
    if name.lower() in game_names():
        return game_for(name).default_ruleset()
    return None


def _find_file(name: str, base: Path | None, root: Path | None) -> Path | None:
    if not name.endswith((".yaml", ".yml")):
        return None
    if root is None:
        candidates = [Path(name)]
        if base is not None and not Path(name).is_absolute():
            candidates.insert(0, base / name)
        return next((p for p in candidates if p.is_file()), None)
    path = (base or root) / name
    try:
        real = path.resolve(strict=False)
    except (OSError, RuntimeError):  # a symbolic link loop
        real = None
    if real is None or not (real.is_relative_to(root) or real.is_relative_to(_presets_root())):
        raise RulesetError(
            f"the ruleset file {name!r} lies outside the record's folder {root}: a record "
            "may name a preset, or a ruleset file in its own folder",
            code="ruleset.outside",
        )
    return real if real.is_file() else None


def _presets_root() -> Path:
    return presets_dir().resolve()


@functools.lru_cache(maxsize=64)
def _preset(path: str, root: Path | None, depth: int) -> Any:
    """A preset file, read once per process (archives validate thousands of games).

    ``root``: the folder that files it names in turn must lie in (see ``load_ruleset``);
    None for a preset or a file the user named.
    """
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise RulesetError(
            f"cannot read the ruleset file {path}: {exc}", code="ruleset.file"
        ) from None
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" (line {mark.line + 1}, column {mark.column + 1})" if mark else ""
        raise RulesetError(
            f"the ruleset file {path} is not valid YAML{where}", code="ruleset.file"
        ) from None
    except RecursionError:
        raise RulesetError(
            f"the ruleset file {path} is nested too deeply to be a ruleset", code="ruleset.file"
        ) from None
    if not isinstance(data, Mapping):
        raise RulesetError(
            f"the ruleset file {path} must hold a mapping of options", code="ruleset.file"
        )
    data = dict(data)
    data.setdefault("name", Path(path).stem)
    return _from_mapping(data, Path(path).parent, root, depth + 1,
                         where=f"the ruleset file {path}")


def _from_mapping(
    data: Mapping[str, Any], base: Path | None, root: Path | None, depth: int, where: str
) -> Any:
    bad = [k for k in data if not isinstance(k, str)]
    if bad:
        raise RulesetError(f"{where}: option names are words, not {bad[0]!r}", code="ruleset.form")
    options = {k: v for k, v in data.items() if k not in _EXTRA_KEYS}
    preset = data.get("preset")
    try:
        game = game_for(data["game"]) if "game" in data else None
    except RulesetError as exc:
        raise RulesetError(f"{where}: {exc.message}", code=exc.code) from None
    if preset is not None:
        parent = _load(preset, base, root, depth + 1)
        if game is not None and game_of(parent) is not game:
            raise RulesetError(
                f"{where}: the preset {preset!r} is a ruleset of {game_of(parent).title}, "
                f"not of {game.title}",
                code="ruleset.game",
            )
    else:
        parent = (game or featured()).default_ruleset()
    name = options.pop("name", None)
    try:
        if name is None:
            current = parent.options()
            missing = object()
            changed = {k: v for k, v in options.items() if current.get(k, missing) != v}
            return game_of(parent).ruleset_from(changed, parent) if changed else parent
        return game_of(parent).ruleset_from(options, parent, name)
    except RulesetError as exc:
        extra = " (and 'game', 'preset', 'description')" if exc.code == "ruleset.unknown-option" \
            else ""
        raise RulesetError(f"{where}: {exc.message}{extra}", code=exc.code) from None


def differences(ruleset: Any) -> dict[str, Any]:
    """The options of ``ruleset`` that differ from its game's defaults."""
    default = game_of(ruleset).default_ruleset().options()
    return {k: v for k, v in ruleset.options().items() if k != "name" and default.get(k) != v}


def describe_ruleset(ruleset: Any) -> list[str]:
    """The rules in force: the name, then each option that differs from the game's own."""
    game = game_of(ruleset)
    diffs = differences(ruleset)
    head = f"{ruleset.name}: {game.title}" + (", except:" if diffs else "")
    return [head, *(_option_line(o, v, game.option_help.get(o, o)) for o, v in diffs.items())]


def _option_line(option: str, value: Any, words: str) -> str:
    """An option and what it means; one turned off says its words are not in force."""
    if value is False:
        return f"  {option}: off (not in force: {words})"
    return f"  {option}: {_value_words(value)}: {words}"


def _value_words(value: Any) -> str:
    if isinstance(value, bool):
        return "on" if value else "off"
    return str(value)


__all__ = ["describe_ruleset", "differences", "load_ruleset", "preset_names", "preset_paths"]
