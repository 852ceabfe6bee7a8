"""A game's rules page (``docs/rules.md``, ``docs/games/*.md``) as a mail's text and HTML.

The referee's ``rules`` command mails the project's own rules page of the player's
game, so the mail says what the documentation says, never a second copy of the rules.
A phone shows a mail 375 pixels wide: the pages' tables (two or three columns of long
sentences) become lists, one row an item, in the text part and in the HTML alike. The
HTML comes from markdown-it (raw HTML in the page off: nothing but markdown passes).
"""

from __future__ import annotations

import re
import textwrap

from markdown_it import MarkdownIt
from markupsafe import Markup

from pbem.resources import rules_page
from pbem.rules.game import Game

WIDTH = 78
_LINK = re.compile(r"\[([^\]\n]*)\]\([^)\n]*\)")
_EMPHASIS = re.compile(r"\*\*|`")


def load_rules(game: Game) -> str:
    """The game's rules page as markdown, its tables made lists."""
    return _tables_as_lists(rules_page(game.rules_page).read_text(encoding="utf-8"))


def _cells(line: str) -> list[str]:
    return [c.strip() for c in line.strip().strip("|").split("|")]


def _tables_as_lists(text: str) -> str:
    """Every markdown table as a list: a row is an item, its cells joined by " — ", a
    first column headed "#" numbering the item."""
    out: list[str] = []
    head: list[str] | None = None
    for line in text.split("\n"):
        if not line.startswith("|"):
            head = None
            out.append(line)
            continue
        cells = _cells(line)
        if head is None:
            head = cells
            continue
        if all(set(c) <= set("-: ") for c in cells):
            continue  # the line under the header
        number = ""
        if head and head[0] == "#":
            number, cells = cells[0] + ". ", cells[1:]
        out.append("- " + number + " — ".join(c for c in cells if c))
    return "\n".join(out)


def rules_html(game: Game) -> Markup:
    """The page in HTML (headings, paragraphs, lists): simple enough for any mail program."""
    md = MarkdownIt("commonmark", {"html": False})
    return Markup(md.render(load_rules(game)))  # markdown-it escapes the text: safe


def rules_text(game: Game) -> str:
    """The page as plain text: headings underlined, paragraphs and items filled to 78
    columns, links as their words, no markdown marks."""
    blocks: list[str] = []
    para: list[str] = []

    def flush() -> None:
        if not para:
            return
        text = _plain(" ".join(x.strip() for x in para))
        if para[0].startswith("- "):
            blocks.append(textwrap.fill(text[2:], WIDTH, initial_indent="- ",
                                        subsequent_indent="  ", break_long_words=False,
                                        break_on_hyphens=False))
        else:
            blocks.append(textwrap.fill(text, WIDTH, break_long_words=False,
                                        break_on_hyphens=False))
        para.clear()

    for line in load_rules(game).split("\n"):
        if not line.strip():
            flush()
        elif line.startswith("#"):
            flush()
            title = _plain(line.lstrip("#").strip())
            rule = "=" if line.startswith("# ") else "-"
            blocks.append(f"{title}\n{rule * min(len(title), WIDTH)}")
        elif line.startswith("- "):
            flush()
            para.append(line)
        else:
            para.append(line)
    flush()
    return "\n\n".join(blocks)


def _plain(text: str) -> str:
    return _EMPHASIS.sub("", _LINK.sub(r"\1", text))
