"""Issue 24 part 4: an option several commands take is written once, in ``pbem/cli/options.py``.

Two views: the source (no ``add_argument("--home", ...)`` outside ``options.py``, and no
flag written twice anywhere in ``pbem/cli`` unless it means something else in each place)
and the parser (every command that takes ``--home`` or ``--no-send`` says the same of it).
"""

from __future__ import annotations

import argparse
import ast
from collections import defaultdict
from pathlib import Path

import pytest

from pbem.cli import parser

CLI = Path(__file__).resolve().parents[1] / "pbem" / "cli"
OPTIONS = CLI / "options.py"

#: flags that two commands spell alike but that mean different things: written where used
SAME_WORD_OTHER_MEANING = {
    "--force": "generate: overwrite records; rollback: a finished game too",
    "--all": "export: every game; moves: every Rearrangement listed",
    "--name": "new: the game's title; tournament add: a player's shown name",
    "--unrated": "new: one of --rated/--unrated over the config's default; tournament new: "
    "an event is rated unless --unrated, whatever the config says",
}


def flags_written(source: str) -> list[tuple[str, int]]:
    """Every name an ``add_argument`` call in ``source`` writes, with its line: flags and
    positional names alike (``--home``, ``-o``, ``game``)."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                and node.func.attr == "add_argument"):
            for arg in node.args:
                if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                    found.append((arg.value, node.lineno))
    return found


def written_twice(sources: dict[str, str]) -> list[str]:
    """What breaks the rule in ``sources`` (module name -> text): a flag of ``options``
    written elsewhere, or a flag written at two places outside ``options``."""
    shared = {flag for flag, _ in flags_written(sources.get("options", ""))}
    places: dict[str, list[str]] = defaultdict(list)
    for module, text in sources.items():
        if module == "options":
            continue
        for flag, line in flags_written(text):
            places[flag].append(f"{module}:{line}")
    bad = [f"{flag} is pbem.cli.options's, but written at {', '.join(where)}"
           for flag, where in places.items() if flag in shared]
    bad += [f"{flag} written {len(where)} times: {', '.join(where)} (add it to options.py)"
            for flag, where in places.items()
            if flag not in shared and len(where) > 1 and flag not in SAME_WORD_OTHER_MEANING]
    return sorted(bad)


def cli_sources() -> dict[str, str]:
    return {path.stem: path.read_text(encoding="utf-8") for path in sorted(CLI.glob("*.py"))}


def test_every_shared_option_is_written_once() -> None:
    assert written_twice(cli_sources()) == []


def test_the_scan_finds_an_option_written_again() -> None:
    """The rule above can fail: a command that writes its own --home, or two commands that
    write the same new flag, are caught (and a flag of another meaning is let be)."""
    sources = cli_sources()
    sources["games"] += '\n\ndef extra(p):\n    p.add_argument("--home", help="mine")\n'
    sources["mail"] += ('\n\ndef a(p):\n    p.add_argument("--colour")\n'
                        '\n\ndef b(p):\n    p.add_argument("--colour")\n'
                        '\n\ndef c(p):\n    p.add_argument("--force")\n')
    bad = written_twice(sources)
    assert len(bad) == 2, bad
    assert bad[0].startswith("--colour written 2 times: mail:")
    assert bad[1].startswith("--home is pbem.cli.options's, but written at games:")


def test_options_py_writes_the_shared_options() -> None:
    shared = {flag for flag, _ in flags_written(OPTIONS.read_text(encoding="utf-8"))}
    assert {"--home", "--no-send", "--ruleset", "--flip", "--output", "--json", "game",
            "paths", "file", "name"} <= shared


def _commands(parser: argparse.ArgumentParser, words: tuple[str, ...] = ()):
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                yield " ".join((*words, name)), sub
                yield from _commands(sub, (*words, name))


def _help_of(parser: argparse.ArgumentParser, flag: str) -> str | None:
    for action in parser._actions:
        if flag in action.option_strings:
            return action.help
    return None


@pytest.mark.parametrize("flag", ["--home", "--no-send"])
def test_every_command_says_the_same_of_a_shared_option(flag: str) -> None:
    helps = {name: _help_of(p, flag) for name, p in _commands(parser())}
    helps = {name: text for name, text in helps.items() if text is not None}
    assert len(helps) >= 8  # the referee's commands take it
    # ratings adds when it reads the home, after the same words
    first = min(helps.values(), key=len)
    assert all(text.startswith(first) for text in helps.values()), helps
    assert sum(text != first for text in helps.values()) <= 1, helps
