//! The judgement of a recorded game: the ply where the Laws ended it, and the
//! result they give against the one recorded.

use pgn_reader::SanPlus;
use shakmaty::{Chess, Color, Position as _};

use super::rules::{
    analysis, is_dead, may_be_dead, may_be_unwinnable, side, through_forced_play, win_for, FORCED_PLIES,
};
use super::visitor::Checker;
use super::{Fix, DRAW};
use crate::blitz_1997::{is_blitz_tag, mating_potential};
use crate::dead::Verdict;
use crate::ending::{ending, said, Ending as RecordedEnding, Facts, Way};

/// How the Laws ended the game, and what the record did after it.
#[derive(Debug, Clone)]
pub(super) struct Ending {
    pub(super) kind: &'static str,
    pub(super) rule: &'static str,
    pub(super) ply: u32,
    pub(super) mv: String,
    pub(super) expected: &'static str,
    pub(super) why: String,
    pub(super) continued: u32,
}

impl Checker {
    /// Dead positions beyond insufficient material, decided as the arbiter
    /// decides them after every move (`chesslaws.mating.is_dead`: CHA-Solver,
    /// full search, both sides), at the first ply where the arbiter would.
    /// Once dead, every later position is dead too (no series of moves from
    /// it mates): so a last position CHA-Solver shows alive means no earlier
    /// one was dead, and only games whose last position may be dead
    /// ([`may_be_dead`]) are searched, ply by ply back to one shown
    /// alive, then forward to the first dead one.
    pub(super) fn settle_dead(&mut self) {
        if !self.rules.dead {
            return;
        }
        let (ending_ply, kind) = match &self.ending {
            Some(e) => (e.ply, Some(e.kind)),
            None => (self.ply, None),
        };
        if kind == Some("checkmate") {
            return;
        }
        let first = if self.has_fen { 0 } else { 1 };
        // The plies that may hold the first dead position: up to the ending
        // (included unless it is itself a position with no move or a dead one).
        let top = match kind {
            Some("stalemate" | "dead_position") => ending_ply.saturating_sub(1),
            _ => ending_ply,
        };
        if top < first || (top as usize) > self.moves.len() {
            return;
        }
        // Asked first: whether the side the record makes the winner can mate
        // (what the judgement of the result asks next), else the side to move.
        let first_side = |p: &Chess| match self.token_result.or(self.tag_result) {
            Some("1-0") => Color::White,
            Some("0-1") => Color::Black,
            _ => p.turn(),
        };
        // The position at `top`: the current one unless the record went on.
        let last_played;
        let last = if top as usize == self.moves.len() {
            &self.pos
        } else {
            let mut p = self.start_pos.clone();
            for &m in &self.moves[..top as usize] {
                p.play_unchecked(m);
            }
            last_played = p;
            &last_played
        };
        if !through_forced_play(last, &may_be_dead, FORCED_PLIES) || is_dead(last, first_side(last)) == Some(false) {
            return;
        }
        let mut positions = Vec::with_capacity(top as usize + 1);
        let mut p = self.start_pos.clone();
        positions.push(p.clone());
        for &m in &self.moves[..top as usize] {
            p.play_unchecked(m);
            positions.push(p.clone());
        }
        // Back to a position shown alive (doubling the step), then forward.
        let mut from = first;
        let mut step = 1;
        let mut at = top;
        while at > first {
            at = at.saturating_sub(step).max(first);
            let pos = &positions[at as usize];
            if is_dead(pos, first_side(pos)) == Some(false) {
                from = at + 1;
                break;
            }
            step *= 2;
        }
        for j in from..=top {
            let pos = &positions[j as usize];
            if pos.legal_moves().is_empty() || is_dead(pos, first_side(pos)) != Some(true) {
                continue;
            }
            let Some(why) = dead_reason_of(pos) else { continue };
            let mv = if j == 0 {
                String::new()
            } else {
                SanPlus::from_move(positions[j as usize - 1].clone(), self.moves[j as usize - 1]).to_string()
            };
            let continued = match &self.ending {
                Some(e) => e.continued + (e.ply - j),
                None => self.ply - j,
            };
            self.ending = Some(Ending {
                kind: "dead_position",
                rule: "dead_position",
                ply: j,
                mv,
                expected: DRAW,
                why: format!("the position is dead: {why}"),
                continued,
            });
            return;
        }
    }

    /// Could `winner` have mated in the final position? `Some(reason)` when
    /// it is proven that it could not.
    pub(super) fn cannot_mate(&self, winner: Color, bare_king_only: bool) -> Option<String> {
        if bare_king_only {
            let ours = self.pos.board().by_color(winner);
            return (ours.count() == 1).then(|| format!("{} has only the king left", side(winner)));
        }
        // CHA-Solver decides, as the arbiter's `can_mate` does (its full
        // analysis), wherever the winner may be unable to mate
        // ([`may_be_unwinnable`]); elsewhere the winner can mate.
        if !through_forced_play(&self.pos, &|p: &Chess| may_be_unwinnable(p, winner), FORCED_PLIES) {
            return None;
        }
        let a = analysis(&self.pos, winner);
        (a.verdict == Verdict::Unwinnable).then(|| a.reason.trim_end_matches('.').to_string())
    }

    /// As [`Self::cannot_mate`], without the gate: every position is
    /// searched (a win the Laws give rests on the same analysis as the
    /// arbiter's).
    pub(super) fn cannot_mate_proved(&self, winner: Color, bare_king_only: bool) -> Option<String> {
        if bare_king_only {
            let ours = self.pos.board().by_color(winner);
            return (ours.count() == 1).then(|| format!("{} has only the king left", side(winner)));
        }
        let a = analysis(&self.pos, winner);
        (a.verdict == Verdict::Unwinnable).then(|| a.reason.trim_end_matches('.').to_string())
    }

    pub(super) fn judge_result(&mut self) {
        let result = self.token_result.or(self.tag_result);
        self.report.result = result.map(str::to_string);
        if let (Some(t), Some(m)) = (self.tag_result, self.token_result) {
            if t != m {
                let text = format!("the Result tag gives {t}, but the movetext ends with {m}");
                let ply = self.ply;
                self.finding("result_tag", ply, String::new(), "", text);
            }
        }
        if result.is_none_or(|r| r == "*") && !self.fix_comment && !self.stopped {
            // An unfinished game, or a result not written: said, never
            // taken for a clean game (a void agreement `--fix` wrote as `*`,
            // its comment citing the Laws, is the Laws' result; a record
            // read only up to an illegal or unreadable move has its finding).
            let mut text = match result {
                None => "the record has no result: no Result tag and no result at the end of the movetext".to_string(),
                Some(_) => "the record gives no result (*): the game is unfinished, or its result was not written"
                    .to_string(),
            };
            let ply = self.ply;
            match self.ending.clone().filter(|e| e.continued == 0) {
                Some(end) => {
                    // The Laws gave the result on the board: --fix writes it.
                    let at = if end.ply == 0 { "in the starting position".to_string() } else {
                        format!("after {}", self.label(end.ply, &end.mv))
                    };
                    text.push_str(&format!("; the game was over {at} by {}: {}", end.kind, end.expected));
                    self.finding("no_result", ply, String::new(), end.rule, text);
                    self.report.fix = Some(Fix { result: end.expected, rule: end.rule, cut_ply: None });
                }
                None => self.finding("no_result", ply, String::new(), "", text),
            }
        }
        if self.stopped && self.ending.as_ref().is_none_or(|e| e.continued == 0) {
            return;
        }
        if let Some(end) = self.ending.clone() {
            let label = self.label(end.ply, &end.mv);
            let article_event = if end.ply == 0 {
                format!("In the starting position {}", end.why)
            } else {
                format!("After {label} {}", end.why)
            };
            if end.continued > 0 {
                let text = format!(
                    "{article_event}: the game was over ({}), but the record goes on with {} more move(s)",
                    end.expected, end.continued
                );
                self.finding(end.kind, end.ply, end.mv.clone(), end.rule, text);
                self.report.fix = Some(Fix { result: end.expected, rule: end.rule, cut_ply: Some(end.ply) });
            } else if let Some(r) = result {
                if r != "*" && r != end.expected {
                    let text = format!("{article_event}: the result is {}, but the record gives {r}", end.expected);
                    self.finding(end.kind, end.ply, end.mv.clone(), end.rule, text);
                    self.report.fix = Some(Fix { result: end.expected, rule: end.rule, cut_ply: None });
                }
            }
            return;
        }
        let recorded = self.recorded_ending(result);
        self.said = Some(recorded.said);
        if result == Some(DRAW) && !self.pos.legal_moves().is_empty() {
            // A draw on time (chess.com "timeout vs insufficient material",
            // lichess "Time forfeit" with 1/2-1/2): the flag of the player to
            // move fell; the game is drawn only if the opponent cannot mate
            // (Article 6.9; 1989 10.5: a bare king). `convert` writes it as
            // the claim of the opponent after the flag fell.
            let flagged = match recorded.way {
                Way::DrawOnTime { flagged } => Some(flagged),
                _ => None,
            };
            let on_time = flagged.is_some();
            let both_moved = self.ply >= 2;
            if self.rules.agreement_both_moved
                && !on_time
                && !both_moved
                && !self.fix_comment
            {
                // A draw the record does not explain is an agreement (as
                // `convert` writes it), void before both players have moved.
                let ply = self.ply;
                let mv = self.last_move_text();
                let text = format!(
                    "the record gives 1/2-1/2 after {ply} move(s), but a draw by agreement needs both players to \
                     have made at least one move: the agreement is void and the game goes on (no result)"
                );
                self.finding("agreement", ply, mv, "agreement", text);
                self.report.fix = Some(Fix { result: "*", rule: "agreement", cut_ply: None });
                return;
            }
            if let Some(loser) = flagged {
                let winner = !loser;
                if self.cannot_mate_proved(winner, self.rules.bare_king_flag).is_none()
                    && self.lacks_mating_potential(winner).is_none()
                {
                    let ply = self.ply;
                    let mv = self.last_move_text();
                    let where_ = if ply == 0 {
                        "In the starting position".to_string()
                    } else {
                        format!("After {}", self.label(ply, &mv))
                    };
                    let text = format!(
                        "{where_} {}'s flag fell and {} can checkmate: the game is won by {} ({}), not drawn",
                        side(loser),
                        side(winner),
                        side(winner),
                        win_for(winner)
                    );
                    self.finding("time_forfeit", ply, mv, "flag", text);
                    self.report.fix = Some(Fix { result: win_for(winner), rule: "flag", cut_ply: None });
                }
            }
            return;
        }
        let (winner, on_time, decision) = match recorded.way {
            Way::Flag { loser } | Way::FlagBeforePress { loser } => (!loser, true, false),
            Way::Decision { loser } => (!loser, false, true),
            Way::FlagNotRunning { loser } | Way::Resignation { loser } => (!loser, false, false),
            Way::Unfinished | Way::DrawOnTime { .. } | Way::Draw => return,
        };
        let loser = !winner;
        if !on_time && self.rules.bare_king_never_wins && self.pos.board().by_color(winner).count() == 1 {
            // 1989 10.5: a bare king cannot win, whatever the way the game
            // was won; `convert` writes such a win as a resignation, which
            // the arbiter draws by 10.5. (A flag is judged below by the same
            // article.)
            let how = if decision {
                "an arbiter's decision".to_string()
            } else {
                format!("a resignation by {}", side(loser))
            };
            self.judge_bare_king(winner, &how);
            return;
        }
        if !on_time && decision {
            // An arbiter's or a server's decision, not a resignation: not
            // judged by the resignation rule (only by 1997 C.4, which holds
            // of any win in blitz).
            self.judge_mating_potential(winner, "resignation", "an arbiter's decision");
            return;
        }
        let ply = self.ply;
        let mv = self.last_move_text();
        let where_ = if ply == 0 { "In the starting position".to_string() } else { format!("After {}", self.label(ply, &mv)) };
        if on_time {
            // In 1997 blitz the arbiter asks C.4 before 6.9 (`game.flags._flag_outcome`).
            if self.lacks_mating_potential(winner).is_some() {
                self.judge_mating_potential(winner, "time_forfeit", &format!("{}'s flag fell", side(loser)));
            } else if let Some(why) = self.cannot_mate(winner, self.rules.bare_king_flag) {
                let text = format!(
                    "{where_} {}'s flag fell, but {why}: the game is drawn, not {}",
                    side(loser),
                    win_for(winner)
                );
                self.finding("time_forfeit", ply, mv, "flag_draw", text);
                self.report.fix = Some(Fix { result: DRAW, rule: "flag_draw", cut_ply: None });
            }
        } else if self.rules.resign_rule {
            if let Some(why) = self.cannot_mate(winner, false) {
                let text = format!(
                    "{where_} the record gives {} (a resignation by {}), but {why}: the game is drawn",
                    win_for(winner),
                    side(loser)
                );
                self.finding("resignation", ply, mv, "resignation", text);
                self.report.fix = Some(Fix { result: DRAW, rule: "resignation", cut_ply: None });
            }
        } else {
            self.judge_mating_potential(winner, "resignation", &format!("a resignation by {}", side(loser)));
        }
    }

    /// The ending the record names (`crate::ending`, the reading `convert`
    /// shares): its words, the side to move, the clocks recorded.
    pub(super) fn recorded_ending(&self, result: Option<&str>) -> RecordedEnding {
        let said = said(&self.laws_termination, &self.termination, &self.termination_details, &self.final_comment);
        let facts = Facts {
            result,
            fix_comment: self.fix_comment,
            turn: self.pos.turn(),
            plies: self.ply,
            clocks: self.clocks,
            last_clock: self.last_clock,
        };
        ending(said, &facts)
    }

    /// 1997 C.4 (blitz): "In order to win, a player must have mating
    /// potential", of any win but checkmate; the arbiter's rule
    /// (`chesslaws.game.state`), read from the record's TimeControl (no
    /// tag: not blitz, as `convert` reads it).
    pub(super) fn lacks_mating_potential(&self, winner: Color) -> Option<&'static str> {
        if !self.rules.mating_potential_in_blitz || !is_blitz_tag(&self.time_control) {
            return None;
        }
        mating_potential(self.pos.board(), winner).err()
    }

    /// 1989 10.5: the record's win (`how`, not on time) by a player having
    /// a bare king is a draw.
    pub(super) fn judge_bare_king(&mut self, winner: Color, how: &str) {
        let ply = self.ply;
        let mv = self.last_move_text();
        let where_ = if ply == 0 { "In the starting position".to_string() } else { format!("After {}", self.label(ply, &mv)) };
        let text = format!(
            "{where_} the record gives {} ({how}), but {} has only the king left: a player having a bare king \
             cannot win the game, so the game is drawn",
            win_for(winner),
            side(winner)
        );
        self.finding("resignation", ply, mv, "bare_king", text);
        self.report.fix = Some(Fix { result: DRAW, rule: "bare_king", cut_ply: None });
    }

    /// A finding when the record's win (`how`) is one 1997 C.4 draws.
    pub(super) fn judge_mating_potential(&mut self, winner: Color, kind: &'static str, how: &str) {
        let Some(why) = self.lacks_mating_potential(winner) else { return };
        let ply = self.ply;
        let mv = self.last_move_text();
        let where_ = if ply == 0 { "In the starting position".to_string() } else { format!("After {}", self.label(ply, &mv)) };
        let text = format!(
            "{where_} the record gives {} ({how}), but {} {why}: in blitz a player must have mating potential to \
             win, so the game is drawn",
            win_for(winner),
            side(winner)
        );
        self.finding(kind, ply, mv, "mating_potential", text);
        self.report.fix = Some(Fix { result: DRAW, rule: "mating_potential", cut_ply: None });
    }
}

/// Why neither side can mate (CHA-Solver's full analysis, as the arbiter's
/// `dead_analysis`), or `None` when one side may.
pub(super) fn dead_reason_of(pos: &Chess) -> Option<String> {
    let w = analysis(pos, Color::White);
    if w.verdict != Verdict::Unwinnable {
        return None;
    }
    let b = analysis(pos, Color::Black);
    if b.verdict != Verdict::Unwinnable {
        return None;
    }
    let w = w.reason.trim_end_matches('.').to_string();
    let b = b.reason.trim_end_matches('.');
    Some(if w.starts_with("White has a lone king") && b.starts_with("Black has a lone king") {
        "each side has a lone king".to_string()
    } else if w == b {
        w // one reason for both sides (forced play into stalemate)
    } else {
        format!("{w}; {b}")
    })
}
