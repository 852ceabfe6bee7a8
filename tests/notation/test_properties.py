"""Properties: format and parse are inverse on canonical syntax; the real records
survive a round trip through text; and no text makes the parser or the replay
raise anything but the project's own errors."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, Phase, find, given, settings
from hypothesis import strategies as st
from hypothesis.errors import NoSuchExample

from pbem.errors import PbemError
from pbem.notation.format import format_action, format_game, format_movetext
from pbem.notation.parse import parse_game, parse_movetext
from pbem.notation.syntax import (
    EntryText,
    EventText,
    GameText,
    ItemText,
    LabelText,
    ListMarkerText,
    MoveText,
    PassText,
    PlacementText,
    RearrangementText,
    ResultText,
    SquareText,
    TurnText,
)
from pbem.records.replay import Replay, replay_game

GAMES = Path(__file__).resolve().parents[2] / "games"
SAMPLE_TEXT = (GAMES / "sample-game-2002.realm").read_text(encoding="utf-8")
WORKED_TEXT = (GAMES / "worked-example-2002.realm").read_text(encoding="utf-8")

FAST = settings(
    max_examples=300,
    derandomize=True,
    database=None,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)


def counterexample(strategy, holds, max_examples: int = 100):
    """The first value of ``strategy`` for which ``holds`` is false, or None.

    For the properties that a known bug breaks: ``find`` reports the value without
    shrinking it, and without the failing-example patch that ``@given`` leaves behind.
    """
    try:
        return find(
            strategy,
            lambda x: not holds(x),
            settings=settings(FAST, max_examples=max_examples, phases=[Phase.generate]),
        )
    except NoSuchExample:
        return None


def round_trips(game: GameText) -> bool:
    try:
        return parse_game(format_game(game)) == game
    except PbemError:
        return False


# -- strategies for canonical syntax ----------------------------------------------------
squares = st.builds(
    lambda f, r: SquareText(f"{f}{r}"), st.sampled_from("abcdefghijkl"), st.integers(1, 12)
)
directions = st.sampled_from("NESW")

# the neutral syntax of every game: "Bh11", "Eg12S", "xBb5", "xEc7", "+Ea4"
events = st.one_of(
    st.builds(lambda p, s: EventText("", p, s), st.sampled_from("BPE"), squares),
    st.builds(lambda s, d: EventText("", "E", s, d), squares, directions),
    st.builds(lambda x, p, s: EventText(x, p, s), st.sampled_from("x+"),
              st.sampled_from("BPE"), squares),
)
# two or more squares ("Eb2b5e5", "Pc4d4d6"), or one square and "off" ("Eh11off")
moves = st.one_of(
    st.builds(
        MoveText,
        st.sampled_from("PE"),
        st.lists(squares, min_size=2, max_size=4).map(tuple),
        st.none() | st.lists(events, min_size=1, max_size=3).map(tuple),
        off=st.booleans(),
    ),
    st.builds(
        MoveText,
        st.sampled_from("PE"),
        squares.map(lambda s: (s,)),
        st.none() | st.lists(events, min_size=1, max_size=3).map(tuple),
        off=st.just(True),
    ),
)
placements = st.builds(PlacementText, st.sampled_from("BPE"), squares)
items = st.one_of(
    st.builds(lambda s: ItemText("P", s), squares),
    st.builds(lambda s, d: ItemText("E", s, d), squares, st.sampled_from("NESWU")),
)
rearrangements = st.builds(
    RearrangementText, squares, st.lists(items, min_size=1, max_size=5).map(tuple)
)

# any text but braces (and lone surrogates, which are not text)
_free_text = st.text(
    alphabet=st.characters(exclude_categories=("Cs",), exclude_characters="{}"), max_size=25
)
comments = _free_text.map(lambda t: "{" + t + "}")
# "(Figure 6)": no parentheses or line break inside, and not the start of an event list
_EVENT_START = re.compile(r"[ \t]*[x+]?[BPE][A-Za-z][0-9]")
paren_notes = (
    st.text(
        alphabet=st.characters(exclude_categories=("Cs",), exclude_characters="()\n"),
        max_size=15,
    )
    .filter(lambda t: not _EVENT_START.match(t))
    .map(lambda t: "(" + t + ")")
)
notes = st.lists(comments | paren_notes, max_size=2).map(tuple)

play_turns = st.builds(
    TurnText,
    st.one_of(
        st.lists(moves, min_size=1, max_size=3).map(tuple),
        rearrangements.map(lambda r: (r,)),
        st.just((PassText(),)),
    ),
    notes,
)
# BUG (see test_notes_after_a_set_up_turn_followed_by_another): notes on a set-up turn
# do not survive when another set-up entry follows, so set-up turns carry none here
setup_turns = st.builds(lambda p: TurnText((p,)), placements)


def _is_setup(white: TurnText, black: TurnText | None) -> bool:
    return all(isinstance(a, PlacementText) for t in (white, black) if t for a in t.actions)


@st.composite
def entries(draw, black_only: bool = False) -> EntryText:
    number = draw(st.integers(0, 10_000))
    if black_only:
        return EntryText(number, None, draw(play_turns | setup_turns), False)
    setup = draw(st.booleans())
    white = draw(setup_turns if setup else play_turns)
    black = draw(st.none() | (setup_turns if setup else play_turns))
    # the canonical form writes "/" between a play entry's two turns, a space in set-up
    slash = black is not None and not _is_setup(white, black)
    return EntryText(number, white, black, slash)


results = st.builds(ResultText, st.sampled_from(["1-0", "0-1", "1/2-1/2", "*", "wins"]), notes)
labels = st.from_regex(r"[A-Za-z][A-Za-z?\-]{0,8}:", fullmatch=True).map(LabelText)
markers = st.sampled_from("-*•").map(ListMarkerText)

_plain = st.characters(codec="utf-8", exclude_categories=("Cs", "Cc"))
headers = st.dictionaries(
    st.text(_plain, min_size=1, max_size=10),
    st.text(_plain, max_size=20),
    max_size=4,
)


@st.composite
def games(draw, *, with_labels: bool = False, black_only: bool = False) -> GameText:
    out: list = []
    for _ in range(draw(st.integers(0, 6))):
        if draw(st.integers(0, 5)) == 0:
            out.append(draw(results))
            continue
        if with_labels:
            out.extend(draw(st.lists(labels | markers, max_size=1)))
        out.append(draw(entries(black_only=black_only and draw(st.booleans()))))
    return GameText(draw(headers), draw(notes), tuple(out))


# -- (a) syntax -> text -> syntax ---------------------------------------------------------------
@FAST
@given(games())
def test_round_trip_of_canonical_syntax(game):
    text = format_game(game)
    assert parse_game(text) == game


def test_the_round_trip_check_can_fail():
    # a note that is no comment cannot come back; a plain placement can
    game = GameText(items=(EntryText(1, TurnText((PlacementText("B", SquareText("h11")),)), None),))
    assert round_trips(game)
    assert not round_trips(GameText(items=(ResultText("1-0", ("{a}", "{b}")),), notes=("{",)))
    assert counterexample(st.just(game), round_trips) is None
    assert counterexample(st.just(game), lambda g: False) == game


@FAST
@given(games())
def test_round_trip_of_movetext_alone(game):
    body = GameText({}, game.notes, game.items)
    text = format_movetext(body)
    if not body.notes and not body.items:
        assert text == ""
    else:
        assert parse_movetext(text) == body


@FAST
@given(st.one_of(moves, placements, rearrangements, st.just(PassText())))
def test_each_action_reads_back_as_itself(action):
    (entry,) = parse_movetext("1." + format_action(action)).items
    assert entry.white.actions == (action,)


def test_round_trip_with_labels_and_list_markers():
    assert counterexample(games(with_labels=True), round_trips) is None


def test_round_trip_with_black_only_entries():
    assert counterexample(games(black_only=True), round_trips) is None


def test_notes_after_a_set_up_turn_followed_by_another():
    game = parse_game("1.Bh11 Bh2 {d}\n2.Be8 Be5")
    assert game.entries[0].black.notes == ("{d}",)
    assert parse_game(format_game(game)) == game


def test_two_labels_in_a_row():
    entry = EntryText(1, TurnText((PassText(),)), None)
    game = GameText(items=(LabelText("Set-up:"), LabelText("Play:"), entry))
    assert parse_game(format_game(game)).items == game.items


# -- (b) text -> syntax -> text -> syntax on the bundled records --------------------------------
@pytest.mark.parametrize("text", [SAMPLE_TEXT, WORKED_TEXT], ids=["sample", "worked"])
def test_bundled_records_survive_a_round_trip(text):
    parsed = parse_game(text)
    assert parse_game(format_game(parsed)) == parsed


@pytest.mark.parametrize("text", [SAMPLE_TEXT, WORKED_TEXT], ids=["sample", "worked"])
def test_bundled_records_keep_their_entries_in_a_round_trip(text):
    # what survives already: the front matter and every item (entries, labels, list
    # markers, the result), with their notes
    parsed = parse_game(text)
    again = parse_game(format_game(GameText(parsed.headers, (), parsed.items)))
    assert again.headers == parsed.headers
    assert again.items == parsed.items
    assert len(again.entries) == 16 if text is SAMPLE_TEXT else 8


# -- (c) fuzzing: only the project's errors, and a replay that never raises ----------------------
def _parse_and_replay(text: str) -> None:
    try:
        game = parse_game(text)
    except PbemError:
        return
    assert isinstance(game, GameText)
    replay = replay_game(game)
    assert isinstance(replay, Replay)
    assert replay.final is not None or replay.error is not None
    if replay.error is not None:
        assert replay.error.code and replay.error.message


@settings(FAST, max_examples=1000)
@given(st.text())
def test_any_text(text):
    _parse_and_replay(text)


_NOTATION_CHARS = "abcdefghijklABCDEFGHIJKLPEBRxNSWU0123456789.,/(){}-:*?…½ \n\t"


@settings(FAST, max_examples=1500)
@given(st.text(alphabet=_NOTATION_CHARS, max_size=80))
def test_text_made_of_notation_characters(text):
    _parse_and_replay(text)


@st.composite
def mutations(draw, source: str) -> str:
    text = source
    for _ in range(draw(st.integers(1, 4))):
        at = draw(st.integers(0, len(text)))
        kind = draw(st.sampled_from(["delete", "insert", "replace"]))
        char = draw(st.sampled_from(_NOTATION_CHARS) | st.characters())
        if kind == "delete":
            text = text[:at] + text[at + 1 :]
        elif kind == "insert":
            text = text[:at] + char + text[at:]
        else:
            text = text[:at] + char + text[at + 1 :]
    return text


_MOVES_START = SAMPLE_TEXT.index("Set?up:")


@settings(FAST, max_examples=1000)
@given(mutations(SAMPLE_TEXT))
def test_mutated_sample_game(text):
    _parse_and_replay(text)


@settings(FAST, max_examples=600)
@given(mutations(SAMPLE_TEXT[_MOVES_START:]))
def test_mutated_sample_moves_strict_and_tolerant(moves):
    text = SAMPLE_TEXT[:_MOVES_START] + moves
    try:
        game = parse_game(text)
    except PbemError:
        return
    for strict in (False, True):
        replay = replay_game(game, strict=strict)
        assert isinstance(replay, Replay)


def test_strict_replay_with_an_unknown_front_matter_key_does_not_raise():
    game = parse_game("---\nplayer: Ann\n---\n1.Bh11 Bh2\n")
    replay = replay_game(game, strict=True)
    assert not replay.valid
    assert replay.error.code == "record.header"


def test_tolerant_replay_warns_about_an_unknown_front_matter_key():
    game = parse_game("---\nplayer: Ann\n---\n1.Bh11 Bh2\n")
    replay = replay_game(game)
    assert replay.valid
    assert [w.code for w in replay.warnings] == ["record.header"]
    assert "'player'" in replay.warnings[0].message
