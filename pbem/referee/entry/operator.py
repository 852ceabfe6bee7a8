"""The game master's commands (``pbem pause | resume | set-deadline | adjudicate |
rollback``): each changes one game in one transaction and mails both players why.

A rollback deletes turns, so it keeps them: ``pbem rollback --undo GAME`` puts back what
the last rollback (or accepted takeback) removed. Rolling back a finished game needs
``--force``: its result is then gone.
"""

from __future__ import annotations

from collections.abc import Callable

from pbem.errors import PbemError
from pbem.referee import clock
from pbem.referee.clock import ClockState
from pbem.referee.entry.service import Referee
from pbem.referee.outgoing.mailer import clock_lines
from pbem.referee.store import games, transaction
from pbem.referee.store.games import Game, load_game
from pbem.referee.work.commit import commit
from pbem.referee.work.rollback import rollback_to, undo_last
from pbem.rules.game import RESULTS, turn_name
from pbem.rules.pieces import Side
from pbem.rules.registry import game_of


class OperatorRefused(PbemError):
    """The game master's command cannot be carried out (exit 1)."""

    code = "operator"


class OperatorArgument(OperatorRefused):
    """The command's argument itself cannot be read (a usage error: exit 2)."""


#: words the operator may type for a result
RESULT_WORDS = {"white": "1-0", "black": "0-1", "draw": "1/2-1/2", "1/2": "1/2-1/2",
                "½-½": "1/2-1/2", **{r: r for r in RESULTS}}


def _playing_clock(game: Game) -> tuple[clock.ClockSettings, ClockState]:
    if game.status != "playing":
        raise OperatorRefused(f"game {game.id} is over ({game.result})")
    found = game.clock()
    if found is None:
        raise OperatorRefused(f"game {game.id} has no clock (it was started without one)")
    return found


def _on_clock(referee: Referee, game_id: int, what: str,
              change: Callable[[clock.ClockSettings, ClockState], ClockState]) -> str:
    now = referee.now()
    with transaction(referee.conn):
        game = load_game(referee.conn, game_id)
        settings, state = _playing_clock(game)
        try:
            new = change(settings, state)
        except clock.ClockError as exc:
            raise OperatorRefused(f"game {game_id}: {exc.message}") from None
        games.save_clock(referee.conn, game.id, new)
        game = load_game(referee.conn, game_id)
        lines = clock_lines(game, now, with_settings=False)
        games.log(referee.conn, game.id, "operator", what)
        referee.mailer.tell_players(game, what, f"The referee's operator: {what}.\n\n"
                                    + "\n".join(lines), kind="operator")
    return f"game {game_id}: {what}; " + " ".join(lines)


def pause_game(referee: Referee, game_id: int) -> str:
    now = referee.now()
    return _on_clock(referee, game_id, "the game is paused",
                     lambda s, st: clock.pause(st, now))


def resume_game(referee: Referee, game_id: int) -> str:
    now = referee.now()
    return _on_clock(referee, game_id, "the game goes on", lambda s, st: clock.resume(st, now))


def set_deadline(referee: Referee, game_id: int, when_text: str) -> str:
    now = referee.now()
    try:
        when = clock.parse_when(when_text)
    except clock.ClockError as exc:
        raise OperatorArgument(exc.message) from None
    return _on_clock(referee, game_id, f"this turn's deadline is now {clock.format_instant(when)}",
                     lambda s, st: clock.set_deadline(st, s, when, now))


def adjudicate(referee: Referee, game_id: int, result_text: str) -> str:
    result = RESULT_WORDS.get(result_text.strip().lower())
    if result is None:
        raise OperatorArgument(f"a result is 1-0 (or white), 0-1 (black) or 1/2-1/2 (draw), "
                               f"not {result_text!r}")
    with transaction(referee.conn):
        game = load_game(referee.conn, game_id)
        if game.status != "playing":
            raise OperatorRefused(f"game {game_id} is over already ({game.result})")
        unit = referee.game_unit(game, Side.WHITE, referee.now())
        unit.position = game_of(game.position).adjudicate(game.position, result)
        unit.ended, unit.changed = "adjudicated", True
        games.log(referee.conn, game.id, "operator", f"adjudicated {result}")
        commit(unit)
    return f"game {game_id}: adjudicated {result}"


def rollback(referee: Referee, game_id: int, turn: str, force: bool = False) -> str:
    label = turn.strip().lower()
    with transaction(referee.conn):
        game = load_game(referee.conn, game_id)
        if game.status == "over" and not force:
            raise OperatorRefused(
                f"game {game_id} is over ({game.result}): rolling it back removes its result; "
                "add --force to do it anyway (--undo puts it back)")
        rows = games.turn_rows(referee.conn, game_id)
        labels = [r["label"] for r in rows if r["label"] != "end"]
        wanted = "start" if label in ("0", "start") else label
        keep = [r["seq"] for r in rows if r["label"] == wanted]
        if not keep:
            raise OperatorRefused(f"game {game_id} has no turn {turn!r}: its turns are "
                                  f"{', '.join(labels)}")
        if keep[0] == game.seq:
            raise OperatorRefused(f"game {game_id} is at {turn} already: nothing to roll back")
        what = ("the game is rolled back to the start" if wanted == "start"
                else f"the game is rolled back to after {turn_name(wanted)}")
        game = rollback_to(referee.conn, game, keep[0], referee.now(), what)
        games.log(referee.conn, game.id, "operator", what)
        referee.mailer.tell_players(
            game, what, f"The referee's operator: {what}; the later turns are gone.",
            kind="operator", board=game.position,
            after="\n".join(clock_lines(game, referee.now())))
    return f"game {game_id}: {what} (pbem rollback --undo {game_id} puts the turns back)"


def undo_rollback(referee: Referee, game_id: int) -> str:
    with transaction(referee.conn):
        load_game(referee.conn, game_id)  # GameNotFound for a wrong id
        done = undo_last(referee.conn, game_id)
        if done is None:
            raise OperatorRefused(f"game {game_id} has no rollback to undo (or turns were "
                                  "played since the last one)")
        game, why = done
        what = f"the rollback ({why}) is undone"
        games.log(referee.conn, game.id, "operator", what)
        referee.mailer.tell_players(
            game, what, f"The referee's operator: {what}; the turns it removed are back.",
            kind="operator", board=game.position,
            after="\n".join(clock_lines(game, referee.now())))
    return f"game {game_id}: {what}"
