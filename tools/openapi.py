"""Writes the server's OpenAPI description to docs/reference/openapi.json, from which the manual's HTTP API
reference is made (docs/hooks.py): ``PYTHONPATH=python python3 tools/openapi.py``. tests/test_manual.py fails
when the file is not the server's description."""

from __future__ import annotations

import json
import sys
import tempfile
from pathlib import Path

from chesslaws.webapp import create_app

TARGET = Path(__file__).resolve().parent.parent / "docs" / "reference" / "openapi.json"


def spec_text() -> str:
    with tempfile.TemporaryDirectory() as d:
        spec = create_app(str(Path(d) / "openapi.sqlite3")).openapi()
    return json.dumps(spec, indent=1, sort_keys=True, ensure_ascii=False) + "\n"


if __name__ == "__main__":
    TARGET.write_text(spec_text(), encoding="utf-8")
    print(f"wrote {TARGET}", file=sys.stderr)
