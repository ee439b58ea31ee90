"""The tournament tests: helpers beside them (tgames), and the server tests' PostgreSQL fixtures."""

import importlib.util
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

_spec = importlib.util.spec_from_file_location("_server_conftest", Path(__file__).parent.parent / "server" / "conftest.py")
assert _spec is not None and _spec.loader is not None
_server = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_server)
pg_server = _server.pg_server
pg_url = _server.pg_url
live_server = _server.live_server
browser = _server.browser
# What test modules import from "conftest": the same names whichever of the two conftests Python has loaded
# under that name (the server tests' helpers and their browser mark).
free_port = _server.free_port
wait_port = _server.wait_port
needs_chromium = _server.needs_chromium
at_390 = _server.at_390
ThreadServer = _server.ThreadServer
db_url = _server.db_url
make_client = _server.make_client
server_factory = _server.server_factory
pg_cluster = _server.pg_cluster
shots = _server.shots
FIRST_SOCKET_STUCK = _server.FIRST_SOCKET_STUCK
