"""The package's build backend: maturin's, after building the manual.

``pip install .`` builds the wheel with maturin (the Rust core and the Python package). The manual
(``docs/``, built by mkdocs-material) is served by ``chesslaws serve`` at ``/manual`` from the package's
``chesslaws/manual`` folder, so it is built first, into that folder, and the wheel ships it. mkdocs and its
plugins are build requirements (``pyproject.toml``); if they cannot be imported, or the build fails, the
wheel is built without the manual and the server says so at ``/manual`` (CI builds it with ``--strict``).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import maturin
from maturin import (  # noqa: F401 - the hooks pip asks for, unchanged
    build_sdist,
    get_requires_for_build_editable,
    get_requires_for_build_sdist,
    get_requires_for_build_wheel,
    prepare_metadata_for_build_editable,
    prepare_metadata_for_build_wheel,
)

ROOT = Path(__file__).resolve().parent.parent
SITE = ROOT / "python" / "chesslaws" / "manual"


def build_manual() -> None:
    if not (ROOT / "mkdocs.yml").exists():
        return
    try:
        subprocess.run([sys.executable, "-m", "mkdocs", "build", "--quiet", "--clean", "--site-dir", str(SITE)],
                       cwd=ROOT, check=True)
    except (OSError, subprocess.CalledProcessError) as err:
        print(f"chesslaws: the manual was not built ({err}): /manual will say so", file=sys.stderr)


def build_wheel(wheel_directory: str, config_settings: dict[str, Any] | None = None,
                metadata_directory: str | None = None) -> str:
    build_manual()
    return maturin.build_wheel(wheel_directory, config_settings, metadata_directory)


def build_editable(wheel_directory: str, config_settings: dict[str, Any] | None = None,
                   metadata_directory: str | None = None) -> str:
    build_manual()
    return maturin.build_editable(wheel_directory, config_settings, metadata_directory)
