"""Every kind of mail read in headless Chromium: on a 375 px phone nothing is cut off or
wider than the screen, every board is the PNG picture, and axe-core finds no serious or
critical problem, in the mails nor on any page of the live site the games went to.

The mails come from real games by mail, one of each of the five games
(``tests/referee/every_mail.py``); the PNG boards they show by ``cid:`` are files beside
each HTML part, so the browser draws them as a mail client would. Screenshots of one mail
of each kind at 375 px land in build/screenshots/mail/.
"""

from __future__ import annotations

import pickle
from pathlib import Path

import pytest

from tests.browser import ROOT, axe_violations, launch, need_axe, need_chromium
from tests.referee.every_mail import GAMES, SentMail, every_mail, site_of

SHOTS = ROOT / "build" / "screenshots" / "mail"
#: the templates of the referee's HTML mail: every one must be among the mails read
TEMPLATES = {"report", "invitation", "result", "refusal", "reply", "notice", "digest",
             "challenge", "welcome", "unknown-sender"}
KIND_OF = {"reminder": "notice", "message": "notice", "clock": "notice", "operator": "notice"}


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("mails")
    (folder / "mails.pickle").write_bytes(pickle.dumps(every_mail(folder)))
    return folder


@pytest.fixture(scope="module")
def mails(played: Path) -> list[SentMail]:
    return pickle.loads((played / "mails.pickle").read_bytes())


@pytest.fixture(scope="module")
def browser():
    need_chromium()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = launch(p)
        yield b
        b.close()


def test_the_mails_cover_every_kind_and_every_game(mails: list[SentMail]) -> None:
    kinds = {KIND_OF.get(m.kind, m.kind) for m in mails}
    assert kinds >= TEMPLATES, TEMPLATES - kinds
    games = {m.game for m in mails if m.kind == "report"}
    assert len(games) == len(GAMES)


def _measure(page) -> dict[str, object]:
    return page.evaluate(
        """() => {
        const root = document.documentElement, view = window.innerWidth;
        const out = {scroll: root.scrollWidth, view: view, cut: [], pre: [], images: []};
        for (const e of document.body.querySelectorAll('*')) {
            const r = e.getBoundingClientRect();
            if (r.width && (r.right > view + 0.5 || r.left < -0.5)) {
                out.cut.push(e.tagName + '.' + e.className + ' ' + Math.round(r.right));
            }
            // a box that scrolls sideways hides what is past its edge
            if (e.scrollWidth > e.clientWidth + 1 && getComputedStyle(e).overflowX !== 'visible') {
                out.cut.push('scrolls: ' + e.tagName + '.' + e.className);
            }
        }
        for (const p of document.querySelectorAll('pre.board')) {
            out.pre.push(p.textContent.slice(0, 40));
        }
        for (const i of document.images) {
            out.images.push({src: i.getAttribute('src'), alt: i.alt,
                             ok: i.complete && i.naturalWidth > 0,
                             right: i.getBoundingClientRect().right});
        }
        return out; }"""
    )


def test_every_mail_fits_a_375_pixel_phone(browser, mails: list[SentMail]) -> None:
    context = browser.new_context(viewport={"width": 375, "height": 800})
    page = context.new_page()
    SHOTS.mkdir(parents=True, exist_ok=True)
    shot: set[str] = set()
    problems = []
    for mail in mails:
        page.goto(mail.html.as_uri())
        m = _measure(page)
        if m["scroll"] != m["view"] or m["cut"]:
            problems.append((mail.html.name, m["scroll"], m["cut"][:4]))
        if m["pre"]:  # a board is the PNG picture, never a text board
            problems.append((mail.html.name, "text board", m["pre"]))
        for image in m["images"]:
            if not image["ok"] or not image["alt"]:
                problems.append((mail.html.name, "image", image))
        key = f"{mail.kind}-{mail.game}"
        if key not in shot:
            shot.add(key)
            page.screenshot(path=str(SHOTS / f"{key}.png"), full_page=True)
    context.close()
    assert not problems, problems


def test_boards_are_pictures_drawn_from_the_readers_side(mails: list[SentMail]) -> None:
    # every mail of a game that shows the position has the PNG board; Black's is flipped
    for mail in mails:
        if mail.kind not in ("report", "invitation", "result", "refusal"):
            continue
        pictures = [p for p in mail.message.walk() if p.get_content_type() == "image/png"]
        assert len(pictures) == 1, (mail.html.name, mail.kind)
        html = mail.html.read_text(encoding="utf-8")
        assert "<pre class=\"board\"" not in html, mail.html.name
        black = mail.message["To"].startswith(("black@", "b-"))
        name = pictures[0].get_filename() or ""
        assert name.endswith("-black.png") == black, (mail.html.name, name)


def test_axe_finds_nothing_serious_in_any_kind_of_mail(browser, mails: list[SentMail]) -> None:
    need_axe()
    context = browser.new_context(viewport={"width": 1000, "height": 900})
    page = context.new_page()
    seen: set[tuple[str, str]] = set()
    problems = {}
    for mail in mails:
        key = (mail.kind, mail.game)
        if key in seen:  # one mail of each kind of each game
            continue
        seen.add(key)
        page.goto(mail.html.as_uri())
        found = axe_violations(page)
        if found:
            problems[mail.html.name] = found
    context.close()
    assert not problems, problems
    assert len(seen) >= len(TEMPLATES)


def test_axe_finds_nothing_serious_on_any_page_of_the_live_site(browser, played: Path) -> None:
    need_axe()
    site = site_of(played)
    pages = sorted(site.rglob("*.html"))  # every page the site writes, whatever it is
    assert len([p for p in pages if p.parent.name == "games"]) == len(GAMES)
    assert site / "index.html" in pages
    problems = {}
    for width in (1000, 375):
        context = browser.new_context(viewport={"width": width, "height": 900})
        page = context.new_page()
        for path in pages:
            page.goto(path.as_uri())
            # what a reader may open is checked too
            page.evaluate("document.querySelectorAll('details').forEach(d => d.open = true)")
            found = axe_violations(page)
            if found:
                problems[f"{path.relative_to(site)} at {width}px"] = found
        context.close()
    assert not problems, problems
