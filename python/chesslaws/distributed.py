"""`chesslaws check` past one machine, on Dask (``pip install distributed``).

One task per file: a worker runs the native checker over the whole file
(streaming, constant memory, ``jobs_per_file`` threads) and sends back the
reports as the JSON lines ``check --json`` writes (the native writer) and
the file's summary as plain JSON-ready data. The client gathers
the results in file order and merges the summaries, so the report is the
one :func:`chesslaws.check.check_files` gives on one machine.

The files must be readable by the workers under the same paths (a shared
file system or object store mount): only paths travel, never the games.

Why Dask rather than Ray: ``distributed`` is pure Python and a small
install from PyPI (Ray's wheel is several times larger and starts its own
raylet and object-store services); a ``LocalCluster`` starts in a second or
two, which keeps the test of this module cheap; and the work here is a bag
of independent coarse tasks (one file each) with small results, which needs
no actors, no shared object store and no GPU scheduling — exactly Dask's
plain ``client.submit`` / ``gather``. A real cluster is a ``dask-scheduler``
plus ``dask-worker``s on each machine (or any Dask deployment: SSH,
Kubernetes, HPC batch systems), reached with ``Client("tcp://host:8786")``.
"""

from __future__ import annotations

import contextlib
import importlib
import json
import os
from typing import Any, Iterator, Sequence

from chesslaws.check import FileCheck, GameReport, Summary, with_file
from chesslaws.editions import get_edition

try:
    # Dask ships no type information: it is used through `Any`.
    _dask: Any = importlib.import_module("distributed")
except ImportError as err:  # pragma: no cover - depends on the environment
    raise ImportError("chesslaws.distributed needs Dask: pip install distributed") from err

#: A `distributed.Client`.
Client = Any

__all__ = ["check_file_task", "check_files_dask", "local_client"]


def check_file_task(
    path: str, edition: str, problems_only: bool, jobs: int
) -> tuple[list[str], dict[str, Any]]:
    """The work of one task: the reports of one file as the JSON lines
    ``check --json`` writes (:meth:`GameReport.json_line`), and its summary."""
    fc = FileCheck(path, edition=edition, jobs=jobs, problems_only=problems_only)
    reports = [with_file(r, path) for r in fc]
    summary = fc.summary(reports)
    return [r.json_line() for r in reports], summary.to_json()


def check_files_dask(
    paths: Sequence[str | os.PathLike[str]],
    *,
    client: Client | None = None,
    scheduler: str | None = None,
    edition: str = "2023",
    problems_only: bool = False,
    jobs_per_file: int = 1,
) -> tuple[list[GameReport], Summary]:
    """Checks ``paths`` on a Dask cluster: ``client``, or a new client of
    ``scheduler`` (an address like ``tcp://host:8786``). Returns the reports
    in file order and the summary, as :func:`chesslaws.check.check_files`."""
    ed = get_edition(edition).name
    own = client is None
    if client is None:
        if scheduler is None:
            raise ValueError("give a Dask client or a scheduler address")
        client = _dask.Client(scheduler)
    try:
        futures = [
            client.submit(check_file_task, os.fspath(p), ed, problems_only, jobs_per_file, pure=False)
            for p in paths
        ]
        results = client.gather(futures)
    finally:
        if own:
            client.close()
    total = Summary(edition=ed)
    reports: list[GameReport] = []
    for rows, summary in results:
        reports.extend(GameReport.from_json(json.loads(line)) for line in rows)
        total.merge(Summary.from_json(summary))
    return reports, total


@contextlib.contextmanager
def local_client(n_workers: int = 2, threads_per_worker: int = 1) -> Iterator[Client]:
    """A Dask cluster on this machine (worker processes), and its client."""
    with _dask.LocalCluster(
        n_workers=n_workers,
        threads_per_worker=threads_per_worker,
        processes=True,
        dashboard_address=None,
        host="127.0.0.1",
    ) as cluster, _dask.Client(cluster) as client:
        yield client
