"""The referee's three ways in, each one transaction: ``service`` (``Referee.handle``: one
mail in, its commands run, replies queued; ``first_look`` first deals with bounces,
unsubscribes and machines' mail; ``poll`` runs each new mail of a source through it),
``tick`` (``pbem tick``: reminders, forfeits, claims, digests at the referee's "now") and
``operator`` (the game master's ``pause``, ``resume``, ``set-deadline``, ``adjudicate``,
``rollback``). The command line calls them."""
