"""The referee's store, and every SQL statement the referee runs: ``engine`` (SQLite or
PostgreSQL behind one code path), ``schema`` (connection, migrations, transactions,
savepoints), ``games``, ``offers`` (a game's pending offer and its stored text), ``mail``
(messages, failures, queued replies), ``accounts`` (keys, vacations, digests, observers,
challenges), ``undo_log``, ``standing_conditions``, ``outbox`` (the rows delivery claims
and marks), ``site`` (what export and the live site read), ``imap`` (the IMAP marks)."""

from pbem.referee.store.engine import DB_ERRORS, GAMES, WHOLE, Connection, Row, is_postgresql
from pbem.referee.store.schema import (
    BUSY_TIMEOUT_MS,
    MIGRATIONS,
    StoreError,
    applied_migrations,
    connect,
    migrate,
    read_transaction,
    retried,
    savepoint,
    transaction,
)

__all__ = ["BUSY_TIMEOUT_MS", "DB_ERRORS", "GAMES", "MIGRATIONS", "WHOLE", "Connection", "Row",
           "StoreError", "applied_migrations", "connect", "is_postgresql", "migrate",
           "read_transaction", "retried", "savepoint", "transaction"]
