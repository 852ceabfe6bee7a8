"""Medieval Realm behind the one game interface: Classic Realm's adapter, Medieval's
Variant, pieces and words."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from pbem.rules.classic.game import ClassicGame
from pbem.rules.classic.position import Position
from pbem.rules.classic.ruleset import OPTION_HELP
from pbem.rules.game import NotationWords, PieceStyle, PieceTable, SideTable
from pbem.rules.medieval.variant import MEDIEVAL_RULES
from pbem.rules.pieces import Kind, Side


class MedievalGame(ClassicGame):
    name: ClassVar[str] = "medieval"
    title: ClassVar[str] = "Medieval Realm"
    json_name: ClassVar[str] = "medieval"
    option_help: ClassVar[Mapping[str, str]] = {
        k: v for k, v in OPTION_HELP.items() if k in MEDIEVAL_RULES.variant.options
    }
    pieces: ClassVar[PieceTable] = PieceTable(
        (
            PieceStyle("P", "Duke", "Dukes", "crown", "D"),
            PieceStyle("E", "Man", "Men", "disc", "M"),
        )
    )
    rules = MEDIEVAL_RULES
    mail_examples: ClassVar[tuple[tuple[str, str], ...]] = (
        ("Eb5b8", "your move: a Man forward or sideways, each"),
        ("", "Center it lands on, then its events"),
        ("Pe8e11(+Ed7)", "a Duke's move, and the enemy piece that"),
        ("", "replaces it on e8"),
        ("Eh8h11off", "lands on a friend on h11, goes on off the board"),
        ("12.Eb5b8", "a number in front is checked (12. White, 12... Black)"),
        ("Pe2", "a placement (option setup: placement)"),
    )
    notation_words: ClassVar[NotationWords] = NotationWords(
        move="Eb5b8", placement="Pe2", taken="xEd4", brought="+Ed7", facing="",
        rearrangement="", fixed="",
    )
    notation_key_lines: ClassVar[tuple[tuple[str, str, str], ...]] = (
        ("Eb5b8", "a Man moves from b5 to b8: the letter, then every Center it lands on", ""),
        ("Pe8e11(+Ed7)", "a Duke leaves e8, and the enemy Man on d7 takes that Center "
                         "(replacement)", ""),
        ("…(xEd4)", "the enemy piece on the Center it lands on dislodged onto d4", ""),
        ("Eh8h11off", "lands on a friend on h11 and goes on, off the board", ""),
        ("Pe2", "a Duke placed on e2", "placement"),
    )
    rules_page: ClassVar[str] = "games/medieval.md"
    about: ClassVar[tuple[str, str]] = (
        "Medieval Realm: a race; two Dukes and six Men a side move from Center to adjacent "
        "Center, and the first side to move all eight of its pieces off the far side wins.",
        "A turn is the piece letter and every Center it lands on, events in brackets, "
        "'off' when it leaves the board: Eb5b8, Eh8h11off.",
    )

    def score(self, position: Position) -> str:
        w, b = position.off
        return f"pieces moved off: White {w}, Black {b}"

    def json_extras(self, pos: Position) -> dict[str, Any]:
        return {"off": {s.key: pos.off[s] for s in Side}}

    def side_table(self, position: Position) -> SideTable:
        rows = tuple(
            (side, (
                sum(1 for p in position.board if p is not None and p.side is side
                    and p.kind is Kind.POWER),
                sum(1 for p in position.board if p is not None and p.side is side
                    and p.kind is Kind.ENFORCER),
                position.off[side],
            ))
            for side in Side
        )
        return SideTable(
            ("Dukes on the board", "Men on the board", "Moved off"),
            rows,
            ("", "          Dukes   Men  Moved off"),
            "%-6s    %5d %5d %10d",
        )

    def off_board(self, position: Position) -> dict[Side, int]:
        return {s: position.off[s] for s in Side}
