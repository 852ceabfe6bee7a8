"""``pbem rulesets``: the presets and what each changes, or every option of one ruleset.

Referees choose the rules of a game by preset name; this is where they see them.
"""

from __future__ import annotations

import argparse
import json
from typing import TextIO

from pbem.cli import options
from pbem.errors import EXIT_OK, PbemError, UsageError


def register(sub: options.Commands) -> None:
    p = sub.add_parser(
        "rulesets",
        help="list the ruleset presets, or show every option of one",
        description="Without an argument: every preset (games/*.yaml), its game, and how "
        "it differs from that game's own rules. With NAME or FILE: every option of that "
        "ruleset.",
    )
    p.add_argument("ruleset", nargs="?", metavar="NAME|FILE", help="a preset or a YAML file")
    options.json(p, "as JSON")
    p.set_defaults(func=cmd_rulesets)


def cmd_rulesets(args: argparse.Namespace, out: TextIO) -> int:
    from pbem.records.rulesets import describe_ruleset, differences, load_ruleset, preset_names
    from pbem.rules.registry import featured, game_of

    if args.ruleset is None:
        presets = {name: load_ruleset(name) for name in preset_names()}
        if args.json:
            data = {
                n: ({"game": game_of(r).name, **differences(r)}
                    if game_of(r) is not featured() else differences(r))
                for n, r in presets.items()
            }
            out.write(json.dumps(data, indent=2) + "\n")
            return EXIT_OK
        for ruleset in presets.values():
            out.write("\n".join(describe_ruleset(ruleset)) + "\n")
        return EXIT_OK
    try:
        ruleset = load_ruleset(args.ruleset)
    except PbemError as exc:
        raise UsageError(str(exc)) from None
    game = game_of(ruleset)
    if args.json:
        named = {"game": game.name} if game is not featured() else {}
        out.write(json.dumps({**named, **ruleset.options()}, indent=2) + "\n")
        return EXIT_OK
    out.write(f"{ruleset.name}\n" if game is featured() else f"{ruleset.name} ({game.title})\n")
    for option, value in ruleset.options().items():
        if option == "name":
            continue
        shown = ("on" if value else "off") if isinstance(value, bool) else str(value)
        values = game.option_range(option)
        allowed = "" if values == "true or false" else f" ({values})"
        out.write(f"  {option:<20} {shown:<4} {game.option_help.get(option, '')}{allowed}\n")
    return EXIT_OK
