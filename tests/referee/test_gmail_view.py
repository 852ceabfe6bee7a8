"""What Gmail shows of a turn report: the HTML part without any <svg> or <style>, its
cid: images taken from the mail's own parts, in real headless Chromium. The board
must be there, in pixels, and every image the HTML refers to must be in the mail.

The screenshot is saved as build/screenshots/gmail-report-11w.png for anyone to look at.
"""

from __future__ import annotations

import base64
import os
import re
import shutil
from email.message import Message
from pathlib import Path

import pytest

from tests.referee.conftest import REPO
from tests.referee.helpers import new_table, play_setup
from tests.referee.test_sample_by_mail import sample_turns

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
if CHROMIUM is None and not os.environ.get("CI"):
    pytest.skip("Debian's chromium is not installed (scripts/test.sh installs it)",
                allow_module_level=True)
if not os.environ.get("CI"):
    pytest.importorskip("playwright.sync_api")
from PIL import Image  # noqa: E402
from playwright.sync_api import sync_playwright  # noqa: E402

ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]
SHOTS = REPO / "build" / "screenshots"
#: the board's realm tints (pbem/render/board_svg.py): White's warm, Black's cool
WHITE_TINT, BLACK_TINT = (0xF5, 0xE2, 0xA0), (0xC3, 0xCF, 0xE0)


def as_gmail_shows_it(mail: Message) -> tuple[str, list[str]]:
    """The HTML part with every <svg> and <style> gone and each cid: image replaced by
    the mail's own part (as a data: URL); and the cids it referred to."""
    html_part = mail.get_body(("html",))
    assert html_part is not None
    html = html_part.get_content()
    html = re.sub(r"(?is)<svg\b.*?</svg>", "", html)
    html = re.sub(r"(?is)<style\b.*?</style>", "", html)
    parts = {
        str(p["Content-ID"]).strip("<>"): p for p in mail.walk() if p["Content-ID"] is not None
    }
    wanted: list[str] = []

    def resolve(m: re.Match[str]) -> str:
        cid = m.group(1)
        wanted.append(cid)
        part = parts.get(cid)
        assert part is not None, f"the HTML shows cid:{cid}, which is not in the mail"
        data = base64.b64encode(part.get_content()).decode()
        return f'src="data:{part.get_content_type()};base64,{data}"'

    html = re.sub(r'src="cid:([^"]+)"', resolve, html)
    assert not re.search(r'(?i)src="(?!data:)', html), "an image from outside the mail"
    return html, wanted


def test_a_turn_report_as_gmail_shows_it_has_the_board(tmp_path: Path, home: Path) -> None:
    table = new_table(home)
    turns = [t for t in sample_turns() if int(t[0][:-1]) <= 11][:-1]  # up to 10b
    play_setup(table, turns)
    table.send(table.white.reply(dict(sample_turns())["11w"]))
    report = next(m for m in reversed(table.black.inbox) if m["X-Pbem-Kind"] == "report")
    assert "#11w played" in report["Subject"]
    assert report.get_content_type() == "multipart/alternative"
    html, cids = as_gmail_shows_it(report)
    assert "<svg" not in html and "<style" not in html
    assert cids == ["board-11w-black@pbem"]  # Black's report: the board from his side
    assert 'style="' in html  # the CSS is inlined, so Gmail keeps it

    page_file = tmp_path / "gmail.html"
    page_file.write_text(html, encoding="utf-8")
    shot = tmp_path / "shot.png"
    with sync_playwright() as p:
        context = p.chromium.launch_persistent_context(
            str(tmp_path / "profile"), executable_path=CHROMIUM, args=ARGS,
            viewport={"width": 800, "height": 1000},
        )
        try:
            page = context.new_page()
            page.goto(page_file.as_uri())
            images = page.evaluate(
                "Array.from(document.images).map(i => [i.naturalWidth, i.complete, i.alt])"
            )
            page.screenshot(path=str(shot), full_page=True)
        finally:
            context.close()
    (width, complete, alt), = images
    assert (width, complete) == (480, True)
    # the alt text: the turn shown and what it did, whose turn it is, the score
    assert alt.startswith("The board after #11w, seen from Black's side. Turn #11w: White's ")
    assert alt.endswith("Black to move (#11b). Realms: White 8, Black 6.")
    SHOTS.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(shot, SHOTS / "gmail-report-11w.png")
    with Image.open(shot) as img:
        counts = {rgb: n for n, rgb in img.convert("RGB").getcolors(maxcolors=1 << 24)}
    # the board shows: thousands of pixels of each side's realm colour
    assert counts.get(WHITE_TINT, 0) > 5000, counts.get(WHITE_TINT)
    assert counts.get(BLACK_TINT, 0) > 5000, counts.get(BLACK_TINT)


def test_without_a_png_renderer_the_report_has_the_text_board(home: Path, monkeypatch) -> None:
    import sys

    monkeypatch.setitem(sys.modules, "resvg_py", None)  # as if it could not load
    table = new_table(home)
    # a position no other test mails first (pictures are kept per position in a process)
    assert table.send(table.white.reply("Bk2")).outcome == "accepted"
    report = table.black.last
    assert report["X-Pbem-Kind"] == "report"
    html = report.get_body(("html",)).get_content()
    assert "<pre" in html and "cid:" not in html and "<svg" not in html
    assert [p for p in report.walk() if p.get_content_type() == "image/png"] == []
