"""Writing a finished unit: its log lines, conditional turns, turns, record, offer, clock
and result go to the store, and its news to the mailer (reports, notices, the private
answer, results), in the caller's transaction. Mail, ``pbem tick`` (a forfeit) and the
operator (an adjudication) share it. A refused unit writes nothing but its refusal
(``refused``): its commands wrote nothing but what the unit holds (``unit`` says which
commands write themselves, inside the mail's savepoint)."""

from __future__ import annotations

from pbem.notation.format import format_turn
from pbem.notation.syntax import TurnText
from pbem.referee.intake.refusal import Refusal
from pbem.referee.outgoing.mailer import END_WORDS, NOTED_ENDS
from pbem.referee.store import games
from pbem.referee.store import standing_conditions as conditions
from pbem.referee.store.games import load_game, record_text
from pbem.referee.work.hook_events import after_commit
from pbem.referee.work.tournament import crosstable_for_game, game_over
from pbem.referee.work.unit import Unit
from pbem.rules.game import turn_name
from pbem.rules.pieces import Side
from pbem.rules.registry import game_of


def refused(unit: Unit, refusal: Refusal) -> str:
    """Tell the sender why his mail was refused (a game's refusal goes in its log too); the
    reason as logged. The caller has undone whatever the mail's commands did."""
    inc, row = unit.inc, unit.row
    assert inc is not None and row is not None
    if unit.game is None:
        unit.mailer.refuse_address(inc, row, refusal.reason, token=unit.token, verb="not done")
        return refusal.reason
    unit.mailer.refusal(inc, row, unit.game, unit.player, refusal)
    games.log(unit.conn, unit.game.id, "refused", f"{unit.player.title}: {refusal.logged}")
    return refusal.logged


def commit(unit: Unit) -> None:
    game = unit.the_game
    conn, mailer, news = unit.conn, unit.mailer, unit.news
    seq = game.seq
    for kind, text in unit.log:  # first: a command's lines came before the turns'
        games.log(conn, game.id, kind, text)
    for side, standing in unit.conditional.sets.items():
        if standing is None:
            conditions.drop(conn, game.id, side)
        else:
            conditions.save(conn, game.id, side, standing.from_seq, standing.conditions)
    if unit.revived:  # the loss on time is void: its 'end' entry goes
        games.drop_end_entry(conn, game.id, seq)
        seq -= 1
    if unit.clock is not None and unit.clock.changed:
        games.save_clock(conn, game.id, unit.clock.state)
    for played in unit.turns:
        seq += 1
        text = format_turn(TurnText(tuple(r.canonical() for r in played.resolved)))
        games.add_turn(conn, game.id, seq, played.label, text, played.after, unit.row)
        games.log(conn, game.id, "turn", f"{played.label} {text}")
    if news.said:
        after = games.last_turn(conn, game.id)
        for text in news.said:
            games.add_said(conn, game.id, after[0] if after else 0, unit.me, text)
        relayed = [f"{unit.me.title} says: {text}" for text in news.said]
        if not unit.turns:  # with a turn, the report carries them to both
            mailer.tell_one(game, game.opponent(unit.me), f"{unit.me.title} says",
                            "\n".join(relayed), row=unit.row, kind="message")
        else:  # the two players' reports only: never an observer's copy nor a notice
            for side in (unit.me, unit.me.other):
                news.private[side] = [*relayed, *news.private.get(side, [])]
        games.log(conn, game.id, "said", "\n".join(relayed))
    result = unit.board.result if unit.ended else None
    note = None
    if unit.ended in NOTED_ENDS:
        loser = unit.loser or unit.me
        note = END_WORDS[unit.ended].format(side=loser.title)
        games.add_turn(conn, game.id, seq + 1, "end", note, unit.board, unit.row)
    offered = unit.offer if unit.changed and unit.offer and unit.offer != game.offer else None
    if unit.changed:
        status, old_result, old_end = game.status, game.result, game.end_reason
        if unit.revived:
            status, old_result, old_end = "playing", None, None
        games.save_game(conn, game.id, record=record_text(conn, game, result, note),
                        offer=unit.offer, status="over" if unit.ended else status,
                        result=result or old_result, end_reason=unit.ended or old_end)
        game = load_game(conn, game.id)
    for text in news.notices:
        games.log(conn, game.id, "notice", text)
    after_commit(conn, unit.config, game, played=bool(unit.turns), ended=bool(unit.ended),
                 new_offer=offered)
    inc, row = unit.inc, unit.row
    if unit.turns:  # a turn that ends the game: the players get the result mail alone
        mailer.reports(game, inc, row, news.notices, played=len(unit.turns),
                       private=news.private, players=not unit.ended)
    else:
        if news.notices:
            mailer.notices(game, news.notices, news.notice_board, inc, row)
        for side, lines in news.private.items():
            mailer.tell_one(game, game.players[side], "your conditional turns", "\n".join(lines),
                            row=row)
    if news.sections:
        mailer.reply(game, unit.player, news.sections, inc, row, news.section_html)
    if unit.ended:
        conditions.drop_all(conn, game.id)  # a set of conditional turns lapses with the game
        games.log(conn, game.id, "end", f"{unit.ended}: {game.result}")
        mover = unit.player.title
        if unit.ended == "bases" and unit.turns:
            mover = unit.turns[-1].side.title
        if unit.loser is not None:
            mover = unit.loser.title
        if unit.ended in END_WORDS:
            how = END_WORDS[unit.ended].format(side=mover)
        else:  # the game's own ending on the board
            how = game_of(game.position).end_words_after(
                game.position, turn_name(unit.turns[-1].label) if unit.turns else None)
        game_over(conn, mailer, unit.now, game.id)  # a game of an event: the next round?
        on_top: dict[Side, list[str]] = {}
        if unit.turns:
            ending = games.stored_turns(conn, game.id)[-len(unit.turns):]
            last = "; ".join(f"{turn_name(label)} {text}" for label, text in ending)
            for one in (Side.WHITE, Side.BLACK):
                on_top[one] = [f"Played: {last}", *news.notices, *news.private.get(one, [])]
        mailer.results(game, how, inc, row, event=crosstable_for_game(conn, game.id),
                       news=on_top)
