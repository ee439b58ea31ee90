"""The input files of the commands that read them: what a file is when it is no text the readers read, and
whether a file that is not a game log is PGN."""

from __future__ import annotations

import gzip
import os
import re
import sys
from typing import NoReturn

import click

from chesslaws._core import not_text as _what_bytes_are


def not_text(path: str) -> str | None:
    """What the file at ``path`` is when it is no text the readers read (UTF-8, or Latin-1, plain, .gz or .zst):
    "UTF-16 text", "a binary file"..., judged on its first bytes (after gzip or zstd). None when it may be
    text, or cannot be opened (the reader then says why)."""
    try:
        with open(path, "rb") as fh:
            head = fh.read(4096)
            if head.startswith(b"\x1f\x8b"):
                fh.seek(0)
                head = gzip.GzipFile(fileobj=fh).read(4096)
            elif head.startswith(b"\x28\xb5\x2f\xfd"):
                try:
                    # An optional dependency, imported only for a zstd file.
                    import zstandard  # type: ignore[import-not-found,unused-ignore]
                except ImportError:
                    return None
                fh.seek(0)
                head = zstandard.ZstdDecompressor().stream_reader(fh).read(4096)
    except (OSError, EOFError, ValueError):
        return None
    return _what_bytes_are(head)


def not_text_error(command: str, path: str, what: str, wanted: str) -> NoReturn:
    """Exit 2 naming the file and what it is."""
    if what.startswith("UTF-"):
        fix = "; save it as UTF-8"
        if not path.endswith((".gz", ".zst")) and path != "standard input":
            fix += f" (iconv -f {what.split()[0]} -t UTF-8 {path} > utf8-{os.path.basename(path)})"
    elif what.endswith("-compressed") or "archive" in what:
        fix = "; decompress it first (chesslaws reads plain, .gz and .zst files)"
    else:
        fix = ""
    click.echo(f"chesslaws {command}: {path} is {what}, not {wanted}{fix}", err=True)
    sys.exit(2)


def pgn_stem(path: str) -> str:
    """The NAME of convert's NAME-N.jsonl for the PGN file ``path``."""
    base = os.path.basename(path)
    for ext in (".gz", ".zst"):
        base = base[: -len(ext)] if base.endswith(ext) else base
    return os.path.splitext(base)[0]


def looks_like_pgn(path: str) -> bool:
    """A PGN file by its name (.pgn, .pgn.gz, .pgn.zst) or its first text (a tag pair, a move number)."""
    if path.lower().endswith((".pgn", ".pgn.gz", ".pgn.zst")):
        return True
    try:
        with open(path, "rb") as fh:
            head = fh.read(4096).decode("latin-1").lstrip("\ufeff\xef\xbb\xbf \t\r\n")
    except OSError:
        return False
    return re.match(r'\[\s*[A-Za-z0-9_]+\s+"|1\.\s*[a-hNBRQKO]', head) is not None
