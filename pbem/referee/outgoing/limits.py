"""How much the referee will do for one mail, one address, one game and one day.

Mail comes from anyone, so every answer is bounded: a reply quotes a few short lines
and is cut at a size, subjects are short, and answers are rate limited per address,
per game and per day, with strangers (mail that proves no key) answered once a day
at most. Outgoing mail that the server refuses for good is given up at once; a
temporary refusal is retried with a growing delay, a limited number of times. The
values come from the ``limits`` section of ``config.yaml`` (its ranges are checked by
``config_schema``); the defaults suit a club.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from pbem.referee.config.home import Config
from pbem.referee.intake.orders import Order
from pbem.referee.outgoing.compose import Outgoing
from pbem.render.prose import fill
from pbem.rules.values import frozen


@frozen
class Limits:
    #: lines of the player's mail quoted back in a refusal, and their width
    quote_lines: int = 6
    quote_width: int = 78
    #: the text of any reply is cut here (characters)
    reply_chars: int = 100_000
    #: a subject is cut (at a word) to this many characters, the game's tag not counted
    subject_chars: int = 80
    #: answers (refusals, replies to commands) to one address in 24 hours
    answers_per_address: int = 30
    #: answers about one game in 24 hours
    answers_per_game: int = 60
    #: answers to mail that proved no key (strangers, forgeries) to one address in 24 hours
    stranger_answers_per_address: int = 1
    #: answers to mail that proved no key, to all addresses together, in 24 hours
    stranger_answers_per_day: int = 100
    #: delivery attempts of one mail before it is given up (temporary failures)
    delivery_attempts: int = 10
    #: the first retry's delay (seconds); each further one waits twice as long
    retry_seconds: int = 300
    #: the longest delay between two attempts (seconds)
    retry_max_seconds: int = 6 * 3600
    #: the operator's address, told of mail given up; None: told on stderr and in the log
    operator: str | None = None


def load_limits(config: Config) -> Limits:
    """The ``limits`` section of the config and the ``operator`` address, as the config
    schema (``config_schema``) has checked them; what is not set keeps its default."""
    values: dict[str, Any] = dict(config.extra.get("limits") or {})
    operator = config.extra.get("operator")
    if operator:
        values["operator"] = str(operator).strip()
    return Limits(**values)


def short_subject(subject: str, width: int) -> str:
    """``subject`` on one line, cut at a word to at most ``width`` characters."""
    one = " ".join(subject.split())
    if len(one) <= width:
        return one
    cut = one[: width - 1]
    if " " in cut[width // 2 :]:
        cut = cut[: cut.rindex(" ")]
    return cut.rstrip(" ,;:") + "…"


#: the width of a mail's text part: a longer line is folded at its words
TEXT_WIDTH = 78


def folded(text: str, width: int = TEXT_WIDTH) -> str:
    """``text`` with every line longer than ``width`` folded at its words: the rest of a
    sentence at the margin goes on at the margin, the rest of an indented line (an item of
    a list) two spaces further in; a board's rows and a short line are kept as they are,
    and a word longer than the width is never cut."""
    if all(len(line) <= width for line in text.split("\n")):
        return text
    out = []
    for line in text.split("\n"):
        if len(line) <= width:
            out.append(line)
            continue
        indent = line[: len(line) - len(line.lstrip(" "))]
        # where its clauses end first, never inside a short bracket (issue 23.10: a
        # tie-break is not parted from its numbers)
        out.append(fill(line.strip(" "), width, indent, indent + "  " if indent else ""))
    return "\n".join(out)


def capped(out: Outgoing, limits: Limits) -> Outgoing:
    """The mail with its subject short, its text folded to 78 columns, and its text (and
    HTML) within the reply size."""
    subject = short_subject(out.subject, limits.subject_chars)
    text, html = folded(out.text), out.html
    if len(text) > limits.reply_chars:
        text = (text[: limits.reply_chars].rsplit("\n", 1)[0]
                + f"\n\n[... cut: this mail is limited to {limits.reply_chars} characters]\n")
    if html is not None and len(html) > 4 * limits.reply_chars:
        html = None  # the text part says it all; no HTML cut in the middle of a tag
    if (subject, text, html) == (out.subject, out.text, out.html):
        return out
    pictures = out.pictures if html is not None else ()
    return replace(out, subject=subject, text=text, html=html, pictures=pictures)


#: commands whose only effect is an answer: written twice, they are answered once
ANSWER_ONLY = frozenset({"board", "history", "help", "moves", "games"})


def once_each(orders: list[Order]) -> list[Order]:
    """Each command that only answers, once per mail (where it is first written): ten
    thousand ``help`` lines are one ``help``. Turns and commands that change something
    are kept, so that a repeated ``resign`` is refused as before."""
    seen: set[tuple[str, str]] = set()
    kept = []
    for order in orders:
        if order.name in ANSWER_ONLY:
            key = (order.name, order.text)
            if key in seen:
                continue
            seen.add(key)
        kept.append(order)
    return kept
