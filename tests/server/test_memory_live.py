"""What a live game costs the server, measured with tracemalloc.

A :class:`~chesslaws.server.hub.Hub` (over a SQLite store) loads a game of 200 plies from its log, as
on a restart or on demand, and builds what a live game keeps: the arbiter's game, the view of its
state (the moves with their positions, the legal moves, the configuration's block), and a viewer
asking for moves by difference. The memory still held afterwards is that game's cost; three other
live games of other logs are loaded first, as on a server (the letters of common moves are shared).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from memprobe import load_live, retained  # noqa: E402
from test_memory import random_log  # noqa: E402

from chesslaws.server.guard import UNLIMITED  # noqa: E402
from chesslaws.server.hub import Hub, LiveGame  # noqa: E402
from chesslaws.store.games import open_store  # noqa: E402

#: Bytes one live game of 200 plies (100 moves each) may hold in the server, viewed once; the aim is
#: 32 KiB at most. Measured this way about 25.5 KiB (the Game 9.8; the rest is the view's caches, the
#: viewer and the live game's own fields), because the history is packed and the view keeps a FEN
#: every 32 moves only: a dictionary per move for the view and a Game of tuples would hold about 274 KiB
#: (the view's dictionaries 91 KiB, the Game 166 KiB), a FEN per move another 22 KiB.
LIVE_CEILING = 28 * 1024


def _load(hub: Hub, gid: str, text: str) -> LiveGame:
    live: LiveGame = load_live(hub, gid, [json.loads(line) for line in text.splitlines()])
    return live


def test_a_live_game_of_200_plies_stays_under_its_ceiling(tmp_path: Path) -> None:
    hub = Hub(open_store(str(tmp_path / "memory.sqlite3")), UNLIMITED)
    try:
        for seed in (1, 2, 3):
            _load(hub, f"other{seed}", random_log(seed))
        text = random_log(15)
        size, live = retained(lambda: _load(hub, "measured", text))
        st = live.game.state
        assert len(st.moves) == 200 and st.ongoing and len(hub.games) == 4
        view: dict[str, Any] = hub.view(live, "en")
        assert len(view["moves"]) == 200 and view["moves"][-1]["fen"] == st.position.fen()
        assert size <= LIVE_CEILING, f"a live game of 200 plies holds {size / 1024:.1f} KiB (ceiling {LIVE_CEILING / 1024:.0f})"
        assert size > 16 * 1024  # the measure sees the game (its fixed part and history alone are more)
    finally:
        hub.store.close()


def test_the_moves_of_a_view_from_any_move_are_those_of_the_whole_list(tmp_path: Path) -> None:
    """The view keeps a FEN every FEN_STEP moves and the last one, not an entry per move: the entries
    built for the moves from move k on (a broadcast) are those of the whole list, in every language,
    before and after a takeback, and what it keeps is the FENs of the moves still on the board."""
    from chesslaws.server.views import FEN_STEP

    from chesslaws.position import Position

    hub = Hub(open_store(str(tmp_path / "views.sqlite3")), UNLIMITED)
    try:
        text = random_log(7, plies=60)
        live = _load(hub, "views", text)
        pos = Position()
        fens = []
        for m in live.game.state.moves:
            pos = pos.play(m.uci)
            fens.append(pos.fen())
        for lang in ("en", "de", "fr"):
            whole = hub.view(live, lang)["moves"]
            assert [m["fen"] for m in whole] == fens and len(whole) == 60
            assert all(("san_local" in m) == (lang != "en") for m in whole)
            for k in (0, 1, 30, 59, 60):
                assert hub.view(live, lang, k)["moves"] == whole[k:]
        assert FEN_STEP < 60 and live.move_fens == fens[FEN_STEP - 1::FEN_STEP] and live.move_tail == (60, fens[59])
        before = hub.view(live, "de")["moves"]
        live.game = live.game.apply({"type": "reinstate", "t": 5000, "by": "arbiter", "ply": 20})
        assert hub.view(live, "de", 10)["moves"] == before[10:20]
        assert hub.view(live, "en")["moves"][-1]["fen"] == fens[19] and live.move_tail == (20, fens[19])
        assert live.move_fens == fens[FEN_STEP - 1:20:FEN_STEP]
    finally:
        hub.store.close()
