"""A game as a list of frames, one per action: what the archive's viewer steps through.

A frame holds the board as 144 characters (a1 first), so a whole game stays a
few kilobytes in its page: one character per piece, the game's own
(``Game.frame_char``: in the Featured Game ``B`` Base, ``P`` Power, ``N E S W``
an Enforcer pointing that way, ``U`` an immobilised Enforcer; White upper case,
Black lower case), ``.`` an empty square. The page carries the game's legend of
those characters (``Game.frame_legend``) beside the frames, so the viewer knows
no game.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from pbem.notation.format import format_action
from pbem.records.replay import PlayedTurn, Replay
from pbem.render.narrate import (
    describe_action,
    describe_end,
    describe_next,
    describe_recorded_end,
)
from pbem.rules.game import AnyGame, GamePosition, Phase
from pbem.rules.geometry import REALMS
from pbem.rules.pieces import Side
from pbem.rules.registry import game_of
from pbem.rules.values import frozen


def piece_char(piece: Any, game: AnyGame) -> str:
    return "." if piece is None else game.frame_char(piece)


def board_string(board: tuple[Any, ...], game: AnyGame) -> str:
    """The board as 144 characters of ``game``'s own (``Game.frame_char``)."""
    return "".join("." if p is None else game.frame_char(p) for p in board)


def realm_string(board: tuple[Any, ...], game: AnyGame) -> str:
    """Who each Realm belongs to, for its tint: ``w``, ``b`` or ``.``, the a1 Realm first."""
    out = []
    for r in REALMS:
        side = game.realm_owner(board, r)
        out.append("." if side is None else side.letter)
    return "".join(out)


@frozen
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
    #: each Realm's owner (see ``realm_string``)
    realms: str = ""
    #: every square of a move's path, where it has more than two
    path: tuple[int, ...] = ()
    #: White's and Black's pieces beside the board (Medieval's pieces moved off), in a
    #: game that keeps any (``Game.off_board``)
    off: tuple[int, int] | None = None
    #: an editor's mark on this action (``!``, ``?!``, ...), and on a turn's last action its
    #: comments and the side lines that branch there (``annotations.SideLine`` indices)
    mark: str = ""
    comments: tuple[str, ...] = ()
    variations: tuple[int, ...] = ()

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
        if self.realms.strip("."):
            data["r"] = self.realms
        if self.path:
            data["p"] = list(self.path)
        if self.off is not None:
            data["o"] = list(self.off)
        if self.mark:
            data["mk"] = self.mark
        if self.comments:
            data["cm"] = list(self.comments)
        if self.variations:
            data["v"] = list(self.variations)
        return data


def _off_pair(counts: dict[Side, int]) -> tuple[int, int] | None:
    return (counts.get(Side.WHITE, 0), counts.get(Side.BLACK, 0)) if counts else None


def _event_squares(game: AnyGame, resolved: Any) -> tuple[int, ...]:
    """Squares where a special event happened, for the viewer's rings: the squares the
    game's own marks put events on (``Game.turn_marks``: badges, crosses, outlines but
    a placement's), and any event's own ``square``."""
    squares = {e.square for e in resolved.events if hasattr(e, "square")}
    for mark in game.turn_marks(resolved):
        if mark.kind in ("badge", "cross") or (mark.kind == "outline" and mark.cls != "placed"):
            squares.update(mark.squares)
    return tuple(sorted(squares))


def _status(position: GamePosition, last_side: Side | None) -> str:
    short = game_of(position).short_score(position)
    if position.phase is Phase.OVER:
        words = describe_end(position, last_side)
    else:
        words = describe_next(position) + "."
    return f"{short} {words}" if short else words


def _caption(turn: PlayedTurn, index: int) -> str:
    """The turn, the action in notation, and the sentence the turn reports use."""
    r = turn.resolved[index]
    return f"{turn.label}: {format_action(r.canonical())} - {describe_action(turn, index)}"


def frames_of(replay: Replay) -> list[Frame]:
    """Every frame of the legal part of the game, the start first."""
    if replay.final is None:
        return []
    game = replay.game
    start = replay.turns[0].before if replay.turns else replay.final
    frames = [
        Frame(
            "start", 0, "", "Start", board_string(start.board, game),
            status=_status(start, None), realms=realm_string(start.board, game),
            off=_off_pair(game.off_board(start)),
        )
    ]
    for turn in replay.turns:
        for i, r in enumerate(turn.resolved):
            last = i + 1 == len(turn.resolved)
            # pieces leave the board only by the one move of a Medieval turn: the
            # counts before the turn hold until its last action
            off = game.off_board(turn.after if last else turn.before)
            board = turn.after.board if last else turn.resolved[i + 1].board
            frm = to = None
            path: tuple[int, ...] = ()
            for mark in game.turn_marks(r):
                if mark.kind == "path":
                    frm, to = mark.squares[0], mark.squares[-1]
                    path = mark.squares if len(mark.squares) > 2 else ()
            marks = _event_squares(game, r)
            frames.append(
                Frame(
                    turn.label,
                    i,
                    format_action(r.canonical()),
                    _caption(turn, i),
                    board_string(board, game),
                    frm,
                    to,
                    marks,
                    _status(turn.after, turn.side) if last else "",
                    realm_string(board, game),
                    path,
                    _off_pair(off),
                )
            )
    final = replay.final
    if replay.valid and replay.result is not None and final.phase is not Phase.OVER:
        # ended off the board (resigned, agreed, on time): the last frame says so
        short = game.short_score(final)
        ending = describe_recorded_end(replay.result, replay.claimed_notes)
        frames[-1] = replace(frames[-1], status=f"{short} {ending}" if short else ending)
    return frames
