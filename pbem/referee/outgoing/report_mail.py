"""A turn report as mail: the text part, and HTML showing the board as a PNG by ``cid:``.

Gmail and Outlook show no SVG, so the HTML part carries the board as a PNG image
attached to the mail (drawn from the SVG board by resvg). The same picture
serves every recipient with the same view (a player and the observers), so it
is drawn once per view and turn.
"""

from __future__ import annotations

import functools
import sys
from dataclasses import replace

from pbem.records.replay import PlayedTurn, Replay
from pbem.referee.outgoing.compose import Picture
from pbem.render.board_png import svg_to_png
from pbem.render.board_svg import render_svg
from pbem.render.board_words import board_alt, board_words
from pbem.render.frames import board_string
from pbem.render.reports import render_report_html, render_report_text
from pbem.rules.game import GamePosition
from pbem.rules.registry import game_of
from pbem.rules.values import frozen

#: the PNG board's width and height in pixels (the HTML shows it at most this wide)
BOARD_PX = 480

_drawn: dict[tuple[str, str, bool], bytes] = {}


def board_picture(replay: Replay, *, flip: bool) -> Picture:
    """The board after the last turn, marked, as a PNG (from Black's side when ``flip``)."""
    last = replay.turns[-1] if replay.turns else None
    position = last.after if last is not None else replay.final
    assert position is not None
    return position_picture(position, last, flip=flip)


def position_picture(position: GamePosition, last: PlayedTurn | None, *, flip: bool,
                     tag: str = "") -> Picture:
    """``position`` as a PNG, ``last`` (the turn that led to it, or None) marked on it;
    ``tag`` goes into its Content-ID (two games' boards in one mail)."""
    label = last.label if last is not None else "start"
    game = game_of(position)
    key = (game.name + board_string(position.board, game), label, flip)
    png = _drawn.get(key)
    if png is None:
        svg = render_svg(position, last=last, flip=flip, size=BOARD_PX)
        png = _drawn[key] = svg_to_png(svg)
        if len(_drawn) > 8:  # a process handles a few games at a time: keep it small
            _drawn.pop(next(iter(_drawn)))
    view = "-black" if flip else ""
    return Picture(f"board-{tag}{label}{view}@pbem", png, f"board-{tag}{label}{view}.png",
                   board_alt(position, last, flip=flip))


@frozen
class MailBoard:
    """A board for a mail's HTML: the PNG shown by ``cid:`` (None: no PNG renderer, the
    text board stands instead), its alt text, and the board in words to list beside it."""

    picture: Picture | None
    alt: str
    words: tuple[str, ...]

    def context(self) -> dict[str, object]:
        """What the HTML templates take: ``board_image``, ``board_alt``, ``board_words``."""
        image = f"cid:{self.picture.cid}" if self.picture is not None else None
        return {"board_image": image, "board_alt": self.alt, "board_words": list(self.words)}

    @property
    def pictures(self) -> tuple[Picture, ...]:
        return (self.picture,) if self.picture is not None else ()


def mail_board(position: GamePosition, last: PlayedTurn | None = None, *, flip: bool,
               result: str | None = None, tag: str = "") -> MailBoard:
    """The board of a refusal, a result, an invitation or a notice: drawn from the reader's
    side (``flip`` for Black), as a PNG where it can be drawn; ``result``: how a game that
    ended off the board ended, for the alt text."""
    alt = board_alt(position, last, flip=flip, result=result)
    words = tuple(board_words(position).lines())
    try:
        picture = position_picture(position, last, flip=flip, tag=tag)
    except (ImportError, OSError) as exc:  # no PNG renderer: the text board
        warn_once(f"pbem: the board is mailed as text, not as a picture: {exc}")
        return MailBoard(None, alt, words)
    return MailBoard(replace(picture, description=alt), alt, words)


def report_parts(
    replay: Replay, *, flip: bool, top: list[str], links: list[tuple[str, str]],
    after: list[str] | None = None,
) -> tuple[str, str, tuple[Picture, ...]]:
    """(text, HTML, pictures) of the report after the last turn of ``replay``; ``after``
    (the clock's lines) follow the board, in the text as in the HTML."""
    lines = [*top, *(f"{label}: {url}" for label, url in links)]
    text = render_report_text(replay, flip=flip)
    if lines:
        text = "\n".join(lines) + "\n\n" + text
    if after:
        text = text.rstrip("\n") + "\n\n" + "\n".join(after) + "\n"
    try:
        picture = board_picture(replay, flip=flip)
    except (ImportError, OSError) as exc:  # no PNG renderer: the text board
        warn_once(f"pbem: the board is mailed as text, not as a picture: {exc}")
        html = render_report_html(replay, flip=flip, notices=top, links=links, board_svg="",
                                  after=after or ())
        return text, html, ()
    html = render_report_html(replay, flip=flip, notices=top, links=links,
                              board_image=f"cid:{picture.cid}", after=after or ())
    return text, html, (picture,)


@functools.cache
def warn_once(message: str) -> None:
    sys.stderr.write(message + "\n")
