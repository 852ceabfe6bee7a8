"""The email referee, as a chain of sub-packages; each imports only from those before it
(``tests/referee/test_structure.py`` keeps it so):

``clock`` and ``turns`` (pure models of time and of a mailed turn) -> ``config`` (the data
folder and ``config.yaml``) -> ``store`` (every SQL statement) -> ``intake`` (a mail in:
its source, sender, body, orders and key) and ``public`` (what the world may see) ->
``outgoing`` (what is said, to whom, and its delivery) -> ``work`` (one unit of work and
its commit) -> ``commands`` (the mail commands) -> ``entry`` (a mail, a tick, a game
master's command). The command line over it is ``pbem/cli/``; ``docs/architecture.md``
walks a mail through these files.
"""
