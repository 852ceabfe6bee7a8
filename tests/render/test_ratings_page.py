"""The ratings as text (``pbem ratings``) and as the archive's ratings page."""

from __future__ import annotations

from pathlib import Path

import pytest

from pbem.cli import main
from pbem.render.archive import build_archive
from tests.golden import check_golden
from tests.ratings.club_records import write_club


@pytest.fixture
def club(tmp_path: Path) -> Path:
    return write_club(tmp_path / "club")


def test_the_archive_links_its_ratings_page(club: Path, tmp_path: Path) -> None:
    build_archive([club], tmp_path / "site", title="Club & co")
    index = (tmp_path / "site" / "index.html").read_text(encoding="utf-8")
    assert '<a id="ratings-link" href="ratings.html">Ratings</a>' in index
    page = (tmp_path / "site" / "ratings.html").read_text(encoding="utf-8")
    check_golden("ratings-club.html", page)
    # escaped: a name is text, never markup
    assert "Cy &lt;script&gt;" in page and "<script>" not in page
    assert "Club &amp; co" in page
    featured = page.split('id="ratings-featured"')[1].split("</section>")[0]
    assert [line.split(">")[1].split("<")[0] for line in featured.splitlines()
            if 'class="player"' in line] == ["Ann", "Cy &lt;script&gt;", "Bob"]
    assert 'id="ratings-classic"' in page and 'id="ratings-medieval"' not in page


def test_an_archive_without_rated_games_says_so(tmp_path: Path) -> None:
    (tmp_path / "in").mkdir()
    (tmp_path / "in" / "x.realm").write_text("1.Bh11 Bh2 *\n", encoding="utf-8")
    build_archive([tmp_path / "in"], tmp_path / "site")
    page = (tmp_path / "site" / "ratings.html").read_text(encoding="utf-8")
    assert "No rated game has finished yet." in page and "<table" not in page


def test_pbem_ratings_prints_the_table(club: Path, capsys) -> None:
    assert main(["ratings", str(club)]) == 0
    out = capsys.readouterr().out
    check_golden("ratings-club.txt", out)
    lines = out.splitlines()
    assert lines[0] == "The Featured Game (featured): 3 players"
    assert [ln.split()[1] for ln in lines[2:5]] == ["Ann", "Cy", "Bob"]
    assert "Classic Realm (classic): 2 players" in out


def test_pbem_ratings_of_one_game(club: Path, capsys) -> None:
    assert main(["ratings", str(club), "--game", "classic"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Classic Realm (classic): 2 players\n")
    assert "Featured" not in out
    assert main(["ratings", str(club), "--game", "medieval"]) == 0
    assert capsys.readouterr().out == "No rated game of Medieval Realm has finished yet.\n"


def test_pbem_ratings_refuses_an_unknown_game(club: Path, capsys) -> None:
    assert main(["ratings", str(club), "--game", "chess"]) == 2
    err = capsys.readouterr().err
    assert "unknown game 'chess'" in err and "featured, classic" in err


def test_pbem_ratings_of_a_missing_file_says_the_error_alone(tmp_path: Path, capsys) -> None:
    assert main(["ratings", str(tmp_path / "nosuch.realm")]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert "nosuch.realm: no such file or folder" in err


def test_pbem_ratings_of_a_missing_file_beside_a_real_one_still_prints_the_table(
    club: Path, tmp_path: Path, capsys
) -> None:
    assert main(["ratings", str(club), str(tmp_path / "nosuch.realm")]) == 2
    out, err = capsys.readouterr()
    assert out.startswith("The Featured Game (featured): 3 players")
    assert "nosuch.realm: no such file or folder" in err


def test_a_provisional_rating_is_marked(club: Path, capsys) -> None:
    main(["ratings", str(club)])
    rows = [ln for ln in capsys.readouterr().out.splitlines() if ln.strip()[:1].isdigit()]
    assert rows and all(ln.split()[-6].endswith("?") for ln in rows)  # RD > 110 after 3 games
