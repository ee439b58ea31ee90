"""The database layer: one SQLite file or PostgreSQL database under the games and the tournaments.

- :mod:`.db`: the database (dialect, connection or pool, transactions, notifications, outage classification);
- :mod:`.rows`: stored rows as text and back (JSON written compactly, read without ever stopping the server);
- :mod:`.games`: the game repository (the game log, committed event by event, and what a live game needs);
- :mod:`.tournaments`: the tournament repository (events, their keys, a round written with its games).

The server (:mod:`chesslaws.server`) and the tournaments (:mod:`chesslaws.tournament`) both build on it; it
depends on neither, but for the tournament model it stores (:mod:`chesslaws.tournament.model`).
"""
