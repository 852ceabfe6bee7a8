"""The Featured Game's legal actions as data and as text: for ``pbem moves`` and the
referee's ``moves`` mail command (through ``FeaturedGame.legal_listing``), so both
say the same thing."""

from __future__ import annotations

from pbem.rules.game import JSONObject, Phase, listing_head
from pbem.rules.geometry import REALMS, realm_name, square_name
from pbem.rules.realm import legal
from pbem.rules.realm.canonical import action_text
from pbem.rules.realm.position import Position
from pbem.rules.realm.turns import apply_move, begin_turn
from pbem.rules.written import format_action


def legal_listing(position: Position, *, every: bool = False) -> JSONObject:
    """The legal actions of ``position`` as the JSON object ``--json`` prints."""
    board = position.board
    listing = listing_head(position, sacrifices=[], rearrangements={})
    if position.phase is Phase.SETUP:
        listing["placements"] = [
            format_action(action_text(p, (), board)) for p in legal.legal_placements(position)
        ]
        return listing
    if position.phase is not Phase.PLAY:
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


def format_listing(listing: JSONObject) -> str:
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
