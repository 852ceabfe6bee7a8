"""An event's page (``events/<slug>.html``): the crosstable with a link to every game,
the standings and the schedule, for the live site and the archive alike.

Both build it from the same few facts per game, ``EventGame``: the live site from the
referee's store, the archive from the records' front matter (``event``, ``round``,
``board``, ``format``, the seeds, ``bye``; see docs/tournaments.md), so the same games give
the same page. The standings are ``pbem.tournaments.standings``'s.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import Path

from pbem.render.templates import render_template
from pbem.rules.values import frozen
from pbem.tournaments.standings import Board, Entrant, Row, compute, format_points
from pbem.tournaments.standings import Cell as Played

FORMAT_WORDS = {"round-robin": "round robin", "double-round-robin": "double round robin",
                "swiss": "Swiss"}
#: the front matter keys a game of an event carries besides ``event`` (export, archive)
EVENT_HEADERS = ("round", "board", "division", "format", "white_seed", "black_seed", "bye")


@frozen
class EventGame:
    division: int
    round: int
    #: 0 for a bye
    board: int
    white: str
    black: str | None
    white_seed: int
    black_seed: int | None
    #: the game's page (``game-12``), None for a bye
    slug: str | None
    result: str | None
    #: 'time' or 'withdrawn' when the ending is marked
    how: str | None = None


@frozen
class EventView:
    name: str
    format: str
    #: 'running' or 'finished' (as far as the games tell)
    status: str
    games: list[EventGame]
    #: names of the players who withdrew
    withdrawn: frozenset[str] = frozenset()


@frozen
class Cell:
    text: str
    href: str | None
    title: str


@frozen
class DivisionView:
    number: int
    rows: list[Row]
    #: round robin: [row][column] cells (several games to a cell in a double round robin);
    #: Swiss: [row][round]
    grid: list[list[list[Cell]]]
    columns: list[str]
    schedule: list[tuple[int, list[EventGame]]]


@frozen
class _Context:
    names: dict[int, str]
    rank: dict[int, int]
    href: dict[tuple[int, int], str]
    swiss: bool


def _cell(c: Played, me: int, ctx: _Context) -> Cell:
    """One game of a player's row as the page shows it: linked to the game's page, with
    who played it in its title."""
    white = me if c.colour == "w" else c.opponent
    opponent = ctx.names.get(c.opponent) if c.opponent is not None else None
    what = f"round {c.round}: " + (
        f"{'White' if c.colour == 'w' else 'Black'} against {opponent}" if opponent
        else "a bye")
    text = c.text
    if ctx.swiss and c.opponent is not None:
        text = f"{ctx.rank[c.opponent]}{c.colour}{c.text}"
    return Cell(text, ctx.href.get((c.round, white or 0)), what)


def event_slug(name: str) -> str:
    """The page's file name: the event's name in small letters and dashes."""
    text = re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")
    return "event-" + (text[:60] or "x")


def divisions(view: EventView, games_href: str = "../games/") -> list[DivisionView]:
    out = []
    swiss = view.format == "swiss"
    for number in sorted({g.division for g in view.games}):
        mine = [g for g in view.games if g.division == number]
        names: dict[int, str] = {}
        for g in mine:
            names[g.white_seed] = g.white
            if g.black_seed is not None and g.black is not None:
                names[g.black_seed] = g.black
        entrants = [Entrant(seed, name, -seed, withdrawn=name in view.withdrawn)
                    for seed, name in sorted(names.items())]
        boards = [Board(g.round, g.board, g.white_seed, g.black_seed,
                        int(g.slug.rsplit("-", 1)[-1]) if g.slug else None, g.result, g.how)
                  for g in mine]
        href = {(g.round, g.white_seed): f"{games_href}{g.slug}.html" for g in mine if g.slug}
        rows = compute(entrants, boards, strike=not swiss)
        rank = {r.number: r.rank for r in rows}
        ctx = _Context(names, rank, href, swiss)
        grid: list[list[list[Cell]]] = []
        rounds = sorted({g.round for g in mine})
        for r in rows:
            def cell(c: Played, me: int = r.number, ctx: _Context = ctx) -> Cell:
                return _cell(c, me, ctx)
            if swiss:
                by_round = {c.round: c for c in r.cells}
                grid.append([[cell(by_round[i])] if i in by_round else [] for i in rounds])
            else:
                grid.append([[cell(c) for c in r.cells if c.opponent == other.number]
                             for other in rows])
        columns = ([f"Rd {i}" for i in rounds] if swiss else [str(x.rank) for x in rows])
        schedule = [(i, sorted((g for g in mine if g.round == i), key=lambda g: g.board))
                    for i in rounds]
        out.append(DivisionView(number, rows, grid, columns, schedule))
    return out


def render_event_page(view: EventView, *, site_title: str) -> str:
    """The page's HTML (it sits in ``events/``, beside ``games/``)."""
    return render_template(
        "archive/tournament.html.j2", site_title=site_title, event=view,
        format_words=FORMAT_WORDS.get(view.format, view.format),
        divisions=divisions(view), points=format_points,
        sb=lambda v: f"{float(v):.2f}",
    )


def write_event_page(out: Path, view: EventView, *, site_title: str) -> str:
    """Write ``events/<slug>.html``; the slug."""
    from pbem.render.archive import write_file

    slug = event_slug(view.name)
    (out / "events").mkdir(parents=True, exist_ok=True)
    write_file(out / "events" / f"{slug}.html", render_event_page(view, site_title=site_title))
    return slug


def _int(value: object, default: int | None = None) -> int | None:
    try:
        return int(str(value))
    except (TypeError, ValueError):
        return default


def views_from_headers(games: Iterable[tuple[str, dict[str, object], str | None, str]]
                       ) -> list[EventView]:
    """The events of an archive, from each record's (slug, front matter, result, how the
    game ended in words): the games whose front matter names an event and a round. Byes
    are the ``bye`` names of a round's records; a player who withdrew is one whose game
    says so ('... withdrew from the event')."""
    found: dict[str, list[EventGame]] = {}
    formats: dict[str, str] = {}
    withdrawn: dict[str, set[str]] = {}
    byes: dict[tuple[str, int, int], str] = {}
    seeds: dict[tuple[str, int, str], int] = {}
    for slug, headers, result, ending in games:
        event, round = headers.get("event"), _int(headers.get("round"))
        if not event or round is None:
            continue
        name = str(event)
        division = _int(headers.get("division"), 1) or 1
        white, black = str(headers.get("white") or "White"), str(headers.get("black") or "Black")
        ws, bs = _int(headers.get("white_seed"), 0) or 0, _int(headers.get("black_seed"), 0) or 0
        seeds[(name, division, white)] = ws
        seeds[(name, division, black)] = bs
        formats[name] = str(headers.get("format") or "round-robin")
        how = None
        low = ending.lower()
        if "lost on time" in low:
            how = "time"
        elif "withdrew from the event" in low:
            how = "withdrawn"
            loser = black if result == "1-0" else white
            withdrawn.setdefault(name, set()).add(loser)
        if headers.get("bye"):
            byes[(name, division, round)] = str(headers["bye"])
        found.setdefault(name, []).append(EventGame(
            division, round, _int(headers.get("board"), 1) or 1, white, black, ws, bs, slug,
            result if result in ("1-0", "0-1", "1/2-1/2") else None, how))
    for (name, division, round), player in byes.items():
        seed = seeds.get((name, division, player))
        if seed is not None:
            found[name].append(EventGame(division, round, 0, player, None, seed, None, None,
                                         None))
    views = []
    for name, games_of in sorted(found.items()):
        done = all(g.result is not None for g in games_of if g.black is not None)
        views.append(EventView(name, formats[name], "finished" if done else "running",
                               games_of, frozenset(withdrawn.get(name, set()))))
    return views
