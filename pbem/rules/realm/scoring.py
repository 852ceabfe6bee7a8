"""Scoring: Realms controlled, then the Enforcer tie-break, then a draw."""

from __future__ import annotations

from pbem.rules.game import counted
from pbem.rules.geometry import CENTER
from pbem.rules.pieces import BASE, BLACK, ENFORCER, WHITE
from pbem.rules.realm.position import Position
from pbem.rules.values import frozen


@frozen
class Score:
    realms: tuple[int, int]
    #: mobile Enforcers on the board plus Enforcers in supply (plus Bases captured,
    #: where the ruleset counts them in the tie-break)
    enforcers: tuple[int, int]
    captures_count: bool = False

    @property
    def result(self) -> str:
        w, b = self.realms
        if w == b:
            w, b = self.enforcers
        if w > b:
            return "1-0"
        if b > w:
            return "0-1"
        return "1/2-1/2"

    def describe(self) -> str:
        w, b = self.realms
        text = f"White {counted(w, 'Realm', 'Realms')}, Black {b}"
        if w == b:
            ew, eb = self.enforcers
            what = "mobile + in supply + Bases captured" if self.captures_count else (
                "mobile + in supply"
            )
            text += f"; Enforcers ({what}) White {ew}, Black {eb}"
        return text


def score(position: Position) -> Score:
    board = position.board
    realms = [0, 0]  # Realms controlled: a Base on the Center
    for c in CENTER:
        p = board[c]
        if p is not None and p.kind is BASE:
            realms[p.side] += 1
    mobile = [0, 0]
    for p in filter(None, board):  # the pieces on the board (an empty square is None)
        if p.kind is ENFORCER and p.facing is not None:
            mobile[p.side] += 1
    captures = position.ruleset.tiebreak_captures
    white, black = (
        mobile[s] + position.enforcers_in_supply(s) + (position.captured[s] if captures else 0)
        for s in _SIDES
    )
    return Score((realms[0], realms[1]), (white, black), captures)


_SIDES = (WHITE, BLACK)


def result_words(result: str | None) -> str:
    return {
        "1-0": "White wins",
        "0-1": "Black wins",
        "1/2-1/2": "a draw",
        None: "unfinished",
        "*": "unfinished",
    }.get(result, result or "unfinished")
