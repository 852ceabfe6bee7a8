"""axe-core over every page the archive of ``games/`` (and of an event) writes, in Chromium.

Every ``.html`` file the archive writes is checked, whatever it is (the index, the
ratings, a page per game, any page added later), on a wide screen and on a phone, with
every ``<details>`` opened and the viewer stepped to the end of its game: no violation of
impact serious or critical. The live site's pages, made by the referee from games of all
five kinds, are checked in ``tests/referee/test_mail_browser.py``.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from pbem.render.archive import build_archive
from tests.browser import ROOT, axe_violations, launch, need_axe

EVENT = """---
game: Spring Cup, round {round}
event: Spring Cup
round: {round}
board: 1
format: round-robin
white: {white}
black: {black}
white_seed: 1
black_seed: 2
ruleset: featured
result: {result}
---
1.Bh11 Bh2 {result}
"""


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The archive of games/ and of an event's three games (its event page too)."""
    event = tmp_path_factory.mktemp("event")
    for n, (white, black, result) in enumerate(
            (("Ann", "Bob", "1-0"), ("Cy", "Ann", "0-1"), ("Bob", "Cy", "1/2-1/2")), 1):
        (event / f"game-{n}.realm").write_text(
            EVENT.format(round=n, white=white, black=black, result=result), encoding="utf-8")
    out = tmp_path_factory.mktemp("archive")
    build_archive([ROOT / "games", event], out, title="Bundled games")
    return out


def test_axe_finds_nothing_serious_on_any_page_of_the_archive(site: Path) -> None:
    need_axe()
    from playwright.sync_api import sync_playwright

    pages = sorted(site.rglob("*.html"))
    assert site / "index.html" in pages and len(pages) >= 11  # index, ratings, nine games
    assert any(p.parent.name == "events" for p in pages)  # and the event's page
    problems = {}
    with sync_playwright() as p:
        browser = launch(p)
        for width in (1200, 375):
            context = browser.new_context(viewport={"width": width, "height": 900})
            page = context.new_page()
            for path in pages:
                page.goto(path.as_uri())
                page.evaluate("document.querySelectorAll('details').forEach(d => d.open = true)")
                if page.locator("#board").count():
                    page.keyboard.press("End")  # the last position: arrows, marks, the end
                found = axe_violations(page)
                if found:
                    problems[f"{path.relative_to(site)} at {width}px"] = found
            context.close()
        browser.close()
    assert not problems, problems


def test_axe_catches_what_it_should(tmp_path: Path) -> None:
    # the check can fail: an image without alt text and an unlabelled field are serious
    need_axe()
    from playwright.sync_api import sync_playwright

    bad = tmp_path / "bad.html"
    bad.write_text('<!DOCTYPE html><html lang="en"><head><title>x</title></head><body><main>'
                   '<img src="x.png"><input type="text"></main></body></html>',
                   encoding="utf-8")
    with sync_playwright() as p:
        browser = launch(p)
        page = browser.new_page()
        page.goto(bad.as_uri())
        found = {v["id"] for v in axe_violations(page)}
        browser.close()
    assert {"image-alt", "label"} <= found, found


def test_axe_finds_nothing_serious_in_an_annotated_game_inside_a_side_line(
    tmp_path: Path,
) -> None:
    need_axe()
    from playwright.sync_api import sync_playwright

    from tests.render.test_viewer_keyboard import ANNOTATED

    text = (ROOT / "games" / "sample-game-2002.realm").read_text(encoding="utf-8")
    for plain, annotated in ANNOTATED.items():
        text = text.replace(plain, annotated)
    (tmp_path / "records").mkdir()
    (tmp_path / "records" / "annotated.realm").write_text(text, encoding="utf-8")
    build_archive([tmp_path / "records"], tmp_path / "site", title="Annotated")
    with sync_playwright() as p:
        browser = launch(p)
        page = browser.new_page(viewport={"width": 1200, "height": 900})
        page.goto((tmp_path / "site" / "games" / "annotated.html").as_uri() + "#1b")
        assert axe_violations(page) == []
        page.focus("a[data-line='0']")
        page.keyboard.press("Enter")  # inside the side line: its bar and its moves
        assert page.is_visible("#line-bar")
        page.screenshot(path=str(ROOT / "build" / "screenshots" / "side-line.png"))
        assert axe_violations(page) == []
        browser.close()
