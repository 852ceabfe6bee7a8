"""The front matter every generated record has, read without a YAML parser.

Lines of the form ``key: value``, one per key, are read here to exactly what
``transform.load_front_matter``'s YAML reading gives (the same resolver picks each
value's type, the same constructor builds a number or a date); anything else (a
comment, a quote, a list, a blank line, a tab, a repeated key, an unusual
character) returns None and goes to YAML, which also gives the errors. Starting a
YAML parser cost about 1.5% of a generated game's validation, more than all its
lines together take here. ``tests/notation/test_plain_front_matter.py`` compares
both readings over many forms.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Collection
from typing import Any

import yaml
from yaml.constructor import SafeConstructor
from yaml.resolver import Resolver

#: one line: a short ASCII key at the margin, ``:``, spaces, a value that holds no tab
#: and only characters YAML reads as they are (no control character, no byte-order
#: mark); the spaces at the value's end are YAML's, not the value's
_LINE = re.compile(
    r"([A-Za-z_][A-Za-z0-9_-]{0,63}): +"
    # classes of what is not allowed: one of what is would cost the compiler a table of
    # every character up to U+FFFF, some 10 ms at each start
    r"([^\s\x00-\x1f\x7f-\x9f\ud800-\udfff\u2028\u2029\ufeff\ufffe\uffff]"
    r"[^\x00-\x1f\x7f-\x9f\ud800-\udfff\u2028\u2029\ufeff\ufffe\uffff]*)"
)
#: a plain value starting with one of these is no plain text to YAML
_YAML_INDICATORS = frozenset("-?:,[]{}#&*!|>'\"%@`")
#: ... and of these, the ones ``load_front_matter`` quotes, so that they mean the text
_QUOTED_INDICATORS = frozenset("*&@`%")

_STR = "tag:yaml.org,2002:str"
_BOOL = "tag:yaml.org,2002:bool"
_NULL = "tag:yaml.org,2002:null"
_resolver = Resolver()
_constructor = SafeConstructor()
#: how YAML builds a plain value of each type besides text
_BUILD: dict[str, Callable[[SafeConstructor, yaml.ScalarNode], Any]] = {
    tag: SafeConstructor.yaml_constructors[tag]
    for tag in (_BOOL, _NULL, "tag:yaml.org,2002:int", "tag:yaml.org,2002:float",
                "tag:yaml.org,2002:timestamp")
}


def _tag(value: str) -> str:
    tag: str = _resolver.resolve(yaml.ScalarNode, value, (True, False))
    return tag


@functools.lru_cache(maxsize=1024)  # most values recur (featured, 1-0, a player's name)
def _value_tag(value: str) -> str:
    return _tag(value)


@functools.lru_cache(maxsize=256)
def _text_key(key: str) -> bool:
    """YAML reads the plain key as text (``yes:`` is a boolean, ``null:`` nothing)."""
    return _tag(key) == _STR


def plain_front_matter(inner: str, text_keys: Collection[str]) -> dict[str, Any] | None:
    """The mapping the front matter lines ``inner`` hold, or None if they are not all
    plain ``key: value`` lines (then YAML reads them).

    ``text_keys``: keys whose plain value is text even where YAML reads a boolean or
    nothing (``white: No``), as ``load_front_matter`` keeps them.
    """
    data: dict[str, Any] = {}
    for line in inner.split("\n"):
        m = _LINE.fullmatch(line)
        if m is None:
            return None
        key, value = m[1], m[2].rstrip(" ")
        if key in data or not _text_key(key):  # a repeated key; ``yes:`` is no text
            return None
        first = value[0]
        if first in _QUOTED_INDICATORS or (
            first not in _YAML_INDICATORS and (": " in value or value.endswith(":"))
        ):
            data[key] = value  # quoted before YAML reads it: the text as written
            continue
        if first in _YAML_INDICATORS or " #" in value:  # a comment, a quote, a list...
            return None
        tag = _value_tag(value)
        if tag == _STR or (tag in (_BOOL, _NULL) and key in text_keys):
            data[key] = value
        elif tag in _BUILD:
            data[key] = _BUILD[tag](_constructor, yaml.ScalarNode(tag, value))
        else:  # a merge key, a value key: YAML's own business
            return None
    return data
