"""Real headless Chromium (Debian's package) for the browser tests, and axe-core in it.

axe-core comes from the npm registry: ``scripts/test.sh`` runs ``npm ci`` in
``tests/axe`` (its package.json and lock pin the version). Outside CI a test that needs
a missing browser or axe-core is skipped; in CI (``CI`` set) it fails instead.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
AXE = ROOT / "tests" / "axe" / "node_modules" / "axe-core" / "axe.min.js"
ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
    "--allow-file-access-from-files",
]
#: the impacts a page may not have (axe-core's own scale: minor, moderate, serious, critical)
BLOCKING = ("serious", "critical")


def need_chromium() -> None:
    if CHROMIUM is None and not os.environ.get("CI"):
        pytest.skip("Debian's chromium is not installed (scripts/test.sh installs it)")
    if not os.environ.get("CI"):
        pytest.importorskip("playwright.sync_api")


def need_axe() -> None:
    need_chromium()
    if not AXE.is_file():
        if os.environ.get("CI"):
            raise AssertionError(f"axe-core is missing ({AXE}): scripts/test.sh installs it")
        pytest.skip("axe-core is not installed (npm ci --prefix tests/axe)")


def launch(playwright: Any) -> Any:
    assert CHROMIUM is not None, "chromium must be installed in CI"
    return playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)


def axe_violations(page: Any) -> list[dict[str, Any]]:
    """axe-core run over the page as loaded: its violations of impact serious or critical,
    each with its rule, impact, help and the HTML of up to three nodes."""
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        page.add_script_tag(path=str(AXE))
    found = page.evaluate(
        """async () => {
        const r = await axe.run(document, {resultTypes: ['violations']});
        return r.violations.map(v => ({id: v.id, impact: v.impact, help: v.help,
            nodes: v.nodes.slice(0, 3).map(n => n.html.slice(0, 200))}));
        }"""
    )
    return [v for v in found if v["impact"] in BLOCKING]
