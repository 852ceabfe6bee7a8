"""A tighter loop over lark's own LALR tables and lexers, for text that parses.

lark's parse of a record goes through a generator, a lexer object per token, a
Python-level ``Token.__new__``, a line counter's method and a parser state's method
per token: about half of what a record's parse costs before any syntax object is
made. This loop reads the very same tables (the contextual lexer's regular
expression for each parser state, lark's parse table and its callbacks, which
hold our transformer), in one function, so that a record parses into the same
syntax objects with far fewer Python calls.

It knows only success. Where lark would raise (no terminal matches, a token the
state does not expect), ``parse`` returns ``FAILED`` and the caller parses the text
again with lark itself, which raises exactly its own error: an error's words,
line and column come from lark as before.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import lark as lark_package
from lark import Lark, Token
from lark.parsers.lalr_analysis import Shift

#: what ``Loop.parse`` returns where lark would raise
FAILED: Any = object()

#: a record with the forms records use most, parsed both ways before the loop is trusted
PROBE = """---
game: probe
result: 1-0
---
{ a comment } Set-up: 1.Bh11 Bh2, 2.Be8 Be5, 3.Bb5 Bb8, 4.Pi10 Pg3, 5.Pf7 Pd6, 6.Pc4 Pc9
7.Pi10i6(Bh5),Pc4g4(Ei4W)/Pd6d1(Be2),Pg3d3(Ed2N)
8.Pi6j6(Bk5),Ei4d4/ Pd3a3(Bb2),Ed2c2 (Figure 6)
- 9.Rh5(Pg4,Eg6N;Pi6)/Pd1L1 10.Pc4d4d6 Eh8h11off, 11...Pa3a12(xBb8,xEa7)
12.Ej4j7(xBk8,xEj7)/Rb8(Ea9N,Pa8) 1-0
"""

# an entry of the table: a shift (True, next state) or a reduction (False, (number of
# values it takes, the rule's name, its callback or None: the values as they are))
_Step = tuple[bool, Any]


def _callback(rule: Any, transformer: Any) -> Callable[[list[Any]], Any] | None:
    """What lark calls for ``rule`` (the transformer's method, children of ``_rules`` spliced
    in), without lark's wrappers: a ``_rule``'s value is the list of its children, which
    its parent splices, where lark builds a tree for the parent to take apart. None: the
    value is the list of the children as they are."""
    options = rule.options
    if options.keep_all_tokens or options.expand1 or options.template_source:
        raise ValueError(f"{rule}: lark's path only")
    if any(sym.is_term and sym.filter_out for sym in rule.expansion):
        raise ValueError(f"{rule}: filtered tokens, lark's path only")
    name = rule.alias or rule.origin.name
    method = getattr(transformer, name, None)
    if method is None and not name.startswith("_"):
        raise ValueError(f"{rule}: a tree, lark's path only")
    expand = tuple(not sym.is_term and sym.name.startswith("_") for sym in rule.expansion)
    if not any(expand):
        return method
    splice = _splice(expand)
    if method is None:
        return splice
    return lambda args: method(splice(args))


def _splice(expand: tuple[bool, ...]) -> Callable[[list[Any]], list[Any]]:
    """The children with those of ``_rules`` (``expand``) spliced in; the shapes the grammar
    has most are written out. Where the first child is spliced, its list grows in place (left
    recursion, as lark does): nothing else holds it."""
    if expand == (True,):
        return _first
    if expand == (True, False):
        return _first_and_one
    if expand == (True, True):
        return _first_and_all
    rest = tuple(enumerate(expand))[1:]

    def splice(args: list[Any]) -> list[Any]:
        out = args[0] if expand[0] else [args[0]]
        for i, spliced in rest:
            if spliced:
                out += args[i]
            else:
                out.append(args[i])
        return out

    return splice


def _first(args: list[Any]) -> list[Any]:
    return args[0]  # type: ignore[no-any-return]


def _first_and_one(args: list[Any]) -> list[Any]:
    out: list[Any] = args[0]
    out.append(args[1])
    return out


def _first_and_all(args: list[Any]) -> list[Any]:
    out: list[Any] = args[0]
    out += args[1]
    return out


#: lark releases whose tables the loop was compared on with lark's own parse, over every
#: kind of record (and the test suite compares again on the installed one): with these
#: the probe is not parsed twice at every start, which cost `pbem validate` some 7 ms
VERIFIED_LARK = frozenset({"1.1.9", "1.2.2", "1.3.1"})


def checked(lark: Lark, transformer: Any, probe: bool | None = None) -> Loop | None:
    """A ``Loop`` over ``lark``'s tables, or None where this lark's insides are not what
    the loop reads (another lark version) or where it parses ``PROBE`` otherwise than
    lark does: then every parse goes through lark itself, as before the loop.
    ``probe``: parse ``PROBE`` both ways (default: unless lark is a verified release)."""
    if probe is None:
        probe = getattr(lark_package, "__version__", None) not in VERIFIED_LARK
    try:
        built = Loop(lark, transformer)
        if not probe:
            return built
        fast, slow = built.parse(PROBE, "game"), lark.parse(PROBE, start="game")
        if fast is FAILED or fast != slow or _spans(fast) != _spans(slow):
            return None
    except Exception:  # any shape this loop does not know: lark's own path, always right
        return None
    return built


def _spans(game: Any) -> list[Any]:
    """Where each item, turn and action of a parsed game stands (equality leaves spans out)."""
    found = [game.span, game.header_span]
    for item in game.items:
        found.append(item.span)
        for turn in (getattr(item, "white", None), getattr(item, "black", None)):
            if turn is not None:
                found += [turn.span, turn.comma, *(a.span for a in turn.actions)]
    return found


class _Matchers(dict[int, Callable[..., "re.Match[str] | None"]]):
    """Each parser state's ``match``, compiled when first asked for. A lexer this loop
    cannot drive raises ValueError there, mid-parse, and the parse goes to lark."""

    def __init__(self, lexers: dict[int, Any]):
        super().__init__()
        self.lexers = lexers

    def __missing__(self, state: int) -> Callable[..., re.Match[str] | None]:
        basic = self.lexers[state]
        scanner = basic.scanner  # lark's own, which also fixes the order of its terminals
        if basic.callback or basic.re is not re or basic.use_bytes:
            raise ValueError("lexer callbacks, the regex module or bytes: lark's path only")
        pattern = "|".join(f"(?P<{t.name}>{t.pattern.to_regexp()})" for t in scanner.terminals)
        match = self[state] = re.compile(pattern, basic.g_regex_flags).match
        return match


class Loop:
    """lark's LALR parse of one ``Lark`` (contextual lexer, no post-lexer), as one loop."""

    def __init__(self, lark: Lark, transformer: Any):
        frontend = lark.parser
        lalr = frontend.parser.parser
        table = lalr.parse_table
        lexer = frontend.lexer
        callbacks = {rule: _callback(rule, transformer) for rule in lalr.callbacks}
        self.start_states: dict[str, int] = dict(table.start_states)
        self.end_states: dict[str, int] = dict(table.end_states)
        self.steps: dict[int, dict[str, _Step]] = {}
        for state, actions in table.states.items():
            steps: dict[str, _Step] = {}
            for symbol, (action, arg) in actions.items():
                if action is Shift:
                    steps[symbol] = (True, arg)
                else:
                    steps[symbol] = (False, (len(arg.expansion), arg.origin.name, callbacks[arg]))
            self.steps[state] = steps
        # each state's lexer as one compiled alternation, in lark's own order of terminals,
        # built the first time a parse reaches the state (compiling all 135 at once cost
        # every start some 45 ms; a record visits a few dozen)
        self.matchers = _Matchers(lexer.lexers)
        ignore: set[str] = set()
        newline: set[str] = set()
        for basic in lexer.lexers.values():
            ignore |= basic.ignore_types
            newline |= basic.newline_types
        self.ignore = frozenset(ignore)
        self.newline = frozenset(newline)

    def parse(self, text: str, start: str) -> Any:
        """The value lark's parse of ``text`` from ``start`` returns, or ``FAILED``."""
        steps_of, matchers = self.steps, self.matchers
        ignore, newline = self.ignore, self.newline
        make = str.__new__
        state = self.start_states[start]
        end_state = self.end_states[start]
        states = [state]
        values: list[Any] = []
        pos, end = 0, len(text)
        line, line_start = 1, 0
        kind = "$END"
        while True:
            if pos < end:
                m = matchers[state](text, pos)
                if m is None:
                    return FAILED
                kind = m.lastgroup or ""  # every terminal is a named group: never ""
                value = m.group()
                at = pos
                pos = m.end()
                token_line, token_column = line, at - line_start + 1
                if kind in newline:  # lark counts lines in these terminals only
                    count = value.count("\n")
                    if count:
                        line += count
                        line_start = at + value.rindex("\n") + 1
                if kind in ignore:
                    continue
                tok = make(Token, value)
                tok.type = kind
                tok.value = value
                tok.start_pos = at
                tok.line = token_line
                tok.column = token_column
            else:
                kind, tok = "$END", None
            while True:  # reduce until ``tok`` shifts (or, at the end, until the end state)
                step = steps_of[state].get(kind)
                if step is None:
                    return FAILED
                if step[0]:
                    if tok is None:  # lark never shifts the end
                        return FAILED
                    state = step[1]
                    states.append(state)
                    values.append(tok)
                    break
                size, name, callback = step[1]
                if size:
                    args = values[-size:]
                    del states[-size:]
                    del values[-size:]
                else:
                    args = []
                reduced = args if callback is None else callback(args)
                state = steps_of[states[-1]][name][1]
                states.append(state)
                values.append(reduced)
                if tok is None and state == end_state:
                    return reduced
