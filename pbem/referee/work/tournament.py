"""Tournaments in the referee: an event's entries, its start (every game of a round robin,
or a Swiss event's first round), the next Swiss round once a round has ended, and its
tables as the organiser, the players and the archive read them (the site's event pages:
``pbem.referee.public.event_pages``).

The pure model is ``pbem.tournaments`` (Berger tables, the Swiss pairing, the standings);
this module reads the store, starts the games as ``pbem new`` does (``starting``), and
turns the model's rows into text and JSON. The games are ordinary games of the referee:
their turns, clocks, results and ratings are theirs; an event only knows which game is
which board. Withdrawals end games, so they live a layer up (``tournament_play``).
"""

from __future__ import annotations

from datetime import UTC, datetime
from fractions import Fraction
from typing import Any

from pbem.errors import PbemError
from pbem.records.rulesets import load_ruleset
from pbem.referee.clock import format_settings, parse_settings
from pbem.referee.config.options import Options
from pbem.referee.outgoing.labels import label_problem
from pbem.referee.outgoing.mailer import Mailer
from pbem.referee.outgoing.webhooks import HookSettings, check_url
from pbem.referee.public.club_ratings import club_ratings
from pbem.referee.public.event_pages import MARKED_ENDS, display_name
from pbem.referee.store import delivery
from pbem.referee.store import tournaments as store
from pbem.referee.store.engine import Connection
from pbem.referee.store.tournaments import Entry, Event
from pbem.referee.work.starting import start_game
from pbem.rules.registry import game_of
from pbem.rules.values import frozen
from pbem.tournaments.berger import divisions as division_sizes
from pbem.tournaments.berger import round_robin
from pbem.tournaments.standings import Board, Entrant, Row, compute, format_points
from pbem.tournaments.swiss import PairingError, Played, pair_round

FORMATS = ("round-robin", "double-round-robin", "swiss")
FORMAT_WORDS = {"round-robin": "round robin", "double-round-robin": "double round robin",
                "swiss": "Swiss"}
#: the longest event name: it heads every game's name ("NAME, round 12, board 40")
MAX_NAME = 80


class TournamentError(PbemError):
    """The organiser's or a player's request cannot be carried out (exit 1; by mail, a
    refusal in words)."""

    code = "tournament"


# -- names ---------------------------------------------------------------------------------
def game_name(event: Event, division: int, divisions: int, round: int, board: int) -> str:
    """A game's name, which heads every mail of it: the event, round and board."""
    where = f", division {division}" if divisions > 1 else ""
    return f"{event.name}{where}, round {round}, board {board}"


# -- the organiser -----------------------------------------------------------------------
def create(conn: Connection, now: datetime, *, name: str, ruleset: str, format: str,
           rounds: int | None = None, division_size: int | None = None,
           clock: str | None = None, rated: bool = True, public_delay: int | None = None,
           ends_at: datetime | None = None, webhook: str | None = None,
           hooks: HookSettings | None = None) -> Event:
    """A new event, open for entries. ``webhook`` is checked as ``pbem new --webhook``
    checks one (``hooks``: the config's webhook settings; by default no loopback)."""
    name = " ".join(name.split())
    problem = label_problem(name) if name else "is empty"
    if problem is not None:
        raise TournamentError(f"the event's name {name!r} {problem}")
    if len(name) > MAX_NAME:
        raise TournamentError(f"the event's name is longer than {MAX_NAME} characters")
    if name.isdigit():
        raise TournamentError("an event's name needs a letter (a number names a game)")
    if store.find_event(conn, name) is not None:
        raise TournamentError(f"there is an event named {name!r} already")
    if format not in FORMATS:
        raise TournamentError(f"the format is one of {', '.join(FORMATS)}, not {format!r}")
    if format == "swiss":
        if rounds is None or rounds < 1:
            raise TournamentError("a Swiss event needs --rounds N (1 or more)")
        if division_size is not None:
            raise TournamentError("a Swiss event is one division: --division-size is for "
                                  "round robins")
    elif rounds is not None:
        raise TournamentError("a round robin's rounds follow from its players: no --rounds")
    if division_size is not None and division_size < 2:
        raise TournamentError("a division needs two players at least")
    if webhook is not None:
        why = check_url(webhook, hooks or HookSettings())
        if why is not None:
            raise TournamentError(f"--webhook {webhook[:80]!r}: {why}")
    if public_delay is not None and public_delay < 0:
        raise TournamentError("--public-delay is a number of turns, 0 or more")
    try:
        rules = load_ruleset(ruleset)
    except PbemError as exc:
        raise TournamentError(str(exc)) from None
    clock_text = None
    if clock is not None and clock.strip().lower() not in ("none", "no", "off", ""):
        try:
            clock_text = format_settings(parse_settings(clock))
        except PbemError as exc:
            raise TournamentError(f"--clock: {exc}") from None
    event_id = store.add_event(
        conn, name=name, ruleset=rules.name, format=format, rounds=rounds,
        division_size=division_size, clock=clock_text, rated=rated, public_delay=public_delay,
        ends_at=ends_at.timestamp() if ends_at else None, webhook=webhook,
        now=now.timestamp())
    return store.event_by_id(conn, event_id)


def find(conn: Connection, name: str) -> Event:
    event = store.find_event(conn, name)
    if event is None:
        known = ", ".join(e.name for e in store.events(conn)) or "none"
        raise TournamentError(f"there is no event named {name.strip()!r} (events: {known})")
    return event


def enter(conn: Connection, event: Event, email: str, name: str | None = None) -> int:
    """Enter ``email`` (while entries are open); his number in the order of entry."""
    email = email.strip().lower()
    if "@" not in email or any(c.isspace() for c in email):
        raise TournamentError(f"{email!r} is not an email address")
    if event.status != "entries":
        raise TournamentError(f"the entries of {event.name} are closed: it has started")
    if name is not None:
        problem = label_problem(name)
        if problem is None and "@" in name:
            problem = "looks like an address: a name is shown to everyone"
        if problem is not None:
            raise TournamentError(f"the name {name!r} {problem}")
    if any(e.email == email for e in store.entries(conn, event.id)):
        raise TournamentError(f"{email} has entered {event.name} already")
    return store.add_entry(conn, event.id, email, name)


def entry_of(conn: Connection, event: Event, email: str) -> Entry:
    email = email.strip().lower()
    for entry in store.entries(conn, event.id):
        if entry.email == email:
            return entry
    raise TournamentError(f"{email} has not entered {event.name}")


# -- the start and the rounds ---------------------------------------------------------------
def _ratings(conn: Connection, options: Options, event: Event,
             entries: list[Entry]) -> dict[int, float]:
    """Each entrant's rating in the event's game now (the seeding), the starting one for
    a player the table does not know yet."""
    family = game_of(load_ruleset(event.ruleset)).name
    table = club_ratings(conn, options.ratings, public=False)
    found = {}
    for e in entries:
        standing = table.standing(family, e.email)
        found[e.number] = standing.rating.rating if standing else options.ratings.rating
    return found


def start(conn: Connection, mailer: Mailer, options: Options, now: datetime,
          event: Event) -> list[int]:
    """Close the entries, seed the players by rating, and start every game of a round robin
    or the first round of a Swiss event; each player gets one summary of his games. The new
    games' numbers."""
    if event.status != "entries":
        raise TournamentError(f"{event.name} has started already")
    entries = store.entries(conn, event.id)
    if len(entries) < 2:
        raise TournamentError(f"{event.name} needs two players at least "
                              f"({len(entries)} entered)")
    if event.swiss and event.rounds is not None and event.rounds >= len(entries):
        raise TournamentError(f"{len(entries)} players cannot play {event.rounds} Swiss rounds "
                              f"without meeting twice: {len(entries) - 1} at most")
    ratings = _ratings(conn, options, event, entries)
    ranked = sorted(entries, key=lambda e: (-ratings[e.number], e.number))
    sizes = [len(ranked)] if event.swiss else division_sizes(len(ranked), event.division_size)
    at = 0
    for division, size in enumerate(sizes, 1):
        for seed, entry in enumerate(ranked[at:at + size], 1):
            store.seat(conn, event.id, entry.number, ratings[entry.number], division, seed)
        at += size
    store.set_status(conn, event.id, "running", now.timestamp())
    event = store.event_by_id(conn, event.id)
    started: list[int] = []
    if event.swiss:
        started += _pair_next(conn, mailer, now, event, 1)
    else:
        for division, size in enumerate(sizes, 1):
            schedule = round_robin(size, double=event.format == "double-round-robin")
            pairs = [(g.round, g.board, g.white, g.black) for g in schedule]
            started += _open_boards(conn, mailer, now, event, division, len(sizes), pairs)
    _summaries(conn, mailer, event)
    return started


def _open_boards(conn: Connection, mailer: Mailer, now: datetime, event: Event,
                 division: int, divisions: int,
                 pairs: list[tuple[int, int, int, int | None]]) -> list[int]:
    """Start a game for every (round, board, white, black) pair, a bye row for black None."""
    seats = {e.seed: e for e in store.entries(conn, event.id) if e.division == division}
    rules = load_ruleset(event.ruleset)
    settings = parse_settings(event.clock) if event.clock else None
    started = []
    for round, board, white, black in pairs:
        if black is None:  # a Swiss bye scores; a round robin's round off is no game
            if event.swiss:
                store.add_board(conn, event.id, division, round, 0, white, None, None)
            continue
        w, b = seats[white], seats[black]
        game_id = start_game(conn, mailer, now, w.email, b.email, rules,
                             game_name(event, division, divisions, round, board),
                             display_name(w), display_name(b), settings, rated=event.rated)
        if event.webhook is not None:  # the organiser's hook, called as each game's (issue 25)
            delivery.set_game_hook(conn, game_id, event.webhook)
        store.add_board(conn, event.id, division, round, board, white, black, game_id)
        started.append(game_id)
    return started


def _pair_next(conn: Connection, mailer: Mailer, now: datetime, event: Event,
               round: int) -> list[int]:
    """Pair a Swiss event's round ``round`` (FIDE Dutch) from the rounds before it and start
    its games."""
    entries = sorted(store.entries(conn, event.id), key=lambda e: e.seed or 0)
    seated = {}
    for b in store.boards(conn, event.id):
        seated[(b.round, b.white)] = b
        if b.black is not None:
            seated[(b.round, b.black)] = b
    history: list[list[Played]] = []
    for e in entries:
        mine: list[Played] = []
        for r in range(1, round):
            row = seated.get((r, e.seed or 0))
            if row is None:
                mine.append(Played(None, None, 0, rest="absent"))
            elif row.black is None:
                mine.append(Played(None, None, 1, rest="bye"))
            else:
                had_white = row.white == e.seed
                pts = _points(row.result, had_white)
                mine.append(Played(row.black if had_white else row.white,
                                   "w" if had_white else "b", pts,
                                   forfeit=row.end_reason == "withdrew"))
        history.append(mine)
    out = frozenset(e.seed for e in entries if e.withdrawn_at is not None and e.seed)
    if len(entries) - len(out) < 2:
        return []
    assert event.rounds is not None
    pairs = pair_round([e.rating or 0.0 for e in entries], history, event.rounds, out)
    numbered: list[tuple[int, int, int, int | None]] = []
    board = 0
    for first, second in pairs:  # seeds: White, and Black or None for a bye
        if second is None:
            numbered.append((round, 0, first, None))
        else:
            board += 1
            numbered.append((round, board, first, second))
    return _open_boards(conn, mailer, now, event, 1, 1, numbered)


def _points(result: str | None, white: bool) -> float:
    pts = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}.get(result or "", 0.0)
    return pts if white else 1 - pts


def advance(conn: Connection, mailer: Mailer, now: datetime, event_id: int) -> None:
    """After a game of the event ended: when every game of the round is over, pair a Swiss
    event's next round; when every game is over and no round is left, the event is over."""
    event = store.event_by_id(conn, event_id)
    if event.status != "running":
        return
    boards = store.boards(conn, event.id)
    if any(b.game_id is not None and b.status != "over" for b in boards):
        return
    last = max((b.round for b in boards), default=0)
    if event.swiss and event.rounds is not None and last < event.rounds:
        try:
            if _pair_next(conn, mailer, now, event, last + 1):
                return
        except PairingError:  # everybody left has met everybody: the event ends here
            pass
    store.set_status(conn, event.id, "finished", now.timestamp())


def _summaries(conn: Connection, mailer: Mailer, event: Event) -> None:
    """One mail to each player: his games of the event as they start, colours and
    opponents, and how to follow the event."""
    entries = store.entries(conn, event.id)
    names = {(e.division, e.seed): display_name(e) for e in entries}
    boards = store.boards(conn, event.id)
    last = max((b.round for b in boards), default=0)
    boards = [b for b in boards if b.round == last or not event.swiss]
    for e in entries:
        lines = []
        for b in boards:
            if b.division != e.division or e.seed not in (b.white, b.black):
                continue
            if b.black is None:
                lines.append(f"  Round {b.round}: a bye (one point)")
                continue
            white = b.white == e.seed
            other = names[(b.division, b.black if white else b.white)]
            lines.append(f"  Round {b.round}, board {b.board}: game {b.game_id}, you play "
                         f"{'White' if white else 'Black'} against {other}")
        what = FORMAT_WORDS[event.format]
        later = (" The next round is paired when this one has ended; its games come as "
                 "invitations of their own." if event.swiss else "")
        text = (f"{event.name} ({what}) has started: your games are below, each with its "
                f"own invitation (reply to that mail to play in that game). All games are "
                f"played at the same time.{later}\n\n" + "\n".join(lines) +
                f"\n\nMail 'standings {event.name}' for the crosstable, or "
                f"'withdraw {event.name}' to leave the event.")
        mailer.tell_address(e.email, f"{event.name}: your games", text, kind="tournament")


# -- the tables ------------------------------------------------------------------------------
@frozen
class DivisionTable:
    number: int
    #: seed -> the name shown
    names: dict[int, str]
    rows: list[Row]
    boards: list[Board]


@frozen
class EventTable:
    event: Event
    divisions: list[DivisionTable]
    #: the entrants' names in the order of entry (before the start)
    entered: list[str]


def table(conn: Connection, event: Event) -> EventTable:
    """The event's divisions with their standings and games, as the games stand now."""
    entries = store.entries(conn, event.id)
    boards = store.boards(conn, event.id)
    found = []
    for division in sorted({e.division for e in entries if e.division is not None}):
        mine = sorted((e for e in entries if e.division == division), key=lambda e: e.seed or 0)
        entrants = [Entrant(e.seed or 0, display_name(e), e.rating or 0.0,
                            withdrawn=e.withdrawn_at is not None) for e in mine]
        rows = [Board(b.round, b.board, b.white, b.black, b.game_id,
                      b.result if b.status == "over" else None,
                      MARKED_ENDS.get(b.end_reason or ""))
                for b in boards if b.division == division]
        found.append(DivisionTable(division, {e.number: e.name for e in entrants},
                                   compute(entrants, rows, strike=not event.swiss), rows))
    return EventTable(event, found, [display_name(e) for e in entries])


def _number(value: Fraction) -> float | int:
    return int(value) if value.denominator == 1 else float(value)


def as_json(t: EventTable) -> dict[str, Any]:
    """The shape of ``pbem tournament show --json`` (issue 26), to the letter."""
    divisions = []
    for d in t.divisions:
        games: list[dict[str, Any]] = []
        for b in sorted(d.boards, key=lambda b: (b.round, b.board)):
            games.append({
                "game": b.game, "round": b.round, "white": d.names[b.white],
                "black": None if b.black is None else d.names[b.black],
                "result": "bye" if b.black is None else b.result,
            })
        divisions.append({
            "players": [d.names[n] for n in sorted(d.names)],
            "standings": [{"player": r.entrant.name, "points": _number(r.points),
                           "sonneborn_berger": _number(r.sonneborn_berger),
                           "played": r.played, "rank": r.rank} for r in d.rows],
            "games": games,
        })
    if not divisions:  # entries still open: who has entered
        divisions.append({"players": t.entered, "standings": [], "games": []})
    return {"name": t.event.name, "format": t.event.format, "status": t.event.status,
            "divisions": divisions}


def opened_line(event: Event) -> str:
    """What ``pbem tournament new`` says of the event it created."""
    return (f"{event.name}: open for entries ({event.format}, {event.ruleset}"
            f"{', clock ' + event.clock if event.clock else ', no clock'}"
            f"{'' if event.rated else ', unrated'})")


def events_overview(conn: Connection) -> list[dict[str, Any]]:
    """Every event in brief (``pbem tournaments --json``): name, format, status, ruleset,
    players entered, rounds."""
    return [{"name": e.name, "format": e.format, "status": e.status, "ruleset": e.ruleset,
             "players": len(store.entries(conn, e.id)), "rounds": e.rounds}
            for e in store.events(conn)]


def overview_lines(rows: list[dict[str, Any]]) -> list[str]:
    """``pbem tournaments``: one line per event of ``events_overview``."""
    if not rows:
        return ["no events yet (pbem tournament new NAME --format ...)"]
    return [f"{r['name']}  {r['format']}  {r['status']}  {r['ruleset']}  {r['players']} players"
            for r in rows]


def crosstable_lines(t: EventTable) -> list[str]:
    """The crosstable and standings as text (78 columns for up to 12 players a division in
    a round robin, one line per player in a Swiss event)."""
    e = t.event
    head = f"{e.name}: {FORMAT_WORDS[e.format]}"
    if e.swiss:
        head += f", {e.rounds} rounds"
    status = {"entries": "open for entries", "running": "in play", "finished": "finished"}
    if e.ends_at is not None:
        head += ", ends " + datetime.fromtimestamp(e.ends_at, UTC).strftime("%Y-%m-%d %H:%M UTC")
    lines = [f"{head} ({status[e.status]})"]
    if not t.divisions:
        lines.append("Entered: " + (", ".join(t.entered) or "nobody yet"))
        return lines
    for d in t.divisions:
        if len(t.divisions) > 1:
            lines += ["", f"Division {d.number}"]
        lines.append("")
        lines += _swiss_lines(d) if e.swiss else _round_robin_lines(d)
    lines += ["", "1 a win, ½ a draw, 0 a loss; + and - won and lost on time or by a",
              "withdrawal; * in play; (x) struck: a withdrawal before half the games.",
              "SB: Sonneborn-Berger."]
    return lines


def _name_width(d: DivisionTable) -> int:
    return max([len("Player"), *(min(len(n), 24) for n in d.names.values())])


def _round_robin_lines(d: DivisionTable) -> list[str]:
    rank_of = {r.number: r.rank for r in d.rows}
    cells: dict[tuple[int, int], list[str]] = {}
    for r in d.rows:
        for c in r.cells:
            if c.opponent is not None:
                cells.setdefault((r.number, c.opponent), []).append(c.text)
    width = max([1, *(len(" ".join(v)) for v in cells.values())])
    nw = _name_width(d)
    order = [r.number for r in d.rows]
    lines = ["Rk  " + "Player".ljust(nw) + "".join(f" {rank_of[n]:>{width}}" for n in order)
             + "   Pts     SB"]
    for r in d.rows:
        row = "".join(
            " " + ("#" * width if n == r.number else " ".join(cells.get((r.number, n), ["."]))
                   .rjust(width))
            for n in order)
        lines.append(f"{r.rank:>2}  {r.entrant.name[:24].ljust(nw)}{row} "
                     f"{format_points(r.points):>5} {_sb(r.sonneborn_berger):>6}"
                     + ("  withdrew" if r.entrant.withdrawn else ""))
    return lines


def _swiss_lines(d: DivisionTable) -> list[str]:
    rank_of = {r.number: r.rank for r in d.rows}
    rounds = max((b.round for b in d.boards), default=0)
    nw = _name_width(d)
    lines = ["Rk  " + "Player".ljust(nw) + "".join(f"  {'Rd ' + str(i):>6}"
                                                   for i in range(1, rounds + 1))
             + "   Pts     SB"]
    for r in d.rows:
        by_round = {c.round: c for c in r.cells}
        parts = []
        for i in range(1, rounds + 1):
            c = by_round.get(i)
            if c is None:
                parts.append("-")
            elif c.opponent is None:
                parts.append("bye")
            else:
                parts.append(f"{rank_of[c.opponent]}{c.colour}{c.text}")
        lines.append(f"{r.rank:>2}  {r.entrant.name[:24].ljust(nw)}"
                     + "".join(f"  {p:>6}" for p in parts)
                     + f" {format_points(r.points):>5} {_sb(r.sonneborn_berger):>6}"
                     + ("  withdrew" if r.entrant.withdrawn else ""))
    return lines


def _sb(value: Fraction) -> str:
    return f"{float(value):.2f}"


def schedule_lines(t: EventTable) -> list[str]:
    """Every game by round: board, game number, players, result."""
    lines = []
    for d in t.divisions:
        prefix = f"Division {d.number}, r" if len(t.divisions) > 1 else "R"
        for r in sorted({b.round for b in d.boards}):
            lines.append(f"{prefix}ound {r}")
            for b in sorted((b for b in d.boards if b.round == r), key=lambda b: b.board):
                if b.black is None:
                    lines.append(f"  bye       {d.names[b.white]}")
                    continue
                result = b.result or "in play"
                if b.how is not None and b.result is not None:
                    result += f" ({b.how})"
                lines.append(f"  board {b.board:<3} game {b.game:<5} {d.names[b.white]} - "
                             f"{d.names[b.black]}: {result}")
    return lines


def event_lines(t: EventTable) -> list[str]:
    """``pbem tournament show``: the crosstable and standings, then every game by round."""
    lines = crosstable_lines(t)
    if t.divisions:
        lines += ["", *schedule_lines(t)]
    return lines


def crosstable_for_game(conn: Connection, game_id: int) -> str | None:
    """The crosstable of the event a game belongs to (for its result mail), or None."""
    found = store.event_of_game(conn, game_id)
    if found is None:
        return None
    return "\n".join(crosstable_lines(table(conn, store.event_by_id(conn, found[0]))))


def game_over(conn: Connection, mailer: Mailer, now: datetime, game_id: int) -> None:
    """A game ended: if it is a game of an event, the event may go on (``advance``)."""
    found = store.event_of_game(conn, game_id)
    if found is not None:
        advance(conn, mailer, now, found[0])


def check_adjudication(conn: Connection, event: Event, game_id: int,
                       now: datetime) -> None:
    """The organiser adjudicates a game of his event only once the event's end date has
    passed (an event without one: any time), and only a game still in play."""
    found = store.event_of_game(conn, game_id)
    if found is None or found[0] != event.id:
        raise TournamentError(f"game {game_id} is not a game of {event.name}")
    if event.ends_at is not None and now.timestamp() < event.ends_at:
        when = datetime.fromtimestamp(event.ends_at, UTC).strftime("%Y-%m-%d %H:%M UTC")
        raise TournamentError(f"{event.name} ends on {when}: until then its games are played "
                              "out (or lost on the clock)")
