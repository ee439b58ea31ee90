//! The [`Checker`]: a `pgn_reader` visitor that plays the main line and applies
//! the end-of-game rules of the edition after every ply.

use std::ops::ControlFlow;

use pgn_reader::{KnownOutcome, Outcome, RawComment, RawTag, SanPlus, Skip, Visitor};
use shakmaty::fen::Fen;
use shakmaty::san::{San, SanError};
use shakmaty::zobrist::Zobrist64;
use shakmaty::{CastlingMode, Chess, Color, EnPassantMode, Move, Position as _};

use super::judgement::{dead_reason_of, Ending};
use super::rules::{idx, list_1989, side, win_for, Rules};
use super::scan::Scan;
use super::{Finding, GameReport, DRAW};
use crate::clocks::last_clock;
use crate::notation::{parse_alt, resolve};
use crate::tags::{decode_text, is_chess960, is_standard_variant, parse_result};

pub struct Checker {
    pub(super) rules: Rules,
    pub(super) pos: Chess,
    pub(super) start_turn: Color,
    pub(super) start_fullmoves: u32,
    pub(super) ply: u32,
    pub(super) depth: u32,
    pub(super) stopped: bool,
    pub(super) scan: Scan,
    pub(super) next_extra: usize,
    /// The tags were read before `pgn_reader` started (by [`parse_head`]).
    pub(super) preset: bool,
    pub(super) sans_seen: u32,
    /// Hashes of the positions since the last irreversible move, computed
    /// only once that run is long enough for a fifth occurrence (16 plies).
    pub(super) history: Vec<u64>,
    /// The position after the last irreversible move, and the moves since.
    pub(super) run_start: Chess,
    pub(super) run_moves: Vec<Move>,
    pub(super) ending: Option<Ending>,
    pub(super) last_san: Option<SanPlus>,
    pub(super) last_mover: Option<Color>,
    pub(super) clocks: [Option<u64>; 2],
    /// The clock the record gives after the last move played ([%clk]).
    pub(super) last_clock: Option<u64>,
    /// The position the movetext starts from, and the main-line moves played.
    pub(super) start_pos: Chess,
    pub(super) moves: Vec<Move>,
    pub(super) has_fen: bool,
    /// The FEN tag, read when the movetext starts (the Variant tag may come after it).
    pub(super) fen: Option<String>,
    /// Chess960 (2023 Laws, Guidelines II): castling by its rules.
    pub(super) chess960: bool,
    pub(super) report: GameReport,
    pub(super) tag_result: Option<&'static str>,
    pub(super) token_result: Option<&'static str>,
    pub(super) termination: String,
    /// chesslaws' `LawsTermination` tag and TCEC's `TerminationDetails`.
    pub(super) laws_termination: String,
    pub(super) termination_details: String,
    /// The TimeControl tag (kept only where the edition's rules need it:
    /// 1997 C.4).
    pub(super) time_control: String,
    /// The comment just before the movetext's result.
    pub(super) final_comment: String,
    /// That comment is the one `--fix` writes: the result is the Laws'.
    pub(super) fix_comment: bool,
    /// The record's words for its ending, once the judgement has read them (read once a game).
    pub(super) said: Option<crate::ending::Said>,
}

impl Checker {
    pub fn new(rules: Rules) -> Self {
        Checker {
            rules,
            pos: Chess::default(),
            start_turn: Color::White,
            start_fullmoves: 1,
            ply: 0,
            depth: 0,
            stopped: false,
            scan: Scan::default(),
            next_extra: 0,
            preset: false,
            sans_seen: 0,
            history: Vec::new(),
            run_start: Chess::default(),
            run_moves: Vec::new(),
            ending: None,
            last_san: None,
            last_mover: None,
            clocks: [None, None],
            last_clock: None,
            start_pos: Chess::default(),
            moves: Vec::new(),
            has_fen: false,
            fen: None,
            chess960: false,
            report: GameReport::default(),
            tag_result: None,
            token_result: None,
            termination: String::new(),
            laws_termination: String::new(),
            termination_details: String::new(),
            time_control: String::new(),
            final_comment: String::new(),
            fix_comment: false,
            said: None,
        }
    }

    pub(super) fn reset(&mut self) {
        self.pos = Chess::default();
        self.start_turn = Color::White;
        self.start_fullmoves = 1;
        self.ply = 0;
        self.depth = 0;
        self.stopped = false;
        self.sans_seen = 0;
        self.next_extra = 0;
        self.history.clear();
        self.run_moves.clear();
        self.ending = None;
        self.last_san = None;
        self.last_mover = None;
        self.clocks = [None, None];
        self.last_clock = None;
        self.moves.clear();
        self.has_fen = false;
        self.fen = None;
        self.chess960 = false;
        self.report = GameReport::default();
        self.tag_result = None;
        self.token_result = None;
        self.said = None;
        self.termination.clear();
        self.laws_termination.clear();
        self.termination_details.clear();
        self.time_control.clear();
        self.final_comment.clear();
        self.fix_comment = false;
    }

    /// "12... Kf8" for the move at `ply` (1-based).
    pub(super) fn label(&self, ply: u32, mv: &str) -> String {
        if ply == 0 {
            return "the starting position".into();
        }
        let half = (ply - 1) + u32::from(self.start_turn == Color::Black);
        let number = self.start_fullmoves + half / 2;
        if half % 2 == 1 {
            format!("{number}... {mv}")
        } else {
            format!("{number}. {mv}")
        }
    }

    pub(super) fn finding(&mut self, kind: &'static str, ply: u32, mv: String, rule: &'static str, text: String) {
        self.report.findings.push(Finding { kind, ply, mv, rule, text });
    }

    pub(super) fn fen(&self) -> String {
        Fen::from_position(&self.pos, EnPassantMode::Legal).to_string()
    }

    pub(super) fn last_move_text(&self) -> String {
        self.last_san.map(|s| s.to_string()).unwrap_or_default()
    }

    /// The game is over by the Laws at the current ply.
    pub(super) fn end(&mut self, kind: &'static str, rule: &'static str, expected: &'static str, why: String) {
        let mv = self.last_move_text();
        self.ending = Some(Ending { kind, rule, ply: self.ply, mv, expected, why, continued: 0 });
    }

    /// Checkmate or stalemate on the board (they come before every other
    /// ending at the same ply). True when one of them ended the game.
    pub(super) fn end_on_board(&mut self) -> bool {
        if !self.pos.legal_moves().is_empty() {
            return false;
        }
        let turn = self.pos.turn();
        if self.pos.is_check() {
            let why = format!("{} is checkmated", side(turn));
            self.end("checkmate", "checkmate", win_for(!turn), why);
        } else {
            let why = format!("{} has no legal move and is not in check: stalemate", side(turn));
            self.end("stalemate", "stalemate", DRAW, why);
        }
        true
    }

    pub(super) fn dead_reason(&self) -> Option<String> {
        dead_reason_of(&self.pos)
    }
}

impl Checker {
    /// The end-of-game rules applied after every ply.
    pub(super) fn check_ply(&mut self) {
        if self.rules.list_1989 {
            if let Some(why) = list_1989(&self.pos) {
                if !self.end_on_board() {
                    self.end("insufficient_material", "insufficient_material", DRAW, format!("the ending is {why}"));
                }
                return;
            }
        }
        if self.rules.dead && self.pos.is_insufficient_material() {
            // The cheap certain case at once; every other dead position is
            // found at the end of the game (settle_dead).
            if let Some(why) = self.dead_reason() {
                if !self.end_on_board() {
                    self.end("dead_position", "dead_position", DRAW, format!("the position is dead: {why}"));
                }
                return;
            }
        }
        // A position can stand for the fifth time only 16 plies or more
        // after the last irreversible move: no hashing before that.
        if self.rules.fivefold && self.run_moves.len() >= 16 {
            if self.history.is_empty() {
                let mut p = self.run_start.clone();
                self.history.push(p.zobrist_hash::<Zobrist64>(EnPassantMode::Legal).0);
                for &m in &self.run_moves[..self.run_moves.len() - 1] {
                    p.play_unchecked(m);
                    self.history.push(p.zobrist_hash::<Zobrist64>(EnPassantMode::Legal).0);
                }
            }
            let h: Zobrist64 = self.pos.zobrist_hash(EnPassantMode::Legal);
            let h = h.0;
            let seen = self.history.iter().filter(|&&x| x == h).count();
            self.history.push(h);
            if seen + 1 >= 5 && !self.end_on_board() {
                self.end(
                    "fivefold",
                    "fivefold",
                    DRAW,
                    "the same position has appeared for the fifth time".into(),
                );
                return;
            }
        }
        if self.rules.seventyfive && self.pos.halfmoves() >= 150 && !self.end_on_board() {
            self.end(
                "seventyfive",
                "seventyfive",
                DRAW,
                "each player has made 75 moves without a pawn move or a capture".into(),
            );
        }
    }

    pub(super) fn unreadable(&mut self, text: String) {
        let ply = self.ply + 1;
        let label = self.label(ply, &text);
        self.finding(
            "unreadable_move",
            ply,
            text,
            "illegal_move",
            format!("{label}: not a move in any notation (the game is not checked further)"),
        );
        self.stopped = true;
    }

    pub(super) fn bad_move(&mut self, text: String, null: bool, e: SanError) {
        if self.pos.legal_moves().is_empty() {
            // Mate or stalemate on the board: the record goes on after the end.
            if self.ending.is_none() {
                self.end_on_board();
            }
            if let Some(end) = self.ending.as_mut() {
                end.continued += 1;
            }
            self.stopped = true;
            return;
        }
        let ply = self.ply + 1;
        let label = self.label(ply, &text);
        let who = side(self.pos.turn());
        let fen = self.fen();
        let (kind, why) = match e {
            SanError::IllegalSan if null => {
                ("illegal_move", format!("{label}: a null move is not a move ({who} to move in {fen})"))
            }
            SanError::IllegalSan => ("illegal_move", format!("{label} is not a legal move for {who} in {fen}")),
            SanError::AmbiguousSan => {
                ("ambiguous_move", format!("{label} fits more than one legal move for {who} in {fen}"))
            }
        };
        self.finding(kind, ply, text, "illegal_move", why);
        self.stopped = true;
    }
}

impl Checker {
    pub(super) fn apply_tag(&mut self, name: &str, value: String) {
        match name {
            "FEN" => self.fen = Some(value.clone()),
            "Variant" => {
                if is_chess960(&value) && !self.rules.chess960 {
                    // The game is no game of these Laws, as convert refuses it.
                    let why = format!(
                        "variant {value:?} is Chess960, which is in the 2023 Laws only (Guidelines II), not the {} Laws",
                        self.rules.year
                    );
                    self.finding("pgn_error", 0, String::new(), "", why);
                    self.stopped = true;
                } else if is_chess960(&value) {
                    self.chess960 = true;
                } else if !is_standard_variant(&value) {
                    self.finding("pgn_error", 0, String::new(), "", format!("variant {value:?} is not standard chess"));
                    self.stopped = true;
                }
            }
            "Result" => self.tag_result = parse_result(&value),
            "Termination" => self.termination = value,
            "LawsTermination" => self.laws_termination = value,
            "TerminationDetails" => self.termination_details = value,
            "TimeControl" if self.rules.mating_potential_in_blitz => self.time_control = value,
            _ => {}
        }
    }

    /// Plays the tokens `pgn_reader` skipped that come before the next
    /// whole SAN token (all that remain, at the end of the game).
    pub(super) fn take_extras(&mut self) {
        while !self.stopped {
            let Some((before, text)) = self.scan.extras.get(self.next_extra) else { break };
            if *before != self.sans_seen {
                break;
            }
            let text = text.clone();
            self.next_extra += 1;
            match parse_alt(text.as_bytes()) {
                None => self.unreadable(text),
                Some(alt) => match alt.to_move(&self.pos) {
                    Ok(m) => {
                        let san = SanPlus::from_move(self.pos.clone(), m);
                        self.play(m, san);
                    }
                    Err(e) => self.bad_move(text, false, e),
                },
            }
        }
    }

    pub(super) fn play(&mut self, m: Move, san_plus: SanPlus) {
        if let Some(end) = self.ending.as_mut() {
            end.continued += 1;
        }
        let irreversible = self.rules.fivefold && self.pos.is_irreversible(m);
        let mover = self.pos.turn();
        self.pos.play_unchecked(m);
        self.last_clock = None;
        self.moves.push(m);
        self.ply += 1;
        self.last_san = Some(san_plus);
        self.last_mover = Some(mover);
        if self.rules.fivefold {
            if irreversible {
                self.history.clear();
                self.run_moves.clear();
                self.run_start = self.pos.clone();
            } else {
                self.run_moves.push(m);
            }
        }
        if self.ending.is_none() {
            self.check_ply();
        }
    }

    /// Ends a game the reader gave up on.
    pub fn abort(&mut self, why: &str) -> GameReport {
        let reason = match why {
            "unterminated comment" => "a comment is not closed with '}'".to_string(),
            "unterminated tag" => "a tag is not closed before the end of the line".to_string(),
            other => other.to_string(),
        };
        let ply = self.ply;
        self.finding("pgn_error", ply, String::new(), "", reason);
        let result = self.token_result.or(self.tag_result);
        self.report.result = result.map(str::to_string);
        self.report.plies = self.ply;
        std::mem::take(&mut self.report)
    }
}

impl Visitor for Checker {
    type Tags = ();
    type Movetext = ();
    type Output = GameReport;

    fn begin_tags(&mut self) -> ControlFlow<GameReport, ()> {
        if std::mem::take(&mut self.preset) {
            return ControlFlow::Continue(());
        }
        self.reset();
        ControlFlow::Continue(())
    }

    fn tag(&mut self, _t: &mut (), name: &[u8], value: RawTag<'_>) -> ControlFlow<GameReport> {
        let name = decode_text(name).trim().to_string();
        let value = decode_text(&value.decode());
        self.apply_tag(&name, value.clone());
        self.report.tags.push((name, value));
        ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self, _t: ()) -> ControlFlow<GameReport, ()> {
        if let Some(value) = self.fen.take() {
            if !self.stopped {
                let fen = Fen::from_ascii(value.trim().as_bytes());
                let mode = if self.chess960 { CastlingMode::Chess960 } else { CastlingMode::Standard };
                let parsed = fen.map_err(|e| e.to_string()).and_then(|f| {
                    f.clone()
                        .into_position::<Chess>(mode)
                        .or_else(|e| f.into_position::<Chess>(CastlingMode::Chess960).map_err(|_| e))
                        .map_err(|e| e.to_string())
                });
                match parsed {
                    Ok(p) => {
                        self.pos = p;
                        self.has_fen = true;
                    }
                    Err(e) => {
                        self.finding("pgn_error", 0, String::new(), "", format!("the FEN tag {value:?} is not a position: {e}"));
                        self.stopped = true;
                    }
                }
            }
        }
        self.start_turn = self.pos.turn();
        self.start_fullmoves = self.pos.fullmoves().get();
        self.start_pos = self.pos.clone();
        if self.rules.fivefold {
            self.history.clear();
            self.run_moves.clear();
            self.run_start = self.pos.clone();
        }
        if !self.stopped && self.has_fen {
            // A set-up position may itself be over.
            if !self.end_on_board() {
                self.check_ply();
            }
        }
        ControlFlow::Continue(())
    }

    fn san(&mut self, _m: &mut (), san_plus: SanPlus) -> ControlFlow<GameReport> {
        if self.depth > 0 || self.stopped {
            return ControlFlow::Continue(());
        }
        self.take_extras();
        if self.stopped {
            return ControlFlow::Continue(());
        }
        self.sans_seen += 1;
        match resolve(&self.pos, &san_plus.san) {
            Ok(m) => self.play(m, san_plus),
            Err(e) => self.bad_move(san_plus.to_string(), matches!(san_plus.san, San::Null), e),
        }
        ControlFlow::Continue(())
    }

    fn comment(&mut self, _m: &mut (), comment: RawComment<'_>) -> ControlFlow<GameReport> {
        if self.depth == 0 {
            if let Some(mover) = self.last_mover {
                if let Some(ms) = last_clock(comment.as_bytes()) {
                    self.clocks[idx(mover)] = Some(ms);
                    self.last_clock = Some(ms);
                }
            }
        }
        ControlFlow::Continue(())
    }

    fn begin_variation(&mut self, _m: &mut ()) -> ControlFlow<GameReport, Skip> {
        self.depth += 1;
        ControlFlow::Continue(Skip(true))
    }

    fn end_variation(&mut self, _m: &mut ()) -> ControlFlow<GameReport> {
        self.depth = self.depth.saturating_sub(1);
        ControlFlow::Continue(())
    }

    fn outcome(&mut self, _m: &mut (), outcome: Outcome) -> ControlFlow<GameReport> {
        if self.depth == 0 && self.token_result.is_none() {
            self.token_result = Some(match outcome {
                Outcome::Known(KnownOutcome::Decisive { winner }) => win_for(winner),
                Outcome::Known(KnownOutcome::Draw) => DRAW,
                Outcome::Unknown => "*",
            });
        }
        ControlFlow::Continue(())
    }

    fn end_game(&mut self, _m: ()) -> GameReport {
        if !self.stopped && self.depth == 0 {
            self.take_extras();
        }
        if !self.stopped && self.ending.is_none() {
            self.end_on_board();
        }
        if !self.stopped || self.ending.is_some() {
            self.settle_dead();
        }
        self.judge_result();
        if !self.stopped {
            self.note_stated_reason();
        }
        if self.depth > 0 {
            let ply = self.ply;
            self.finding("pgn_error", ply, "(".into(), "", "a variation is not closed with ')'".into());
        }
        self.report.plies = self.ply;
        std::mem::take(&mut self.report)
    }
}
