"""One unit of work: ``unit`` holds what one mail (or a tick, or a game master's command) is
about and what it changes; ``commit`` writes a finished unit to the store and hands its
news to the mailer; ``starting`` starts a game; ``rollback`` takes a game back to an
earlier turn (a takeback by mail and ``pbem rollback`` share it)."""
