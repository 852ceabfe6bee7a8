"""The archive's viewer without a mouse and without eyes, in real headless Chromium.

Only the keyboard is used (Tab, Enter, the arrow keys, F, typing): no click. What a
screen reader would say is read from the page itself: the aria-live region, the
board's label and the board in words, which must say what ``board_words`` says.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from pbem.records.reader import read_file
from pbem.records.validate import validate_source
from pbem.render.archive import build_archive
from pbem.render.board_words import board_words
from pbem.render.frames import frames_of
from tests.render.test_archive_browser import CHROMIUM, ROOT, browser  # noqa: F401

assert CHROMIUM is not None


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("site")
    build_archive([ROOT / "games"], out, title="Bundled games")
    return out


@pytest.fixture
def page(browser):  # noqa: F811
    context = browser.new_context(viewport={"width": 1200, "height": 900})
    pg = context.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    yield pg
    assert errors == []
    context.close()


def _replay(name: str):
    (source,) = list(read_file(ROOT / "games" / f"{name}.realm"))
    return validate_source(source).replay


def _board(page) -> str:
    return page.get_attribute("#board g.pieces", "data-board") or ""


def _focused(page) -> dict[str, str]:
    return page.evaluate("""() => { const e = document.activeElement;
        const s = getComputedStyle(e);
        return {id: e.id, tag: e.tagName, text: e.textContent.trim(),
                outline: s.outlineStyle + ' ' + s.outlineWidth}; }""")


def _tab_to(page, wanted: str, limit: int = 60) -> dict[str, str]:
    """Press Tab until the element with id ``wanted`` has the focus."""
    for _ in range(limit):
        page.keyboard.press("Tab")
        now = _focused(page)
        if now["id"] == wanted:
            return now
    raise AssertionError(f"Tab never reached #{wanted}")


def test_the_viewer_by_keyboard_alone(page, site: Path) -> None:
    replay = _replay("sample-game-2002")
    frames = frames_of(replay)
    page.goto((site / "games" / "sample-game-2002.html").as_uri())
    # every control is reached by Tab, and the focus shows
    focus = _tab_to(page, "next")
    assert focus["tag"] == "BUTTON" and not focus["outline"].startswith("none"), focus
    page.keyboard.press("Enter")
    assert _board(page) == frames[1].board
    said = page.inner_text("#announce")
    assert said.startswith("1w: Bh11 - White placed a Base on h11.") and "Black to place" in said
    page.keyboard.press("End")
    assert _board(page) == frames[-1].board
    assert "The game is over" in page.inner_text("#announce")
    page.keyboard.press("PageUp")  # back a turn
    assert page.inner_text("#announce").startswith(frames[page.evaluate(
        "Number(document.getElementById('counter').textContent.split(' / ')[0])")].turn)
    page.keyboard.press("Home")
    assert _board(page) == "." * 144 and page.inner_text("#announce").startswith("Start.")
    # flip by its key: the button says it is pressed, the board says whose side it shows
    page.keyboard.press("f")
    assert page.get_attribute("#flip", "aria-pressed") == "true"
    assert "seen from Black's side" in (page.get_attribute("#board", "aria-label") or "")
    page.keyboard.press("f")
    assert page.get_attribute("#flip", "aria-pressed") == "false"
    # jump to a move: type its turn into the field
    focus = _tab_to(page, "goto-turn")
    assert not focus["outline"].startswith("none"), focus
    page.keyboard.type("11w")
    page.keyboard.press("Enter")
    i = max(n for n, f in enumerate(frames) if f.turn == "11w")
    assert _board(page) == frames[i].board
    assert page.inner_text("#announce").startswith("11w: El7a7(xBb8,xEa7) - ")
    page.fill("#goto-turn", "")
    page.keyboard.type("99w")
    page.keyboard.press("Enter")
    assert page.inner_text("#goto-error") == "No turn 99w in this game."
    assert _board(page) == frames[i].board  # nothing moved
    # or Tab to a move of the list and press Enter: the list marks the move shown
    page.focus("#movelist a[data-frame='5']")
    page.keyboard.press("Enter")
    assert _board(page) == frames[5].board
    current = page.locator("#movelist a[aria-current='step']")
    assert current.count() == 1 and current.get_attribute("data-frame") == "5"


def test_the_board_in_words_says_what_board_words_says(page, site: Path) -> None:
    # every turn's position of two games: the browser's words equal the Python ones
    for name in ("sample-game-2002", "medieval-examples"):
        replay = _replay(name)
        frames = frames_of(replay)
        page.goto((site / "games" / f"{name}.html").as_uri())
        for turn in replay.turns[:: max(1, len(replay.turns) // 8)]:
            i = max(n for n, f in enumerate(frames) if f.turn == turn.label)
            page.goto((site / "games" / f"{name}.html").as_uri() + f"#{turn.label}")
            assert _board(page) == frames[i].board
            shown = page.locator("#board-words li").all_text_contents()
            assert shown == board_words(turn.after).lines(), (name, turn.label)


def test_the_page_has_landmarks_labels_and_the_game_in_words(page, site: Path) -> None:
    page.goto((site / "games" / "sample-game-2002.html").as_uri())
    assert page.get_attribute(".controls", "role") == "toolbar"
    for button in page.locator(".controls button").all():
        assert button.get_attribute("aria-label"), button.inner_text()
    assert page.locator("main").count() == 1 and page.locator("header").count() == 1
    assert page.get_attribute("#announce", "aria-live") == "polite"
    # every turn is given in words on the page itself, without the script's help
    html = (site / "games" / "sample-game-2002.html").read_text(encoding="utf-8")
    assert "White&#39;s Power from j7 to j10 created a Base on k11" in html
    items = page.locator(".turn-words li")
    assert items.count() == len(_replay("sample-game-2002").turns)
    # the skip link is the first stop of Tab, and leads to the board
    page.keyboard.press("Tab")
    assert _focused(page)["text"] == "Skip to the board"


ANNOTATED = {
    "1.Bh11 Bh2,": "1.Bh11! {A classic start.} Bh2?! {Too early.} "
                   "[1...Be5 2.Be8 {Then White} [2.Bb5!?] 2...Bh2]",
    "9.Pg9l9(Bk8),Pj6j7(Ei7W)/": "9.Pg9l9(Bk8)!!,Pj6j7(Ei7W) {Strong.} [9.Pg9g11 {weaker}]/",
}


@pytest.fixture(scope="module")
def annotated_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    text = (ROOT / "games" / "sample-game-2002.realm").read_text(encoding="utf-8")
    for plain, annotated in ANNOTATED.items():
        assert plain in text
        text = text.replace(plain, annotated)
    folder = tmp_path_factory.mktemp("annotated")
    (folder / "annotated.realm").write_text(text, encoding="utf-8")
    out = tmp_path_factory.mktemp("site")
    build_archive([folder], out, title="Annotated")
    return out


def test_an_annotated_game_by_keyboard_into_a_side_line_and_back(page, annotated_site) -> None:
    page.goto((annotated_site / "games" / "annotated.html").as_uri())
    said = lambda: page.inner_text("#announce")  # noqa: E731
    main_board = _board(page)
    # the first action: its mark in words and its comment, shown and said
    _tab_to(page, "next")
    page.keyboard.press("Enter")
    assert "a good move" in said() and "Comment: A classic start." in said()
    assert page.inner_text("#comments").startswith("Bh11!: a good move.")
    page.keyboard.press("ArrowRight")  # 1b, where a side line branches
    assert "Comment: Too early." in said() and "press V" in said()
    after_1b = _board(page)
    # Tab to the side line in the move list, Enter steps into it
    for _ in range(80):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.getAttribute('data-line')") == "0":
            break
    else:
        raise AssertionError("Tab never reached the side line")
    page.keyboard.press("Enter")
    assert page.is_visible("#line-bar")
    assert said().startswith("In the side line instead of 1b.")
    assert "Black placed a Base on e5" in said()
    in_line = _board(page)
    assert in_line != after_1b and in_line[52] == "b"  # e5 is square 4 + 12 * 4 = 52
    page.keyboard.press("ArrowRight")  # 2.Be8 in the side line: a side line of its own
    assert "Comment: Then White" in said() and "press V" in said()
    page.keyboard.press("v")  # into the nested line: 2.Bb5!?
    assert "an interesting move" in said()
    assert _board(page)[49] == "B"  # b5 is square 1 + 12 * 4 = 49
    page.keyboard.press("Escape")
    assert said() == "Back in the side line at 2w."
    page.keyboard.press("Escape")
    assert said().startswith("Back in the game at")
    assert page.is_hidden("#line-bar")
    page.keyboard.press("Home")
    assert _board(page) == main_board
    # a side line that breaks is shown as far as it goes, with the reason
    page.keyboard.press("End")
    page.focus("a[data-line='2']")
    page.keyboard.press("Enter")
    assert "creates a White Enforcer" in page.inner_text("#line-error")
    page.keyboard.press("Escape")
    assert page.is_hidden("#line-bar")


def test_annotations_are_on_the_page_without_a_script(annotated_site) -> None:
    html = (annotated_site / "games" / "annotated.html").read_text(encoding="utf-8")
    assert "A classic start." in html and "Strong." in html
    assert "[1...Be5 2.Be8 {Then White} [2.Bb5!?] 2...Bh2]" in html
    assert '<span class="mark" title="a brilliant move">!!</span>' in html


def test_the_annotated_sample_game_by_keyboard_alone(page, site: Path) -> None:
    """games/sample-game-2002-annotated.realm: to 14b by typing it, into its side line with
    V, a step in it, and back out with Escape, without a mouse."""
    page.goto((site / "games" / "sample-game-2002-annotated.html").as_uri())
    said = lambda: page.inner_text("#announce")  # noqa: E731
    _tab_to(page, "goto-turn")
    page.keyboard.type("14b")
    page.keyboard.press("Enter")
    at_14b = _board(page)
    assert "Two captures, but too late." in said() and "a dubious move" in said()
    assert "press V" in said()
    page.keyboard.press("v")
    assert said().startswith("In the side line instead of 14b.")
    assert page.is_visible("#line-bar")
    # the line's one action, and its comment
    assert "Black's Power moved from l4 to l10" in said()
    assert "Comment: the Power alone: the captures can wait" in said()
    in_line = _board(page)
    assert in_line != at_14b and "Pl4l10" in page.inner_text("#caption")
    page.keyboard.press("Home")  # the position the side line starts from
    assert said().startswith("The position the side line starts from.")
    page.keyboard.press("Escape")
    assert said() == "Back in the game at 14b." and _board(page) == at_14b
    page.keyboard.press("ArrowRight")
    assert page.inner_text("#caption").startswith("15w")
