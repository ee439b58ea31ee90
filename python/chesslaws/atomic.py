"""Files the command line writes: complete, or not there.

Every file ``chesslaws`` writes for its user (``check --fix``, ``convert``'s logs, ``tournament
export``, ``match --pgnout``) goes through this module:

- :func:`atomic_output` writes a whole file: into a temporary file beside the target (same folder,
  so same file system), flushed and fsynced, then renamed over the target. If anything fails (a full
  disk, a file-size limit, an interruption, an error of the command) the temporary file is removed
  and the target is left as it was: an earlier good file survives, a new one is not created. The
  error (:class:`OutputError`) names the output and the reason, e.g.
  ``cannot write fixed.pgn: No space left on device (fixed.pgn is left as it was)``.
- :func:`refuse_inputs` refuses an output that is one of the command's inputs: the same file (device
  and inode), whatever the path says: the same path, a symbolic link to it, a hard link.
- :class:`AppendOutput` is for a stream appended during a long job (``match --pgnout``, whose file
  gathers the games of several matches): each record (a game) is appended whole and fsynced, or, if
  the write fails, cut off again, so that the file holds only whole records and the earlier ones
  survive.

An output that exists and is no regular file (``/dev/stdout``, a pipe) is written as a stream: it
cannot be replaced, and must never be (renaming over ``/dev/null``).
"""

from __future__ import annotations

import contextlib
import os
import stat
import tempfile
from collections.abc import Iterable, Iterator
from typing import IO, Any, AnyStr, Generic, Literal, overload

from chesslaws.errors import ChessLawsError


class OutputError(ChessLawsError):
    """An output that could not be written: ``path`` (as the user gave it) and ``reason``
    (``"No space left on device"``). The old file at ``path``, if any, is left as it was."""

    def __init__(self, path: str, reason: str, *, existed: bool = True) -> None:
        self.path = path
        self.reason = reason
        left = f"{path} is left as it was" if existed else f"{path} was not created"
        super().__init__(f"cannot write {path}: {reason} ({left})")


def _reason(err: BaseException) -> str:
    if isinstance(err, OSError):
        return err.strerror or str(err)
    return str(err) or type(err).__name__


def same_file(a: str, b: str) -> bool:
    """Whether the paths ``a`` and ``b`` are one file (device and inode, links followed); False when
    either does not exist."""
    try:
        sa, sb = os.stat(a), os.stat(b)
    except OSError:
        return False
    return (sa.st_dev, sa.st_ino) == (sb.st_dev, sb.st_ino)


def refuse_inputs(output: str, inputs: Iterable[str]) -> None:
    """Raises :class:`OutputError` when ``output`` is one of ``inputs`` ('-', standard input, is
    none): the same path, a symbolic link to one, a hard link to one."""
    for path in inputs:
        if path == "-":
            continue
        if same_file(output, path) or os.path.realpath(output) == os.path.realpath(path):
            how = (" (a symbolic link to it)" if os.path.islink(output) and not os.path.islink(path) else
                   "" if os.path.realpath(output) == os.path.realpath(path) else " (a hard link to it)")
            raise OutputError(output, f"it is the input file {path}{how}: that would overwrite the input; "
                                      "give another output file")


def _is_stream(path: str) -> bool:
    """An existing output that is no regular file (a device, a pipe): written in place."""
    try:
        return not stat.S_ISREG(os.stat(path).st_mode)
    except OSError:
        return False


def _new_file_mode(target: str) -> int:
    """The permissions the file would have had if written in place: the old file's, or those the
    umask gives a new one."""
    try:
        return stat.S_IMODE(os.stat(target).st_mode)
    except OSError:
        mask = os.umask(0o022)
        os.umask(mask)
        return 0o666 & ~mask


class Writer(Generic[AnyStr]):
    """What :func:`atomic_output` gives to write through: ``write`` only; an error of the writing
    (a full disk) is an :class:`OutputError` naming the output, whereas an error of the caller's own
    (an input that cannot be read) goes through as it is."""

    def __init__(self, f: IO[AnyStr], path: str, existed: bool) -> None:
        self._f: IO[AnyStr] = f
        self._path = path
        self._existed = existed

    def write(self, data: AnyStr) -> int:
        try:
            n: int = self._f.write(data)
            return n
        except OSError as err:
            raise OutputError(self._path, _reason(err), existed=self._existed) from None


@overload
def atomic_output(path: str, mode: Literal["wb"], *,
                  inputs: Iterable[str] = ()) -> contextlib.AbstractContextManager[Writer[bytes]]: ...
@overload
def atomic_output(path: str, mode: Literal["w"] = "w", *,
                  inputs: Iterable[str] = ()) -> contextlib.AbstractContextManager[Writer[str]]: ...
def atomic_output(path: str, mode: Literal["w", "wb"] = "w", *, inputs: Iterable[str] = ()) -> (
        contextlib.AbstractContextManager[Writer[bytes]] | contextlib.AbstractContextManager[Writer[str]]):
    """A file to write ``path`` through (text in UTF-8 for ``"w"``, bytes for ``"wb"``): the file
    appears at ``path``, complete, when the ``with`` block ends normally. If the block raises, or
    the data cannot be written, nothing changes at ``path``; a failure of the writing is an
    :class:`OutputError`. ``inputs`` are refused as the output (:func:`refuse_inputs`).

    >>> with atomic_output("fixed.pgn", "wb", inputs=["games.pgn"]) as f:   # doctest: +SKIP
    ...     f.write(data)
    """
    return _atomic(path, mode, tuple(inputs))


@contextlib.contextmanager
def _atomic(path: str, mode: str, inputs: tuple[str, ...]) -> Iterator[Writer[Any]]:
    refuse_inputs(path, inputs)
    existed = os.path.lexists(path)
    encoding = None if "b" in mode else "utf-8"
    if _is_stream(path):
        try:
            stream = open(path, mode, encoding=encoding)  # noqa: SIM115 - closed below
        except OSError as err:
            raise OutputError(path, _reason(err), existed=existed) from None
        try:
            yield Writer(stream, path, existed)
            try:
                stream.close()
            except OSError as err:
                raise OutputError(path, _reason(err), existed=existed) from None
        finally:
            with contextlib.suppress(OSError):
                stream.close()
        return
    target = os.path.realpath(path)  # through a symbolic link: the file it names is replaced
    folder = os.path.dirname(target) or "."
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{os.path.basename(target)}.", suffix=".tmp", dir=folder)
    except OSError as err:
        raise OutputError(path, _reason(err), existed=existed) from None
    done = False
    try:
        f = os.fdopen(fd, mode, encoding=encoding)
        try:
            yield Writer(f, path, existed)
        except BaseException:
            with contextlib.suppress(OSError):
                f.close()
            raise
        try:
            f.flush()
            os.fsync(f.fileno())
            f.close()  # a close that fails (its last buffer) is a failure too
            os.chmod(tmp, _new_file_mode(target))
            os.replace(tmp, target)
        except OSError as err:
            with contextlib.suppress(OSError):
                f.close()
            raise OutputError(path, _reason(err), existed=existed) from None
        done = True
        _sync_folder(folder)
    finally:
        if not done:
            with contextlib.suppress(OSError):
                os.unlink(tmp)


def _sync_folder(folder: str) -> None:
    """The rename made durable (best effort: not every system opens a folder)."""
    with contextlib.suppress(OSError):
        fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def write_text(path: str, text: str, *, inputs: Iterable[str] = ()) -> None:
    """Writes ``text`` (UTF-8) to ``path`` whole, or raises :class:`OutputError` leaving it as it was."""
    with atomic_output(path, "w", inputs=inputs) as f:
        f.write(text)


class AppendOutput:
    """A file appended record by record during a long job (``match --pgnout``): each :meth:`write`
    appends one whole record, flushed and fsynced; if it cannot, what was written of it is cut off
    again and :class:`OutputError` is raised, so that the file holds only whole records (the
    earlier ones, and those of earlier jobs, intact)."""

    def __init__(self, path: str, *, inputs: Iterable[str] = ()) -> None:
        refuse_inputs(path, inputs)
        self.path = path
        existed = os.path.lexists(path)
        try:
            self._fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o666)
        except OSError as err:
            raise OutputError(path, _reason(err), existed=existed) from None
        self._regular = stat.S_ISREG(os.fstat(self._fd).st_mode)

    def write(self, text: str) -> int:
        data = text.encode("utf-8")
        size = os.fstat(self._fd).st_size if self._regular else 0
        try:
            view = memoryview(data)
            while view:
                n = os.write(self._fd, view)
                view = view[n:]
            if self._regular:
                os.fsync(self._fd)
        except OSError as err:
            if self._regular:
                with contextlib.suppress(OSError):
                    os.ftruncate(self._fd, size)
            raise OutputError(self.path, f"{_reason(err)}; the records written before are kept") from None
        return len(text)

    def flush(self) -> None:
        """Each record is already on disk when :meth:`write` returns."""

    def close(self) -> None:
        if self._fd >= 0:
            os.close(self._fd)
            self._fd = -1

    def __enter__(self) -> AppendOutput:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
