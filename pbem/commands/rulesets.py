"""``pbem rulesets``: the presets and what each changes, or every option of one ruleset.

Referees choose the rules of a game by preset name; this is where they see them.
"""

from __future__ import annotations

import argparse
import json
from typing import TextIO

from pbem.errors import EXIT_OK, PbemError, UsageError


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "rulesets",
        help="list the ruleset presets, or show every option of one",
        description="Without an argument: every preset (games/*.yaml) and how it differs "
        "from the Featured Game. With NAME or FILE: every option of that ruleset.",
    )
    p.add_argument("ruleset", nargs="?", metavar="NAME|FILE", help="a preset or a YAML file")
    p.add_argument("--json", action="store_true", help="as JSON")
    p.set_defaults(func=cmd_rulesets)


def cmd_rulesets(args: argparse.Namespace, out: TextIO) -> int:
    from pbem.records.rulesets import describe_ruleset, load_ruleset, preset_names
    from pbem.rules.realm.ruleset import OPTION_HELP, SWITCHES, option_range

    if args.ruleset is None:
        presets = {name: load_ruleset(name) for name in preset_names()}
        if args.json:
            data = {n: r.differences() for n, r in presets.items()}
            out.write(json.dumps(data, indent=2) + "\n")
            return EXIT_OK
        for ruleset in presets.values():
            out.write("\n".join(describe_ruleset(ruleset)) + "\n")
        return EXIT_OK
    try:
        ruleset = load_ruleset(args.ruleset)
    except PbemError as exc:
        raise UsageError(str(exc)) from None
    if args.json:
        out.write(json.dumps(ruleset.options(), indent=2) + "\n")
        return EXIT_OK
    out.write(f"{ruleset.name}\n")
    for option, value in ruleset.options().items():
        if option == "name":
            continue
        shown = ("on" if value else "off") if isinstance(value, bool) else str(value)
        allowed = "" if option in SWITCHES else f" ({option_range(option)})"
        out.write(f"  {option:<20} {shown:<4} {OPTION_HELP[option]}{allowed}\n")
    return EXIT_OK
