"""The From address is read from the raw header before anything is decoded (item 11)."""

from __future__ import annotations

import pytest

from pbem.referee.intake.sender import read_sender


@pytest.mark.parametrize(("header", "address", "name"), [
    ("white@players.test", "white@players.test", ""),
    ("White <White@Players.test>", "white@players.test", "White"),
    ('"White, Walter" <white@players.test>', "white@players.test", "White, Walter"),
    ("Alice (White <white@players.test>", "white@players.test", "Alice (White"),
    ("White <white@players.test> (comment", "white@players.test", "White"),
    ("white@players.test (Walter White)", "white@players.test", ""),
    ("=?utf-8?q?J=C3=BCrgen?= <juergen@players.test>", "juergen@players.test", "Jürgen"),
    ("=?utf-8?q?white=40players=2Etest?= <eve@evil.test>", "eve@evil.test",
     "white@players.test"),
    ('"Bob <white@players.test>" <eve@evil.test>', "eve@evil.test",
     "Bob <white@players.test>"),
    ("<eve@evil.test> (<white@players.test>)", "eve@evil.test", ""),
])
def test_the_address_is_the_one_the_header_structure_names(
        header: str, address: str, name: str) -> None:
    found = read_sender([header])
    assert (found.address, found.name) == (address, name)


@pytest.mark.parametrize("header", [
    "=?utf-8?q?white=40players=2Etest?=",
    "=?utf-8?q?=3Cwhite=40players=2Etest=3E?=",
    "white@players.test\x00 <eve@evil.test>",
    "eve@evil.test\x00white@players.test",
    "white@players.test, eve@evil.test",
    "<white@players.test> <eve@evil.test>",
    '"eve\\\n x"@players.test',
    '"white@players.test"@evil.test',
    "White <white@players.test",
    "",
    "x" * 3000 + "@players.test",
    "white@players.test\x1b[2J",
])
def test_a_from_that_reads_two_ways_gives_no_sender(header: str) -> None:
    found = read_sender([header])
    assert found.address == ""
    assert found.problem


def test_two_from_headers_give_no_sender() -> None:
    assert read_sender(["white@players.test", "eve@evil.test"]).address == ""
    assert read_sender([]).problem == "no From header"
