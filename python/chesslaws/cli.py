"""The ``chesslaws`` command: the group that loads each command's module when it is run.

Each command lives in its own module of :mod:`chesslaws.commands`; the group imports it only when the command
is run or listed in ``--help``, so that ``chesslaws check`` starts without importing the arbiter, the engine
matches or the tournaments.
"""

from __future__ import annotations

import importlib

import click

#: Every command: its name and where it is, ``module:attribute``.
COMMANDS = {
    "check": "chesslaws.commands.check:check_command",
    "convert": "chesslaws.commands.convert:convert",
    "match": "chesslaws.commands.match:match_command",
    "perft": "chesslaws.commands.perft:perft_command",
    "replay": "chesslaws.commands.replay:replay",
    "serve": "chesslaws.commands.serve:serve",
    "tournament": "chesslaws.commands.tournament:tournament",
}


class LazyGroup(click.Group):
    """A group whose commands are imported by name (:data:`COMMANDS`) when they are asked for."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted([*super().list_commands(ctx), *COMMANDS])

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        where = COMMANDS.get(cmd_name)
        if where is None:
            return super().get_command(ctx, cmd_name)
        module, _, name = where.partition(":")
        command: click.Command = getattr(importlib.import_module(module), name)
        return command


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="chesslaws")
def main() -> None:
    """chesslaws: the Laws of Chess, executable.

    Plays games live, arbitrates games from their event log and checks
    recorded games, under the 1989, 1997 and 2023 editions of the FIDE Laws.
    Run `chesslaws COMMAND --help` for each command.
    """


if __name__ == "__main__":
    main()
