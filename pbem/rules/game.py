"""The one interface every game on the Realm board implements (python-chess's variant.py
is the model: the layers above never ask which game they hold).

A game is a subclass of ``Game`` in its own package ``pbem/rules/<game>/``, registered
by one line in ``pbem/rules/registry.py``. ``Game`` is generic over the game's own
ruleset, position and turn state (as python-chess's ``BoardT``): a game's subclass
binds them (``class FeaturedGame(Game[Ruleset, Position, TurnState])``), so mypy checks
that its hooks agree with the interface, while the layers above, which hold any game
(``AnyGame``, every parameter left open, from the registry), read a position only through
``GamePosition`` and a ruleset only through ``GameRuleset``.

Each hook's docstring is its contract. Across all of them: a hook raises
``RuleError(rule_id, plain words)`` for what the rules forbid (``rule_id`` stable,
dotted: ``"move.forward"``) and ``NotationError`` for a written square that is no
square; nothing returns None for failure; everything shown is in the players' words,
with the game's own names for its pieces (``PieceTable``).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import Field, field, fields, replace
from enum import Enum
from typing import Any, ClassVar, Generic, Protocol, TypeVar

from pbem.errors import Diagnostic, RuleError
from pbem.rules.geometry import SQUARE_NAMES, parse_square
from pbem.rules.pieces import BoardPiece, Side
from pbem.rules.values import frozen, new_of
from pbem.rules.written import ActionText, MoveText, PassText, PlacementText, format_action

#: a refusal names the refused piece's legal moves (``Game.explain_refusal``) when there
#: are at most this many, in every game
ALTERNATIVES = 12


class Phase(Enum):
    SETUP = "setup"
    PLAY = "play"
    OVER = "over"


# the members as module names, as pbem.rules.pieces has Kind's and Side's
SETUP, PLAY, OVER = Phase.SETUP, Phase.PLAY, Phase.OVER

#: a JSON object as ``json.loads`` gives it and ``json.dumps`` takes it (listings,
#: interchange, snapshots): its values are whatever JSON holds, checked where read
JSONObject = dict[str, Any]


class GameRuleset(Protocol):
    """What the layers above read from any game's ruleset (an immutable value)."""

    @property
    def game(self) -> str:
        """The game's ``name`` (``"classic"``)."""
        ...

    @property
    def name(self) -> str: ...

    def options(self) -> dict[str, object]:
        """Every option by name, ``name`` included."""
        ...

    def differences(self) -> dict[str, object]:
        """The options that differ from the game's default ruleset."""
        ...


class GamePosition(Protocol):
    """What the layers above read from any game's position (an immutable value).

    Positions number their turns: ``turn_number()`` is the record's entry number of
    the turn to be played now and ``turn_label()`` is ``"11w"``; where Black plays
    first the record opens with ``9...``. ``result`` ("1-0", "0-1", "1/2-1/2") and
    ``end`` (a short reason id) are set once ``phase`` is OVER.
    """

    @property
    def ruleset(self) -> GameRuleset: ...

    #: 144 squares, a1 first (``pbem.rules.geometry``); None where empty
    @property
    def board(self) -> tuple[BoardPiece | None, ...]: ...

    @property
    def phase(self) -> Phase: ...

    @property
    def to_move(self) -> Side: ...

    #: turns played, placements included
    @property
    def ply(self) -> int: ...

    @property
    def result(self) -> str | None: ...

    @property
    def end(self) -> str | None: ...

    #: positions are dataclasses: the referee's endings (``Game.resign``...) and the
    #: snapshots replace and read their fields
    __dataclass_fields__: ClassVar[dict[str, Field[object]]]

    def turn_number(self) -> int: ...

    def turn_label(self) -> str: ...


#: a game's own ruleset, position and turn state (see ``Game``)
RulesetT = TypeVar("RulesetT", bound=GameRuleset)
PositionT = TypeVar("PositionT", bound=GamePosition)
StateT = TypeVar("StateT")


class ActionRuleError(RuleError):
    """A RuleError about the ``index``-th written action of a turn (see ``begin_turn``)."""

    def __init__(self, code: str, message: str, *, index: int, options: tuple[str, ...] = ()):
        super().__init__(code, message, options=options)
        self.index = index


@frozen
class Resolved:
    """One written action, resolved: what it does, what happened, what was repaired.

    ``action`` and ``events`` are the game's own values: only that game's hooks read
    them (narrowing them by their classes), the layers above hand them back to it;
    ``board`` is the board the action was played on.
    """

    action: object
    events: tuple[object, ...]
    board: tuple[BoardPiece | None, ...]
    warnings: tuple[Diagnostic, ...] = ()
    #: the game's writer of canonical text (kept out of equality)
    writer: Callable[[Resolved], ActionText] | None = field(
        default=None, compare=False, repr=False
    )

    def canonical(self) -> ActionText:
        """The action as it should have been written: repaired squares, every event."""
        assert self.writer is not None
        return self.writer(self)


#: made at every action resolved, by its ``__new__`` alone (``pbem.rules.values.new_of``)
new_resolved = new_of(Resolved)


@frozen
class PieceStyle:
    """How one piece letter of one game is named and drawn.

    ``shape``: the SVG shape drawn (``"disc"``, ``"square"``, ``"triangle"``,
    ``"diamond"``, ``"crown"``, ``"star"``); ``char``: the text board's letter for
    White (Black's is its lower case).
    """

    letter: str
    name: str
    plural: str
    shape: str
    char: str


@frozen
class PieceTable:
    """A game's pieces by letter: how each is named, drawn and written."""

    styles: tuple[PieceStyle, ...]

    def style(self, letter: str) -> PieceStyle:
        for s in self.styles:
            if s.letter == letter:
                return s
        raise KeyError(letter)

    def name(self, piece: BoardPiece) -> str:
        """``"Duke"``: the game's word for the piece."""
        return self.style(piece.kind.value).name

    def code(self, piece: BoardPiece) -> str:
        """The JSON code: ``wE``, ``bP`` (facing games add ``-N`` etc. themselves)."""
        return piece.side.letter + piece.kind.value

    def char(self, piece: BoardPiece) -> str:
        c = self.style(piece.kind.value).char
        return c if piece.side is Side.WHITE else c.lower()


@frozen
class NotationWords:
    """A game's own examples of its notation, for its errors and hints.

    Every error about how a turn is written shows the forms of the game being played:
    a Medieval player told "a move like 'Pc10g10'" or "a Rearrangement like 'Rh5(...)'"
    learns a notation his game has not got. An empty example: the game has no such form
    (Classic has no Rearrangement, no piece of Oriental Realm points a way).
    """

    move: str = "Pc10g10"
    placement: str = "Bh11"
    #: a piece taken or dislodged, in an event list
    taken: str = "xBb5 or xEa7"
    #: a piece brought onto a Center (a rescue, a replacement), in an event list
    brought: str = "+Ea4"
    #: an Enforcer with its facing, where pieces point
    facing: str = "Eg12S"
    rearrangement: str = "Rh5(...)"
    #: the letters of pieces that never move once placed (the Featured Game's Base)
    fixed: str = "B"


@frozen
class Mark:
    """One thing the SVG draws for the last turn.

    ``kind``: ``"outline"`` (a square, e.g. a placement), ``"realm"`` (a Realm, by its
    Center), ``"path"`` (an arrow along ``squares``, the start first), ``"badge"`` (a
    disc on a square with ``sign`` "+" or "-"), ``"cross"`` (a piece taken). ``cls``
    is the SVG class ("placed", "created base", "immobilised", "captured").
    """

    kind: str
    squares: tuple[int, ...]
    cls: str = ""
    sign: str = ""


@frozen
class SideTable:
    """The per-side numbers of a report: column titles (HTML), the text layout (two
    header lines and a printf format for a row: the side, then the values)."""

    columns: tuple[str, ...]
    rows: tuple[tuple[Side, tuple[int, ...]], ...]
    text_head: tuple[str, ...]
    text_row: str


@frozen
class PieceMoves:
    """One piece's legal moves for ``pbem moves``: at most ``shown``, then a count."""

    square: int
    piece: BoardPiece
    moves: tuple[str, ...]
    total: int


class Game(ABC, Generic[RulesetT, PositionT, StateT]):
    """A game on the Realm board: subclass it, bind the type parameters to the game's
    own ruleset, position and turn state, set the class attributes, fill the hooks.

    ``StateT`` is the turn under way, from ``begin_turn`` to ``finish_turn``: the game's
    own immutable value, which only its hooks read.
    """

    #: the registry key and the front matter's ``game:``: ``"classic"``
    name: ClassVar[str]
    #: in prose: ``"Classic Realm"`` (the Featured Game: ``"the Featured Game"``)
    title: ClassVar[str]
    #: other names the registry accepts (``("realm",)``)
    aliases: ClassVar[tuple[str, ...]] = ()
    #: the JSON's ``"game"`` value (the name, except the Featured Game's historical
    #: ``"realm"``)
    json_name: ClassVar[str] = ""
    #: for each letter B/P/E the game's word for it and how it is drawn; letters the
    #: game does not use are absent
    pieces: ClassVar[PieceTable]
    #: whether pieces point (the Featured Game's Enforcers)
    facing: ClassVar[bool] = False
    #: option -> what it means in the players' words
    option_help: ClassVar[Mapping[str, str]] = {}
    #: the referee's help by mail: (command, what it does) examples of the game's own
    #: notation; empty: the Featured Game's
    mail_examples: ClassVar[tuple[tuple[str, str], ...]] = ()
    #: the game's own examples of each notation form, for its errors (the default: the
    #: Featured Game's)
    notation_words: ClassVar[NotationWords] = NotationWords()
    #: the key to the game's notation, for ``help``: (written, what it means, needs), where
    #: needs is "" (always), "placement" (set-up by placement) or an option that must be on
    notation_key_lines: ClassVar[tuple[tuple[str, str, str], ...]] = (
        ("Bh11, Pi10", "set-up: a Base placed on h11, then a Power on i10", ""),
        ("Pc10g10", "a Power moves from c10 to g10; an Enforcer (E) moves the same way "
                    "and then points the way it moved", ""),
        ("…(Bh11)", "in brackets after a move, what it made happen: a Base created on h11", ""),
        ("…(Eg12S)", "an Enforcer created on g12 pointing South (N, E, S, W; U: an "
                     "immobilised one)", ""),
        ("…(xBb5)", "the enemy Base on b5 captured", ""),
        ("…(xEa7)", "the Enforcer on a7 immobilised", ""),
        ("Rh5(Pg4,Eg6N)", "a Rearrangement of the h5 Realm: the new square of each of "
                          "your pieces in it", ""),
    )
    #: the game's rules page, under ``docs/`` (mailed by the referee's ``rules``)
    rules_page: ClassVar[str] = "rules.md"
    #: the invitation's two lines: what the game is, and how a turn is written
    about: ClassVar[tuple[str, str]] = (
        "Realm's Featured Game: on the sixteen Realms of a 12 x 12 board each side moves "
        "Powers and Enforcers to create Bases and capture the other's; when a side has "
        "created all its Bases, the side controlling more Realms wins.",
        "A turn names each piece moved, its square and where it stops, with what happened "
        "in brackets: Pi10i6(Bh5) moves the Power on i10 to i6 and creates a Base on h5.",
    )

    def notation_key(self, ruleset: Any) -> list[tuple[str, str]]:
        """The key to the game's notation in its own letters, for ``ruleset``: each
        (written, meaning); lines for options the ruleset has not got are left out (a
        Medieval game without placement is never shown a placement)."""
        options = ruleset.options()
        placing = self.initial(ruleset).phase is Phase.SETUP

        def wanted(needs: str) -> bool:
            return not needs or (placing if needs == "placement" else bool(options.get(needs)))

        letters = " ".join(s.letter for s in self.pieces.styles)
        names = ", ".join(with_article(s.name) for s in self.pieces.styles)
        key = [(letters, f"{names}: capitals; a square is a file a to l, small, and a "
                         "rank 1 to 12 (h11)")]
        key += [(w, m) for w, m, needs in self.notation_key_lines if wanted(needs)]
        key += [
            (",", "joins the actions of one turn, no space"),
            ("12. / 12...", "the move number of White's / Black's turn: optional, checked"),
            ("/", "in the record (history): between White's and Black's turn of a number"),
            ("pass", "only when you have no legal move"),
        ]
        return key

    def letters_words(self) -> str:
        """The game's piece letters in words: ``"P for a Duke, E for a Man"``."""
        return join_words([f"{s.letter} for {with_article(s.name)}" for s in self.pieces.styles])

    # -- rulesets (pure: YAML files are read by ``pbem.records.rulesets``) ----------
    @abstractmethod
    def default_ruleset(self) -> RulesetT:
        """The game's ruleset with every option at its default."""

    @abstractmethod
    def ruleset_from(
        self, options: Mapping[str, object], parent: RulesetT | None = None,
        name: str | None = None,
    ) -> RulesetT:
        """A new ruleset: ``parent`` (or the default) with ``options`` applied, named
        ``name`` (see ``merged_options``). RulesetError naming the option and what is
        allowed for an unknown option or a bad value."""

    def option_range(self, option: str) -> str:
        """The values ``option`` allows, in words ("true or false")."""
        return "true or false"

    # -- play ---------------------------------------------------------------------
    @abstractmethod
    def initial(self, ruleset: RulesetT) -> PositionT:
        """The opening position: set-up done, or the placement phase for ``setup:
        placement``."""

    @abstractmethod
    def begin_turn(self, position: PositionT, actions: Sequence[ActionText] = ()) -> StateT:
        """Start the turn of ``position.to_move``. ``actions`` are the written actions of
        the whole turn (``pbem.rules.written``), so that a game can refuse a turn's shape
        before any action is played: ``ActionRuleError(code, words, index=i)`` names the
        ``i``-th action. RuleError ``"turn.game-over"`` when the game is over."""

    @abstractmethod
    def resolve_action(self, state: StateT, text: ActionText) -> tuple[StateT, Resolved]:
        """Play one written action (a ``MoveText``, ``PlacementText``, ``PassText``, ...)
        on the turn state. Look-alike squares are repaired with
        ``pbem.rules.repairs.resolve_with_repairs`` and forced events left out are
        inferred, each repair or inference a ``Diagnostic`` in ``Resolved.warnings``
        (code ``"repair.*"`` or ``"infer.*"``). A missing choice is a RuleError whose
        ``options`` are the candidates in notation. ``Resolved.writer`` is the game's
        function giving the canonical written form, every event written."""

    @abstractmethod
    def state_position(self, state: StateT) -> PositionT:
        """The position inside a turn, as far as it has been played."""

    @abstractmethod
    def finish_turn(self, state: StateT) -> PositionT:
        """Close the turn: the other side to move (or ``phase`` OVER with ``result``
        and ``end`` set)."""

    def explain_refusal(
        self, state: StateT, text: ActionText, error: RuleError
    ) -> tuple[str, tuple[str, ...]]:
        """The words and the legal alternatives for the action ``text`` that ``error``
        refused (at most ``ALTERNATIVES`` of them); by default the error's own."""
        return error.message, error.options

    @abstractmethod
    def legal_actions(self, state: StateT) -> list[ActionText]:
        """Every legal next action of the turn under way, each complete (every choice
        spelled out), in canonical text. May be long."""

    @abstractmethod
    def has_legal_turn(self, position: PositionT) -> bool:
        """May the side to move do anything but pass?"""

    @abstractmethod
    def pass_text(self, position: PositionT) -> ActionText | None:
        """The pass to write when the side to move has no legal turn (the referee
        writes it by itself); None when it has one."""

    @abstractmethod
    def can_continue(self, state: StateT) -> bool:
        """May the turn under way take another action (Featured Dispersals, Classic
        double moves, Oriental and Modern multi-move turns)? False once the turn is
        complete or the game ended inside it."""

    def must_continue(self, state: StateT) -> bool:
        """Must the turn under way take another action before it can be finished (a
        Modern turn moves out every mobile piece of its Realm that can leave)?"""
        return False

    @abstractmethod
    def legal_by_piece(self, position: PositionT) -> list[PieceMoves]:
        """Per mobile piece of the side to move, its square and its legal moves as text
        (a count and a sample where there are thousands)."""

    def legal_listing(self, position: PositionT, *, every: bool = False) -> JSONObject:
        """What ``pbem moves --json`` prints: ``phase``, ``to_move``, ``turn``,
        ``result``, ``placements`` (list), ``moves`` (square -> list), ``pass`` (bool),
        and the game's own extras (``listing_head``)."""
        listing = listing_head(position)
        if position.phase is Phase.SETUP:
            listing["placements"] = self.placement_texts(position)
        elif position.phase is Phase.PLAY:
            listing["moves"] = {
                SQUARE_NAMES[pm.square]: list(pm.moves) for pm in self.legal_by_piece(position)
            }
            listing["pass"] = not listing["moves"]
        return listing

    def placement_texts(self, position: PositionT) -> list[str]:
        """Every legal placement of the set-up, written (a listing's ``placements``)."""
        return [format_action(a) for a in self.legal_actions(self.begin_turn(position))]

    def format_listing(self, listing: JSONObject) -> str:
        """``legal_listing``'s listing in words."""
        if listing["phase"] == "over":
            return f"the game is over ({listing['result'] or 'no result'})\n"
        side = listing["to_move"].capitalize()
        lines = [f"{side} to move, turn {listing['turn']}"]
        if listing["phase"] == "setup":
            texts = listing["placements"]
            lines.append(f"{side} places: {' '.join(texts)} ({len(texts)})")
        elif listing["pass"]:
            lines.append("pass (no legal turn)")
        for square, texts in listing["moves"].items():
            lines.append(f"{square}: {' '.join(texts)} ({len(texts)})")
        return "\n".join(lines) + "\n"

    # -- endings that are not moves (the referee's; the defaults suit any dataclass
    # position with ``phase``, ``result`` and ``end`` fields) ------------------------
    def resign(self, position: PositionT, side: Side) -> PositionT:
        """``side`` gives up: the other side wins, whatever the board says."""
        return _over(position, _loses(side), "resigned")

    def forfeit(self, position: PositionT, side: Side) -> PositionT:
        """``side`` lost on time (the referee's clock decides when)."""
        return _over(position, _loses(side), "forfeit")

    def agree_draw(self, position: PositionT) -> PositionT:
        """The players agreed to a draw."""
        return _over(position, "1/2-1/2", "draw")

    def adjudicate(self, position: PositionT, result: str) -> PositionT:
        """The referee's operator decides the result (one of ``RESULTS``)."""
        if result not in RESULTS:
            _check_not_over(position)
            raise RuleError(
                "end.result", f"a result is one of {', '.join(RESULTS)}, not {result!r}"
            )
        return _over(position, result, "adjudicated")

    def ends_by_agreement(self, ruleset: RulesetT) -> bool:
        """Whether a game under ``ruleset`` may end by agreement (``end_by_agreement``):
        what the referee offers and lists in its help; none by default."""
        return False

    def end_by_agreement(self, position: PositionT) -> PositionT:
        """The board scored where the game allows an end by agreement; by default
        RuleError ``end.agreement-off``."""
        _check_not_over(position)
        raise RuleError(
            "end.agreement-off",
            f"{self.title} has no end by agreement: it ends by its own rule, by resignation "
            "or by an agreed draw",
        )

    # -- the end ------------------------------------------------------------------
    @abstractmethod
    def score(self, position: PositionT) -> str:
        """The score in words ("White 9 Realms, Black 7"; "White moved 5 pieces off,
        Black 3")."""

    @abstractmethod
    def end_words(self, position: PositionT) -> str:
        """Why the game ended, in words ("Black moved all its pieces off"); endings that
        are not moves use ``END_WORDS``."""

    def end_words_after(self, position: PositionT, last_label: str | None) -> str:
        """``end_words`` where the label of the last turn played is known."""
        return self.end_words(position)

    # -- interchange --------------------------------------------------------------
    @abstractmethod
    def position_to_json(self, position: PositionT) -> JSONObject:
        """The documented JSON: ``game``, ``phase``, ``to_move``, ``board`` (square ->
        piece code, see ``PieceTable``), ``result`` and the game's own extras
        (``supply``, ``off``...)."""

    @abstractmethod
    def position_from_json(self, data: JSONObject) -> PositionT:
        """The inverse of ``position_to_json`` (the round trip is exact)."""

    def snapshot_data(self, position: PositionT) -> JSONObject:
        """Everything in the position as plain JSON values (the referee stores one per
        turn), so that ``position_from_snapshot`` gives an equal position. The default
        keeps the JSON, the ruleset's options and every plain field of a dataclass
        position (ints, text, sides, phases and tuples of them)."""
        plain: JSONObject = {}
        for f in fields(position):
            value = _plain(getattr(position, f.name))
            if f.name not in ("ruleset", "board") and value is not _NOT_PLAIN:
                plain[f.name] = value
        ruleset = position.ruleset
        return {
            "json": self.position_to_json(position),
            "ruleset": {"name": ruleset.name, **ruleset.options()},
            "fields": plain,
        }

    def position_from_snapshot(self, data: JSONObject) -> PositionT:
        """The position ``snapshot_data`` gave ``data`` for; KeyError, TypeError or
        ValueError for data that is not such a snapshot."""
        options = dict(data["ruleset"])
        name = options.pop("name")
        ruleset = self.ruleset_from(options, None, name)
        position = self.position_from_json(data["json"])
        kinds = {f.name: getattr(position, f.name) for f in fields(position)}
        changed = {k: _unplain(v, kinds[k]) for k, v in data["fields"].items() if k in kinds}
        return replace(position, ruleset=ruleset, **changed)

    # -- words and pictures (defaults from the PieceTable) ------------------------
    def piece_name(self, piece: BoardPiece) -> str:
        return self.pieces.name(piece)

    def describe_action(self, resolved: Resolved, side: Side) -> str:
        return f"{side.title} played {format_action(resolved.canonical())}"

    def turn_kind(self, resolved: Sequence[Resolved], side: Side) -> str:
        first = resolved[0].canonical() if resolved else None
        if isinstance(first, PlacementText):
            return "Placement"
        if isinstance(first, PassText):
            return "Pass"
        return "Move" if len(resolved) == 1 else f"{len(resolved)} moves"

    def describe_result(self, position: PositionT) -> str:
        result = position.result
        return f"{result_words(result)} {result}" if result else "unfinished"

    def describe_end(self, position: PositionT, last_side: Side | None = None) -> str:
        why = self.end_words(position)
        verdict = self.describe_result(position)
        return f"The game is over: {why}. {verdict[0].upper()}{verdict[1:]}."

    def describe_next(self, position: PositionT) -> str:
        if position.phase is Phase.OVER:
            return self.describe_end(position)
        side = position.to_move
        verb = "place" if position.phase is Phase.SETUP else "move"
        return f"{side.title} to {verb} ({turn_name(position.turn_label())})"

    def score_line(self, position: PositionT, over: bool) -> str:
        return self.score(position)

    def short_score(self, position: PositionT) -> str:
        """A few words of score for the viewer's status line ("Realms: White 8, Black 6.")."""
        return ""

    def side_table(self, position: PositionT) -> SideTable:
        styles = self.pieces.styles
        counts = tuple(
            (side, tuple(
                sum(1 for p in position.board
                    if p is not None and p.side is side and p.kind.value == st.letter)
                for st in styles
            ))
            for side in Side
        )
        widths = [max(12, len(st.plural) + 2) for st in styles]  # 'Counter-Agents': 14
        head = "         " + "".join(
            f"{st.plural:>{w}}" for st, w in zip(styles, widths, strict=True))
        return SideTable(
            tuple(f"{st.plural} on the board" for st in styles),
            counts,
            ("         On the board", head),
            "%-6s   " + "".join(f"%{w}d" for w in widths),
        )

    def status_lines(self, position: PositionT) -> list[str]:
        lines = [f"Score: {self.score(position)}"]
        if position.phase is Phase.OVER:
            lines.append(
                f"Game over ({self.end_words(position)}): {position.result}, "
                f"{result_words(position.result)}"
            )
        elif position.phase is Phase.SETUP:
            lines.append(f"Set-up: {position.to_move.title} to place")
        else:
            lines.append(f"{position.to_move.title} to move")
        return lines

    def legend(self) -> str:
        names = ", ".join(f"{st.char} {st.name}" for st in self.pieces.styles)
        return f"w = White, b = Black; {names}; o empty Center"

    def text_cell(self, piece: BoardPiece) -> str:
        return (piece.side.letter + self.pieces.style(piece.kind.value).char).ljust(3)

    def frame_char(self, piece: BoardPiece) -> str:
        return self.pieces.char(piece)

    def frame_legend(self) -> dict[str, tuple[str, str, str, str | None]]:
        """frame character -> (side key, shape, name, facing)."""
        out: dict[str, tuple[str, str, str, str | None]] = {}
        for st in self.pieces.styles:
            out[st.char] = ("white", st.shape, st.name, None)
            out[st.char.lower()] = ("black", st.shape, st.name, None)
        return out

    def facing_of(self, piece: BoardPiece) -> str | None:
        return None

    def realm_owner(self, board: tuple[BoardPiece | None, ...], realm: int) -> Side | None:
        return None

    def turn_marks(self, resolved: Resolved) -> tuple[Mark, ...]:
        text = resolved.canonical()
        if isinstance(text, PlacementText):
            return (Mark("outline", (parse_square(text.square.text),), "placed"),)
        if isinstance(text, MoveText) and len(text.squares) > 1:
            return (Mark("path", tuple(parse_square(s.text) for s in text.squares)),)
        return ()

    def piece_words(self, piece: BoardPiece, square: int) -> str:
        """One piece where it stands, as the turn reports name it: 'a Frog on e5' (the
        boards' descriptions for screen readers list every piece so, Realm by Realm)."""
        name = self.pieces.style(piece.kind.value).name
        return f"{with_article(name)} on {SQUARE_NAMES[square]}"

    def position_words(self, position: PositionT) -> list[str]:
        words = []
        for side in Side:
            parts = []
            for st in self.pieces.styles:
                names = [
                    SQUARE_NAMES[s] for s, p in enumerate(position.board)
                    if p is not None and p.side is side and p.kind.value == st.letter
                ]
                if names:
                    parts.append(f"{st.plural} {', '.join(names)}")
            words.append(f"{side.title}: {'; '.join(parts) if parts else 'no pieces'}.")
        return words

    def off_board(self, position: PositionT) -> dict[Side, int]:
        """Pieces each side has beside the board; by default the position's ``off`` pair
        (Medieval's pieces moved off), where it has one."""
        off = getattr(position, "off", None)
        if not off or not any(off):
            return {}
        return {Side.WHITE: off[0], Side.BLACK: off[1]}

    def __repr__(self) -> str:
        return f"<game {self.name}>"


def listing_head(position: GamePosition, **extras: object) -> JSONObject:
    """A ``legal_listing`` before its actions are filled in: who is to move in which
    turn (nobody once the game is over), no placements, no moves, the game's own
    ``extras`` (empty values) after the moves, and ``pass`` last, so that every game's
    listing has the same fields in the same order."""
    playing = position.phase is not Phase.OVER
    return {
        "phase": position.phase.value,
        "to_move": position.to_move.key if playing else None,
        "turn": position.turn_label() if playing else None,
        "result": position.result,
        "placements": [],
        "moves": {},
        **extras,
        "pass": False,
    }


def merged_options(
    base: Mapping[str, object], options: Mapping[str, object], name: str | None = None
) -> dict[str, object]:
    """``base`` with ``options`` over it, named ``name``, or else after the options
    (``oriental+warning=True``) so that a ruleset's name says how it differs."""
    merged = dict(base)
    merged.update(options)
    if name is not None:
        merged["name"] = name
    elif "name" not in options and options:
        merged["name"] = "+".join(
            [str(merged["name"]), *(f"{k}={v}" for k, v in sorted(options.items()))]
        )
    return merged


def turn_name(label: str) -> str:
    """``#11w``: a turn as every report names it, the form a player writes to the referee
    to mark an order for that turn (issue 23.8: one convention, printed and accepted)."""
    return f"#{label}"


def counted(n: int, one: str, many: str) -> str:
    """'1 Realm', '2 Realms', '0 Realms': a count agrees with its noun (issue 23.10)."""
    return f"{n} {one if n == 1 else many}"


def join_words(parts: Sequence[str]) -> str:
    """'a', 'a and b', 'a, b and c'."""
    if len(parts) <= 1:
        return "".join(parts)
    return ", ".join(parts[:-1]) + " and " + parts[-1]


def with_article(words: str) -> str:
    """'a Base', 'an Enforcer', 'an HQ' (an initialism is read letter by letter: H is
    'aitch')."""
    first = words.split(" ", 1)[0]
    if len(first) > 1 and first.isupper():
        return ("an " if first[0] in "AEFHILMNORSX" else "a ") + words
    return ("an " if words[0] in "aeiouAEIOU" else "a ") + words


RESULTS = ("1-0", "0-1", "1/2-1/2")

#: any game, its ruleset, position and turn state left open: what the registry hands
#: to the layers above, which read positions and rulesets only through
#: ``GamePosition`` and ``GameRuleset`` and hand the rest back to the game
AnyGame = Game[Any, Any, Any]

_NOT_PLAIN = object()


def _plain(value: object) -> object:
    """A JSON value for a plain field value, or ``_NOT_PLAIN``."""
    if value is None or isinstance(value, bool | int | str):
        return value
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, tuple):
        items = [_plain(v) for v in value]
        return _NOT_PLAIN if any(i is _NOT_PLAIN for i in items) else items
    return _NOT_PLAIN


def _unplain(value: object, like: object) -> object:
    """``value`` back in the type of ``like`` (the same field of a fresh position)."""
    if isinstance(like, Enum):
        return type(like)(value)
    if isinstance(value, list):
        if isinstance(like, tuple) and like:
            return tuple(_unplain(v, like[min(i, len(like) - 1)]) for i, v in enumerate(value))
        return tuple(value)
    return value


def _check_not_over(position: GamePosition) -> None:
    if position.phase is Phase.OVER:
        raise RuleError(
            "end.over", f"the game is already over ({position.result or 'no result'})"
        )


def _over(position: PositionT, result: str, end: str) -> PositionT:
    _check_not_over(position)
    return replace(position, phase=Phase.OVER, result=result, end=end)


def _loses(side: Side) -> str:
    return "0-1" if side is Side.WHITE else "1-0"


#: the endings that are not moves, the same in every game (``position.end``)
END_WORDS = {
    "resigned": "a player resigned",
    "forfeit": "a player lost on time",
    "agreement": "the players agreed to end it",
    "draw": "the players agreed to a draw",
    "adjudicated": "the referee decided the result",
}

RESULT_WORDS = {
    "1-0": "White wins",
    "0-1": "Black wins",
    "1/2-1/2": "a draw",
}


def result_words(result: str | None) -> str:
    """``"White wins"``; the same for every game."""
    return RESULT_WORDS.get(result or "", result if result and result != "*" else "unfinished")
