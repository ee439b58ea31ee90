//! How a record says its game ended, and so which ending the Laws judge: a
//! flag fall, an arbiter's decision, a resignation, a draw on time or another
//! draw. One reading for `chesslaws check` (the checker's judgement,
//! `crate::check`) and `chesslaws convert` (which writes the ending it names
//! as the event of a game log, through the binding below).
//!
//! The record's words come from chesslaws' own `LawsTermination` tag, the
//! `Termination` tag, TCEC's `TerminationDetails` and the comment before the
//! result, read through the terminations table (`crate::terminations`).

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use shakmaty::Color;

use crate::terminations::termination_kind;

/// The comment `chesslaws check --fix` writes before a result it changed: it
/// cites the Laws and is no record of how the game ended.
const FIX_COMMENT: &[u8] = b"chesslaws check,";

/// The longest comment read for how the game ended ("White loses on time"):
/// a longer one is an annotation.
const ENDING_COMMENT_MAX: usize = 120;

/// What the comment before the result says: whether `--fix` wrote it, and
/// its text when it may say how the game ended (short, not a command such as
/// `[%clk]`, not written by `--fix`).
pub(crate) struct FinalComment<'a> {
    pub(crate) fix: bool,
    pub(crate) text: Option<&'a [u8]>,
}

pub(crate) fn final_comment(raw: &[u8]) -> FinalComment<'_> {
    let start = raw.trim_ascii_start();
    let fix = start.starts_with(FIX_COMMENT);
    let readable = raw.len() <= ENDING_COMMENT_MAX && !start.starts_with(b"[%") && !fix;
    FinalComment { fix, text: readable.then_some(raw) }
}

/// chesslaws' `LawsTermination` tag (the arbiter's termination, written by
/// `chesslaws.records.game_tags`) as a kind of the terminations table.
fn laws_termination_kind(tag: &str) -> Option<&'static str> {
    Some(match tag {
        "checkmate" => "checkmate",
        "resignation" => "resignation",
        "stalemate" => "stalemate",
        "agreement" => "agreement",
        "threefold_repetition" => "repetition",
        "fifty_moves" => "fifty_moves",
        "fivefold_repetition" => "fivefold",
        "seventyfive_moves" => "seventy_five_moves",
        "dead_position" | "insufficient_material" => "dead_position",
        "time_forfeit" | "both_flags_fallen" => "time_forfeit",
        _ => return None,
    })
}

/// The kind of ending the record names, and where it says so (the tag's
/// name, or "comment").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) struct Said {
    pub(crate) kind: Option<&'static str>,
    pub(crate) source: Option<&'static str>,
}

/// The record's words, first to last: `LawsTermination` exactly, else the
/// `Termination` tag; TCEC's `TerminationDetails` where the Termination says
/// only "adjudication" or nothing particular; the comment before the result
/// (already passed through [`final_comment`]) where nothing else names the
/// ending.
pub(crate) fn said(laws_termination: &str, termination: &str, details: &str, comment: &str) -> Said {
    let mut out = Said::default();
    if let Some(kind) = laws_termination_kind(laws_termination) {
        out = Said { kind: Some(kind), source: Some("LawsTermination") };
    } else if let Some(kind) = termination_kind(termination) {
        out = Said { kind: Some(kind), source: Some("Termination") };
    }
    if matches!(out.kind, None | Some("normal" | "adjudication")) {
        if let Some(more) = termination_kind(details).filter(|k| *k != "normal") {
            out = Said { kind: Some(more), source: Some("TerminationDetails") };
        }
    }
    if matches!(out.kind, None | Some("normal")) {
        if let Some(kind) = termination_kind(comment).filter(|k| !matches!(*k, "normal" | "unterminated")) {
            out = Said { kind: Some(kind), source: Some("comment") };
        }
    }
    out
}

/// Which ending the Laws judge.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Way {
    /// No result (`*`), or none written.
    Unfinished,
    /// The loser's flag fell on his turn.
    Flag { loser: Color },
    /// The loser's flag fell after he made his last move and before he
    /// pressed his clock (a move not completed: 1989 12.3, 1997 6.7(a),
    /// 2023 6.2.1), the position on the board being the one after it.
    FlagBeforePress { loser: Color },
    /// The record says the loser's flag fell, but his clock was not running
    /// (his opponent was to move, and the clock after his last move showed
    /// time left: he had pressed it). Judged as a resignation.
    FlagNotRunning { loser: Color },
    /// An arbiter's (or a server's) decision: an adjudication, a rules
    /// infraction.
    Decision { loser: Color },
    /// Any other win: a resignation.
    Resignation { loser: Color },
    /// A draw recorded on time (chess.com "timeout vs insufficient
    /// material", lichess "Time forfeit" with 1/2-1/2): the flag of the
    /// player to move fell.
    DrawOnTime { flagged: Color },
    /// Any other draw: a claim or an agreement.
    Draw,
}

/// The ending a record names: its words, whether they (or the loser's
/// clock) say a flag fell, and the way the Laws judge it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Ending {
    pub(crate) said: Said,
    pub(crate) flag_said: bool,
    pub(crate) way: Way,
}

/// What the record shows at its end, besides its words.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Facts<'a> {
    /// The recorded result: "1-0", "0-1", "1/2-1/2", "*", or none.
    pub(crate) result: Option<&'a str>,
    /// The comment before the result is the one `--fix` writes.
    pub(crate) fix_comment: bool,
    /// The side to move after the last recorded move.
    pub(crate) turn: Color,
    /// Plies recorded.
    pub(crate) plies: u32,
    /// The last clock recorded after a move of each side (white, black).
    pub(crate) clocks: [Option<u64>; 2],
    /// The clock recorded after the last move.
    pub(crate) last_clock: Option<u64>,
}

fn side_index(c: Color) -> usize {
    match c {
        Color::White => 0,
        Color::Black => 1,
    }
}

fn loser_of(result: Option<&str>) -> Option<Color> {
    match result {
        Some("1-0") => Some(Color::Black),
        Some("0-1") => Some(Color::White),
        _ => None,
    }
}

/// The ending the record names (`said`), judged as the Laws judge it.
pub(crate) fn ending(said: Said, facts: &Facts<'_>) -> Ending {
    let kind = said.kind;
    if let Some(loser) = loser_of(facts.result) {
        // An abandoned game is lost on time when the player who left let his
        // clock run out: his own turn, or his clock recorded at zero. With
        // his opponent to move his clock was not running: he left the game,
        // a resignation. A loser's clock recorded at zero says a flag fell
        // whatever the record's words.
        let zero = facts.clocks[side_index(loser)] == Some(0);
        let flag_said = matches!(kind, Some("time_forfeit" | "timeout_vs_insufficient"))
            || (kind == Some("abandoned") && facts.turn == loser)
            || zero;
        let way = if flag_said {
            if facts.turn == loser {
                Way::Flag { loser }
            } else if facts.plies > 0 && facts.last_clock.is_none_or(|c| c == 0) {
                Way::FlagBeforePress { loser }
            } else {
                Way::FlagNotRunning { loser }
            }
        } else if matches!(kind, Some("adjudication" | "rules_infraction")) {
            Way::Decision { loser }
        } else {
            Way::Resignation { loser }
        };
        return Ending { said, flag_said, way };
    }
    if facts.result == Some("1/2-1/2") {
        let flag_said = matches!(kind, Some("time_forfeit" | "timeout_vs_insufficient"));
        // A draw `--fix` wrote, its comment citing the Laws, is theirs: its
        // "Time forfeit" may be the flag of the player not to move.
        let on_time = kind == Some("timeout_vs_insufficient") || (kind == Some("time_forfeit") && !facts.fix_comment);
        let way = if on_time { Way::DrawOnTime { flagged: facts.turn } } else { Way::Draw };
        return Ending { said, flag_said, way };
    }
    Ending { said, flag_said: false, way: Way::Unfinished }
}

fn colour_name(c: Color) -> &'static str {
    match c {
        Color::White => "white",
        Color::Black => "black",
    }
}

fn colour_of(name: &str) -> PyResult<Color> {
    match name {
        "white" => Ok(Color::White),
        "black" => Ok(Color::Black),
        _ => Err(PyValueError::new_err(format!("a colour is 'white' or 'black', not {name:?}"))),
    }
}

/// The ending a record names, for Python (`chesslaws.records.convert`):
/// `said` and `said_in` (the kind of the terminations table and where the
/// record says it), `fix_comment`, `flag_said`, `way` (`unfinished`,
/// `flag`, `flag_before_press`, `flag_not_running`, `decision`,
/// `resignation`, `draw_on_time`, `draw`) and `side`, the player whose flag
/// fell, or who lost.
#[pyclass(frozen, get_all, module = "chesslaws._core", name = "RecordedEnding")]
pub struct RecordedEnding {
    said: Option<&'static str>,
    said_in: Option<&'static str>,
    fix_comment: bool,
    flag_said: bool,
    way: &'static str,
    side: Option<&'static str>,
}

impl From<Ending> for RecordedEnding {
    fn from(e: Ending) -> Self {
        let (way, side) = match e.way {
            Way::Unfinished => ("unfinished", None),
            Way::Flag { loser } => ("flag", Some(loser)),
            Way::FlagBeforePress { loser } => ("flag_before_press", Some(loser)),
            Way::FlagNotRunning { loser } => ("flag_not_running", Some(loser)),
            Way::Decision { loser } => ("decision", Some(loser)),
            Way::Resignation { loser } => ("resignation", Some(loser)),
            Way::DrawOnTime { flagged } => ("draw_on_time", Some(flagged)),
            Way::Draw => ("draw", None),
        };
        RecordedEnding {
            said: e.said.kind,
            said_in: e.said.source,
            fix_comment: false,
            flag_said: e.flag_said,
            way,
            side: side.map(colour_name),
        }
    }
}

/// The ending a record names. `tags` are the record's tags (only
/// `LawsTermination`, `Termination` and `TerminationDetails` are read),
/// `comment` the comment before the result, `turn` the side to move after
/// the last recorded move, `white_clock` / `black_clock` the last clock
/// recorded after a move of each side (ms), `last_clock` the one after the
/// last move.
#[pyfunction]
#[pyo3(signature = (result, tags, comment, turn, plies, white_clock, black_clock, last_clock))]
#[allow(clippy::too_many_arguments)]
fn recorded_ending(
    result: Option<&str>,
    tags: std::collections::HashMap<String, String>,
    comment: Option<&str>,
    turn: &str,
    plies: u32,
    white_clock: Option<u64>,
    black_clock: Option<u64>,
    last_clock: Option<u64>,
) -> PyResult<RecordedEnding> {
    let tag = |name: &str| tags.get(name).map_or("", String::as_str);
    let comment = final_comment(comment.unwrap_or("").as_bytes());
    let text = comment.text.map_or("", |t| std::str::from_utf8(t).unwrap_or(""));
    let said = said(tag("LawsTermination"), tag("Termination"), tag("TerminationDetails"), text);
    let facts = Facts {
        result,
        fix_comment: comment.fix,
        turn: colour_of(turn)?,
        plies,
        clocks: [white_clock, black_clock],
        last_clock,
    };
    Ok(RecordedEnding { fix_comment: comment.fix, ..ending(said, &facts).into() })
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<RecordedEnding>()?;
    m.add_function(wrap_pyfunction!(recorded_ending, m)?)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn facts(result: &'static str, turn: Color) -> Facts<'static> {
        Facts { result: Some(result), fix_comment: false, turn, plies: 40, clocks: [None, None], last_clock: None }
    }

    #[test]
    fn the_record_s_words_in_order() {
        assert_eq!(said("time_forfeit", "normal", "", "").kind, Some("time_forfeit"));
        assert_eq!(said("", "adjudication", "White wins by TCEC win rule", "").source, Some("TerminationDetails"));
        assert_eq!(said("", "normal", "", "Black loses on time").kind, Some("time_forfeit"));
        assert_eq!(said("", "", "", "").kind, None);
    }

    #[test]
    fn ways() {
        let on_time = Said { kind: Some("time_forfeit"), source: Some("Termination") };
        assert_eq!(ending(on_time, &facts("1-0", Color::Black)).way, Way::Flag { loser: Color::Black });
        assert_eq!(ending(on_time, &facts("1-0", Color::White)).way, Way::FlagBeforePress { loser: Color::Black });
        let pressed = Facts { last_clock: Some(1500), ..facts("1-0", Color::White) };
        assert_eq!(ending(on_time, &pressed).way, Way::FlagNotRunning { loser: Color::Black });
        assert_eq!(ending(on_time, &facts("1/2-1/2", Color::White)).way, Way::DrawOnTime { flagged: Color::White });
        let zero = Facts { clocks: [Some(0), None], ..facts("0-1", Color::White) };
        assert_eq!(ending(Said::default(), &zero).way, Way::Flag { loser: Color::White });
        assert_eq!(ending(Said::default(), &facts("0-1", Color::White)).way, Way::Resignation { loser: Color::White });
        assert_eq!(ending(Said::default(), &facts("*", Color::White)).way, Way::Unfinished);
        let left = Said { kind: Some("abandoned"), source: Some("Termination") };
        assert_eq!(ending(left, &facts("1-0", Color::Black)).way, Way::Flag { loser: Color::Black });
        assert_eq!(ending(left, &facts("1-0", Color::White)).way, Way::Resignation { loser: Color::Black });
    }
}
