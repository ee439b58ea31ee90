"""``chesslaws match``: an engine match, whose command lives with the matches (:mod:`chesslaws.match`)."""

from __future__ import annotations

from chesslaws.match import match_command

__all__ = ["match_command"]
