"""The web layer of ``chesslaws serve``: the ASGI app composed of the live games and the tournaments.

:func:`create_app` builds the app (:mod:`.app`); :func:`run` serves it with uvicorn (:mod:`.serve`).
"""

from chesslaws.webapp.app import create_app
from chesslaws.webapp.serve import run

__all__ = ["create_app", "run"]
