"""The ratings table as text (``pbem ratings``) and as the sites' ``ratings.html``.

Both take the fold of ``pbem.ratings.table`` and a name for each player's key: the
archive shows the records' names, the referee display names (never an address).
"""

from __future__ import annotations

from pbem.errors import RulesetError, UsageError
from pbem.ratings.table import PROVISIONAL_DEVIATION, PROVISIONAL_WORDS, Standing, ranked
from pbem.render.templates import render_template
from pbem.rules.registry import game_for, game_names
from pbem.rules.values import frozen

PAGE = "ratings.html"
#: a name is cut to this many characters in the text table
NAME_WIDTH = 32


@frozen
class Section:
    """One game of the family: its name, its title in prose, its players best first."""

    game: str
    title: str
    rows: list[tuple[str, Standing]]


def sections(
    table: dict[str, dict[str, Standing]], names: dict[str, str], game: str | None = None
) -> list[Section]:
    """The table per game of the family, in the registry's order (``game``: that one only,
    named as ``pbem rulesets`` names games; an unknown name is a usage error)."""
    wanted = game_names()
    if game is not None:
        try:
            wanted = [game_for(game).name]
        except RulesetError as exc:  # its message names the games
            raise UsageError(str(exc)) from None
    out = []
    for name in wanted:
        rows = table.get(name)
        if not rows:
            continue
        title = game_for(name).title
        out.append(Section(name, title[:1].upper() + title[1:],
                           [(names.get(s.player, s.player), s) for s in ranked(rows)]))
    return out


def _printable(name: str) -> str:
    shown = "".join(c if c.isprintable() else "?" for c in " ".join(name.split()))
    return shown if len(shown) <= NAME_WIDTH else shown[: NAME_WIDTH - 1] + "…"


def text_table(parts: list[Section], *, asked: str | None = None) -> str:
    """The table for a terminal: one block per game, a '?' after a provisional rating."""
    if not parts:
        where = f" of {game_for(asked).title}" if asked else ""
        return f"No rated game{where} has finished yet.\n"
    lines: list[str] = []
    for part in parts:
        if lines:
            lines.append("")
        count = len(part.rows)
        lines.append(f"{part.title} ({part.game}): {count} player{'s' * (count != 1)}")
        lines.append(f"{'#':>3}  {'player':<{NAME_WIDTH}}  {'rating':>6}  {'RD':>4}  "
                     f"{'games':>5}  {'won':>4}  {'drawn':>5}  {'lost':>4}")
        for rank, (name, s) in enumerate(part.rows, 1):
            lines.append(
                f"{rank:>3}  {_printable(name):<{NAME_WIDTH}}  {s.shown():>6}  "
                f"{s.rating.deviation:>4.0f}  {s.games:>5}  {s.wins:>4}  {s.draws:>5}  "
                f"{s.losses:>4}"
            )
    lines.append("")
    lines.append(f"Glicko-2. '?' after a rating: provisional, {PROVISIONAL_WORDS}")
    lines.append(f"(its deviation, RD, is above {PROVISIONAL_DEVIATION:.0f}).")
    return "\n".join(lines) + "\n"


def ratings_page(parts: list[Section], *, title: str) -> str:
    return render_template(
        "archive/ratings.html.j2", site_title=title, sections=parts,
        provisional=f"{PROVISIONAL_DEVIATION:.0f}", provisional_words=PROVISIONAL_WORDS,
    )

