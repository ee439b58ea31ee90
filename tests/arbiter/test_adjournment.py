"""Adjournment, sealed moves and resumption: 1989 Articles 13-14,
1997 Appendix A, 2023 Guidelines I. Clock values worked out by hand."""

from __future__ import annotations

import json

import pytest
from _arb import ev, game, last_ruling, moves, start, summary

from chesslaws.errors import ChessLawsError

TC = "40/7200:1800"


def adjourned(edition: str = "1997", sealed: str = "Nc3", **seal_fields: object) -> list[dict[str, object]]:
    """1. e4 e5 (t=10, 20), White seals move 2 at t=100 (White used 90 s, Black 10 s)."""
    return [start(edition=edition, time_control=TC, white="Ann", black="Bob"), *moves(["e4", "e5"]),
            ev("seal", 100, "white", move=sealed, **seal_fields)]


def test_sealing_stops_the_clocks_and_keeps_the_envelope_secret() -> None:
    g = game(*adjourned(resumption="Sunday 10:00, hall B"))
    js = g.to_json()
    assert js["status"] == "adjourned" and js["clocks"]["running"] is None
    assert js["clocks"]["white_ms"] == 7200_000 - 90_000 and js["clocks"]["black_ms"] == 7200_000 - 10_000
    (env,) = [p for p in js["pending"] if p["kind"] == "sealed_move"]
    assert env["by"] == "white" and env["move_number"] == 2
    assert env["white_used_ms"] == 90_000 and env["black_used_ms"] == 10_000
    assert env["position_before"].startswith("rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w")
    assert env["resumption"] == "Sunday 10:00, hall B" and env["white"] == "Ann"
    assert "Nc3" not in json.dumps(js)  # the sealed move itself is nowhere in the state
    assert last_ruling(g).article == "A.1"
    # Time does not run while the game is adjourned.
    assert g.at(50_000).to_json()["clocks"] == js["clocks"]
    with pytest.raises(ChessLawsError, match="adjourned"):
        g.apply(ev("move", 200, "black", move="Nf6"))


def test_adjourning_before_the_end_of_the_session_costs_the_rest_of_it() -> None:
    """1997 A.1(b) / 1989 13.1(b): 60 s of session left are added to the sealer's used time."""
    g = game(*adjourned(session_end=160))
    assert g.to_json()["clocks"]["white_ms"] == 7200_000 - 90_000 - 60_000


def test_resumption_opens_the_envelope_when_the_replier_arrives() -> None:
    """1997 A.5, A.7, A.9(b): the replier's clock runs from the resumption; the envelope waits for him."""
    g = game(*adjourned(), ev("resume", 10_000, "arbiter"))
    st = g.at(10_050).state
    assert st.clock.running == "black" and st.remaining_ms("black") == 7200_000 - 10_000 - 50_000
    assert st.sans == ["e4", "e5"]
    g = g.apply(ev("arrive", 10_100, "black"))
    assert g.state.sans == ["e4", "e5", "Nc3"] and g.state.envelope is None
    assert last_ruling(g).article == "A.9"
    g = g.apply(ev("arrive", 10_150, "white")).apply(ev("move", 10_200, "black", move="Nc6"))
    assert g.state.remaining_ms("black") == 7200_000 - 10_000 - 200_000
    assert g.state.remaining_ms("white") == 7200_000 - 90_000
    assert g.state.clock.running == "white"


def test_absent_sealer_the_replier_seals_his_reply() -> None:
    """1997 A.9(c): the replier seals his reply and starts the sealer's clock."""
    g = game(*adjourned(), ev("resume", 10_000, "arbiter"), ev("arrive", 10_100, "black"),
             ev("seal", 10_200, "black", move="Nc6"))
    assert g.state.status == "ongoing" and g.state.clock.running == "white"
    assert g.state.sans == ["e4", "e5", "Nc3"]
    assert last_ruling(g).article == "A.9(c)"
    g = g.apply(ev("arrive", 10_300, "white"))
    assert g.state.sans == ["e4", "e5", "Nc3", "Nc6"]
    assert g.state.remaining_ms("white") == 7200_000 - 90_000 - 100_000


def test_draw_agreed_before_resumption() -> None:
    """1997 A.4 and A.6: an offer after the seal stands until answered; the agreement ends the game."""
    g = game(*adjourned(), ev("offer_draw", 200, "black"), ev("accept_draw", 300, "white"))
    assert summary(g) == ("finished", "1/2-1/2", "agreement")


def test_resignation_before_resumption() -> None:
    g = game(*adjourned(), ev("resign", 200, "black"))
    assert summary(g) == ("finished", "1-0", "resignation")


def test_a_lost_envelope_resumes_from_the_adjourned_position() -> None:
    """1997 A.11(b): the adjournment times, and the sealer makes the sealed move on the board."""
    g = game(*adjourned(), ev("resume", 10_000, "arbiter"), ev("envelope_lost", 10_001, "arbiter"),
             ev("arrive", 10_005, "white"), ev("move", 10_011, "white", move="Nf3"))
    assert g.state.sans == ["e4", "e5", "Nf3"]
    assert g.state.remaining_ms("white") == 7200_000 - 90_000 - 10_000
    assert g.state.remaining_ms("black") == 7200_000 - 10_000
    assert any(r.article == "A.11" for r in g.state.rulings)


def test_absent_sealer_loses_after_the_default_time() -> None:
    """1997 A.10: the late sealer loses after an hour; the present replier sealed his reply."""
    g = game(*adjourned(), ev("resume", 10_000, "arbiter"), ev("arrive", 10_010, "black"),
             ev("seal", 10_020, "black", move="Nc6")).at(13_601)
    assert summary(g) == ("finished", "0-1", "late_arrival")
    assert last_ruling(g).t_ms == 13_600_000


def test_absent_sealer_whose_sealed_move_mates_wins() -> None:
    """1997 A.10(a): the sealed move is checkmate."""
    log = [start(edition="1997", time_control=TC), *moves(["e4", "e5", "Bc4", "Nc6", "Qh5", "Nf6"]),
           ev("seal", 100, "white", move="Qxf7"), ev("resume", 10_000, "arbiter"), ev("arrive", 10_010, "black")]
    g = game(*log).at(20_000)
    assert summary(g) == ("finished", "1-0", "checkmate")


KNIGHTS = "r3k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1"  # Nd2 fits both knights


def _sealed(fen: str, move: str, edition: str = "1997", **fields: object) -> list[dict[str, object]]:
    return [start(edition=edition, time_control=TC, fen=fen), ev("seal", 50, "white", move=move, **fields),
            ev("resume", 10_000, "arbiter"), ev("arrive", 10_010, "black")]


def test_ambiguous_sealed_move_loses() -> None:
    """1997 A.8(a): Nd2 with knights on b1 and f3."""
    g = game(*_sealed(KNIGHTS, "Nd2"))
    assert summary(g) == ("finished", "0-1", "sealed_move_invalid")
    r = last_ruling(g)
    assert r.article == "A.8" and "ambiguous" in r.text and "Nbd2" in r.text and "Nfd2" in r.text


def test_illegal_sealed_move_loses() -> None:
    g = game(*_sealed(KNIGHTS, "e1e3"))
    assert summary(g) == ("finished", "0-1", "sealed_move_invalid")
    g = game(*_sealed(KNIGHTS, "Nh5"))
    assert "illegal" in last_ruling(g).text


def test_false_sealed_move_loses() -> None:
    g = game(*_sealed(KNIGHTS, "knight somewhere"))
    assert summary(g) == ("finished", "0-1", "sealed_move_invalid")
    assert "true significance" in last_ruling(g).text


def test_invalid_sealed_move_against_a_lone_king_is_a_draw() -> None:
    """1997 A.8 excepts Article 6.9: the opponent cannot mate."""
    g = game(*_sealed("4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1", "Nd2"))
    assert summary(g) == ("finished", "1/2-1/2", "sealed_move_invalid")
    g89 = game(*_sealed("4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1", "Nd2", edition="1989"))
    assert summary(g89) == ("finished", "1/2-1/2", "sealed_move_invalid")
    assert last_ruling(g89).article == "10.5"


@pytest.mark.parametrize(("written", "language"), [("Sf3", None), ("Sf3", "de"), ("Cf3", "fr"), ("Кf3", "ru")])
def test_sealed_move_in_another_language(written: str, language: str | None) -> None:
    fields = {"language": language} if language else {}
    g = game(*_sealed("r3k3/8/8/8/8/8/8/4K1N1 w - - 0 1", written, **fields))
    assert g.state.sans == ["Nf3"]


@pytest.mark.parametrize(("edition", "article"), [("1989", "13.1"), ("2023", "I.1.1")])
def test_adjournment_articles_per_edition(edition: str, article: str) -> None:
    g = game(*adjourned(edition=edition))
    assert last_ruling(g).article == article


def test_only_the_player_having_the_move_seals() -> None:
    g = game(start(edition="1997", time_control=TC), *moves(["e4"]))
    with pytest.raises(ChessLawsError, match="having the move"):
        g.apply(ev("seal", 50, "white", move="Nf3"))
