"""The commands of ``chesslaws``, one module each, loaded by :mod:`chesslaws.cli` when they are run.

- :mod:`~chesslaws.commands.check`: ``check``, recorded games checked by the native checker;
- :mod:`~chesslaws.commands.convert`: ``convert``, PGN games into game logs;
- :mod:`~chesslaws.commands.match`: ``match``, an engine match;
- :mod:`~chesslaws.commands.perft`: ``perft``, the move generator's node counts;
- :mod:`~chesslaws.commands.replay`: ``replay``, a game log replayed;
- :mod:`~chesslaws.commands.serve`: ``serve``, the live server;
- :mod:`~chesslaws.commands.tournament`: ``tournament``, the events (the group in :mod:`chesslaws.tournament.cli`);
- :mod:`~chesslaws.commands.inputs`: what the commands that read files say of a file that is no text.
"""
