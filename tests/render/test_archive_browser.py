"""The archive in real headless Chromium (Debian's package): index, viewer, fragments.

Screenshots of the index and a game page are saved under build/screenshots/ for
anyone to look at. CI installs chromium (scripts/test.sh); on a machine without
it, the test is skipped outside CI and fails inside CI.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from pbem.records.reader import read_file
from pbem.records.validate import validate_source
from pbem.render.archive import build_archive
from pbem.render.frames import frames_of

ROOT = Path(__file__).resolve().parents[2]
SHOTS = ROOT / "build" / "screenshots"
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")

if CHROMIUM is None and not os.environ.get("CI"):
    pytest.skip("Debian's chromium is not installed (scripts/test.sh installs it)",
                allow_module_level=True)

playwright = pytest.importorskip("playwright.sync_api") if not os.environ.get("CI") else None
from playwright.sync_api import Page, sync_playwright  # noqa: E402

ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
    "--allow-file-access-from-files",
]


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("site")
    build_archive([ROOT / "games"], out, title="Bundled games")
    return out


@pytest.fixture(scope="module")
def browser():
    assert CHROMIUM is not None, "chromium must be installed in CI"
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport={"width": 1200, "height": 900})
    pg = context.new_page()
    errors: list[str] = []
    pg.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.errors = errors  # type: ignore[attr-defined]
    yield pg
    assert errors == [], errors  # no console errors on any page
    context.close()


def _frames(name: str = "sample-game-2002"):
    (source,) = list(read_file(ROOT / "games" / f"{name}.realm"))
    return frames_of(validate_source(source).replay)


def _board(page: Page) -> str:
    return page.get_attribute("#board g.pieces", "data-board") or ""


def test_index_lists_sorts_and_filters(page: Page, site: Path) -> None:
    page.goto((site / "index.html").as_uri())
    rows = page.locator("#games tbody tr")
    assert rows.count() == 7  # the sample game twice: as printed and annotated
    listing = page.inner_text("#games")
    assert "Sample Game" in listing and "Worked Example" in listing
    assert "Classic Realm" in listing and "Medieval Realm" in listing
    assert "A short Oriental game" in listing and "Modern Realm" in listing
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "index.png"), full_page=True)
    page.click("th:has-text('Turns')")
    first = page.inner_text("#games tbody tr:first-child td:nth-child(2)")
    page.click("th:has-text('Turns')")
    assert page.inner_text("#games tbody tr:first-child td:nth-child(2)") != first
    page.fill("#filter", "worked")
    assert page.locator("#games tbody tr:not([hidden])").count() == 1


def test_viewer_steps_and_the_board_changes(page: Page, site: Path) -> None:
    frames = _frames()
    page.goto((site / "games" / "sample-game-2002.html").as_uri())
    last = len(frames) - 1
    assert page.inner_text("#counter") == f"0 / {last}"  # a game opens at its start
    assert _board(page) == "." * 144
    page.keyboard.press("End")
    assert page.inner_text("#counter") == f"{last} / {last}"
    assert _board(page) == frames[-1].board
    page.keyboard.press("ArrowLeft")
    assert page.inner_text("#counter") == f"{last - 1} / {last}"
    assert _board(page) == frames[-2].board != frames[-1].board
    page.click("#next")
    assert _board(page) == frames[-1].board
    page.click("#first")
    assert _board(page) == "." * 144
    page.click("#next")
    assert _board(page) == frames[1].board and "Bh11" in page.inner_text("#caption")
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.goto((site / "games" / "sample-game-2002.html").as_uri() + "#11w")
    page.screenshot(path=str(SHOTS / "game-sample-11w.png"), full_page=True)


def test_url_fragment_opens_the_turn_and_moves_are_clickable(page: Page, site: Path) -> None:
    frames = _frames()
    page.goto((site / "games" / "sample-game-2002.html").as_uri() + "#11w")
    i = max(n for n, f in enumerate(frames) if f.turn == "11w")
    assert _board(page) == frames[i].board
    assert page.inner_text("#caption").startswith("11w")
    assert page.locator("#board .immobilised-mark").count() == frames[i].board.count("U") + frames[
        i
    ].board.count("u")
    page.click("#movelist a:has-text('Pf7f12(Be11)')")
    j = next(n for n, f in enumerate(frames) if f.notation == "Pf7f12(Be11)")
    assert _board(page) == frames[j].board
    assert page.evaluate("location.hash") == "#10w.1"
    page.goto((site / "games" / "sample-game-2002.html").as_uri() + "#10w.1")
    assert _board(page) == frames[j].board


def _boxes(page: Page) -> dict[str, dict[str, float]]:
    """The laid-out boxes of the viewer's parts, as the browser measured them."""
    return page.evaluate(
        """() => {
        const box = (sel) => { const r = document.querySelector(sel).getBoundingClientRect();
            return {left: r.left, right: r.right, top: r.top, bottom: r.bottom,
                    width: r.width, height: r.height}; };
        const out = {page: {width: document.documentElement.scrollWidth,
                            view: window.innerWidth}};
        for (const sel of ['#board', '.controls', '#caption', '#status', '.legend',
                           '#movelist', '#last', '#flip']) { out[sel] = box(sel); }
        return out; }"""
    )


@pytest.fixture(scope="module")
def resigned_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from tests.render.test_archive import RESIGNED

    folder = tmp_path_factory.mktemp("records")
    (folder / "resigned.realm").write_text(RESIGNED, encoding="utf-8")
    (folder / "sample.realm").write_text(
        (ROOT / "games" / "sample-game-2002.realm").read_text(encoding="utf-8"), encoding="utf-8"
    )
    out = tmp_path_factory.mktemp("site")
    build_archive([folder], out, title="Phone")
    return out


@pytest.mark.parametrize("name", ["sample", "resigned"])
def test_the_viewer_fits_a_390_pixel_phone(browser, resigned_site: Path, name: str) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    page.goto((resigned_site / "games" / f"{name}.html").as_uri() + "#7b")
    b = _boxes(page)
    assert b["page"]["width"] <= 390, b["page"]  # no sideways scrolling: nothing cut off
    for part in ("#board", ".controls", "#caption", "#status", ".legend", "#movelist",
                 "#last", "#flip"):
        assert b[part]["left"] >= 0 and b[part]["right"] <= 390, (part, b[part])
        assert b[part]["width"] > 0, part
    assert b["#board"]["width"] >= 340  # the board takes the phone's width
    assert abs(b["#board"]["width"] - b["#board"]["height"]) < 1
    assert b["#movelist"]["top"] >= b["#board"]["bottom"]  # the move list below the board
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"phone-{name}-7b.png"), full_page=True)
    page.goto((resigned_site / "index.html").as_uri())
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    cells = page.evaluate(
        "Array.from(document.querySelectorAll('#games td')).filter(td => td.offsetWidth)"
        ".map(td => td.getBoundingClientRect().right)"
    )
    assert cells and max(cells) <= 390  # every column readable: one card per game
    page.fill("#filter", "resigned")
    assert page.locator("#games tbody tr:visible").count() == 1
    page.screenshot(path=str(SHOTS / "phone-index.png"), full_page=True)
    context.close()


def test_the_move_list_sits_beside_the_board_on_a_wide_screen(browser, resigned_site: Path) -> None:
    context = browser.new_context(viewport={"width": 1200, "height": 900})
    page = context.new_page()
    page.goto((resigned_site / "games" / "resigned.html").as_uri())
    page.keyboard.press("End")
    b = _boxes(page)
    assert b["#movelist"]["left"] >= b["#board"]["right"]  # beside, not below
    assert b["page"]["width"] <= 1200
    assert page.inner_text("#status").endswith("The game is over: White resigned. Black wins, 0-1.")
    assert page.locator("#movelist tbody th").all_inner_texts()[-1] == "7."
    pieces = page.locator("#legend-pieces li").all_inner_texts()
    assert [p.strip() for p in pieces] == [
        "Base", "Enforcer, pointing the way it faces", "Power", "immobilised Enforcer (on a bar)"]
    assert page.locator("#legend-pieces svg .piece").count() == 4
    context.close()
    context = browser.new_context(viewport={"width": 900, "height": 900})
    page = context.new_page()
    page.goto((resigned_site / "games" / "resigned.html").as_uri())
    b = _boxes(page)
    assert b["#movelist"]["top"] >= b["#board"]["bottom"]  # under 1000 px: below
    context.close()


@pytest.mark.parametrize("name", ["classic-examples", "medieval-examples"])
def test_the_viewer_steps_through_a_classic_and_a_medieval_game(
    page: Page, site: Path, name: str
) -> None:
    frames = _frames(name)
    page.goto((site / "games" / f"{name}.html").as_uri())
    last = len(frames) - 1
    assert _board(page) == frames[0].board != "." * 144  # the set-up stands at the start
    page.keyboard.press("End")
    assert page.inner_text("#counter") == f"{last} / {last}"
    assert _board(page) == frames[-1].board
    page.keyboard.press("ArrowLeft")
    assert _board(page) == frames[-2].board != frames[-1].board


def test_the_ratings_page_lists_the_club_after_a_few_games(
    page: Page, tmp_path: Path
) -> None:
    from tests.ratings.club_records import write_club

    site = tmp_path / "site"
    build_archive([write_club(tmp_path / "club")], site, title="Club")
    page.goto((site / "index.html").as_uri())
    page.click("#ratings-link")
    assert page.url.endswith("/ratings.html")
    featured = page.locator("#ratings-featured tbody tr")
    assert featured.count() == 3
    players = [featured.nth(i).locator("td.player").inner_text() for i in range(3)]
    assert players == ["Ann", "Cy <script>", "Bob"]  # a name shows as text
    assert featured.nth(0).locator("td.rating").inner_text() == "1854?"
    assert page.locator("#ratings-classic tbody tr").count() == 2
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "ratings.png"), full_page=True)
    page.click("text=← Club")
    assert page.url.endswith("/index.html")


def test_medieval_pieces_moved_off_stand_beside_the_board_and_step(
    browser, tmp_path: Path
) -> None:
    from tests.render.test_archive import medieval_record

    folder = tmp_path / "records"
    folder.mkdir()
    text = medieval_record()
    (folder / "medieval.realm").write_text(text, encoding="utf-8")
    build_archive([folder], tmp_path / "site", title="Medieval")
    (source,) = list(read_file(folder / "medieval.realm"))
    frames = frames_of(validate_source(source).replay)
    context = browser.new_context(viewport={"width": 1200, "height": 900})
    page = context.new_page()
    page.goto((tmp_path / "site" / "games" / "medieval.html").as_uri())

    def shown() -> dict[str, int]:
        # the SVG board's classes ("off white", "off black")
        return {cls[0]: page.locator(f"#off-board g.off.{cls} circle:not(.side-mark)").count()
                for cls in ("white", "black")}

    assert shown() == {"w": 0, "b": 0}
    page.keyboard.press("End")
    assert shown() == dict(zip("wb", frames[-1].off, strict=True)) and max(frames[-1].off) > 0
    # one step back over the turn that last moved a piece off: one disc fewer
    i = max(n for n in range(1, len(frames)) if frames[n].off != frames[n - 1].off)
    page.goto((tmp_path / "site" / "games" / "medieval.html").as_uri() + f"#{frames[i].turn}")
    before = shown()
    assert before == dict(zip("wb", frames[i].off, strict=True))
    page.keyboard.press("ArrowLeft")
    assert shown() == dict(zip("wb", frames[i - 1].off, strict=True)) != before
    # beside the board, right of its squares, as the SVG boards draw them; White's pile
    # by the edge White's pieces leave by (the top), Black's below; flipped, the other way
    page.keyboard.press("End")
    box = page.evaluate("""() => {
        const r = s => document.querySelector(s).getBoundingClientRect();
        const squares = r('#board g.squares'), off = r('#off-board');
        const w = document.querySelector('#off-board text');
        return {squaresRight: squares.right, offLeft: off.left, boardRight: r('#board').right,
                whiteY: w.getBoundingClientRect().top, boardTop: r('#board').top,
                boardHeight: r('#board').height}; }""")
    assert box["squaresRight"] <= box["offLeft"] < box["boardRight"]
    assert box["whiteY"] - box["boardTop"] < box["boardHeight"] / 2
    page.click("#flip")
    flipped = page.evaluate(
        "document.querySelector('#off-board text').getBoundingClientRect().top"
        " - document.querySelector('#board').getBoundingClientRect().top")
    assert flipped > box["boardHeight"] / 2
    texts = page.locator("#off-board text").all_text_contents()
    assert [w for t in texts for w in t.split()] == [
        "off", str(frames[-1].off[0]), "off", str(frames[-1].off[1])]
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "game-medieval-end.png"), full_page=True)
    context.close()
