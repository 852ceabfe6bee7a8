"""The mail commands, one small module each; importing this package registers them all
(``pbem.referee.registry``)."""

from pbem.referee.commands import (  # noqa: F401  (each registers itself)
    challenge,
    claim,
    conditions,
    digest,
    games,
    help,
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
