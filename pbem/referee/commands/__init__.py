"""The mail commands, one small module each; importing this package registers them all
(``pbem.referee.commands.registry``). A game's command reads the store but changes only its
unit (``work/unit.py``), which ``work/commit.py`` writes; ``accept takeback`` and the
commands about the sender alone write to the store themselves, inside the mail's savepoint
(``unit`` says why, ``tests/referee/test_unit.py`` lists them)."""

from pbem.referee.commands import (  # noqa: F401  (each registers itself)
    challenge,
    claim,
    digest,
    games,
    help,
    if_then,
    info,
    moves,
    notify,
    observe,
    offers,
    profile,
    rules,
    say,
    takeback,
    tournaments,
    turn,
    vacation,
)
