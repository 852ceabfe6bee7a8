"""Hand-written records of Oriental and Modern Realm: they validate, replay, draw and
list their moves through the same commands as every game; `replay --json` lists the
Warning Option's threatened groups."""

from __future__ import annotations

import json
from pathlib import Path

from pbem.cli import main

ROOT = Path(__file__).resolve().parents[2]
ORIENTAL = ROOT / "games" / "oriental-example.realm"
MODERN = ROOT / "games" / "modern-example.realm"


def test_the_hand_written_records_validate(capsys):
    assert main(["validate", str(ORIENTAL), str(MODERN)]) == 0
    out = capsys.readouterr().out
    assert "valid, 1-0 after 9 turns" in out
    assert "valid, unfinished after 3 turns" in out


def test_replay_json_and_board(capsys, tmp_path):
    assert main(["replay", "--json", str(MODERN)]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["game"] == "modern"
    assert data["board"]["b8"] == "wB" and data["board"]["a9"] == "bE"
    assert data["supply"] == {"white": {"B": 5}, "black": {"B": 8}}
    assert main(["board", str(MODERN)]) == 0
    svg = capsys.readouterr().out
    assert "counter-agent" in svg and "hq" in svg


def test_replay_json_lists_the_threatened_groups_under_warning(capsys, tmp_path):
    record = tmp_path / "warned.realm"
    record.write_text(
        ORIENTAL.read_text(encoding="utf-8")
        .replace("ruleset: oriental", "ruleset: oriental-warning")
        .replace("5.Pe1b1,Ee2a2 1-0", "*"),
        encoding="utf-8",
    )
    assert main(["replay", "--json", str(record)]) == 0
    data = json.loads(capsys.readouterr().out)
    # after 4...Ea11a1 the Black Mandarin in the corner can be closed in next turn
    assert data["to_move"] == "white"
    assert "warning" in data
    early = tmp_path / "early.realm"
    early.write_text(
        ORIENTAL.read_text(encoding="utf-8")
        .replace("ruleset: oriental", "ruleset: oriental-warning")
        .split("1.Ee5e7")[0] + "1.Ee5e7 Ee8e9 *\n",
        encoding="utf-8",
    )
    assert main(["replay", "--json", str(early)]) == 0
    assert json.loads(capsys.readouterr().out)["warning"] == []


def test_moves_lists_modern_lines_by_realm(capsys):
    assert main(["moves", str(MODERN)]) == 0
    out = capsys.readouterr().out
    assert "lines by the Realm they end in" in out and "capture it" in out
