"""A game's annotations for the viewers: marks, comments and side lines to step into.

An archivist's or an editor's notes are written in the record (``grammar/notation.md``):
a mark right after an action (``!``, ``?``, ``!!``, ``??``, ``!?``, ``?!``), a comment
``{...}`` after a turn, and variations in square brackets, each a line that could have
been played instead of the turn it follows. This module puts them on the viewer's
frames: each frame carries its action's mark, a turn's last frame its comments and the
side lines that branch there; each side line has frames of its own, from the position
before the turn it replaces (played as ``pbem validate`` plays it:
``replay_variation``), which the reader steps into and back out of. A side line
that breaks is shown as far as it is legal, with the reason.

A player's message (``say`` by mail) is never one of these: the referee keeps messages
apart from the record, and a record that still holds one in the form the referee once
wrote them (``{White: Good luck!}``) does not show it as a comment.
"""

from __future__ import annotations

import re
from dataclasses import replace

from pbem.records.replay import Replay, replay_variation
from pbem.render.frames import Frame, frames_of
from pbem.rules.values import frozen

#: each mark in words, for the caption and a screen reader
MARK_WORDS = {
    "!": "a good move",
    "?": "a mistake",
    "!!": "a brilliant move",
    "??": "a blunder",
    "!?": "an interesting move",
    "?!": "a dubious move",
}
#: side lines inside side lines, at most this deep: the next one is named with the
#: reason, not played, and what it holds is not opened
MAX_DEPTH = 8


@frozen
class SideLine:
    """A variation: where it branches and the frames to step through."""

    #: its number on the page (the viewer's "v" indices)
    index: int
    #: the line it branches from: None for the game itself, else a SideLine's index
    parent: int | None
    #: the frame of the parent line it starts from (the position before the turn replaced)
    start: int
    #: the turn it replaces ("9b") and the line as written, brackets included
    turn: str
    text: str
    #: its frames, the position it starts from first
    frames: tuple[Frame, ...]
    #: why it stops short, when it does ("" when every turn of it is legal)
    error: str = ""
    #: how its look-alike letters were read, as for a record ("read 'Ec12i12' as ...")
    repairs: tuple[str, ...] = ()

    def as_json(self) -> dict[str, object]:
        data: dict[str, object] = {
            "i": self.index, "s": self.start, "t": self.turn, "x": self.text,
            "f": [f.as_json() for f in self.frames],
        }
        if self.parent is not None:
            data["p"] = self.parent
        if self.error:
            data["e"] = self.error
        if self.repairs:
            data["w"] = list(self.repairs)
        return data


@frozen
class Annotated:
    frames: list[Frame]
    lines: list[SideLine]


#: how the referee has written a player's message into a record: ``{White: Good luck!}``
#: (README, "Messages between players"); such a comment is a message, never an annotation
_MESSAGE = re.compile(r"^\{\s*(White|Black)\s*:")


def _comment(note: str) -> str:
    """A comment without its braces (``{Strong.}`` -> ``Strong.``); "" for a player's
    message, which the viewer never shows as an editor's comment."""
    note = note.strip()
    if _MESSAGE.match(note):
        return ""
    if note.startswith("{") and note.endswith("}"):
        return note[1:-1].strip()
    return note


def annotate(replay: Replay) -> Annotated:
    """The game's frames with their marks, comments and side lines."""
    lines: list[SideLine] = []
    frames = _decorate(replay, frames_of(replay), None, lines, 0)
    return Annotated(frames, lines)


def _decorate(replay: Replay, frames: list[Frame], parent: int | None,
              lines: list[SideLine], depth: int) -> list[Frame]:
    """Put each played turn's annotations on its frames (frames_of's order: the start, then
    every action of every turn); collect the side lines into ``lines``."""
    out = list(frames)
    at = 1
    for turn in replay.turns:
        n = len(turn.resolved)
        if at + n > len(out):
            break
        marks: dict[int, str] = {m.action: m.mark for m in turn.text.marks}
        for i in range(n):
            mark = marks.get(i, "")
            if mark:
                out[at + i] = replace(out[at + i], mark=mark)
        last = at + n - 1
        comments = tuple(c for c in (_comment(note) for note in turn.text.notes) if c)
        branches: list[int] = []
        for variation in turn.text.variations:
            index = len(lines)
            branches.append(index)
            lines.append(SideLine(index, parent, at - 1, turn.label, variation.text, ()))
            if depth >= MAX_DEPTH:
                lines[index] = replace(lines[index], error="nested too deep to be shown")
                continue
            played = replay_variation(variation.game, replay.ruleset, turn.before)
            side_frames = frames_of(played) if played.turns else []
            if not side_frames:  # not even its first turn: the position it starts from
                side_frames = [replace(out[at - 1], mark="", comments=(), variations=())]
            side_frames = _decorate(played, side_frames, index, lines, depth + 1)
            error = ""
            if played.error is not None:
                where = f" at {played.error.turn}" if played.error.turn else ""
                error = f"the line stops{where}: {played.error.message}"
            repairs = tuple(f"{w.turn}: {w.message}" if w.turn else w.message
                            for w in played.warnings)
            lines[index] = replace(lines[index], frames=tuple(side_frames), error=error,
                                   repairs=repairs)
        if comments or branches:
            out[last] = replace(out[last], comments=comments, variations=tuple(branches))
        at += n
    return out


def mark_words(mark: str) -> str:
    return MARK_WORDS.get(mark, "")


__all__ = ["MARK_WORDS", "Annotated", "SideLine", "annotate", "mark_words"]
