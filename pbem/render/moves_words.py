"""The legal moves as a player thinks of them: per piece, where it can go (a run of squares
along a line as one range), what a move there creates or captures (told once, "any
facing" instead of every facing spelled out), and what may follow within the turn.

``pbem moves`` lists every action, which an archivist wants; the ``moves`` mail answers a
player, for whom 177 lines per Power (every facing of every created Enforcer) are a wall.
Everything comes from the game interface: ``legal_actions`` of the turn under way, and
``describe_action`` of one move per group, in the game's own words.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from pbem.rules.game import Game, GamePosition
from pbem.rules.geometry import SQUARE_NAMES, parse_square
from pbem.rules.registry import game_of
from pbem.rules.values import frozen
from pbem.rules.written import (
    ActionText,
    EventText,
    MoveText,
    PlacementText,
    RearrangementText,
    format_action,
)

#: at most this many kinds of event are told per destination; the rest are counted
KINDS = 4
_POINTING = re.compile(r" pointing (?:North|East|South|West)")
_NAMES = frozenset(SQUARE_NAMES)


@frozen
class _Group:
    """Moves of one piece to one destination with the same events up to facing."""

    action: ActionText
    facings: frozenset[str]


def _facing_free(action: MoveText) -> tuple[tuple[str, str, str], ...]:
    return tuple((e.prefix, e.piece, e.square.text) for e in action.events or ())


def _skeleton(key: tuple[tuple[str, str, str], ...]) -> tuple[tuple[str, str], ...]:
    """The kinds of events, squares left out: moves that differ only in where an event
    happens are told as one, with the other squares listed."""
    return tuple((prefix, piece) for prefix, piece, _ in key)


def _destination(action: MoveText) -> str:
    return "off" if action.off else action.squares[-1].text


def _ranges(start: str, squares: list[str]) -> list[str]:
    """``squares`` reached straight from ``start``, a run along one line as ``i9-i6``."""
    try:
        origin = parse_square(start)
    except KeyError:
        return squares
    lines: dict[tuple[int, int], list[tuple[int, str]]] = defaultdict(list)
    rest: list[str] = []
    for sq in squares:
        try:
            at = parse_square(sq)
        except KeyError:
            rest.append(sq)
            continue
        df, dr = at % 12 - origin % 12, at // 12 - origin // 12
        if (df == 0) == (dr == 0):
            rest.append(sq)
            continue
        step = ((df > 0) - (df < 0), (dr > 0) - (dr < 0))
        lines[step].append((abs(df) + abs(dr), sq))
    out: list[str] = []
    for step in sorted(lines):
        run = sorted(lines[step])
        first = prev = run[0]
        for item in run[1:]:
            if item[0] != prev[0] + 1:
                out.append(_span(first[1], prev[1]))
                first = item
            prev = item
        out.append(_span(first[1], prev[1]))
    return out + sorted(rest, key=lambda sq: parse_square(sq) if sq in _NAMES else 999)


def _span(a: str, b: str) -> str:
    return a if a == b else f"{a}-{b}"


def _facing_words(facings: frozenset[str]) -> str:
    if not facings or facings == frozenset({""}):
        return ""
    if facings >= {"N", "E", "S", "W"}:
        return ", any facing"
    return ", facing " + " or ".join(sorted(facings))


def describe_moves(position: GamePosition, after: Sequence[ActionText] = ()) -> str:
    """The legal moves of the side to move (after ``after``, the actions of the turn
    already written), in a player's words, one piece after another."""
    game = game_of(position)
    state = game.begin_turn(position, tuple(after))
    for action in after:
        state, _ = game.resolve_action(state, action)
    lines = _piece_lines(game, state, position)
    if after:
        if not game.can_continue(state):
            return "Nothing may follow: the turn is complete."
        head = "After " + ",".join(format_action(a) for a in after) + ", your turn may go on with:"
        tail = ([] if game.must_continue(state)
                else ["Or end the turn there: send it as it stands."])
        return "\n".join([head, *lines, *tail]) if lines else "Nothing may follow."
    return "\n".join(lines) if lines else "No legal move: you pass."


def _piece_lines(game: Game, state: Any, position: GamePosition) -> list[str]:
    actions = game.legal_actions(state)
    side = game.state_position(state).to_move
    moves: dict[str, dict[str, dict[Any, _Group]]] = defaultdict(lambda: defaultdict(dict))
    placements: list[str] = []
    realms: dict[str, int] = defaultdict(int)
    others: list[str] = []
    for action in actions:
        if isinstance(action, MoveText):
            start = action.squares[0].text
            key = _facing_free(action)
            facing = "".join(e.facing or "" for e in action.events or ())
            groups = moves[f"{action.piece}{start}"][_destination(action)]
            if key in groups:
                g = groups[key]
                groups[key] = replace(g, facings=g.facings | {facing})
            else:
                groups[key] = _Group(action, frozenset({facing}))
        elif isinstance(action, PlacementText):
            placements.append(format_action(action))
        elif isinstance(action, RearrangementText):
            realms[action.realm.text] += 1
        else:
            others.append(format_action(action))
    lines: list[str] = []
    board = game.state_position(state).board
    for piece, by_dest in moves.items():
        start = piece[1:]
        at = board[parse_square(start)]
        name = game.piece_name(at) if at is not None else "piece"
        plain = [d for d, groups in by_dest.items() if list(groups) == [()]]
        line = f"{name[:1].upper()}{name[1:]} on {start} ({piece}...)"
        parts = []
        if plain:
            parts.append("to " + ", ".join(_ranges(start, plain)))
        lines.append(line + (": " + "; ".join(parts) if parts else ":"))
        for dest, groups in by_dest.items():
            if list(groups) == [()]:
                continue
            kinds: dict[tuple[tuple[str, str], ...], list[tuple[Any, _Group]]] = {}
            for key, g in groups.items():
                kinds.setdefault(_skeleton(key), []).append((key, g))
            for alike in list(kinds.values())[:KINDS]:
                first_key, first = alike[0]
                line = f"  to {dest}: {_told(game, state, first, side)}"
                varying = [i for i in range(len(first_key))
                           if any(k[i][2] != first_key[i][2] for k, _ in alike)]
                if varying:
                    i = varying[0]
                    others = list(dict.fromkeys(k[i][2] for k, _ in alike[1:]))
                    line += (f"; or the same with the {game.pieces.style(first_key[i][1]).name} on "
                             f"{', '.join(others)} instead of {first_key[i][2]}")
                lines.append(line)
            if len(kinds) > KINDS:
                lines.append(f"  to {dest}: and {len(kinds) - KINDS} more kinds of events")
    if placements:
        lines.append("Placements: " + ", ".join(placements))
    for realm, count in realms.items():
        lines.append(f"Rearrangement of the {realm} Realm (R{realm}(...)): {count:,} ways")
    lines += others
    return lines


def _told(game: Game, state: Any, group: _Group, side: Any) -> str:
    """One move of the group in the game's words, written as the notation writes it."""
    action = group.action
    text = format_action(action)
    try:
        _, resolved = game.resolve_action(state, action)
        words = game.describe_action(resolved, side)
    except Exception:  # a listing never fails for want of words
        words = ""
    facing = _facing_words(group.facings)
    if facing and isinstance(action, MoveText) and action.events:
        plain = [
            EventText(e.prefix, e.piece, e.square) if e.facing else e for e in action.events
        ]
        text = format_action(replace(action, events=tuple(plain)))
    if facing == ", any facing":  # the words name the first facing: any will do
        words = _POINTING.sub("", words)
    return f"{text}{facing}" + (f": {words}" if words else "")
