"""``chesslaws tournament``: the events' command group, which lives with the tournaments
(:mod:`chesslaws.tournament.cli`)."""

from __future__ import annotations

from chesslaws.tournament.cli import tournament

__all__ = ["tournament"]
