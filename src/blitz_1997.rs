//! 1997 Appendix C (blitz), the one implementation of two of its rules: what
//! C.1 calls blitz (and B.1 rapid), and C.4's mating potential. The checker
//! applies them natively; the arbiter (`chesslaws.game`) and
//! `chesslaws.timecontrol.classify` call them through the binding.

use pyo3::prelude::*;
use shakmaty::{Bitboard, Color, Position as _};

use crate::position::{parse_color, Position};

/// A period of a time control: the moves to make in it (None: the rest of
/// the game), its time and its increment, in ms.
pub(crate) type Period = (Option<u64>, u64, u64);

const MINUTE_MS: u64 = 60 * 1000;

/// 1997 B.1 and C.1: "standard", "rapid" or "blitz". All the moves must be
/// made in a fixed time, so the control ends in sudden death; that time is
/// the sum of the periods' times plus the increments of a 60-move game (each
/// move with the increment of the period it is made in), the reading FIDE
/// later wrote into the Laws (2023 A.1). Rapid from 15 to 60 minutes
/// inclusive, blitz under 15; anything else is standard.
pub(crate) fn game_kind(periods: &[Period]) -> &'static str {
    let Some(&(None, ..)) = periods.last() else { return "standard" };
    let mut total: u64 = periods.iter().map(|p| p.1).sum();
    let (mut index, mut left) = (0usize, periods[0].0);
    for _ in 0..60 {
        while left == Some(0) {
            index += 1;
            left = periods[index].0;
        }
        total += periods[index].2;
        left = left.map(|n| n - 1);
    }
    if total < 15 * MINUTE_MS {
        "blitz"
    } else if total <= 60 * MINUTE_MS {
        "rapid"
    } else {
        "standard"
    }
}

/// A PGN TimeControl tag under which 1997 C.1 calls the game blitz
/// ([`game_kind`]). A tag that cannot be read is no time control: not blitz.
pub(crate) fn is_blitz_tag(tag: &str) -> bool {
    let tag = tag.trim();
    if tag.is_empty() || tag == "-" || tag == "?" {
        return false;
    }
    let mut periods: Vec<Period> = Vec::new();
    for field in tag.split(':') {
        let (moves, rest) = match field.split_once('/') {
            Some((m, r)) => match m.parse::<u64>() {
                Ok(m) if m > 0 => (Some(m), r),
                _ => return false,
            },
            None => (None, field),
        };
        let (secs, inc) = rest.split_once('+').unwrap_or((rest, "0"));
        let (Some(ms), Some(inc_ms)) = (seconds_ms(secs), seconds_ms(inc)) else { return false };
        periods.push((moves, ms, inc_ms));
    }
    game_kind(&periods) == "blitz"
}

/// Whole or decimal seconds ("180", "0.5") in milliseconds.
fn seconds_ms(text: &str) -> Option<u64> {
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit() || b == b'.') {
        return None;
    }
    let secs: f64 = text.parse().ok()?;
    Some((secs * 1000.0).round() as u64)
}

/// 1997 C.4: forces that could produce, possibly by helpmate, a position
/// where the opponent having the move cannot avoid mate in one; read as
/// material. A queen, rook or pawn suffices; so do two minor pieces other
/// than two knights alone (bishop and knight, two bishops on both colours);
/// a lone minor piece or two knights suffice only when the opponent has
/// material of his own to block his king. `Ok(why)` when `color` has mating
/// potential, `Err(why)` when not.
pub(crate) fn mating_potential(board: &shakmaty::Board, color: Color) -> Result<&'static str, &'static str> {
    let own = board.by_color(color);
    if !(own & (board.queens() | board.rooks() | board.pawns())).is_empty() {
        return Ok("has a queen, rook or pawn");
    }
    let bishops = own & board.bishops();
    let knights = own & board.knights();
    if !bishops.is_empty() && !knights.is_empty() {
        return Ok("has bishop and knight");
    }
    if bishops.count() >= 2 && !(bishops & Bitboard::LIGHT_SQUARES).is_empty() && !(bishops & Bitboard::DARK_SQUARES).is_empty() {
        return Ok("has bishops on both colours");
    }
    let minors = bishops.count() + knights.count();
    if minors == 0 {
        return Err("has a lone king");
    }
    if board.by_color(!color).count() > 1 {
        return Ok("has a minor piece and the opponent has material that can block");
    }
    if knights.count() == 2 && minors == 2 {
        return Err("has only two knights against a lone king");
    }
    Err("has only one minor piece against a lone king")
}

/// (has mating potential, why), for the arbiter.
#[pyfunction]
#[pyo3(name = "mating_potential")]
fn mating_potential_py(position: PyRef<'_, Position>, color: &str) -> PyResult<(bool, &'static str)> {
    let color = parse_color(color)?;
    Ok(match mating_potential(position.pos.board(), color) {
        Ok(why) => (true, why),
        Err(why) => (false, why),
    })
}

/// The kind of game of a time control's periods, (moves or None, ms,
/// increment ms) each, for `chesslaws.timecontrol.classify`.
#[pyfunction]
#[pyo3(name = "game_kind_1997")]
fn game_kind_py(periods: Vec<Period>) -> &'static str {
    if periods.is_empty() {
        return "standard";
    }
    game_kind(&periods)
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(mating_potential_py, m)?)?;
    m.add_function(wrap_pyfunction!(game_kind_py, m)?)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use shakmaty::fen::Fen;
    use shakmaty::{CastlingMode, Chess};

    use super::*;

    #[test]
    fn blitz_under_1997() {
        // As `chesslaws.timecontrol.classify(tc, "1997") == "blitz"` (tests/test_judgement.py compares
        // the two on more tags): all the moves in under 15 minutes, increments of 60 moves counted.
        for (tag, blitz) in [("180", true), ("180+2", true), ("840", true), ("899+0", true), ("900", false),
                             ("600+5", false), ("60+14", false), ("180+0.5", true), ("40/300", false),
                             ("40/5400:1800+30", false), ("-", false), ("?", false), ("", false),
                             ("3 min", false), ("G/5", false), ("1/259200", false), ("5/60:300", true)] {
            assert_eq!(is_blitz_tag(tag), blitz, "{tag}");
        }
    }

    #[test]
    fn mating_potential_as_the_arbiter_reads_it() {
        let board = |fen: &str| Fen::from_ascii(fen.as_bytes()).unwrap().into_position::<Chess>(CastlingMode::Standard)
            .unwrap().board().clone();
        let w = Color::White;
        assert_eq!(mating_potential(&board("4k3/8/8/8/8/8/8/4K3 w - - 0 1"), w), Err("has a lone king"));
        assert_eq!(mating_potential(&board("4k3/8/8/8/8/8/8/2NNK3 w - - 0 1"), w),
                   Err("has only two knights against a lone king"));
        assert_eq!(mating_potential(&board("4k3/8/8/8/8/8/8/2B1K3 w - - 0 1"), w),
                   Err("has only one minor piece against a lone king"));
        assert!(mating_potential(&board("4k3/8/8/8/8/8/8/2BBK3 w - - 0 1"), w).is_ok());  // both colours
        assert_eq!(mating_potential(&board("4k3/8/8/8/8/8/8/B1B1K3 w - - 0 1"), w),
                   Err("has only one minor piece against a lone king"));  // same colour: as two minors, no pair
        assert!(mating_potential(&board("4k3/8/8/8/8/8/8/2BNK3 w - - 0 1"), w).is_ok());
        assert!(mating_potential(&board("4k3/7p/8/8/8/8/8/2N1K3 w - - 0 1"), w).is_ok());  // Black can block
        assert!(mating_potential(&board("4k3/8/8/8/8/8/3P4/4K3 w - - 0 1"), w).is_ok());
    }
}
