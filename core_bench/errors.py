"""Errors meant for people: each says what was wrong and where."""

from __future__ import annotations


class UsageError(Exception):
    """A bad flag, file or argument; the CLI prints it on one line and exits with status 2."""
