"""What a player does (actions) and what the rules make happen (events).

Actions carry the player's choices: where a created Enforcer goes and which way
it points, and which enemy Enforcer is immobilised. The rules ask for a choice
only where there is one to make.
"""

from __future__ import annotations

from pbem.rules.geometry import Direction
from pbem.rules.pieces import Kind, Piece, Side
from pbem.rules.values import frozen, new_of


@frozen
class Placement:
    """Set-up: a Base on a Center, or a Power on a Border square."""

    kind: Kind
    square: int


@frozen
class Move:
    """A Power or Enforcer moves from ``frm`` to ``to`` in a straight line."""

    frm: int
    to: int
    #: a created Enforcer's square and facing, when the stop creates one
    create_at: int | None = None
    create_facing: Direction | None = None
    #: the enemy Enforcer to immobilise, when the stop immobilises one
    immobilise: int | None = None


@frozen
class Rearrangement:
    """All own Powers and Enforcers of a realm put back on new squares.

    Where the ruleset lets a player rearrange the opponent's pieces too, the
    opponent's Powers and Enforcers may follow the mover's own in ``placements``;
    then all of them are picked up and put back, like the mover's own. The mover's
    pieces come first, so the action says whose Rearrangement it is.
    """

    realm: int
    placements: tuple[tuple[int, Piece], ...]


@frozen
class Sacrifice:
    """Power sacrifice (a variation): before his turn a player removes the Power on
    ``power`` for good to remobilise his immobilised Enforcer on ``enforcer``, in the
    same Realm, pointing ``facing``; the turn goes on as a Dispersal from that Realm."""

    power: int
    enforcer: int
    facing: Direction


@frozen
class Pass:
    """Only when the side has no legal turn."""


Action = Placement | Move | Rearrangement | Pass | Sacrifice


# -- events (narrated in words by pbem.render.narrate) ----------------------------------
@frozen
class BaseCreated:
    side: Side
    square: int


@frozen
class EnforcerCreated:
    side: Side
    square: int
    facing: Direction


@frozen
class BaseCaptured:
    #: the capturing side
    side: Side
    square: int


@frozen
class EnforcerImmobilised:
    #: the side whose Enforcer was immobilised
    side: Side
    square: int
    #: True when the moving Enforcer immobilised itself
    own: bool


@frozen
class PowerSacrificed:
    side: Side
    square: int


@frozen
class EnforcerRemobilised:
    side: Side
    square: int
    facing: Direction


@frozen
class GameEnded:
    reason: str
    result: str


#: the actions and events made at every move, placement and special event, by their
#: ``__new__`` alone (``pbem.rules.values.new_of``): ``new_move(Move, frm, to, ...)``
new_placement = new_of(Placement)
new_move = new_of(Move)
new_base_created = new_of(BaseCreated)
new_enforcer_created = new_of(EnforcerCreated)

Event = (
    BaseCreated
    | EnforcerCreated
    | BaseCaptured
    | EnforcerImmobilised
    | PowerSacrificed
    | EnforcerRemobilised
    | GameEnded
)

_WORDS = {Direction.N: "North", Direction.E: "East", Direction.S: "South", Direction.W: "West"}


def direction_word(d: Direction) -> str:
    return _WORDS[d]


def piece_words(piece: Piece) -> str:
    """'Power', 'Enforcer', 'immobilised Enforcer', 'Base'."""
    if piece.kind is Kind.ENFORCER and piece.facing is None:
        return "immobilised Enforcer"
    return piece.kind.title
