"""A game as a list of frames, one per action: what the archive's viewer steps through.

A frame holds the board as 144 characters (a1 first), so a whole game stays a
few kilobytes in its page. White's pieces are upper case, Black's lower case:
``B`` Base, ``P`` Power, ``N E S W`` an Enforcer pointing that way, ``U`` an
immobilised Enforcer, ``.`` an empty square.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from pbem.notation.format import format_action
from pbem.records.replay import PlayedTurn, Replay
from pbem.render.narrate import (
    describe_action,
    describe_end,
    describe_next,
    describe_recorded_end,
)
from pbem.rules.pieces import Kind, Piece, Side
from pbem.rules.realm.actions import Move
from pbem.rules.realm.position import Board, Phase, Position
from pbem.rules.realm.scoring import score

_ENFORCER = "NESW"


def piece_char(piece: Piece | None) -> str:
    if piece is None:
        return "."
    if piece.kind is Kind.BASE:
        c = "B"
    elif piece.kind is Kind.POWER:
        c = "P"
    else:
        c = "U" if piece.facing is None else _ENFORCER[piece.facing]
    return c if piece.side is Side.WHITE else c.lower()


def board_string(board: Board) -> str:
    return "".join(piece_char(p) for p in board)


@dataclass(frozen=True, slots=True)
class Frame:
    """The position after one action (or the start)."""

    #: the turn label ("11w"), or "start"
    turn: str
    #: 0-based index of the action within its turn
    step: int
    #: the action in canonical notation, "" for the start
    notation: str
    caption: str
    board: str
    #: squares to draw an arrow between, for a move
    frm: int | None = None
    to: int | None = None
    #: squares where a special event happened
    marks: tuple[int, ...] = ()
    status: str = ""

    def as_json(self) -> dict[str, object]:
        data: dict[str, object] = {
            "t": self.turn,
            "s": self.step,
            "n": self.notation,
            "c": self.caption,
            "b": self.board,
            "st": self.status,
        }
        if self.frm is not None:
            data["f"], data["to"] = self.frm, self.to
        if self.marks:
            data["m"] = list(self.marks)
        return data


def _status(position: Position, last_side: Side | None) -> str:
    w, b = score(position).realms
    if position.phase is Phase.OVER:
        return f"Realms: White {w}, Black {b}. {describe_end(position, last_side)}"
    return f"Realms: White {w}, Black {b}. {describe_next(position)}."


def _caption(turn: PlayedTurn, index: int) -> str:
    """The turn, the action in notation, and the sentence the turn reports use."""
    r = turn.resolved[index]
    return f"{turn.label}: {format_action(r.canonical())} - {describe_action(r, turn.side)}"


def frames_of(replay: Replay) -> list[Frame]:
    """Every frame of the legal part of the game, the start first."""
    if replay.final is None:
        return []
    start = replay.turns[0].before if replay.turns else replay.final
    frames = [
        Frame("start", 0, "", "Start", board_string(start.board), status=_status(start, None))
    ]
    for turn in replay.turns:
        for i, r in enumerate(turn.resolved):
            last = i + 1 == len(turn.resolved)
            board = turn.after.board if last else turn.resolved[i + 1].board
            action = r.action
            frm = to = None
            if isinstance(action, Move):
                frm, to = action.frm, action.to
            marks = tuple(sorted({e.square for e in r.events if hasattr(e, "square")}))
            frames.append(
                Frame(
                    turn.label,
                    i,
                    format_action(r.canonical()),
                    _caption(turn, i),
                    board_string(board),
                    frm,
                    to,
                    marks,
                    _status(turn.after, turn.side) if last else "",
                )
            )
    final = replay.final
    if replay.valid and replay.result is not None and final.phase is not Phase.OVER:
        # ended off the board (resigned, agreed, on time): the last frame says so
        w, b = score(final).realms
        ending = describe_recorded_end(replay.result, replay.claimed_notes)
        frames[-1] = replace(frames[-1], status=f"Realms: White {w}, Black {b}. {ending}")
    return frames
