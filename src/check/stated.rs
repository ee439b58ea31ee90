//! The reason a record states for its ending, set against the moves. Where the moves do not support it (a
//! "Game drawn by insufficient material" with a queen on the board, a "3-fold repetition" where no
//! position stood three times) while the result is one the Laws give, the result is judged as always and
//! the false reason is a note: the same note `chesslaws convert` gives (`chesslaws.records.convert`,
//! which then writes the ending as the Laws can have it: an agreement, a resignation), not a finding.

use shakmaty::zobrist::Zobrist64;
use shakmaty::{Chess, EnPassantMode, Position as _};

use super::visitor::Checker;
use super::DRAW;
use crate::ending::{said, Said};

/// The endings the board makes by itself (the terminations table's kinds): a record that names one when
/// the board shows none states a false reason.
const AUTOMATIC_ENDS: &[&str] = &["checkmate", "stalemate", "dead_position", "fivefold", "seventy_five_moves"];

/// The terminations table's kind of the ending the checker found on the board.
fn table_kind(kind: &str) -> &str {
    match kind {
        "insufficient_material" => "dead_position",
        "seventyfive" => "seventy_five_moves",
        other => other,
    }
}

/// The arbiter's name of that ending, as `convert` quotes it.
fn termination_name(kind: &str) -> &str {
    match kind {
        "fivefold" => "fivefold_repetition",
        "seventyfive" => "seventyfive_moves",
        other => other,
    }
}

/// A string as Python's `repr` writes it (convert quotes the record's words so).
fn py_repr(text: &str) -> String {
    let quote = if text.contains('\'') && !text.contains('"') { '"' } else { '\'' };
    let mut out = String::with_capacity(text.len() + 2);
    out.push(quote);
    for ch in text.chars() {
        match ch {
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if c == quote => {
                out.push('\\');
                out.push(c);
            }
            c if (c as u32) < 0x20 || c as u32 == 0x7f => out.push_str(&format!("\\x{:02x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push(quote);
    out
}

impl Checker {
    /// Where the record's words come from, as `convert` names them: "Termination 'X'", or "the record
    /// (KIND)" when no tag says it.
    fn said_words(&self, said: &Said) -> String {
        let text = if said.source == Some("TerminationDetails") { &self.termination_details } else { &self.termination };
        if !text.is_empty() {
            format!("Termination {}", py_repr(text))
        } else {
            format!("the record ({})", said.kind.unwrap_or(""))
        }
    }

    /// Could a claim of the player to move, or of the player who made the last move with it written down,
    /// be correct at the end of the record (a threefold repetition, the fifty-move rule), or would one be
    /// with some move the record does not show? The claims `convert` tries.
    fn some_claim_correct(&self) -> bool {
        let key = |p: &Chess| p.zobrist_hash::<Zobrist64>(EnPassantMode::Legal).0;
        let mut seen = Vec::with_capacity(self.moves.len() + 1);
        let mut p = self.start_pos.clone();
        seen.push(key(&p));
        for &m in &self.moves {
            p.play_unchecked(m);
            seen.push(key(&p));
        }
        let count = |k: u64| seen.iter().filter(|&&x| x == k).count();
        let pos = &self.pos;
        if count(key(pos)) >= 3 || pos.halfmoves() >= 100 {
            return true;
        }
        pos.legal_moves().iter().any(|&m| {
            let mut after = pos.clone();
            after.play_unchecked(m);
            count(key(&after)) >= 2 || after.halfmoves() >= 100
        })
    }

    /// The note on a stated reason the moves do not support (see the module docs), for a game read to its
    /// end.
    pub(super) fn note_stated_reason(&mut self) {
        let result = self.token_result.or(self.tag_result);
        let said = self.said.take().unwrap_or_else(|| {
            said(&self.laws_termination, &self.termination, &self.termination_details, &self.final_comment)
        });
        let Some(kind) = said.kind.filter(|k| !matches!(*k, "normal")) else { return };
        let words = self.said_words(&said);
        let kind_words = kind.replace('_', " ");
        let note = if let Some(end) = &self.ending {
            // The board ended the game: a record naming another ending (with the board's result).
            if result.is_some_and(|r| r != "*" && r != end.expected) || table_kind(end.kind) == kind {
                return;
            }
            format!("{words}, but the moves ended the game ({})", termination_name(end.kind))
        } else if !AUTOMATIC_ENDS.contains(&kind) && !(result == Some(DRAW) && matches!(kind, "repetition" | "fifty_moves")) {
            return;
        } else if !matches!(result, Some("1-0" | "0-1" | DRAW)) || self.pos.legal_moves().is_empty() {
            return;
        } else if AUTOMATIC_ENDS.contains(&kind) {
            if self.recorded_ending(result).flag_said {
                return; // a loser's clock at zero: judged by the flag rule, as convert writes it
            }
            format!("{words} says {kind_words}, but the final position is not one that ends the game")
        } else if self.some_claim_correct() {
            return;
        } else {
            format!("{words} says {kind_words}, but no claim by either player would be correct here")
        };
        self.report.notes.push(note);
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn words_quoted_as_python_quotes_them() {
        assert_eq!(super::py_repr("Game drawn by insufficient material"), "'Game drawn by insufficient material'");
        assert_eq!(super::py_repr("White's flag"), "\"White's flag\"");
        assert_eq!(super::py_repr("a\\b"), "'a\\\\b'");
    }
}
