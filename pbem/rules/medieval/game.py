"""Medieval Realm behind the one game interface: Classic Realm's adapter, Medieval's
Variant, pieces and words."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from pbem.rules.classic.game import ClassicGame
from pbem.rules.classic.position import Position
from pbem.rules.classic.ruleset import OPTION_HELP, Ruleset
from pbem.rules.game import PieceStyle, PieceTable
from pbem.rules.medieval.variant import MEDIEVAL_RULES
from pbem.rules.pieces import Side


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
    rules: ClassVar[Ruleset] = MEDIEVAL_RULES

    def option_range(self, option: str) -> str:
        return "standard, placement, or a map from square to piece"

    def score(self, position: Position) -> str:
        w, b = position.off
        return f"pieces moved off: White {w}, Black {b}"

    def json_extras(self, pos: Position) -> dict[str, Any]:
        return {"off": {s.key: pos.off[s] for s in Side}}
