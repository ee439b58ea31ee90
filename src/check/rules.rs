//! The rules of an edition as the checker applies them, and the material tests
//! behind them (1989's list of drawn endings, 1997's mating potential, the gates
//! before CHA-Solver's analysis).

use pyo3::prelude::*;
use shakmaty::{Bitboard, Chess, Color, Position as _};

use crate::dead::{analyse_cached, dead_cached, Analysis, SOLVED};

/// Can `color` mate in `pos`? The arbiter's analysis (`dead::analyse`).
pub(super) fn analysis(pos: &Chess, color: Color) -> Analysis {
    analyse_cached(pos, color, &SOLVED)
}

/// Is `pos` dead (Article 9.6 / 5.2.2)? The arbiter's `dead::dead`, asking
/// first whether `first` can mate.
pub(super) fn is_dead(pos: &Chess, first: Color) -> Option<bool> {
    dead_cached(pos, first, &SOLVED)
}

// ---------------------------------------------------------------------------
// The rules of an edition.

#[derive(Clone, Copy, Debug)]
pub struct Rules {
    /// 1989 Article 10.4: the fixed list of drawn endings.
    pub(super) list_1989: bool,
    /// 1997 9.6, 2023 5.2.2.
    pub(super) dead: bool,
    /// 2023 9.6.1 and 9.6.2.
    pub(super) fivefold: bool,
    pub(super) seventyfive: bool,
    /// 1989 10.5: a flag fall is a draw only against a bare king; later
    /// editions (6.9): whenever the opponent cannot mate.
    pub(super) bare_king_flag: bool,
    /// 1989 10.5: "A player having a bare king cannot win the game",
    /// whatever the way he won (a resignation, an arbiter's decision), as
    /// the arbiter reads it (`chesslaws.game.state._Builder.end`).
    pub(super) bare_king_never_wins: bool,
    /// 2023 5.1.2 as this project reads it: a resignation in a position
    /// where the winner could not mate is a draw.
    pub(super) resign_rule: bool,
    /// 2023 5.2.3: a draw by agreement needs both players to have moved.
    pub(super) agreement_both_moved: bool,
    /// 1997 Appendix C.4: in blitz (C.1: all the moves in under 15
    /// minutes, by the TimeControl tag) a player must have mating
    /// potential to win, whatever the way he won but checkmate.
    pub(super) mating_potential_in_blitz: bool,
    /// 2023 Guidelines II: Chess960 (the earlier Laws have none).
    pub(super) chess960: bool,
    /// The edition's year (1989, 1997, 2023), for the words of a finding.
    pub(super) year: u16,
}

impl Rules {
    /// The rules of an edition, read from the fields of the Python
    /// `chesslaws.editions.Edition` of the same names: the edition's one
    /// description, handed to the checker.
    pub(super) fn from_edition(ed: &Bound<'_, PyAny>) -> PyResult<Rules> {
        let flag = |name: &str| -> PyResult<bool> { ed.getattr(name)?.extract() };
        let flag_draw: String = ed.getattr("flag_draw")?.extract()?;
        Ok(Rules {
            list_1989: flag("insufficient_material_list")?,
            dead: flag("dead_position")?,
            fivefold: flag("fivefold_repetition")?,
            seventyfive: flag("seventyfive_moves")?,
            bare_king_flag: flag_draw == "bare_king",
            bare_king_never_wins: flag("bare_king_cannot_win")?,
            resign_rule: flag("resign_draw_when_opponent_cannot_mate")?,
            agreement_both_moved: flag("agreement_needs_both_moved")?,
            mating_potential_in_blitz: flag("mating_potential_in_blitz")?,
            chess960: flag("chess960")?,
            year: ed.getattr("name")?.extract::<String>()?.parse().unwrap_or(0),
        })
    }
}

pub(super) fn win_for(c: Color) -> &'static str {
    match c {
        Color::White => "1-0",
        Color::Black => "0-1",
    }
}

pub(super) fn side(c: Color) -> &'static str {
    match c {
        Color::White => "White",
        Color::Black => "Black",
    }
}

pub(super) fn idx(c: Color) -> usize {
    match c {
        Color::White => 0,
        Color::Black => 1,
    }
}

pub(super) fn list_1989(pos: &Chess) -> Option<String> {
    let b = pos.board();
    let others = b.occupied() & !b.kings();
    match others.count() {
        0 => Some("king against king (Article 10.4(a))".into()),
        1 if (others & (b.bishops() | b.knights())).any() => {
            let piece = if (others & b.bishops()).any() { "bishop" } else { "knight" };
            Some(format!("king against king and {piece} (Article 10.4(b))"))
        }
        2 => {
            let bishops = others & b.bishops();
            let wb = bishops & b.white();
            let bb = bishops & b.black();
            if wb.count() == 1 && bb.count() == 1 {
                let light = |x: Bitboard| (x & Bitboard::LIGHT_SQUARES).any();
                if light(wb) == light(bb) {
                    let colour = if light(wb) { "light" } else { "dark" };
                    return Some(format!(
                        "king and bishop against king and bishop, both bishops on {colour} squares (Article 10.4(c))"
                    ));
                }
            }
            None
        }
        _ => None,
    }
}

/// Could `winner` be unable to mate here? The gate before CHA-Solver,
/// which decides: a side with no queen, rook or pawn (minor pieces at most),
/// a side with pawns but no queen or rook whose every pawn is stopped (the
/// square in front of it taken), a side with a queen or a rook behind a
/// wall of pawns all blocked head to head. Everywhere else the side is
/// taken to be able to mate without a search.
pub(super) fn may_be_unwinnable(pos: &Chess, winner: Color) -> bool {
    let b = pos.board();
    let ours = b.by_color(winner);
    if (ours & (b.queens() | b.rooks() | b.pawns())).is_empty() {
        return true;
    }
    let w = (b.pawns() & b.white()).0;
    let k = (b.pawns() & b.black()).0;
    if (ours & (b.queens() | b.rooks())).any() {
        return w != 0 && (w << 8) == k;
    }
    let occupied = b.occupied().0;
    match winner {
        Color::White => (w << 8) & !occupied == 0,
        Color::Black => (k >> 8) & !occupied == 0,
    }
}

/// Could the position be dead? Only if each side may be unable to mate.
pub(super) fn may_be_dead(pos: &Chess) -> bool {
    may_be_unwinnable(pos, Color::White) && may_be_unwinnable(pos, Color::Black)
}

/// Plies of forced play looked through by [`through_forced_play`].
pub(super) const FORCED_PLIES: u32 = 8;

/// `may_be` (a material gate: [`may_be_dead`], [`may_be_unwinnable`]) of
/// the position or of what it must become: where the side to move has one
/// legal move, or only captures, the position can be dead (or a side
/// unable to mate) only if every position after it can, so the gate is
/// asked of those (a queen that must be taken at once, `8/2K1Q3/4k3 b`, is
/// no mating material). A material gate alone would take such a position
/// for one where the side can mate without asking CHA-Solver.
pub(super) fn through_forced_play(pos: &Chess, may_be: &dyn Fn(&Chess) -> bool, plies: u32) -> bool {
    if may_be(pos) {
        return true;
    }
    if plies == 0 {
        return false;
    }
    let moves = pos.legal_moves();
    if moves.is_empty() {
        // A stalemate at the end of forced play: no mate can follow (the analysis says so); a mate: one did.
        return !pos.is_check();
    }
    if moves.len() > 1 && !moves.iter().all(|m| m.is_capture()) {
        return false;
    }
    moves.iter().all(|&m| {
        let mut after = pos.clone();
        after.play_unchecked(m);
        through_forced_play(&after, may_be, plies - 1)
    })
}

