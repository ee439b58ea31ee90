"""An event's regulations that the Laws defer to (2023 9.1.1: no draw before move N without the arbiter's
consent) reach each round's games: written into their start events, shown in their state, and ruled."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable
from urllib.parse import urlparse

import pytest
from click.testing import CliRunner

from chesslaws.cli import main
from chesslaws.game import Game
from chesslaws.store.tournaments import TournamentStore
from chesslaws.tournament.model import Regulations, Tournament, TournamentError


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def token_of(link: str) -> str:
    return urlparse(link).fragment.split("token=", 1)[1]


def test_the_draw_rule_reaches_each_rounds_games(make_client: Callable[[], Any]) -> None:
    c = make_client()
    body = {"name": "Club Classic", "system": "swiss", "rounds": 2, "time_control": "5400+30", "edition": "2023",
            "no_draw_before_move": 30, "players": [{"name": f"P{i}", "rating": 2000 - 10 * i} for i in range(1, 5)]}
    r = c.post("/api/tournaments", json=body)
    assert r.status_code == 201, r.text
    tid, arbiter = r.json()["id"], r.json()["arbiter_token"]
    assert c.get(f"/api/tournaments/{tid}").json()["regulations"]["no_draw_before_move"] == 30
    r = c.post(f"/api/tournaments/{tid}/rounds", json={"start": "now"}, headers=bearer(arbiter))
    assert r.status_code == 201, r.text
    board = r.json()["boards"][0]
    gid = board["game_id"]
    white, black = token_of(board["white"]["link"]), token_of(board["black"]["link"])
    log = c.get(f"/api/games/{gid}/log").text.splitlines()
    assert '"no_draw_before_move": 30' in log[0] or '"no_draw_before_move":30' in log[0]
    assert c.get(f"/api/games/{gid}").json()["regulations"] == {"no_draw_before_move": 30}
    for tok, san in ((white, "e4"), (black, "e5")):
        assert c.post(f"/api/games/{gid}/events", json={"type": "move", "move": san},
                      headers=bearer(tok)).status_code == 200
    assert c.post(f"/api/games/{gid}/events", json={"type": "offer_draw"}, headers=bearer(white)).status_code == 200
    refused = c.post(f"/api/games/{gid}/events", json={"type": "accept_draw"}, headers=bearer(black))
    assert refused.status_code == 409 and "9.1.1" in refused.json()["error"]


def test_the_regulations_go_into_the_start_and_back() -> None:
    reg = Regulations(no_draw_offers=True, report_leaving=True)
    start = reg.start_event(white="A", black="B", round_number=1)
    assert start["no_draw_offers"] is True and start["report_leaving"] is True and "increment_possible" not in start
    assert Regulations.from_json(reg.to_json()) == reg
    assert "no_draw_offers" not in Regulations().to_json()  # an event that sets none stores as before
    game = Game.from_start(start)
    assert game.state.config.regulations == reg.game_regulations()
    with pytest.raises(TournamentError, match="no_draw_before_move"):
        Regulations(no_draw_before_move=0)
    with pytest.raises(TournamentError, match="regulations"):
        Tournament("Club", Regulations()).check_game_regulations(game)


def test_the_command_line_sets_and_shows_them(tmp_path: Path) -> None:
    db = str(tmp_path / "t.sqlite3")

    def run(*args: str) -> str:
        out = CliRunner().invoke(main, ["tournament", *args, "--db", db])
        assert out.exit_code == 0, out.output
        return str(out.output)

    tid = run("create", "Club", "--no-draw-before-move", "30", "--report-leaving").strip()
    shown = run("show", tid)
    assert "no draw may be offered or agreed before each player has made 30 moves" in shown
    assert "reports to the arbiter before leaving" in shown
    with TournamentStore(db) as store:
        reg = store.load(tid).regulations
    assert reg.start_event(white="A", black="B", round_number=1)["no_draw_before_move"] == 30
    assert "in every game" not in run("show", run("create", "Plain").strip())
