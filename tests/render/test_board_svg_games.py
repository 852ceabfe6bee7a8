"""The SVG board of the other games: each game's piece shapes and names, no facing
arrows where the game has none, and Medieval's pieces moved off shown beside it."""

from __future__ import annotations

import random
import xml.etree.ElementTree as ET

import pytest

from pbem.players.registry import policy
from pbem.render.board_svg import render_svg
from pbem.rules.registry import game_for

NS = {"svg": "http://www.w3.org/2000/svg"}


def _final(name: str, seed: int):
    game = game_for(name)
    return policy(name).generate(random.Random(seed), game.default_ruleset()).final


@pytest.mark.parametrize("name", ["classic", "medieval", "oriental", "modern"])
def test_pieces_are_named_in_the_games_words_and_never_face(name):
    game = game_for(name)
    position = game.initial(game.default_ruleset())
    root = ET.fromstring(render_svg(position))
    pieces = [el for el in root.iter() if "piece" in (el.get("class") or "").split()]
    assert len(pieces) == sum(p is not None for p in position.board)
    names = {st.name.lower() for st in game.pieces.styles}
    for el in pieces:
        assert el.get("data-facing") is None
        assert set(el.get("class").split()) & names, el.get("class")


def test_medieval_pieces_off_the_board_are_shown_beside_it():
    final = _final("medieval", 27)
    off = game_for("medieval").off_board(final)
    assert off and max(off.values()) > 0
    text = render_svg(final)
    root = ET.fromstring(text)
    shown = {el.get("class"): int(el.get("data-count")) for el in root.iter()
             if (el.get("class") or "").startswith("off ")}
    assert shown == {f"off {side.key}": n for side, n in off.items()}
    # drawn once, in the strip right of the board (the view box is wider for it)
    assert [el.get("id") for el in root.iter()].count("off-board") == 1
    assert root.get("viewBox") == "0 0 600 520"
    desc = root.find("svg:desc", NS)
    assert desc is not None and "Off the board:" in (desc.text or "")


def test_a_modern_capture_shows_the_hq_placed_and_the_piece_dislodged():
    from pathlib import Path

    from pbem.records.reader import read_file
    from pbem.records.validate import validate_source

    root = Path(__file__).resolve().parents[2]
    (source,) = list(read_file(root / "games" / "modern-example.realm"))
    replay = validate_source(source).replay
    first = replay.turns[0]  # 1w: Eb5b7(Bb8,xEa9),Pc4d4d6
    root_el = ET.fromstring(render_svg(first.after, last=first))
    events = {(el.get("class"), el.get("data-square")) for el in root_el.iter()
              if (el.get("class") or "").startswith("event ")}
    assert events == {("event hq placed", "b8"), ("event dislodged", "a9")}
    quiet = replay.turns[1]  # 1b: two lines, no capture
    root_el = ET.fromstring(render_svg(quiet.after, last=quiet))
    assert not [el for el in root_el.iter() if (el.get("class") or "").startswith("event ")]
