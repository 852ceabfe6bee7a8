"""The commands a player may mail, one per line (the subject counts as a line too).

A line is a command when it starts with one of the command words, a turn when
it looks like notation, and chatter otherwise ("Hi Bob, here is my move:"),
which is ignored. Each command may carry a move number, ``#23`` (before or
after it), so that a stale or repeated order is recognised and refused.
"""

from __future__ import annotations

import re

from pbem.referee.intake.extract import BodyLine
from pbem.rules.values import frozen

#: command words -> the command's name (a turn is "turn")
COMMAND_WORDS: dict[str, str] = {
    "board": "board",
    "history": "history",
    "help": "help",
    "rules": "rules",
    "resign": "resign",
    "offer end": "offer-end",
    "accept end": "accept-end",
    "decline end": "decline-end",
    "offer draw": "offer-draw",
    "accept draw": "accept-draw",
    "decline draw": "decline-draw",
    "claim": "claim",
    "moves": "moves",
    "takeback": "takeback",
    "offer takeback": "takeback",
    "accept takeback": "accept-takeback",
    "decline takeback": "decline-takeback",
    "games": "games",
    "digest on": "digest-on",
    "digest off": "digest-off",
    "unobserve": "unobserve",
    "accept challenge": "accept-challenge",
    "decline challenge": "decline-challenge",
    "withdraw challenge": "withdraw-challenge",
    "conditions": "conditions",
    "conditions cancel": "conditions-cancel",
    "cancel conditions": "conditions-cancel",
}
#: commands with arguments: name -> the whole line's pattern (lower case, spaces squeezed);
#: a line that starts with the word but does not fit is chatter, not a command
ARGUMENT_COMMANDS: dict[str, re.Pattern[str]] = {
    "vacation": re.compile(r"vacation (cancel( \d{4}-\d{1,2}-\d{1,2})?|\d{4}-\d{1,2}-\d{1,2}.*)"),
    "challenge": re.compile(r"challenge <?[^\s@<>]+@[^\s@<>]+>?( .*)?"),
    "accept-challenge": re.compile(r"accept challenge #?\d+"),
    "decline-challenge": re.compile(r"decline challenge #?\d+"),
    "withdraw-challenge": re.compile(r"withdraw challenge #?\d+"),
    "moves-after": re.compile(r"moves after \S.{0,400}"),
    "observe": re.compile(r"observe (game )?[g#]?\d+"),
    "unobserve": re.compile(r"unobserve (game )?[g#]?\d+"),
    "name": re.compile(r"name \S.{0,99}"),
    "timezone": re.compile(r"(timezone|time zone|tz) [a-z0-9_+/-]{1,64}"),
    # issue 26: an event by its name (after 'withdraw challenge N', which stays its own)
    "join": re.compile(r"join \S.{0,79}"),
    "withdraw": re.compile(r"withdraw \S.{0,79}"),
    "standings": re.compile(r"standings \S.{0,79}"),
    # issue 25: a player's webhook
    "notify": re.compile(r"notify (off|webhook \S{1,500})"),
}
_NUMBER = re.compile(r"#\s*(\d+)([wbWB]?)")
# the start of a turn in any game's notation (the neutral syntax): a move ("Pc10g10",
# "Eb2b5e5", "Eh11off"), a placement ("Bh11", "Eb5"), a Rearrangement or a Power
# sacrifice ("Rh5(", "Sg4("), or a pass; a piece letter written small ("bh2") is read
# too, so that the referee can offer the turn meant; a square off the board ("Em2e5") and
# a piece that never moves written moving ("Be5e6") are read too, so that the refusal
# names what is wrong, as ``pbem validate`` does, rather than "no orders found"
_NOTATION = re.compile(
    r"^(\d+\s*(\.|…)|[PEpe][a-lA-L1](1[0-2]|[1-9lI])([a-lA-L1]|off)|"
    r"[BPEbpe][a-lA-L1](1[0-2]|[1-9])\b|[RS][a-lA-L1](1[0-2]|[1-9])\s*\(|pass\s*$|"
    r"[BPEbpe][a-zA-Z]\d{1,2}([a-zA-Z]\d|off|\(|\b))",
)
# no two "\s*" side by side, no "[^\]]*" that runs over the next "[": linear on any subject
_SUBJECT_PREFIX = re.compile(r"^\s*(?:(?:re|aw|sv|fwd?|wg|tr)(?:\s*\[\d+\])?\s*:\s*)+", re.I)
_TAG = re.compile(r"\[realm[^\[\]]*\]", re.I)


@frozen
class Order:
    name: str  # a COMMAND_WORDS value, or "turn"
    #: the text of the turn (for "turn"), with the move number removed
    text: str
    number: int | None
    #: where it was written: a body line number (0 for the subject) and the column
    #: (1-based) where ``text`` starts in that line
    line: int
    column: int
    original: str  # the whole line as written
    #: the side letter written with the number (``#11b``: 'b'), the reports' form; or None
    side: str | None = None


def _argument_command(text: str, line: int, original: str, offset: int) -> Order | None:
    words = " ".join(text.lower().split()).rstrip(".!")
    for name, pattern in ARGUMENT_COMMANDS.items():
        if pattern.fullmatch(words):
            return Order(name, words, None, line, offset, original)
    return None


#: how a line marks a message to the opponent: 'say ...', 'message: ...'
MESSAGE_MARKS = ("say:", "say ", "message:", "msg:")


def _message(text: str, line: int, original: str, offset: int) -> Order | None:
    """A message to the opponent, as written (its case kept)."""
    low = text[:8].lower()
    for mark in MESSAGE_MARKS:
        if low.startswith(mark):
            said = text[len(mark):].strip()
            return Order("say", said, None, line, offset, original) if said else None
    return None


def _command(text: str, line: int, original: str, offset: int) -> Order | None:
    said = _message(text, line, original, offset)
    if said is not None:
        return said
    found = _argument_command(text, line, original, offset)
    if found is not None:
        return found
    number = side = None
    m = _NUMBER.search(text)
    rest, col = text, offset
    if m is not None and (m.start() == 0 or m.end() == len(text.rstrip())):
        number, side = int(m.group(1)), (m.group(2).lower() or None)
        if m.start() == 0:
            stripped = text[m.end() :]
            col += len(text) - len(stripped.lstrip())
            rest = stripped.lstrip()
        else:
            rest = text[: m.start()].rstrip()
    words = " ".join(rest.lower().split()).rstrip(".!")
    if words in COMMAND_WORDS:
        return Order(COMMAND_WORDS[words], words, number, line, col, original, side)
    if _NOTATION.match(rest.strip()):
        lead = len(rest) - len(rest.lstrip())
        return Order("turn", rest.strip(), number, line, col + lead, original, side)
    after = _after_lead_in(rest)
    if after is not None:
        return Order("turn", rest[after:].strip(), number, line, col + after, original, side)
    return None


#: a lead-in before a turn on its line ("My move: ..."): at most this long, ending in ':'
_LEAD_IN = 40


def _after_lead_in(text: str) -> int | None:
    """Where the turn starts after a short lead-in ("My move: Eb5b8", "Here goes: 7.Pa1a2"):
    a few words without digits, a colon, then notation. A colon is asked for, so that a
    sentence that names a move ("I think Pa1a2 was a mistake") stays chatter."""
    colon = text.find(":", 0, _LEAD_IN)
    if colon < 1 or any(c.isdigit() for c in text[:colon]):
        return None
    start = colon + 1
    while start < len(text) and text[start] in " \t":
        start += 1
    return start if _NOTATION.match(text[start:]) else None


#: how long a line may be to be read as a condition (longer ones are refused by the model)
_CONDITION_PEEK = 400


def _condition(text: str, line: int) -> Order | None:
    """A conditional turn, ``if THEIR-TURN then YOUR-TURN``, kept with its indentation
    (which nests it): a line that starts with ``if``, has a ``then`` word, and has a turn
    on either side of it (so that "If you like, then ..." stays chatter)."""
    stripped = text.lstrip(" \t")
    if stripped[:3].lower() not in ("if ", "if\t"):
        return None
    words = stripped[:_CONDITION_PEEK].split()
    then = next((i for i, w in enumerate(words) if w.lower() == "then"), None)
    if then is None or then < 2:
        return None
    reply = words[1]
    answer = words[then + 1] if then + 1 < len(words) else ""
    if not (_NOTATION.match(reply) or _NOTATION.match(answer)):
        return None
    return Order("if", text.rstrip(), None, line, 1, text)


def find_orders(subject: str, lines: tuple[BodyLine, ...]) -> list[Order]:
    """Every command and turn, in the order written: the subject's first."""
    orders = []
    topic = _TAG.sub(" ", _SUBJECT_PREFIX.sub("", subject)).strip()
    if topic:
        found = _command(topic, 0, subject, 1)
        if found is not None:
            orders.append(found)
    for bl in lines:
        text = bl.text
        stripped = text.lstrip()
        if not stripped:
            continue
        found = _condition(text, bl.number) or _command(
            stripped.rstrip(), bl.number, text, len(text) - len(stripped) + 1)
        if found is not None:
            orders.append(found)
    return orders
