"""The name a ruleset gets when options are laid over another (Oriental and Modern share it)."""

from __future__ import annotations

from pbem.rules.game import merged_options


def test_a_given_name_wins():
    assert merged_options({"name": "oriental", "warning": False}, {"warning": True}, "mine") == {
        "name": "mine", "warning": True,
    }


def test_without_a_name_the_options_are_spelled_after_the_base_name():
    got = merged_options({"name": "modern", "setup": "standard", "x": 1},
                         {"x": 2, "setup": "placement"})
    assert got["name"] == "modern+setup=placement+x=2"
    assert (got["setup"], got["x"]) == ("placement", 2)


def test_no_options_keep_the_base_name():
    assert merged_options({"name": "oriental"}, {})["name"] == "oriental"
