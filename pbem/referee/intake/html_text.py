"""HTML mail to text, in one pass over the markup.

Block elements become line breaks; scripts, styles, ``<blockquote>`` and the quote
blocks of the common mail programs (Gmail, Thunderbird, Outlook, Yahoo) are dropped.
The standard library's ``HTMLParser`` needs quadratic time on some markup (35 s for
40 KB of ``<a <a <a``); here every character is looked at a bounded number of times,
because each search for the end of a tag, comment or script starts where the last
one ended.
"""

from __future__ import annotations

import html
import re

_BLOCK = frozenset({
    "p", "div", "br", "tr", "li", "h1", "h2", "h3", "h4", "h5", "h6", "pre", "table",
})
_SKIP = frozenset({"script", "style", "head", "title", "blockquote"})
#: elements whose content is raw text up to their end tag
_RAW = frozenset({"script", "style"})
_QUOTE_MARKS = ("gmail_quote", "moz-cite-prefix", "divrplyfwdmsg", "yahoo_quoted",
                "olk_src_body_section")
_SPACES = re.compile(r"[ \t\r\n]+")
_BLANK_LINES = re.compile(r"\n{2,}")
_NAME_END = re.compile(r"[\s/>]")


def _tag(inside: str) -> tuple[str, bool, bool]:
    """A tag's name (lower case), whether it closes, whether it closes itself."""
    closing = inside.startswith("/")
    body = inside[1:] if closing else inside
    end = _NAME_END.search(body)
    name = (body[: end.start()] if end else body).lower()
    return name, closing, body.rstrip().endswith("/")


def _quote_div(inside: str) -> bool:
    low = inside.lower()
    return ("class" in low or "id" in low) and any(q in low for q in _QUOTE_MARKS)


def html_to_text(markup: str) -> str:
    parts: list[str] = []
    low = markup.lower()
    skip = 0
    pos, n = 0, len(markup)
    while pos < n:
        lt = markup.find("<", pos)
        if lt < 0:
            lt = n
        if lt > pos and not skip:
            parts.append(_SPACES.sub(" ", html.unescape(markup[pos:lt])))
        if lt >= n:
            break
        if markup.startswith("<!--", lt):
            end = markup.find("-->", lt + 4)
            pos = n if end < 0 else end + 3
            continue
        gt = markup.find(">", lt + 1)
        if gt < 0:  # an unclosed "<": the rest is text
            if not skip:
                parts.append(_SPACES.sub(" ", html.unescape(markup[lt:])))
            break
        pos = gt + 1
        inside = markup[lt + 1 : gt]
        if not inside or inside[0] in "!?":
            continue  # a doctype or processing instruction
        name, closing, self_closing = _tag(inside)
        if closing:
            if skip:
                if name in _SKIP or name == "div":
                    skip -= 1
            elif name in _BLOCK:
                parts.append("\n")
            continue
        if name in _RAW:
            end = low.find(f"</{name}", pos)
            pos = n if end < 0 else end
        if skip:
            if (name in _SKIP or name == "div") and not self_closing:
                skip += 1
            continue
        if (name in _SKIP or (name == "div" and _quote_div(inside))) and not self_closing:
            skip = 1
            continue
        if name in _BLOCK:
            parts.append("\n")
    lines = [ln.strip().replace("\xa0", " ") for ln in "".join(parts).split("\n")]
    return _BLANK_LINES.sub("\n", "\n".join(lines)).strip("\n") + "\n"
