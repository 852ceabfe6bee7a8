"""The built wheel carries the grammar and works outside the checkout."""

from __future__ import annotations

import os
import subprocess
import sys
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_wheel_ships_grammar_and_runs_outside_checkout(tmp_path: Path) -> None:
    out = tmp_path / "dist"
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet", "-w", str(out), str(ROOT)],
        check=True,
        cwd=tmp_path,
    )
    wheel = next(out.glob("pbem-*.whl"))
    names = zipfile.ZipFile(wheel).namelist()
    assert "pbem/grammar/realm.lark" in names
    assert "pbem/templates/replay.txt.j2" in names
    assert "pbem/rules/realm/turns.py" in names
    assert "pbem/games/original.yaml" in names
    assert "pbem/templates/referee/invitation.txt.j2" in names
    assert "pbem/templates/archive/viewer.js" in names
    assert "pbem/grammar/notation.md" in names
    assert "pbem/docs/rules.md" in names and "pbem/docs/games/medieval.md" in names
    site = tmp_path / "site"
    zipfile.ZipFile(wheel).extractall(site)
    # run from an empty folder with only the unpacked wheel on the path
    env = {**os.environ, "PYTHONPATH": str(site), "XDG_CACHE_HOME": str(tmp_path / "cache")}
    record = (ROOT / "games" / "sample-game-2002.realm").read_text(encoding="utf-8")
    (tmp_path / "g.realm").write_text(record, encoding="utf-8")
    run = subprocess.run(
        [sys.executable, "-m", "pbem", "validate", "g.realm"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
    )
    assert run.returncode == 0, run.stderr
    assert "valid, 1-0" in run.stdout
    replay = subprocess.run(
        [sys.executable, "-m", "pbem", "replay", "g.realm"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
    )
    assert replay.returncode == 0, replay.stderr
    assert "White 8 Realms, Black 7" in replay.stdout
    presets = subprocess.run(
        [sys.executable, "-m", "pbem", "rulesets", "original"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
    )
    assert presets.returncode == 0, presets.stderr
    assert "power_sacrifice      on" in presets.stdout
    imported = subprocess.run(
        [sys.executable, "-c", "import pbem.resources as r; print(r.grammar_path())"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    assert str(site) in imported.stdout


def test_every_package_is_listed_for_the_wheel():
    """A package missing from pyproject's list works in a checkout and breaks when installed."""
    import tomllib

    root = Path(__file__).resolve().parents[1]
    listed = set(tomllib.loads((root / "pyproject.toml").read_text())["tool"]["setuptools"][
        "packages"
    ])
    found = {
        ".".join(p.parent.relative_to(root).parts) for p in (root / "pbem").rglob("__init__.py")
    }
    assert found <= listed, sorted(found - listed)
