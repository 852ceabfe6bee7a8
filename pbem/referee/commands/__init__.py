"""The mail commands, one small module each; importing this package registers them all
(``pbem.referee.commands.registry``)."""

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
