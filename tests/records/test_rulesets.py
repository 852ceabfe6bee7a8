"""Rulesets from presets, files and mappings; records that name them; the notation the
variations add (Power sacrifice ``Sg4(Eh4E)``, open Rearrangement ``Rh5(own;theirs)``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from pbem.cli import main
from pbem.errors import RulesetError
from pbem.notation.format import format_movetext
from pbem.notation.parse import parse_movetext
from pbem.notation.syntax import RearrangementText, SacrificeText
from pbem.records.reader import read_games
from pbem.records.rulesets import describe_ruleset, load_ruleset, preset_names
from pbem.records.validate import validate_source
from pbem.rules.geometry import Direction
from pbem.rules.pieces import Side, enforcer, power
from pbem.rules.realm.resolve import resolve_rearrangement, resolve_sacrifice
from pbem.rules.realm.ruleset import FEATURED
from pbem.rules.realm.turns import begin_turn
from tests.diagram import position_from, sq

ROOT = Path(__file__).resolve().parents[2]
W, B = Side.WHITE, Side.BLACK

SETUP = "1.Bb2 Bb11, 2.Be5 Be8, 3.Bh11 Bk5, 4.Pa1 Pa10, 5.Pd4 Pd7, 6.Pg10 Pj4\n"


def _one(text: str, path: str = "<text>"):
    (source,) = read_games(text, path)
    return validate_source(source)


# -- presets -------------------------------------------------------------------------------
def test_the_presets_are_yaml_files_in_games():
    names = preset_names()
    assert {"featured", "original"} <= set(names)
    for name in names:
        assert (ROOT / "games" / f"{name}.yaml").is_file()
        assert load_ruleset(name).name == name


def test_featured_is_the_featured_game():
    assert load_ruleset("featured").options() == FEATURED.options()


def test_original_is_the_historical_note():
    rs = load_ruleset("original")
    assert rs.differences() == {
        "bases": 13,
        "rearrangement_limit": False,
        "end_by_agreement": False,
        "tiebreak_captures": True,
        "power_sacrifice": True,
    }
    assert describe_ruleset(rs)[0] == "original: the Featured Game, except:"


def test_a_rule_turned_off_does_not_read_as_a_rule_in_force():
    """'rearrangement_limit: off: no Realm may be rearranged on three turns in a row' read
    as the rule in force (in `pbem rulesets` and in every invitation to such a game)."""
    lines = describe_ruleset(load_ruleset("original"))
    assert ("  rearrangement_limit: off (not in force: no Realm may be rearranged on three "
            "turns in a row by one player)") in lines
    assert "  power_sacrifice: on: a player may remove a Power to remobilise a friendly " \
        "Enforcer" in lines
    assert not any(": off:" in line for line in lines)


def test_a_mapping_is_a_preset_plus_overrides():
    rs = load_ruleset({"preset": "original", "checkpoint": True})
    assert rs.bases == 13 and rs.checkpoint and rs.power_sacrifice
    assert rs.name.startswith("original+")
    named = load_ruleset({"preset": "short", "name": "club rules", "enforcers": 6})
    assert named.name == "club rules" and named.bases == 11 and named.enforcers == 6


@pytest.mark.parametrize(
    "spec, code, words",
    [
        ("bogus", "ruleset.unknown", ["'bogus'", "featured", "original"]),
        ({"checkpoints": True}, "ruleset.unknown-option", ["'checkpoints'", "checkpoint"]),
        ({"bases": 20}, "ruleset.range", ["'bases'", "20", "11 to 13"]),
        ({"preset": "nope"}, "ruleset.unknown", ["'nope'"]),
        ({"powers": 3, "setup_bases": 4}, "ruleset.combination", ["powers", "setup_bases"]),
        (12, "ruleset.form", ["preset name"]),
    ],
)
def test_bad_rulesets_say_what_is_wrong(spec, code, words):
    with pytest.raises(RulesetError) as info:
        load_ruleset(spec)
    assert info.value.code == code
    for w in words:
        assert w in info.value.message


def test_a_ruleset_file_beside_the_record(tmp_path):
    (tmp_path / "club.yaml").write_text("preset: featured\nbases: 11\nfree_placement: true\n")
    rs = load_ruleset("club.yaml", base=tmp_path)
    assert rs.name == "club" and rs.bases == 11 and rs.free_placement
    (tmp_path / "broken.yaml").write_text("bases: [11\n")
    with pytest.raises(RulesetError) as info:
        load_ruleset("broken.yaml", base=tmp_path)
    assert "not valid YAML" in info.value.message and "line" in info.value.message
    (tmp_path / "a.yaml").write_text("preset: b.yaml\n")
    (tmp_path / "b.yaml").write_text("preset: a.yaml\n")
    with pytest.raises(RulesetError) as info:
        load_ruleset("a.yaml", base=tmp_path)
    assert info.value.code == "ruleset.cycle"


# -- records name their ruleset --------------------------------------------------------------
def test_a_record_with_a_ruleset_mapping_is_played_under_it():
    report = _one("---\nruleset: {preset: featured, second_player_first: true}\n---\n"
                  + SETUP + "7...Pa10a12(Bb11)\n")
    # a10 and a12 are both in the b11 Realm: the turn is refused, and it is Black's 7
    assert not report.valid
    assert report.error.turn == "7b"
    report = _one("---\nruleset: {preset: featured, second_player_first: true}\n---\n"
                  + SETUP + "7...Pj4j7\n8.Pa1a4(Bb5)/\n")
    assert report.valid, report.error
    assert [t.label for t in report.replay.turns][-2:] == ["7b", "8w"]


def test_white_first_in_a_record_where_black_moves_first_is_an_error():
    report = _one("---\nruleset: {second_player_first: true}\n---\n" + SETUP + "7.Pa1a4(Bb5)\n")
    assert not report.valid
    assert report.error.code == "record.turn-order"
    assert "Black's turn 7 is missing" in report.error.message


def test_a_bad_ruleset_in_the_front_matter_is_the_games_error_at_its_line():
    report = _one("---\ngame: x\nruleset: {preset: featured, enforcers: 12}\n---\n" + SETUP)
    assert not report.valid
    assert report.error.code == "ruleset.range"
    assert "'enforcers'" in report.error.message and "4 to 9" in report.error.message
    assert report.error.span is not None and report.error.span[:2] == (3, 10)


def test_an_unknown_ruleset_is_reported_at_its_line_and_column():
    report = _one("---\nwhite: A\nruleset:   nosuch\n---\n" + SETUP)
    assert not report.valid and report.error.code == "ruleset.unknown"
    assert "'nosuch'" in report.error.message
    assert report.error.span is not None and report.error.span[:2] == (3, 12)


def test_a_bad_setup_in_the_front_matter_is_reported_at_the_setup_line():
    report = _one("---\nruleset: featured\nsetup: {zz99: B}\n---\n" + SETUP)
    assert not report.valid
    assert report.error.span is not None and report.error.span.line == 3


def test_validate_ruleset_option_applies_to_records_that_name_none(tmp_path, capsys):
    record = tmp_path / "free.realm"
    record.write_text("1.Bb2 Bb11, 2.Be2 Be11\n")  # White's second Base shares b2's row
    assert main(["validate", str(record)]) == 1
    assert "row or column" in capsys.readouterr().out
    (tmp_path / "free.yaml").write_text("free_placement: true\n")
    assert main(["validate", "--ruleset", str(tmp_path / "free.yaml"), str(record)]) == 0
    capsys.readouterr()
    assert main(["validate", "--ruleset", "four-bases", str(record)]) == 1
    capsys.readouterr()
    assert main(["validate", "--ruleset", "nonesuch", str(record)]) == 2
    assert "unknown ruleset 'nonesuch'" in capsys.readouterr().err


# -- the notation the variations add ---------------------------------------------------------
@pytest.mark.parametrize(
    "text",
    [
        "7.Sg4(Eh4E),Eh4k4/Rh5(Pg4,Eg6N;Pi6,Ei4U)",
        "12...Sa1(Ea2N),Ea2a4,Pb1d1",
        "9.Rb2(Pa1;Pc1,Ec3S)",
    ],
)
def test_sacrifice_and_open_rearrangement_round_trip(text):
    game = parse_movetext(text)
    assert format_movetext(game).strip() == text
    assert parse_movetext(format_movetext(game)) == game


def test_sacrifice_is_resolved_against_the_position_with_lookalike_repairs():
    position = position_from(
        """
        . . .
        U . .
        P u .
        """,
        ruleset=FEATURED.with_options({"power_sacrifice": True}),
    )
    (entry,) = parse_movetext("7.SA1(Ea2N),Ea2a4").entries
    sacrifice = entry.white.actions[0]
    assert isinstance(sacrifice, SacrificeText)
    state, resolved = resolve_sacrifice(begin_turn(position), sacrifice)
    assert state.position.board[sq("a2")] == enforcer(W, Direction.N)
    assert [w.code for w in resolved.warnings] == ["repair.square"]


def test_open_rearrangement_is_resolved_with_the_opponents_pieces():
    position = position_from(
        """
        p . N
        . B .
        P . .
        """,
        ruleset=FEATURED.with_options({"rearrange_opponent": True}),
    )
    (entry,) = parse_movetext("9.Rb2(Pc1,Ea3E;Pa1)").entries
    action = entry.white.actions[0]
    assert isinstance(action, RearrangementText)
    after, resolved = resolve_rearrangement(position, action)
    assert after.board[sq("a1")] == power(B)
    assert after.board[sq("c1")] == power(W)
    assert resolved.canonical() == action


# -- a record reads no file outside its folder ------------------------------------------------
@pytest.mark.parametrize("spec", ["../outside.yaml", "{outside}", "link.yaml",
                                  "sub/../../outside.yaml", "{{preset: ../outside.yaml}}",
                                  "inner.yaml"])
def test_a_record_names_no_ruleset_file_outside_its_folder(tmp_path, capsys, spec):
    """Values of a file elsewhere must not reach `validate` output or an archive."""
    (tmp_path / "outside.yaml").write_text("name: SECRET-VALUE\nbases: 11\n")
    folder = tmp_path / "records"
    (folder / "sub").mkdir(parents=True)
    (folder / "link.yaml").symlink_to(tmp_path / "outside.yaml")
    (folder / "inner.yaml").write_text("preset: ../outside.yaml\n")
    record = folder / "game.realm"
    spec = spec.format(outside=tmp_path / "outside.yaml")
    record.write_text(f"---\nruleset: {spec}\n---\n{SETUP}")
    assert main(["validate", str(record)]) == 1
    out, _ = capsys.readouterr()
    assert "SECRET-VALUE" not in out
    assert "lies outside the record's folder" in out and "ruleset.outside" not in out
    report = validate_source(next(iter(read_games(record.read_text(), str(record)))))
    assert report.error is not None and report.error.code == "ruleset.outside"


def test_a_record_may_name_a_file_beside_it_or_below_and_any_preset(tmp_path, capsys):
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "club.yaml").write_text("preset: ../base.yaml\nfree_placement: true\n")
    (tmp_path / "base.yaml").write_text("preset: original\n")
    record = tmp_path / "game.realm"
    record.write_text(f"---\nruleset: sub/club.yaml\n---\n{SETUP}")
    rs = load_ruleset("sub/club.yaml", base=tmp_path)
    assert rs.free_placement and rs.bases == 13
    # the user's own --ruleset may still name any file
    assert load_ruleset(str(tmp_path / "base.yaml")).bases == 13


def test_a_ruleset_named_in_mail_is_a_preset_only(tmp_path):
    (tmp_path / "x.yaml").write_text("bases: 11\n")
    with pytest.raises(RulesetError) as info:
        load_ruleset(str(tmp_path / "x.yaml"), files=False)
    assert info.value.code == "ruleset.unknown" and "name a preset" in info.value.message
    assert load_ruleset("original", files=False).bases == 13
