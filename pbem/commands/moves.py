"""``pbem moves FILE``: the legal actions after a record's last legal turn.

A thin command over ``pbem.rules.realm.legal``; every action is written in canonical
notation, its special events included, so that it can be pasted into a record.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from pbem.errors import EXIT_INVALID, EXIT_OK, PbemError, UsageError

if TYPE_CHECKING:
    from pbem.records.reader import GameSource
    from pbem.rules.realm.position import Position
    from pbem.rules.realm.ruleset import Ruleset

JSON_HELP = (
    'one object per game: {"phase": "setup|play|over", "to_move": "white|black|null", '
    '"turn": "11w", "result": null, "placements": [...], "moves": {"c10": [...]}, '
    '"sacrifices": [...], "rearrangements": {"h5": 123}, "pass": false}; with --all also '
    '"rearrangement_list": {"h5": [...]}'
)


def register(sub: argparse._SubParsersAction) -> None:
    """Add ``pbem moves`` to ``pbem``."""
    m = sub.add_parser(
        "moves",
        help="the legal actions after the last legal turn of a record",
        description="Replay a record and list every legal action after its last legal "
        "turn, in canonical notation: set-up placements, the first move of a turn grouped "
        "by piece (every created-Enforcer square and facing and every choice of enemy "
        "Enforcer spelled out), Power sacrifices, and Rearrangements counted per Realm. "
        "Exit 0; 1 when the record is invalid (the actions after its last legal turn are "
        "still listed, the error goes to stderr); 2 for a bad file, game or option.",
    )
    m.add_argument("file", metavar="FILE")
    m.add_argument("--json", action="store_true", help=JSON_HELP)
    m.add_argument("--game", type=int, metavar="N", help="only the N-th game of the file")
    m.add_argument("--ruleset", metavar="NAME", help="ruleset for records that name none")
    m.add_argument("--all", action="store_true", help="list every Rearrangement, not only counts")
    m.set_defaults(func=cmd_moves)


def cmd_moves(args: argparse.Namespace, out: TextIO) -> int:
    from pbem.records.validate import validate_source

    ruleset = _ruleset(args.ruleset)
    sources = _sources(args.file, args.game)
    status = EXIT_OK
    for source in sources:
        report = validate_source(source, default_ruleset=ruleset)
        if report.error is not None:
            e = report.error
            loc = f"{report.path}:{e.span.line}:{e.span.column}" if e.span else report.path
            sys.stderr.write(
                f"{loc}: {e.turn + ': ' if e.turn else ''}{e.message} "
                "(listing the legal actions after the last legal turn)\n"
            )
            status = EXIT_INVALID
        listing = legal_listing(report.final, every=args.all) if report.final else None
        if args.json:
            out.write(json.dumps(listing) + "\n")
            continue
        if len(sources) > 1 or args.game:
            out.write(f"{report.path}#{report.index + 1}: {report.title()}\n")
        if listing is not None:
            out.write(format_listing(listing))
    return status


def _ruleset(name: str | None) -> Ruleset | None:
    from pbem.records.rulesets import load_ruleset

    if name is None:
        return None
    try:
        return load_ruleset(name)
    except PbemError as exc:
        raise UsageError(str(exc)) from None


def _sources(file: str, game: int | None) -> list[GameSource]:
    from pbem.records.reader import read_file

    path = Path(file)
    if not path.is_file():
        raise UsageError(f"{file}: no such file")
    try:
        sources = list(read_file(path))
    except PbemError as exc:
        raise UsageError(str(exc)) from None
    if game is None:
        return sources
    if not 1 <= game <= len(sources):
        raise UsageError(f"{file} holds {len(sources)} game(s); there is no game {game}")
    return [sources[game - 1]]


def legal_listing(position: Position, *, every: bool = False) -> dict[str, Any]:
    """The legal actions of ``position`` as the JSON object ``--json`` prints."""
    from pbem.notation.format import format_action
    from pbem.notation.write import action_text
    from pbem.rules.geometry import REALMS, realm_name, square_name
    from pbem.rules.realm import legal
    from pbem.rules.realm.position import Phase
    from pbem.rules.realm.turns import apply_move, begin_turn

    board = position.board
    playing = position.phase is not Phase.OVER
    listing: dict[str, Any] = {
        "phase": position.phase.value,
        "to_move": position.to_move.key if playing else None,
        "turn": position.turn_label() if playing else None,
        "result": position.result,
        "placements": [],
        "moves": {},
        "sacrifices": [],
        "rearrangements": {},
        "pass": False,
    }
    if position.phase is Phase.SETUP:
        listing["placements"] = [
            format_action(action_text(p, (), board)) for p in legal.legal_placements(position)
        ]
        return listing
    if not playing:
        return listing
    state = begin_turn(position)
    moves: dict[str, list[str]] = {}
    for move in legal.legal_moves(state):
        _, events = apply_move(state, move)
        text = format_action(action_text(move, events, board))
        moves.setdefault(square_name(move.frm), []).append(text)
    listing["moves"] = moves
    listing["sacrifices"] = [
        format_action(action_text(s, (), board)) for s in legal.legal_sacrifices(position)
    ]
    counts = {realm_name(r): n for r in REALMS if (n := legal.count_rearrangements(position, r))}
    listing["rearrangements"] = counts
    if every:
        listing["rearrangement_list"] = {
            realm_name(r): [
                format_action(action_text(a, (), board))
                for a in legal.rearrangements(position, r)
            ]
            for r in REALMS
            if realm_name(r) in counts
        }
    listing["pass"] = not (moves or listing["sacrifices"] or counts)
    return listing


def format_listing(listing: dict[str, Any]) -> str:
    """The listing in words, one group of actions per line."""
    if listing["phase"] == "over":
        return f"the game is over ({listing['result'] or 'no result'})\n"
    side = listing["to_move"].capitalize()
    lines = [f"{side} to move, turn {listing['turn']}"]
    if listing["phase"] == "setup":
        placements = listing["placements"]
        what = "a Base" if placements and placements[0].startswith("B") else "a Power"
        lines.append(f"set-up, {side} places {what}: {_group(placements)}")
        return "\n".join(lines) + "\n"
    if listing["pass"]:
        lines.append("pass (no legal turn)")
        return "\n".join(lines) + "\n"
    for square, texts in listing["moves"].items():
        kind = "Power" if texts[0].startswith("P") else "Enforcer"
        lines.append(f"{kind} on {square}: {_group(texts)}")
    if listing["sacrifices"]:
        lines.append(f"Power sacrifices: {_group(listing['sacrifices'])}")
    counts = listing["rearrangements"]
    if counts:
        total = sum(counts.values())
        per_realm = ", ".join(f"{realm} {n}" for realm, n in counts.items())
        lines.append(f"Rearrangements: {total} ({per_realm})")
        for realm, texts in listing.get("rearrangement_list", {}).items():
            lines.append(f"Rearrangements of the {realm} Realm: {_group(texts)}")
    return "\n".join(lines) + "\n"


def _group(texts: list[str]) -> str:
    return f"{' '.join(texts)} ({len(texts)})"
