"""The referee's real parts (a data folder, an SMTP server) for the hostile mail tests."""

from tests.referee.conftest import home, smtp  # noqa: F401  (pytest fixtures)
