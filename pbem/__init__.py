"""pbem: a play-by-email referee, validator and archivist for Realm."""

__version__ = "0.1.0"
