"""The referee's SQLite store, and every SQL statement the referee runs: ``schema``
(connection, migrations, transactions), ``games``, ``mail`` (messages and the outbox's
rows), ``accounts`` (keys, vacations, digests, observers, challenges), ``rollbacks``."""

from pbem.referee.store.schema import (
    BUSY_TIMEOUT_MS,
    MIGRATIONS,
    StoreError,
    applied_migrations,
    connect,
    migrate,
    transaction,
)

__all__ = ["BUSY_TIMEOUT_MS", "MIGRATIONS", "StoreError", "applied_migrations", "connect",
           "migrate", "transaction"]
