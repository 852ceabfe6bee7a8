"""A record's folder (where its own ruleset file may lie) is ``Path(path).parent``,
however the path is written, though it is built once per folder."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pbem.records.validate import record_folder

FORMS = ["a/b.realm", "b.realm", "/x.realm", "//x.realm", "///x.realm", "a//b.realm",
         "a/./b.realm", "./b.realm", "../b.realm", "a/..", "a/.", "a/", "a/b.realm/", "",
         ".", "..", "/", "a/b/c/d.realm", " a/b ", "a\\b.realm"]


@pytest.mark.parametrize("path", FORMS)
def test_the_folder_is_pathlibs_parent(path):
    assert record_folder(path) == Path(path).parent
    assert str(record_folder(path)) == str(Path(path).parent)


@settings(max_examples=500, deadline=None)
@given(st.text(alphabet="ab./ \\", max_size=12))
def test_the_folder_is_pathlibs_parent_for_any_path(path):
    if not path.startswith("<"):
        assert str(record_folder(path)) == str(Path(path).parent)


def test_a_record_that_is_no_file_has_no_folder():
    assert record_folder("<text>") is None
    assert record_folder("<mail 17>") is None
