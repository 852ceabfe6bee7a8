"""Placeholder: the command is being built."""

from __future__ import annotations

import argparse


def register(sub: argparse._SubParsersAction) -> None:
    """Add this module's commands to ``pbem``."""
