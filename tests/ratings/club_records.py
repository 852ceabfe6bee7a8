"""A small club's finished games as record files, for the ratings tests."""

from __future__ import annotations

from pathlib import Path

#: a legal opening of each game: a result after it is a resignation
OPENINGS = {
    "featured": "Set-up: 1.Bh11 Bh2",
    "classic": "1. Ee5e8(xEd7) Eb8b5(xEa4)",
}


def record(white: str, black: str, result: str, *, game: str = "featured",
           finished: str | None = None, rated: bool | None = None, name: str = "") -> str:
    headers = [f"game: {name or white + ' - ' + black}", f"white: {white!r}",
               f"black: {black!r}", f"ruleset: {game}"]
    if finished:
        headers.append(f"finished: {finished}")
    if rated is not None:
        headers.append(f"rated: {'true' if rated else 'false'}")
    return "---\n" + "\n".join(headers) + "\n---\n" + OPENINGS[game] + f"\n{result}\n"


def write_club(folder: Path) -> Path:
    """Four rated Featured games, one unrated, one Classic game, one unfinished."""
    folder.mkdir(parents=True, exist_ok=True)
    games = {
        "a1": record("Ann", "Bob", "1-0", finished="2026-11-01"),
        "a2": record("Bob", "Cy <script>", "0-1", finished="2026-11-02"),
        "a3": record("Cy <script>", "Ann", "1/2-1/2", finished="2026-11-03"),
        "a4": record("Ann", "Cy <script>", "1-0", finished="2026-11-04"),
        "a5": record("Bob", "Ann", "1-0", finished="2026-11-05", rated=False),
        "b1": record("Bob", "Ann", "1-0", game="classic", finished="2026-11-02"),
        "c1": record("Dee", "Ann", "*", finished="2026-11-06"),
    }
    for name, text in games.items():
        (folder / f"{name}.realm").write_text(text, encoding="utf-8")
    return folder
