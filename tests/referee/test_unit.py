"""The unit of work says what it does: an offer is an ``Offer`` above the store, and its
stored text (``'draw:w'``) is read and written by the store alone."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from pbem.referee.store.offers import Offer, OfferKind, from_stored, stored
from pbem.rules.pieces import Side

PKG = Path(__file__).resolve().parents[2] / "pbem"


@pytest.mark.parametrize("text, offer", [
    ("draw:w", Offer(OfferKind.DRAW, Side.WHITE)),
    ("end:b", Offer(OfferKind.END, Side.BLACK)),
    ("takeback:w", Offer(OfferKind.TAKEBACK, Side.WHITE)),
    (None, None),
])
def test_an_offer_is_stored_as_it_always_was(text: str | None, offer: Offer | None) -> None:
    """The column keeps its old text, so a store written before the type needs no step."""
    assert from_stored(text) == offer
    assert stored(offer) == text


def test_only_the_store_reads_or_writes_an_offers_text() -> None:
    """``from_stored``/``stored`` are called in ``pbem/referee/store`` and nowhere else."""
    outside = []
    for path in PKG.rglob("*.py"):
        if path.is_relative_to(PKG / "referee" / "store"):
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module == "pbem.referee.store.offers":
                outside += [f"{path.relative_to(PKG)} imports {a.name}" for a in node.names
                            if a.name in ("from_stored", "stored")]
    assert not outside, outside
