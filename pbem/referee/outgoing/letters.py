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

from pbem.render.mail_html import render_mail_html
from pbem.render.templates import render_template
from pbem.rules.values import frozen

#: a line laid out in columns: indented, or with a run of spaces or a board's rules inside
_COLUMNS = re.compile(r"^\s|\S {2,}\S|[|+]-|-[|+]")


@frozen
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


#: a line of a two-column list: two spaces, the command, two or more spaces, what it does
_ENTRY = re.compile(r"^  (\S.*?)(?: {2,}(\S.*))?$")
#: a text board: its Realms' rules (render_text's ``+-----+`` lines)
_BOARD = re.compile(r"^ *\+-{5,}\+", re.MULTILINE)
#: where the help's explanations start (help.txt.j2: two spaces, a command in 26, a space)
_COLUMN = 29
#: the next line of the explanation: indented past the command column
_MORE = re.compile(r"^ {4,}(\S.*)$")
#: a board or a table drawn with rules: never taken for a list
_RULED = re.compile(r"[|+]-|-[|+]|\|")


def columns(block: str) -> list[tuple[str, str]] | None:
    """A two-column block of the help (``  board      the board as it stands``, the
    explanation maybe going on below, indented) as (command, explanation) pairs; None when
    the block is not one. The HTML lays the pairs out as a list that stacks on a phone,
    where the text's fixed columns would break."""
    if _RULED.search(block):
        return None
    pairs: list[tuple[str, str]] = []
    lines = block.split("\n")
    for i, line in enumerate(lines):
        more = _MORE.match(line)
        if more is not None and pairs:
            command, words = pairs[-1]
            pairs[-1] = (command, f"{words} {more.group(1)}".strip())
            continue
        entry = _ENTRY.match(line)
        if entry is None:
            return None
        command, words = entry.group(1).strip(), (entry.group(2) or "").strip()
        alone = i + 1 == len(lines) or _MORE.match(lines[i + 1]) is None
        if (not words and alone and len(line) > _COLUMN + 1
                and line[_COLUMN - 1] == " " != line[_COLUMN]):
            # a command that filled its column, one space before its explanation (a
            # command with its explanation below is a long command, not this)
            command, words = line[:_COLUMN].strip(), line[_COLUMN:].strip()
        pairs.append((command, words))
    return pairs or None


def layout(text: str) -> list[tuple[str, object]]:
    """``text`` as ``blocks`` splits it, a board drawn with rules as ("board", text) (the
    HTML shows the PNG board there when the mail has one) and each two-column list as
    ("list", pairs)."""
    out: list[tuple[str, object]] = []
    for kind, block in blocks(text):
        if kind == "pre" and _BOARD.search(block):
            # the board proper ends with its last rule; what follows (the legend, the
            # score) is text of its own, shown beside a picture as well
            lines = block.split("\n")
            end = max(i for i, ln in enumerate(lines) if _BOARD.match(ln)) + 1
            out.append(("board", "\n".join(lines[:end])))
            rest = "\n".join(lines[end:]).strip("\n")
            if rest:
                out.append(("pre", rest))
            continue
        pairs = columns(block) if kind == "pre" else None
        out.append(("list", pairs) if pairs is not None else (kind, block))
    return out


def letter(name: str, **context: object) -> Letter:
    """The mail ``name`` (invitation, notice, refusal, ...) as text and HTML; with
    ``board_image`` (a ``cid:`` URL, ``report_mail.MailBoard.context``) the HTML shows the
    PNG board, its ``board_alt`` and ``board_words``, where the text shows the text board."""
    # a mail without a board picture: the templates show the text board, or none
    context = {"board_image": None, "board_alt": "", "board_words": [], **context}
    text = render_template(f"referee/{name}.txt.j2", **context)
    html = render_mail_html(f"referee/{name}.html.j2", blocks=blocks, layout=layout, **context)
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
