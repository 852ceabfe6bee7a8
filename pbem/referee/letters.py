"""Every mail of the referee as a pair from templates: ``referee/NAME.txt.j2`` for the
text part and ``referee/NAME.html.j2`` for the HTML part (autoescaped, CSS inlined).

Both are rendered from the same context, so the two parts always say the same.
Text that the referee composes before it reaches a template (a notice's lines, a
board) is shown in HTML by ``blocks``: paragraphs as paragraphs, and any block
laid out in columns (a board, a table) as preformatted text.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from pbem.render.mail_html import render_mail_html
from pbem.render.templates import render_template

#: a line laid out in columns: indented, or with a run of spaces or a board's rules inside
_COLUMNS = re.compile(r"^\s|\S {2,}\S|[|+]-|-[|+]")


@dataclass(frozen=True, slots=True)
class Letter:
    text: str
    html: str


def blocks(text: str) -> list[tuple[str, str]]:
    """``text`` split at blank lines into ("p", paragraph) and ("pre", block) pieces."""
    out: list[tuple[str, str]] = []
    for block in re.split(r"\n[ \t]*\n", text.strip("\n")):
        if not block.strip():
            continue
        lines = block.split("\n")
        kind = "pre" if any(_COLUMNS.search(ln) for ln in lines) else "p"
        out.append((kind, block if kind == "pre" else " ".join(ln.strip() for ln in lines)))
    return out


def letter(name: str, **context: object) -> Letter:
    """The mail ``name`` (invitation, notice, refusal, ...) as text and HTML."""
    text = render_template(f"referee/{name}.txt.j2", **context)
    html = render_mail_html(f"referee/{name}.html.j2", blocks=blocks, **context)
    return Letter(text, html)


def help_text(token: str | None, examples: Sequence[tuple[str, str]] = (),
              notation: Sequence[tuple[str, str]] = (), agreement: bool | None = None,
              game_title: str = "") -> str:
    """How to play by mail (the ``help`` command, and the end of an invitation), with
    ``examples``: turns legal now in the reader's own game, and ``notation``: the game's
    key to its own notation (``Game.notation_key``; none: the Featured Game's usual
    lines), and what each shows;
    ``agreement``: whether the reader's game may end by agreement
    (``Game.ends_by_agreement``; None outside a game), so that ``offer end`` is listed
    only where the game allows it."""
    return render_template("referee/help.txt.j2", token=token, examples=list(examples),
                           notation=list(notation), agreement=agreement,
                           game_title=game_title)
