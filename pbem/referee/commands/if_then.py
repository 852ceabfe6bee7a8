"""Conditional turns by mail: ``if THEIR-TURN then MY-TURN`` lines, nested by indentation,
sent with a turn or on their own while the opponent is to move.

The lines of a mail are read as one set once all its orders have run (``registry``
finishers): every line is checked where it would be played, and the set replaces the one
that stood, or the whole mail is refused. When the opponent's turn gives the position a
line's reply gives, its answer is played at once, the clock charging it nothing, and the
lines nested under it stand for the next turn; a turn that matches no line drops the set.
The set is secret: only its owner is told about it (``Unit.tell``), and the log keeps
neither its lines nor a refusal's words about them.
"""

from __future__ import annotations

from pbem.errors import Span
from pbem.records.replay import GameError, PlayedTurn
from pbem.referee.commands.registry import command, finisher
from pbem.referee.commands.turn import forced_passes, turn_on_clock
from pbem.referee.intake.orders import Order
from pbem.referee.intake.refusal import Refusal
from pbem.referee.store import games
from pbem.referee.store.offers import OfferKind
from pbem.referee.store.standing_conditions import Standing
from pbem.referee.turns.conditions import (
    Condition,
    ConditionError,
    Fired,
    Play,
    check_conditions,
    count_lines,
    format_conditions,
    match,
    parse_conditions,
)
from pbem.referee.turns.play import canonical_text, live_turn
from pbem.referee.turns.wording import in_player_words
from pbem.referee.work.unit import Unit
from pbem.rules.game import GamePosition, Phase, turn_name
from pbem.rules.pieces import Side
from pbem.rules.registry import game_of
from pbem.rules.values import frozen

TITLE = "Your conditional turns"
HOWTO = "Reply 'conditions' to see them, 'conditions cancel' to withdraw them."


@frozen
class Tried:
    """One turn tried for a condition: the position after it, or why it cannot be played."""

    after: GamePosition | None
    refusal: tuple[str, int] | None


def player_of(unit: Unit, owner: Side) -> Play:
    """How the turns of ``owner``'s conditions are played: as a mailed turn is
    (``live_turn``). A reply of the opponent's that leaves ``owner`` a forced pass is
    refused: the referee writes the pass itself, so no answer could follow it."""
    headers = dict(unit.the_game.headers())
    repairs = unit.options.case_repairs

    def play(position: GamePosition, text: str) -> Tried:
        if position.phase is Phase.OVER:
            return Tried(None, ("the game is over by then", 1))
        outcome = live_turn(position, text, headers, case_repairs=repairs)
        if outcome.error is not None:
            action = outcome.error.action or ""
            first = bool(action) and text.lstrip("0123456789. …").startswith(action)
            error = in_player_words(outcome.error, position, first)
            return Tried(None, (error.message, error.span.column if error.span else 1))
        assert outcome.played is not None
        after = outcome.played.after
        if (position.to_move is not owner and after.phase is Phase.PLAY
                and game_of(after).pass_text(after) is not None):
            return Tried(None, (f"after it {after.to_move.title} has no legal turn and must "
                                "pass, so no answer can follow it", 1))
        return Tried(after, None)

    return play


def lines_of(count: int) -> str:
    return f"{count} line" if count == 1 else f"{count} lines"


@command("if")
def cmd_if(unit: Unit, order: Order) -> None:
    """A conditional line: kept for the finisher, which reads the mail's lines as a set."""
    unit.conditional.lines.append(order)


@command("conditions", info=True)
def cmd_conditions(unit: Unit, order: Order) -> None:
    """The sender's standing set, as he would write it (to him alone)."""
    game = unit.the_game
    standing = unit.standing(unit.me)
    if standing is None or standing.from_seq != game.seq or unit.over:
        unit.news.sections.append((TITLE, "You have no conditional turns standing."))
        return
    label = turn_name(unit.board.turn_label())
    text = "\n".join([f"They answer {unit.me.other.title}'s turn {label} "
                      f"({lines_of(count_lines(standing.conditions))}); the first line that "
                      "matches is played:", "", *format_conditions(standing.conditions)])
    unit.news.sections.append((TITLE, text))


@command("conditions-cancel")
def cmd_cancel(unit: Unit, order: Order) -> None:
    if unit.drop_set(unit.me):
        unit.changed = True
        unit.news.sections.append((TITLE, "Your conditional turns are withdrawn: none stands."))
        unit.note("conditions",
                  f"{unit.me.title} withdrew his conditional turns")
    else:
        unit.news.sections.append((TITLE, "You had no conditional turns standing."))


@finisher
def settle(unit: Unit) -> None:
    """The mail's own set is read and kept; then a standing set of the opponent's answers
    the turn played, and so on while a set answers the turn before it."""
    base = unit.the_game.seq - (1 if unit.revived else 0)
    if unit.turns:  # an answer of the sender's that waited for an offer: his turn replaces it
        replace_waiting(unit, base)
    if unit.conditional.lines:
        keep_set(unit, base + len(unit.turns))
    if unit.turns:
        answer_in_advance(unit, base)
    elif unit.declined and not unit.over:  # the offer declined: the answer that waited
        play_waiting(unit, base)


#: what an offer is, in the notice to a conditional answer's owner
OFFERED = {OfferKind.DRAW: "a draw", OfferKind.END: "to end the game by agreement",
           OfferKind.TAKEBACK: "to take back the last turn"}


def _waiting(unit: Unit, base: int) -> tuple[Standing, tuple[int, str]] | None:
    """The sender's set when it waits for his answer to an offer: made for the position
    before the opponent's last turn (any other set of his would have been matched or
    dropped with that turn)."""
    standing = unit.standing(unit.me)
    last = games.last_turn(unit.conn, unit.the_game.id)
    if standing is None or last is None or last[0] != base or standing.from_seq != base - 1:
        return None
    return standing, last


def replace_waiting(unit: Unit, base: int) -> None:
    if _waiting(unit, base) is None:
        return
    unit.drop_set(unit.me)
    unit.changed = True
    unit.tell(unit.me, "Your turn replaces the conditional answer that waited for your "
                       "reply to the offer.")
    unit.note("conditions",
              f"{unit.me.title}'s conditional answer that waited was replaced by his turn")


def play_waiting(unit: Unit, base: int) -> None:
    """The sender declined the offer his conditional answer waited for: it is played now,
    as it would have been with the opponent's turn."""
    found = _waiting(unit, base)
    if found is None:
        return
    standing, (_, label) = found
    me = unit.me
    mover = me.other
    before = games.position_at(unit.conn, unit.the_game.id, standing.from_seq)
    play = player_of(unit, me)
    fired = match(before, standing.conditions, unit.board, play)
    if fired is None:  # cannot be: it matched when the turn came; drop it all the same
        unit.drop_set(me)
        return
    text = dict(games.stored_turns(unit.conn, unit.the_game.id)).get(label, "")
    if not play_answer(unit, me, label, text, mover, fired.condition):
        return
    after_answer(unit, me, mover, fired, base)
    answer_in_advance(unit, base)  # the opponent's own set may answer the answer


def _refusal(unit: Unit, error: ConditionError) -> Refusal:
    order = next((o for o in unit.conditional.lines if o.line == error.line),
                 unit.conditional.lines[0])
    span = Span(1, error.column)
    return Refusal(error.message, order, GameError(error.message, "mail.condition", span),
                   logged=f"a conditional turn (line {error.line}, column {error.column}) "
                          "could not be kept")


def keep_set(unit: Unit, from_seq: int) -> None:
    """Read, check and store the mail's set, made for the position the mail leaves."""
    me, first = unit.me, unit.conditional.lines[0]
    game = unit.the_game
    if unit.over:
        if game.status == "over" and not unit.revived:
            raise Refusal("the game is over: no conditional turn can be kept", first,
                          logged="conditional turns in a finished game")
        unit.tell(me, "The game is over: your conditional turns were not kept.")
        return
    if unit.board.to_move is me:
        why = ("your opponent has no legal turn after yours and passes, so no condition can "
               "answer it: send your turn without them" if unit.turns else
               "it is your turn: conditional turns answer your opponent's next turn, so send "
               "them with your turn (below it), or after it while you wait")
        raise Refusal(why, first, logged="conditional turns while it was the sender's turn")
    lines = [(o.line, o.original.rstrip("\r\n")) for o in unit.conditional.lines]
    try:
        trees = parse_conditions(lines)
        check_conditions(unit.board, trees, player_of(unit, me))
    except ConditionError as exc:
        raise _refusal(unit, exc) from None
    unit.keep_set(me, from_seq, trees)
    unit.changed = True
    count = count_lines(trees)
    unit.note("conditions",
              f"{me.title} sent conditional turns ({lines_of(count)})")
    said = (f"Your conditional turns stand ({lines_of(count)}, secret): they answer "
            f"{me.other.title}'s turn {turn_name(unit.board.turn_label())}, and replace any set "
            f"sent before. {HOWTO}")
    if unit.turns:
        unit.tell(me, said)
    else:
        unit.news.sections.append((TITLE, "\n".join([said, "", *format_conditions(trees)])))


#: a chain of answers ends at the latest after this many (each uses a line of a set)
MAX_ANSWERS = 4 * 40


def answer_in_advance(unit: Unit, base: int) -> None:
    """The turn at ``unit.turns[k]`` is played from entry ``base + k``; a set made for that
    entry by the side that waited answers it, and the answer may be answered in turn."""
    for k in range(MAX_ANSWERS):
        if unit.over or k >= len(unit.turns):
            return
        turn = unit.turns[k]
        waiting = turn.side.other
        standing = unit.standing(waiting)
        if standing is None:
            return
        if standing.from_seq != base + k:  # made for a position the game has left
            unit.drop_set(waiting)
            return
        before = unit.turns[k - 1].after if k else games.position_at(
            unit.conn, unit.the_game.id, base)
        play = player_of(unit, waiting)
        fired = match(before, standing.conditions, turn.after, play)
        if fired is None or k != len(unit.turns) - 1:
            missed(unit, waiting, turn)
            return
        if unit.offer is not None and unit.offer.side is turn.side:
            wait_for_offer(unit, waiting, turn, fired.condition)
            return
        if not play_answer(unit, waiting, turn.label, canonical_text(turn), turn.side,
                           fired.condition):
            return
        after_answer(unit, waiting, turn.side, fired, base)


def after_answer(unit: Unit, waiting: Side, mover: Side, fired: Fired, base: int) -> None:
    """The lines nested under the answer that fired stand for the opponent's next turn."""
    if fired.standing and not unit.over and unit.board.to_move is mover:
        unit.keep_set(waiting, base + len(unit.turns), fired.standing)
        count = count_lines(fired.standing)
        unit.tell(waiting, f"The {lines_of(count)} nested under it "
                  f"{'stands' if count == 1 else 'stand'} for {mover.title}'s next "
                  f"turn. {HOWTO}")
    else:
        unit.drop_set(waiting)
        if not unit.over:
            unit.tell(waiting, "No conditional turn of yours stands now.")


def wait_for_offer(unit: Unit, waiting: Side, turn: PlayedTurn, cond: Condition) -> None:
    """The turn came with an offer: a conditional answer never answers a question its
    owner has not seen. It waits (the set stays as it is) until he declines the offer
    (then it is played), accepts it (the game ends) or sends another turn (it goes)."""
    assert unit.offer is not None
    what = unit.offer.kind
    words, verb = OFFERED[what], what.value
    played = turn_name(turn.label)
    accepting = f"takes back {played}" if what is OfferKind.TAKEBACK else "ends the game"
    unit.tell(waiting, f"{turn.side.title} played {played} and offers {words}. Your "
                       f"conditional answer to it (line {cond.line} of the mail that sent "
                       f"your set: 'if {cond.reply} then {cond.answer}') waits for your "
                       f"reply: 'decline {verb}' plays it, 'accept {verb}' {accepting}, and "
                       "any other turn you send replaces it.")
    unit.note("conditions",
              f"{waiting.title}'s conditional answer to {turn.label} waits for the offer "
              "to be answered")


def missed(unit: Unit, waiting: Side, turn: PlayedTurn) -> None:
    unit.drop_set(waiting)
    unit.changed = True
    unit.tell(waiting, f"{turn.side.title}'s turn {turn_name(turn.label)} matched none of your "
                       "conditional turns, so they are dropped: reply with your turn as usual.")
    unit.note("conditions",
              f"{waiting.title}'s conditional turns did not match {turn.label}: dropped")


def play_answer(unit: Unit, side: Side, label: str, text: str, mover: Side,
                cond: Condition) -> bool:
    """Play ``side``'s answer at once (no time off his clock); False, with the set dropped
    and its owner told, if it cannot be played after all (the clock refused it)."""
    outcome = live_turn(unit.board, cond.answer, dict(unit.the_game.headers()),
                        case_repairs=unit.options.case_repairs)
    kept = (len(unit.turns), unit.position, len(unit.news.notices))
    why = outcome.error.message if outcome.error is not None else None
    if outcome.played is not None:
        unit.turns.append(outcome.played)
        unit.position = outcome.played.after
        forced_passes(unit)
        try:
            turn_on_clock(unit, None, side)
        except Refusal as refusal:
            why = refusal.reason
    if why is not None:
        del unit.turns[kept[0]:]
        unit.position = kept[1]
        del unit.news.notices[kept[2]:]
        unit.drop_set(side)
        unit.tell(side, f"Your conditional answer to {turn_name(label)} could not be played "
                        f"({why}), so your conditional turns are dropped.")
        return False
    assert outcome.played is not None
    answer = outcome.played
    unit.changed = True
    unit.news.notices.insert(kept[2], (
        f"{mover.title} played {turn_name(label)} ({text}), and {side.title} "
        f"answered at once with {turn_name(answer.label)}, a turn sent in advance."))
    unit.tell(side, f"Your conditional turn on line {cond.line} of the mail that sent it "
                    f"fired: 'if {cond.reply} then {cond.answer}'.")
    if unit.offer is not None:
        unit.news.notices.append(f"The offer that stood lapsed with {turn_name(answer.label)}.")
        unit.offer = None
    unit.note("conditions",
              f"{side.title} answered {label} with a turn sent in advance")
    if unit.board.phase is Phase.OVER:
        unit.ended = unit.board.end or "bases"
    return True
