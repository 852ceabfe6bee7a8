"""The board in words: an alt text for every board picture, and a description to walk.

A reader who cannot see the board (a screen reader, a mail client that shows no
pictures) gets two things. The *alt text* says in a sentence or two what matters now:
which turn the picture shows, what that turn did, whose turn it is, the score. The
*description* lists every piece Realm by Realm, each in the words the turn reports use
("an Enforcer on g6 pointing North", ``Game.piece_words``), so that a reader can walk
the board one Realm at a time, as a sighted player scans it. Every game speaks its own
words: the pieces' names, the score and whose turn it is all come from the game.

The archive's viewer builds the same description in the browser for each step of a
game (``viewer_words`` gives it the game's phrases); a browser test holds the two to
the same text.
"""

from __future__ import annotations

from typing import Any

from pbem.records.replay import PlayedTurn
from pbem.render.narrate import describe_end, describe_next, describe_turn
from pbem.rules.game import GamePosition, Phase, join_words, turn_name
from pbem.rules.geometry import REALM_OF, REALMS, SQUARE_NAMES, SQUARES, realm_name
from pbem.rules.pieces import Side
from pbem.rules.registry import game_of
from pbem.rules.values import frozen

#: how the viewer's frames name the squares: ``{sq}`` stands for the square in a phrase
SQUARE_SLOT = "{sq}"


@frozen
class RealmWords:
    """One Realm of the description: its name, who holds it, each side's pieces in it."""

    #: "the h11 Realm"
    name: str
    #: "White" or "Black" when a side holds the Realm, "" when none does
    holder: str
    #: (side's title, phrases of its pieces in the Realm), White first, sides with none left out
    sides: tuple[tuple[str, tuple[str, ...]], ...]

    def sentence(self) -> str:
        """'The h11 Realm, held by White: White has a Base on h11 and a Power on g12;
        Black has an Enforcer on i10 pointing West.'"""
        held = f", held by {self.holder}" if self.holder else ""
        has = "; ".join(f"{side} has {join_words(list(words))}" for side, words in self.sides)
        return f"{self.name[0].upper()}{self.name[1:]}{held}: {has}."


@frozen
class BoardWords:
    """The whole description: the Realms with pieces, the empty ones, pieces beside it."""

    realms: tuple[RealmWords, ...]
    #: the empty Realms' names ("b2"), in board order
    empty: tuple[str, ...]
    #: "Off the board: White 2, Black 1." or ""
    off: str

    def lines(self) -> list[str]:
        out = [r.sentence() for r in self.realms]
        if self.empty and self.realms:
            out.append(f"No pieces in the {join_words(list(self.empty))} "
                       f"Realm{'s' if len(self.empty) > 1 else ''}.")
        if not self.realms:
            out.insert(0, "The board is empty.")
        if self.off:
            out.append(self.off)
        return out

    def text(self) -> str:
        return " ".join(self.lines())


def _realm_title(realm: int) -> str:
    return f"the {realm_name(realm)} Realm"


def board_words(position: GamePosition) -> BoardWords:
    """Every piece of ``position``, Realm by Realm, in its game's own words."""
    game = game_of(position)
    board = position.board
    per: dict[int, dict[Side, list[str]]] = {r: {Side.WHITE: [], Side.BLACK: []} for r in REALMS}
    for sq in SQUARES:
        piece = board[sq]
        if piece is not None:
            per[REALM_OF[sq]][piece.side].append(game.piece_words(piece, sq))
    realms, empty = [], []
    for r in REALMS:
        sides = tuple((side.title, tuple(per[r][side])) for side in Side if per[r][side])
        if not sides:
            empty.append(realm_name(r))
            continue
        owner = game.realm_owner(board, r)
        realms.append(RealmWords(_realm_title(r), owner.title if owner is not None else "", sides))
    beside = game.off_board(position)
    off = ""
    if beside and any(beside.values()):
        counts = ", ".join(f"{side.title} {n}" for side, n in sorted(beside.items()))
        off = f"Off the board: {counts}."
    return BoardWords(tuple(realms), tuple(empty), off)


def _state(position: GamePosition, last: PlayedTurn | None) -> str:
    """Whose turn it is, or how the game ended (with its score), as a sentence."""
    if position.phase is Phase.OVER:
        return describe_end(position, last.side if last is not None else None)
    state = describe_next(position) + "."
    score = game_of(position).short_score(position)
    return f"{state} {score}" if score else state


def board_alt(position: GamePosition, last: PlayedTurn | None = None, *,
              flip: bool = False, result: str | None = None) -> str:
    """The alt text of a board picture: which turn it shows and what that turn did,
    then whose turn it is and the score (or how the game ended). ``result``: a game that
    ended off the board (resigned, agreed), as the record says it did."""
    seen = f"after {turn_name(last.label)}" if last is not None else "at the start"
    side = ", seen from Black's side" if flip else ""
    words = [f"The board {seen}{side}."]
    if last is not None:
        words.append(f"Turn {turn_name(last.label)}: {'; '.join(describe_turn(last))}.")
    if result is not None and position.phase is not Phase.OVER:
        words.append(f"The game is over: {result}.")
    else:
        words.append(_state(position, last))
    return " ".join(words)


def viewer_words(replay: Any) -> dict[str, object]:
    """What the archive's viewer needs to describe any of its frames as ``board_words``
    does: each frame character's phrase (with ``{sq}`` for its square), found by asking the
    game about a piece of that character on the board in the game itself; the words
    around them."""
    from pbem.render.frames import piece_char  # frames imports narrate, as we do

    game = replay.game
    phrases: dict[str, str] = {}
    positions = [t.before for t in replay.turns[:1]] + [t.after for t in replay.turns]
    if not positions and replay.final is not None:
        positions = [replay.final]
    for position in positions:
        for sq in SQUARES:
            piece = position.board[sq]
            if piece is None:
                continue
            ch = piece_char(piece, game)
            if ch not in phrases:
                phrases[ch] = game.piece_words(piece, sq).replace(SQUARE_NAMES[sq], SQUARE_SLOT)
    return {
        "pieces": phrases,
        "realms": [realm_name(r) for r in REALMS],
        "sides": {side.letter: side.title for side in Side},
    }


__all__ = ["SQUARE_SLOT", "BoardWords", "RealmWords", "board_alt", "board_words",
           "viewer_words"]
