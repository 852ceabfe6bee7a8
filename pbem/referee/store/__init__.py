"""The referee's SQLite store, and every SQL statement the referee runs: ``schema``
(connection, migrations, transactions, savepoints), ``games``, ``mail`` (messages,
failures, queued replies), ``accounts`` (keys, vacations, digests, observers,
challenges), ``rollbacks``, ``conditions``, ``outbox`` (the rows delivery claims and
marks), ``site`` (what export and the live site read), ``imap`` (the IMAP marks)."""

from pbem.referee.store.schema import (
    BUSY_TIMEOUT_MS,
    MIGRATIONS,
    StoreError,
    applied_migrations,
    connect,
    migrate,
    savepoint,
    transaction,
)

__all__ = ["BUSY_TIMEOUT_MS", "MIGRATIONS", "StoreError", "applied_migrations", "connect",
           "migrate", "savepoint", "transaction"]
