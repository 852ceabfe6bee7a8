"""One unit of work: ``unit`` holds what one mail (or a tick, or a game master's command) is
about and what it changes; ``commit`` writes a finished unit to the store and hands its
news to the mailer; ``starting`` starts a game; ``rollback`` takes a game back to an
earlier turn (a takeback by mail and ``pbem rollback`` share it); ``reach`` marks players
whose mail bounces and ``unsubscribe`` honours List-Unsubscribe; ``hook_events`` decides
which webhooks hear of a change; ``tournament`` and ``tournament_play`` run an event's
rounds and the games they start."""
