"""An event's page in real headless Chromium, on a 375-pixel phone and a 1280-pixel
screen: nothing cut off, every result a link to its game, the standings readable without
sideways scrolling. Screenshots go to build/screenshots/."""

from __future__ import annotations

from pathlib import Path

import pytest

from pbem.render.archive import copy_assets
from pbem.render.tournament_page import EventGame, EventView, write_event_page
from tests.referee.test_tournaments_by_mail import DOUBLE_ROUND_ROBIN, NAMES, SWISS_ROUNDS
from tests.render.test_archive_browser import ARGS, CHROMIUM, SHOTS, sync_playwright

WORDS = {"1-0 R": ("1-0", None), "0-1 R": ("0-1", None), "D": ("1/2-1/2", None),
         "Tw": ("0-1", "time"), "Tb": ("1-0", "time")}


def _round_robin() -> EventView:
    games, number = [], 0
    long = {**NAMES, 4: "Dan Smith-Featherstonehaugh of Cholmondeley"}  # a long name wraps
    for r, pairs in DOUBLE_ROUND_ROBIN.items():
        for board, (w, b, how) in enumerate(pairs, 1):
            number += 1
            result, marked = WORDS[how]
            games.append(EventGame(1, r, board, long[w], long[b], w, b, f"game-{number}",
                                   result, marked))
    return EventView("Spring Cup", "double-round-robin", "finished", games)


def _swiss() -> EventView:
    names = ["Amy", "Ben", "Cat", "Dov", "Eli", "Fay", "Gus"]
    games, number = [], 0
    for r, (plan, bye) in SWISS_ROUNDS.items():
        for board, ((w, b), how) in enumerate(plan.items(), 1):
            number += 1
            result, marked = WORDS[how]
            games.append(EventGame(1, r, board, names[w - 1], names[b - 1], w, b,
                                   f"game-{number}", result, marked))
        games.append(EventGame(1, r, 0, names[bye - 1], None, bye, None, None, None))
    return EventView("Autumn Swiss", "swiss", "finished", games)


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("site")
    copy_assets(out)
    write_event_page(out, _round_robin(), site_title="The Club")
    write_event_page(out, _swiss(), site_title="The Club")
    return out


@pytest.fixture(scope="module")
def browser():
    assert CHROMIUM is not None, "chromium must be installed in CI"
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


MEASURE = """() => {
  const right = (sel) => Array.from(document.querySelectorAll(sel))
      .map(e => e.getBoundingClientRect().right);
  const wraps = Array.from(document.querySelectorAll('.table-wrap'))
      .map(w => ({scroll: w.scrollWidth, client: w.clientWidth,
                  right: w.getBoundingClientRect().right,
                  standings: !!w.querySelector('table.standings')}));
  return {page: document.documentElement.scrollWidth, view: window.innerWidth,
          wraps: wraps, text: right('h1, p, li, h2, h3')};
}"""


@pytest.mark.parametrize("width", [375, 1280])
@pytest.mark.parametrize("slug,games", [("event-spring-cup", 20), ("event-autumn-swiss", 9)])
def test_the_event_page_fits(browser, site: Path, width: int, slug: str, games: int) -> None:
    context = browser.new_context(viewport={"width": width, "height": 900})
    page = context.new_page()
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto((site / "events" / f"{slug}.html").as_uri())
    m = page.evaluate(MEASURE)
    assert m["page"] <= width, m  # no sideways scrolling of the page itself
    assert max(m["text"]) <= width + 0.5, m  # every line of text within the screen
    for wrap in m["wraps"]:
        assert wrap["right"] <= width + 0.5, wrap
        if wrap["standings"] or width == 1280:  # the standings always fit; on a screen,
            assert wrap["scroll"] <= wrap["client"], wrap  # the crosstable too
    # every game is linked twice (both players' rows) and once from the schedule
    links = page.eval_on_selector_all("table.crosstable a", "as => as.map(a => a.href)")
    assert len(links) == 2 * games and len(set(links)) == games
    assert all(link.endswith(".html") and "/games/game-" in link for link in links)
    assert page.locator("ul.schedule a").count() == games
    first = page.locator("table.crosstable tbody tr").first
    assert first.locator("th.player").inner_text() in ("Ann Smith", "Amy")
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{slug}-{width}.png"), full_page=True)
    assert errors == [], errors
    context.close()
