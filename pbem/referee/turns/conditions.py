"""Conditional turns: "if the opponent plays X, then I play Y", several levels deep.

A player mails them under his turn::

    12.Pi10i6(Bh5),Pc4g4(Ei4W)
    if Pd6d1(Be2) then Pi6j6(Bk5)
      if Ee4g4(xEi6) then Rh5(Pg4,Pi6)
    if Pd6d2 then Pc4c9

A deeper indentation nests a line under the ``if`` above it. A condition matches
the opponent's turn by the position it produces, never by its text, since one
turn can be written in several orders. This module is the pure model: parsing,
checking every line against the positions it would meet, and matching. Playing
a turn is passed in (``Play``), so the model never touches the store or the mail.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from pbem.rules.values import frozen

#: a mail may hold at most this many condition lines, nested at most this deep
MAX_LINES = 40
MAX_DEPTH = 6

#: a condition line longer than this is refused before it is read
MAX_LINE_LENGTH = 300
_WORD = re.compile(r"\S+")


class Outcome(Protocol):
    """What playing one turn gives: the position after it, or why it is refused."""

    @property
    def after(self) -> Any | None: ...

    @property
    def refusal(self) -> tuple[str, int] | None:
        """The reason in the player's words and the column (1-based) in the turn text."""
        ...


Play = Callable[[Any, str], Outcome]


@frozen
class Condition:
    """One ``if … then …`` line and the lines nested under it."""

    reply: str
    answer: str
    #: where it was written: the mail's line number and the columns of both turns
    line: int
    reply_column: int
    answer_column: int
    then: tuple[Condition, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {
            "reply": self.reply, "answer": self.answer, "line": self.line,
            "reply_column": self.reply_column, "answer_column": self.answer_column,
            "then": [c.to_json() for c in self.then],
        }

    @staticmethod
    def from_json(data: dict[str, Any]) -> Condition:
        return Condition(
            data["reply"], data["answer"], data["line"], data["reply_column"],
            data["answer_column"], tuple(Condition.from_json(c) for c in data["then"]),
        )


@dataclass(frozen=True, slots=True)
class ConditionError(Exception):
    """A condition line that cannot be kept, with where and why, in the player's words."""

    message: str
    line: int
    column: int


def is_condition_line(text: str) -> bool:
    head = text.lstrip()[:3]
    return head[:2].lower() == "if" and head[2:3] in (" ", "\t")


def _split(text: str) -> tuple[str, int, str, int] | None:
    """``if REPLY then ANSWER`` -> (reply, its column, answer, its column), 1-based.

    Split on words rather than with one pattern, so that no line can make the
    reader backtrack: the first ``then`` after the reply separates the two turns.
    """
    words = [(m.group(), m.start()) for m in _WORD.finditer(text)]
    if len(words) < 4 or words[0][0].lower() != "if":
        return None
    for i in range(2, len(words) - 1):
        if words[i][0].lower() == "then":
            reply_end = words[i - 1][1] + len(words[i - 1][0])
            reply = text[words[1][1]:reply_end]
            answer = text[words[i + 1][1]:].rstrip()
            return reply, words[1][1] + 1, answer, words[i + 1][1] + 1
    return None


def parse_conditions(lines: Sequence[tuple[int, str]]) -> tuple[Condition, ...]:
    """The tree of conditions written in ``lines`` (mail line number, text with indentation)."""
    if len(lines) > MAX_LINES:
        number, _ = lines[MAX_LINES]
        raise ConditionError(
            f"at most {MAX_LINES} conditional lines a mail; send the rest later", number, 1
        )
    # a stack of (indentation, children list); the root has indentation -1
    root: list[Any] = []
    stack: list[tuple[int, list[Any]]] = [(-1, root)]
    for number, text in lines:
        stripped = text.lstrip(" \t")
        indent = len(text) - len(stripped)
        if len(text) > MAX_LINE_LENGTH:
            raise ConditionError(
                f"a condition line has at most {MAX_LINE_LENGTH} characters", number, 1
            )
        parts = _split(text)
        if parts is None:
            raise ConditionError(
                "write a condition as: if THEIR-TURN then YOUR-TURN", number, indent + 1
            )
        reply, reply_column, answer, answer_column = parts
        while stack[-1][0] >= indent:
            stack.pop()
        if len(stack) > MAX_DEPTH:
            raise ConditionError(
                f"conditions nest at most {MAX_DEPTH} levels deep", number, indent + 1
            )
        node: list[Any] = [reply, answer, number, reply_column, answer_column, []]
        stack[-1][1].append(node)
        stack.append((indent, node[5]))
    return tuple(_freeze(n) for n in root)


def _freeze(node: list[Any]) -> Condition:
    return Condition(node[0], node[1], node[2], node[3], node[4],
                     tuple(_freeze(c) for c in node[5]))


def check_conditions(position: Any, conditions: Sequence[Condition], play: Play) -> None:
    """Every line must be a legal turn where it would be played: each reply for the
    opponent from ``position`` (the position after the player's own turn), each answer
    after its reply, each nested line after the answer above it.
    """
    for cond in conditions:
        after_reply = _played(play, position, cond.reply, cond.line, cond.reply_column, "their")
        after_answer = _played(
            play, after_reply, cond.answer, cond.line, cond.answer_column, "your"
        )
        check_conditions(after_answer, cond.then, play)


def _played(play: Play, position: Any, text: str, line: int, column: int, whose: str) -> Any:
    outcome = play(position, text)
    if outcome.refusal is not None:
        why, col = outcome.refusal
        raise ConditionError(f"{whose} turn {text} could not be played there: {why}",
                             line, column + col - 1)
    return outcome.after


@frozen
class Fired:
    """The line whose reply matched, and the conditions that stand after its answer."""

    condition: Condition
    standing: tuple[Condition, ...]


def match(position: Any, conditions: Sequence[Condition], reached: Any, play: Play) -> Fired | None:
    """The first condition whose reply, played from ``position``, gives ``reached``."""
    for cond in conditions:
        outcome = play(position, cond.reply)
        if outcome.refusal is None and outcome.after == reached:
            return Fired(cond, cond.then)
    return None


def count_lines(conditions: Sequence[Condition]) -> int:
    return sum(1 + count_lines(c.then) for c in conditions)


def format_conditions(conditions: Sequence[Condition], depth: int = 0) -> list[str]:
    """The standing set as the player would write it, two spaces a level."""
    out = []
    for c in conditions:
        out.append(f"{'  ' * depth}if {c.reply} then {c.answer}")
        out.extend(format_conditions(c.then, depth + 1))
    return out
