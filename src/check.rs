//! Bulk checking of recorded games (issue 9): is each game in a PGN database
//! a legal game, and is its recorded result the one the Laws give?
//!
//! The pipeline, all in Rust:
//!
//! 1. [`open_input`]: a file or standard input, plain, gzip or zstd (told by
//!    the magic bytes), read through a byte counter (the progress bar).
//! 2. [`Splitter`]: cuts the byte stream into games at the same places
//!    `pgn_reader` ends a game (a blank line or a tag line at the start of a
//!    line after movetext, outside comments), remembering the line each game
//!    starts on, and packs whole games into [`Batch`]es of bounded size.
//!    A comment left open does not swallow the rest of the file: a tag line
//!    after a blank line ends it.
//! 3. [`check_batch`]: each game is read by `pgn_reader` with the
//!    [`Checker`] visitor, which plays the main line on a shakmaty position
//!    and applies the end-of-game rules of the chosen edition after every
//!    ply. Tokens that `pgn_reader` passes over silently (text that is no
//!    move) are found by [`first_junk`] beforehand.
//! 4. [`Pipeline`]: with one job everything runs on the calling thread; with
//!    more, one reader thread splits, N workers check, and the batches come
//!    back in input order. At most `4 × jobs` batches are in flight, so
//!    memory stays bounded whatever the file size.
//!
//! Dead positions: after every ply, the strict insufficient-material test
//! (sound, a few bit operations); when only kings, bishops and pawns remain
//! and every pawn is blocked head to head, CHA-Solver's fast sound check
//! for both sides (through [`crate::dead::analyse`] with no search budget),
//! at most [`MAX_FAST_CHECKS`] times per game. For the last position of a
//! game won by resignation or on time: the strict material test and the fast
//! check, then the full helpmate search (budget [`MATE_BUDGET`] nodes) only
//! when the winner has nothing but minor pieces. Every shortcut can only
//! miss a finding, never invent one: each finding rests on a proof.

use std::collections::BTreeMap;
use std::fs::File;
use std::io::{self, BufRead, BufReader, Read};
use std::ops::ControlFlow;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{sync_channel, Receiver, SyncSender};
use std::sync::{Arc, Mutex};

use pgn_reader::{KnownOutcome, Outcome, RawComment, RawTag, Reader, SanPlus, Skip, Visitor};
use pyo3::exceptions::{PyOSError, PyValueError};
use pyo3::prelude::*;
use shakmaty::fen::Fen;
use shakmaty::san::{San, SanError};
use shakmaty::zobrist::Zobrist64;
use shakmaty::{Bitboard, CastlingMode, Chess, Color, EnPassantMode, Move, Position as _};

use crate::dead::{analyse, Verdict};

/// Fast dead-position checks (CHA-Solver) per game at most.
pub const MAX_FAST_CHECKS: u32 = 32;
/// Node budget of the helpmate search for "could the winner have mated?".
pub const MATE_BUDGET: u64 = 200_000;
/// A game longer than this is cut (and reported): memory stays bounded.
pub const MAX_GAME_BYTES: usize = 16 << 20;
const BATCH_BYTES: usize = 512 << 10;
const BATCH_GAMES: usize = 256;
const LINE_LIMIT: usize = 1 << 20;

// ---------------------------------------------------------------------------
// The rules of an edition.

#[derive(Clone, Copy, Debug)]
pub struct Rules {
    /// 1989 Article 10.4: the fixed list of drawn endings.
    list_1989: bool,
    /// 1997 9.6, 2023 5.2.2.
    dead: bool,
    /// 2023 9.6.1 and 9.6.2.
    fivefold: bool,
    seventyfive: bool,
    /// 1989 10.5: a flag fall is a draw only against a bare king; later
    /// editions (6.9): whenever the opponent cannot mate.
    bare_king_flag: bool,
    /// 2023 5.1.2 as this project reads it: a resignation in a position
    /// where the winner could not mate is a draw.
    resign_rule: bool,
}

impl Rules {
    pub fn for_edition(name: &str) -> Option<Rules> {
        match name {
            "1989" => Some(Rules {
                list_1989: true,
                dead: false,
                fivefold: false,
                seventyfive: false,
                bare_king_flag: true,
                resign_rule: false,
            }),
            "1997" => Some(Rules {
                list_1989: false,
                dead: true,
                fivefold: false,
                seventyfive: false,
                bare_king_flag: false,
                resign_rule: false,
            }),
            "2023" => Some(Rules {
                list_1989: false,
                dead: true,
                fivefold: true,
                seventyfive: true,
                bare_king_flag: false,
                resign_rule: true,
            }),
            _ => None,
        }
    }
}

// ---------------------------------------------------------------------------
// Reports.

/// One finding. `rule` is a key of the edition's article table
/// (`chesslaws.editions`), empty for a fault of the PGN text itself.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finding {
    pub kind: &'static str,
    pub ply: u32,
    pub mv: String,
    pub rule: &'static str,
    pub text: String,
}

#[derive(Debug, Clone, Default)]
pub struct GameReport {
    pub number: u64,
    pub line: u64,
    pub tags: Vec<(String, String)>,
    pub result: Option<String>,
    pub plies: u32,
    pub findings: Vec<Finding>,
}

const DRAW: &str = "1/2-1/2";

fn win_for(c: Color) -> &'static str {
    match c {
        Color::White => "1-0",
        Color::Black => "0-1",
    }
}

fn side(c: Color) -> &'static str {
    match c {
        Color::White => "White",
        Color::Black => "Black",
    }
}

fn idx(c: Color) -> usize {
    match c {
        Color::White => 0,
        Color::Black => 1,
    }
}

/// How the Laws ended the game, and what the record did after it.
#[derive(Debug, Clone)]
struct Ending {
    kind: &'static str,
    rule: &'static str,
    ply: u32,
    mv: String,
    expected: &'static str,
    why: String,
    continued: u32,
}

// ---------------------------------------------------------------------------
// Text that pgn_reader skips without telling its visitor.

fn is_token_end(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\r' | b'{' | b'}' | b'(' | b')' | b'!' | b'?' | b'$' | b';' | b'.' | b'*')
}

/// The first token of the game's main line that is not a move, a move
/// number, a comment, an annotation or a result: how many moves came before
/// it, and its text. Mirrors `pgn_reader`'s movetext tokenizer.
pub fn first_junk(text: &[u8]) -> Option<(u32, String)> {
    let n = text.len();
    let mut i = 0;
    // Tag section: lines starting with '[' (and escape lines).
    loop {
        while i < n && (text[i].is_ascii_whitespace()) {
            i += 1;
        }
        if text[i..].starts_with(b"\xef\xbb\xbf") {
            i += 3;
            continue;
        }
        if i < n && (text[i] == b'[' || text[i] == b'%') {
            while i < n && text[i] != b'\n' {
                i += 1;
            }
            continue;
        }
        break;
    }
    let mut depth = 0u32;
    let mut sans = 0u32;
    while i < n {
        let c = text[i];
        match c {
            b'{' => match text[i + 1..].iter().position(|&b| b == b'}') {
                Some(j) => i += j + 2,
                None => return None,
            },
            b';' => {
                while i < n && text[i] != b'\n' {
                    i += 1;
                }
            }
            b'\n' => {
                i += 1;
                match text.get(i) {
                    Some(b'%') => {
                        while i < n && text[i] != b'\n' {
                            i += 1;
                        }
                    }
                    Some(b'[') | Some(b'\n') => return None,
                    Some(b'\r') if text.get(i + 1) == Some(&b'\n') => return None,
                    _ => {}
                }
            }
            b'(' => {
                depth += 1;
                i += 1;
            }
            b')' => {
                depth = depth.saturating_sub(1);
                i += 1;
            }
            b' ' | b'\t' | b'\r' | b'.' | b'*' | b'!' | b'?' => i += 1,
            b'$' => {
                i += 1;
                while i < n && !is_token_end(text[i]) {
                    i += 1;
                }
            }
            b'0' => {
                // 0-1, castling with zeros, or a lone zero (skipped).
                let rest = &text[i..];
                if rest.starts_with(b"0-1") {
                    i += 3;
                } else if rest.starts_with(b"0-0") {
                    let len = if rest.starts_with(b"0-0-0") { 5 } else { 3 };
                    i += len;
                    if matches!(text.get(i), Some(b'+') | Some(b'#')) {
                        i += 1;
                    }
                    if depth == 0 {
                        sans += 1;
                    }
                } else {
                    i += 1;
                }
            }
            b'1'..=b'9' => {
                let rest = &text[i..];
                if rest.starts_with(b"1-0") {
                    i += 3;
                } else if rest.starts_with(b"1/2-1/2") {
                    i += 7;
                } else {
                    while i < n && text[i].is_ascii_digit() {
                        i += 1;
                    }
                    while i < n && (text[i] == b'.' || text[i] == b' ') {
                        i += 1;
                    }
                }
            }
            _ if text[i..].starts_with("½-½".as_bytes()) => i += "½-½".len(),
            _ => {
                let start = i;
                let mut end = i;
                while end < n && !is_token_end(text[end]) {
                    end += 1;
                }
                if end == start {
                    i += 1;
                    continue;
                }
                let token = &text[start..end];
                let whole = matches!(SanPlus::from_ascii_prefix(token), Ok((_, used)) if used == token.len());
                if whole {
                    if depth == 0 {
                        sans += 1;
                    }
                } else if depth == 0 {
                    return Some((sans, String::from_utf8_lossy(token).into_owned()));
                }
                i = end;
            }
        }
    }
    None
}

// ---------------------------------------------------------------------------
// The visitor.

fn list_1989(pos: &Chess) -> Option<String> {
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

/// Only kings, bishops and pawns, and every pawn blocked head to head: the
/// positions worth CHA-Solver's fast check.
fn rammed(pos: &Chess) -> bool {
    let b = pos.board();
    if (b.queens() | b.rooks() | b.knights()).any() {
        return false;
    }
    let w = (b.pawns() & b.white()).0;
    let k = (b.pawns() & b.black()).0;
    w != 0 && (w << 8) == k
}

fn resolve(pos: &Chess, san: &San) -> Result<Move, SanError> {
    san.to_move(pos).or_else(|e| {
        // Tolerate a missing or extra capture sign (as chesslaws.pgn does).
        if let (SanError::IllegalSan, San::Normal { role, file, rank, capture, to, promotion }) = (&e, *san) {
            let flipped = San::Normal { role, file, rank, capture: !capture, to, promotion };
            flipped.to_move(pos).map_err(|_| e)
        } else {
            Err(e)
        }
    })
}

fn parse_result(text: &str) -> Option<&'static str> {
    match text.trim() {
        "1-0" => Some("1-0"),
        "0-1" => Some("0-1"),
        "1/2-1/2" | "½-½" => Some(DRAW),
        "*" => Some("*"),
        _ => None,
    }
}

/// `H:MM:SS(.f)`, `M:SS` or `SS` in ms, without allocating (the same
/// values as `crate::pgn::parse_clock`).
fn clock_ms(text: &[u8]) -> Option<u64> {
    let t = text.trim_ascii();
    let (whole, frac) = match t.iter().position(|&b| b == b'.') {
        Some(d) => (&t[..d], &t[d + 1..]),
        None => (t, &t[t.len()..]),
    };
    let mut parts = 0;
    let mut secs: u64 = 0;
    for p in whole.split(|&b| b == b':') {
        parts += 1;
        if p.is_empty() || p.len() > 6 || parts > 3 || !p.iter().all(u8::is_ascii_digit) {
            return None;
        }
        let v = p.iter().fold(0u64, |a, &b| a * 10 + u64::from(b - b'0'));
        secs = secs * 60 + v;
    }
    if !frac.iter().all(u8::is_ascii_digit) {
        return None;
    }
    let mut ms = 0u64;
    for k in 0..3 {
        ms = ms * 10 + frac.get(k).map_or(0, |&b| u64::from(b - b'0'));
    }
    Some(secs * 1000 + ms)
}

fn last_clock(raw: &[u8]) -> Option<u64> {
    let mut found = None;
    let mut i = 0;
    while let Some(j) = memchr::memmem::find(&raw[i..], b"[%clk") {
        let s = i + j + 5;
        let e = raw[s..].iter().position(|&b| b == b']').map(|k| s + k)?;
        if let Some(ms) = clock_ms(&raw[s..e]) {
            found = Some(ms);
        }
        i = e;
    }
    found
}

pub struct Checker {
    rules: Rules,
    pos: Chess,
    start_turn: Color,
    start_fullmoves: u32,
    ply: u32,
    depth: u32,
    stopped: bool,
    junk: Option<(u32, String)>,
    sans_seen: u32,
    history: Vec<u64>,
    ending: Option<Ending>,
    last_san: Option<SanPlus>,
    last_mover: Option<Color>,
    clocks: [Option<u64>; 2],
    fast_checks: u32,
    has_fen: bool,
    report: GameReport,
    tag_result: Option<&'static str>,
    token_result: Option<&'static str>,
    termination: String,
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
            junk: None,
            sans_seen: 0,
            history: Vec::new(),
            ending: None,
            last_san: None,
            last_mover: None,
            clocks: [None, None],
            fast_checks: 0,
            has_fen: false,
            report: GameReport::default(),
            tag_result: None,
            token_result: None,
            termination: String::new(),
        }
    }

    fn reset(&mut self) {
        self.pos = Chess::default();
        self.start_turn = Color::White;
        self.start_fullmoves = 1;
        self.ply = 0;
        self.depth = 0;
        self.stopped = false;
        self.sans_seen = 0;
        self.history.clear();
        self.ending = None;
        self.last_san = None;
        self.last_mover = None;
        self.clocks = [None, None];
        self.fast_checks = 0;
        self.has_fen = false;
        self.report = GameReport::default();
        self.tag_result = None;
        self.token_result = None;
        self.termination.clear();
    }

    /// "12... Kf8" for the move at `ply` (1-based).
    fn label(&self, ply: u32, mv: &str) -> String {
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

    fn finding(&mut self, kind: &'static str, ply: u32, mv: String, rule: &'static str, text: String) {
        self.report.findings.push(Finding { kind, ply, mv, rule, text });
    }

    fn fen(&self) -> String {
        Fen::from_position(&self.pos, EnPassantMode::Legal).to_string()
    }

    fn last_move_text(&self) -> String {
        self.last_san.map(|s| s.to_string()).unwrap_or_default()
    }

    /// The game is over by the Laws at the current ply.
    fn end(&mut self, kind: &'static str, rule: &'static str, expected: &'static str, why: String) {
        let mv = self.last_move_text();
        self.ending = Some(Ending { kind, rule, ply: self.ply, mv, expected, why, continued: 0 });
    }

    /// Checkmate or stalemate on the board (they come before every other
    /// ending at the same ply). True when one of them ended the game.
    fn end_on_board(&mut self) -> bool {
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

    fn dead_reason(&self) -> Option<String> {
        let w = analyse(&self.pos, Color::White, Some(0));
        if w.verdict != Verdict::Unwinnable {
            return None;
        }
        let b = analyse(&self.pos, Color::Black, Some(0));
        if b.verdict != Verdict::Unwinnable {
            return None;
        }
        let w = w.reason.trim_end_matches('.').to_string();
        let b = b.reason.trim_end_matches('.');
        Some(if w.starts_with("White has a lone king") && b.starts_with("Black has a lone king") {
            "each side has a lone king".to_string()
        } else {
            format!("{w}; {b}")
        })
    }

    /// The end-of-game rules applied after every ply.
    fn check_ply(&mut self) {
        if self.rules.list_1989 {
            if let Some(why) = list_1989(&self.pos) {
                if !self.end_on_board() {
                    self.end("insufficient_material", "insufficient_material", DRAW, format!("the ending is {why}"));
                }
                return;
            }
        }
        if self.rules.dead {
            let candidate = self.pos.is_insufficient_material()
                || (self.fast_checks < MAX_FAST_CHECKS && rammed(&self.pos) && {
                    self.fast_checks += 1;
                    true
                });
            if candidate {
                if let Some(why) = self.dead_reason() {
                    if !self.end_on_board() {
                        self.end("dead_position", "dead_position", DRAW, format!("the position is dead: {why}"));
                    }
                    return;
                }
            }
        }
        if self.rules.fivefold {
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

    fn unreadable(&mut self, text: String) {
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

    fn bad_move(&mut self, san_plus: SanPlus, e: SanError) {
        let text = san_plus.to_string();
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
            SanError::IllegalSan if matches!(san_plus.san, San::Null) => {
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

    /// Could `winner` have mated in the final position? `Some(reason)` when
    /// it is proven that it could not.
    fn cannot_mate(&self, winner: Color, bare_king_only: bool) -> Option<String> {
        if bare_king_only {
            let ours = self.pos.board().by_color(winner);
            return (ours.count() == 1).then(|| format!("{} has only the king left", side(winner)));
        }
        // The full helpmate search only where mating is in doubt: a winner
        // with a queen, a rook or a pawn is taken to be able to mate unless
        // the fast check proves otherwise (a blocked position).
        let b = self.pos.board();
        let heavy = (b.by_color(winner) & (b.queens() | b.rooks() | b.pawns())).any();
        let budget = if heavy { 0 } else { MATE_BUDGET };
        let a = analyse(&self.pos, winner, Some(budget));
        (a.verdict == Verdict::Unwinnable).then(|| a.reason.trim_end_matches('.').to_string())
    }

    fn judge_result(&mut self) {
        let result = self.token_result.or(self.tag_result);
        self.report.result = result.map(str::to_string);
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
            } else if let Some(r) = result {
                if r != "*" && r != end.expected {
                    let text = format!("{article_event}: the result is {}, but the record gives {r}", end.expected);
                    self.finding(end.kind, end.ply, end.mv.clone(), end.rule, text);
                }
            }
            return;
        }
        let winner = match result {
            Some("1-0") => Color::White,
            Some("0-1") => Color::Black,
            _ => return,
        };
        let loser = !winner;
        let on_time = self.termination.to_ascii_lowercase().contains("time forfeit")
            || self.clocks[idx(loser)] == Some(0);
        let ply = self.ply;
        let mv = self.last_move_text();
        let where_ = if ply == 0 { "In the starting position".to_string() } else { format!("After {}", self.label(ply, &mv)) };
        if on_time {
            if let Some(why) = self.cannot_mate(winner, self.rules.bare_king_flag) {
                let text = format!(
                    "{where_} {}'s flag fell, but {why}: the game is drawn, not {}",
                    side(loser),
                    win_for(winner)
                );
                self.finding("time_forfeit", ply, mv, "flag_draw", text);
            }
        } else if self.rules.resign_rule {
            if let Some(why) = self.cannot_mate(winner, false) {
                let text = format!(
                    "{where_} the record gives {} (a resignation by {}), but {why}: the game is drawn",
                    win_for(winner),
                    side(loser)
                );
                self.finding("resignation", ply, mv, "resignation", text);
            }
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
        self.reset();
        ControlFlow::Continue(())
    }

    fn tag(&mut self, _t: &mut (), name: &[u8], value: RawTag<'_>) -> ControlFlow<GameReport> {
        let name = String::from_utf8_lossy(name).trim().to_string();
        let value = value.decode_utf8_lossy().into_owned();
        match name.as_str() {
            "FEN" => {
                let parsed = Fen::from_ascii(value.trim().as_bytes())
                    .map_err(|e| e.to_string())
                    .and_then(|f| f.into_position::<Chess>(CastlingMode::Standard).map_err(|e| e.to_string()));
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
            "Variant" => {
                let v = value.trim().to_ascii_lowercase();
                if !(v.is_empty() || v == "standard" || v == "chess" || v == "from position") {
                    self.finding("pgn_error", 0, String::new(), "", format!("variant {value:?} is not standard chess"));
                    self.stopped = true;
                }
            }
            "Result" => self.tag_result = parse_result(&value),
            "Termination" => self.termination = value.clone(),
            _ => {}
        }
        self.report.tags.push((name, value));
        ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self, _t: ()) -> ControlFlow<GameReport, ()> {
        self.start_turn = self.pos.turn();
        self.start_fullmoves = self.pos.fullmoves().get();
        if !self.stopped {
            if self.has_fen {
                // A set-up position may itself be over.
                if !self.end_on_board() {
                    self.check_ply();
                }
            } else if self.rules.fivefold {
                let h: Zobrist64 = self.pos.zobrist_hash(EnPassantMode::Legal);
                self.history.push(h.0);
            }
        }
        ControlFlow::Continue(())
    }

    fn san(&mut self, _m: &mut (), san_plus: SanPlus) -> ControlFlow<GameReport> {
        if self.depth > 0 || self.stopped {
            return ControlFlow::Continue(());
        }
        if let Some((k, text)) = &self.junk {
            if self.sans_seen == *k {
                let text = text.clone();
                self.unreadable(text);
                return ControlFlow::Continue(());
            }
        }
        self.sans_seen += 1;
        let m = match resolve(&self.pos, &san_plus.san) {
            Ok(m) => m,
            Err(e) => {
                self.bad_move(san_plus, e);
                return ControlFlow::Continue(());
            }
        };
        if let Some(end) = self.ending.as_mut() {
            end.continued += 1;
        }
        let irreversible = self.pos.is_irreversible(m);
        let mover = self.pos.turn();
        self.pos.play_unchecked(m);
        self.ply += 1;
        self.last_san = Some(san_plus);
        self.last_mover = Some(mover);
        if irreversible {
            self.history.clear();
        }
        if self.ending.is_none() {
            self.check_ply();
        }
        ControlFlow::Continue(())
    }

    fn comment(&mut self, _m: &mut (), comment: RawComment<'_>) -> ControlFlow<GameReport> {
        if self.depth == 0 {
            if let Some(mover) = self.last_mover {
                if let Some(ms) = last_clock(comment.as_bytes()) {
                    self.clocks[idx(mover)] = Some(ms);
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
        if !self.stopped {
            if let Some((k, text)) = self.junk.take() {
                if self.sans_seen == k {
                    self.unreadable(text);
                }
            }
        }
        if !self.stopped && self.ending.is_none() {
            self.end_on_board();
        }
        self.judge_result();
        if self.depth > 0 {
            let ply = self.ply;
            self.finding("pgn_error", ply, "(".into(), "", "a variation is not closed with ')'".into());
        }
        self.report.plies = self.ply;
        std::mem::take(&mut self.report)
    }
}

/// Checks the games in one game's text (normally one game).
pub fn check_text(text: &[u8], line: u64, truncated: bool, rules: Rules, out: &mut Vec<GameReport>) {
    let mut checker = Checker::new(rules);
    checker.junk = first_junk(text);
    let mut reader = Reader::new(text);
    let first = out.len();
    loop {
        match reader.read_game(&mut checker) {
            Ok(Some(mut r)) => {
                r.line = line;
                out.push(r);
                checker.junk = None;
            }
            Ok(None) => break,
            Err(e) => {
                let mut r = checker.abort(&e.to_string());
                r.line = line;
                out.push(r);
                break;
            }
        }
    }
    if truncated {
        if let Some(r) = out.get_mut(first) {
            r.findings.push(Finding {
                kind: "pgn_error",
                ply: r.plies,
                mv: String::new(),
                rule: "",
                text: format!("the game is longer than {} MiB: the rest of it is skipped", MAX_GAME_BYTES >> 20),
            });
        }
    }
}

pub fn check_batch(batch: &Batch, rules: Rules) -> Vec<GameReport> {
    let mut out = Vec::with_capacity(batch.games.len());
    for g in &batch.games {
        check_text(&batch.buf[g.start..g.end], g.line, g.truncated, rules, &mut out);
    }
    out
}

// ---------------------------------------------------------------------------
// Input and splitting.

struct Counting<R> {
    inner: R,
    count: Arc<AtomicU64>,
}

impl<R: Read> Read for Counting<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.count.fetch_add(n as u64, Ordering::Relaxed);
        Ok(n)
    }
}

pub type Input = Box<dyn BufRead + Send>;

/// Opens `path` ("-": standard input), decompressing gzip and zstd (told by
/// their magic bytes). Returns the input and the size on disk, if known.
pub fn open_input(path: &str, count: Arc<AtomicU64>) -> io::Result<(Input, Option<u64>)> {
    let (raw, total): (Box<dyn Read + Send>, Option<u64>) = if path == "-" {
        (Box::new(io::stdin()), None)
    } else {
        let f = File::open(path)?;
        let meta = f.metadata()?;
        if meta.is_dir() {
            return Err(io::Error::other(format!("{path} is a directory")));
        }
        (Box::new(f), Some(meta.len()))
    };
    let mut br = BufReader::with_capacity(1 << 20, Counting { inner: raw, count });
    let head = br.fill_buf()?;
    let input: Input = if head.starts_with(&[0x1f, 0x8b]) {
        Box::new(BufReader::with_capacity(1 << 20, flate2::bufread::MultiGzDecoder::new(br)))
    } else if head.starts_with(&[0x28, 0xb5, 0x2f, 0xfd]) {
        Box::new(BufReader::with_capacity(1 << 20, zstd::stream::read::Decoder::with_buffer(br)?))
    } else {
        Box::new(br)
    };
    Ok((input, total))
}

#[derive(Debug, Clone)]
pub struct RawGame {
    pub line: u64,
    pub start: usize,
    pub end: usize,
    pub truncated: bool,
}

#[derive(Debug, Default)]
pub struct Batch {
    pub seq: u64,
    pub buf: Vec<u8>,
    pub games: Vec<RawGame>,
}

fn looks_like_tag(line: &[u8]) -> bool {
    if line.first() != Some(&b'[') {
        return false;
    }
    let name = line[1..].iter().take_while(|b| b.is_ascii_alphanumeric() || **b == b'_').count();
    name > 0 && line[1 + name..].iter().skip_while(|b| **b == b' ').next() == Some(&b'"')
}

/// Cuts a PGN byte stream into games (see the module docs).
pub struct Splitter {
    input: Input,
    line_no: u64,
    line: Vec<u8>,
    carry: bool,
    /// (line, start offset in the batch) of the game being read.
    open: Option<(u64, usize)>,
    has_movetext: bool,
    in_comment: bool,
    prev_blank: bool,
    truncated: bool,
    /// The last read stopped at LINE_LIMIT inside a line.
    partial: bool,
    /// An I/O error met after some games of a batch were read.
    error: Option<io::Error>,
    seq: u64,
    eof: bool,
}

impl Splitter {
    pub fn new(input: Input) -> Self {
        Splitter {
            input,
            line_no: 0,
            line: Vec::with_capacity(4096),
            carry: false,
            open: None,
            has_movetext: false,
            in_comment: false,
            prev_blank: true,
            truncated: false,
            partial: false,
            error: None,
            seq: 0,
            eof: false,
        }
    }

    fn finish(&mut self, batch: &mut Batch) {
        if let Some((line, start)) = self.open.take() {
            batch.games.push(RawGame { line, start, end: batch.buf.len(), truncated: self.truncated });
        }
        self.has_movetext = false;
        self.in_comment = false;
        self.truncated = false;
    }

    fn append(&mut self, batch: &mut Batch, body: &[u8]) {
        if let Some((_, start)) = self.open {
            if batch.buf.len() - start + body.len() > MAX_GAME_BYTES {
                self.truncated = true;
                return;
            }
        } else {
            self.open = Some((self.line_no, batch.buf.len()));
        }
        batch.buf.extend_from_slice(body);
    }

    fn scan_braces(&mut self, body: &[u8]) {
        let mut rest = body;
        loop {
            if self.in_comment {
                match memchr::memchr(b'}', rest) {
                    Some(i) => {
                        self.in_comment = false;
                        rest = &rest[i + 1..];
                    }
                    None => break,
                }
            } else {
                match memchr::memchr2(b'{', b';', rest) {
                    Some(i) if rest[i] == b'{' => {
                        self.in_comment = true;
                        rest = &rest[i + 1..];
                    }
                    _ => break,
                }
            }
        }
    }

    /// The next batch of whole games, `None` at the end of the input.
    pub fn next_batch(&mut self) -> io::Result<Option<Batch>> {
        if let Some(e) = self.error.take() {
            self.eof = true;
            return Err(e);
        }
        let mut batch = Batch { seq: self.seq, buf: Vec::with_capacity(BATCH_BYTES + (64 << 10)), games: Vec::new() };
        loop {
            if !self.carry {
                self.line.clear();
                // Lines are read at most LINE_LIMIT bytes at a time: a file
                // with no line breaks cannot fill the memory.
                let n = if self.eof {
                    0
                } else {
                    match (&mut self.input).take(LINE_LIMIT as u64).read_until(b'\n', &mut self.line) {
                        Ok(n) => n,
                        Err(e) if batch.games.is_empty() => return Err(e),
                        Err(e) => {
                            // Hand over the games read so far; the error comes next.
                            self.error = Some(e);
                            self.open = None;
                            break;
                        }
                    }
                };
                if n == 0 {
                    self.eof = true;
                    self.finish(&mut batch);
                    break;
                }
                let continues = self.partial;
                self.partial = n == LINE_LIMIT && self.line.last() != Some(&b'\n');
                if continues {
                    // The rest of a very long line: part of the open game.
                    let line = std::mem::take(&mut self.line);
                    if self.open.is_some() {
                        self.append(&mut batch, &line);
                        if self.has_movetext || self.in_comment {
                            self.scan_braces(&line);
                        }
                    }
                    self.line = line;
                    continue;
                }
                self.line_no += 1;
            }
            self.carry = false;
            let line = std::mem::take(&mut self.line);
            let mut body: &[u8] = &line;
            if body.starts_with(b"\xef\xbb\xbf") {
                body = &body[3..];
            }
            let blank = body.iter().all(|b| b.is_ascii_whitespace());
            let full = batch.buf.len() >= BATCH_BYTES || batch.games.len() >= BATCH_GAMES;
            if self.in_comment {
                if self.prev_blank && looks_like_tag(body) {
                    // A comment left open: a new game starts here.
                    self.finish(&mut batch);
                    if full {
                        self.line = line;
                        self.carry = true;
                        break;
                    }
                    self.append(&mut batch, body);
                } else {
                    self.append(&mut batch, body);
                    self.scan_braces(body);
                }
            } else if blank {
                if self.has_movetext {
                    self.finish(&mut batch);
                    if full {
                        self.line = line;
                        self.prev_blank = true;
                        break;
                    }
                } else if self.open.is_some() {
                    self.append(&mut batch, body);
                }
            } else if body[0] == b'%' {
                if self.open.is_some() {
                    self.append(&mut batch, body);
                }
            } else if body[0] == b'[' {
                if self.has_movetext {
                    self.finish(&mut batch);
                    if full {
                        self.line = line;
                        self.carry = true;
                        break;
                    }
                }
                self.append(&mut batch, body);
            } else {
                self.has_movetext = true;
                self.append(&mut batch, body);
                self.scan_braces(body);
            }
            self.prev_blank = blank;
            self.line = line;
        }
        if batch.games.is_empty() {
            return Ok(None);
        }
        self.seq += 1;
        Ok(Some(batch))
    }
}

// ---------------------------------------------------------------------------
// The pipeline.

type Done = (u64, Result<Vec<GameReport>, String>);

enum Pipeline {
    Inline { splitter: Splitter, rules: Rules },
    Threads { results: Receiver<Done>, tokens: SyncSender<()>, pending: BTreeMap<u64, Result<Vec<GameReport>, String>>, next: u64 },
}

impl Pipeline {
    fn start(input: Input, rules: Rules, jobs: usize) -> Pipeline {
        let splitter = Splitter::new(input);
        if jobs <= 1 {
            return Pipeline::Inline { splitter, rules };
        }
        let in_flight = 4 * jobs;
        let (token_tx, token_rx) = sync_channel::<()>(in_flight);
        for _ in 0..in_flight {
            let _ = token_tx.send(());
        }
        let (work_tx, work_rx) = sync_channel::<Batch>(in_flight);
        let (done_tx, done_rx) = sync_channel::<Done>(in_flight + jobs);
        let work_rx = Arc::new(Mutex::new(work_rx));
        for _ in 0..jobs {
            let work_rx = Arc::clone(&work_rx);
            let done_tx = done_tx.clone();
            std::thread::spawn(move || loop {
                let batch = {
                    let rx = work_rx.lock().unwrap_or_else(|e| e.into_inner());
                    rx.recv()
                };
                let Ok(batch) = batch else { break };
                let seq = batch.seq;
                let reports = check_batch(&batch, rules);
                drop(batch);
                if done_tx.send((seq, Ok(reports))).is_err() {
                    break;
                }
            });
        }
        std::thread::spawn(move || {
            let mut splitter = splitter;
            loop {
                if token_rx.recv().is_err() {
                    break;
                }
                match splitter.next_batch() {
                    Ok(Some(b)) => {
                        if work_tx.send(b).is_err() {
                            break;
                        }
                    }
                    Ok(None) => break,
                    Err(e) => {
                        let _ = done_tx.send((splitter.seq, Err(e.to_string())));
                        break;
                    }
                }
            }
        });
        Pipeline::Threads { results: done_rx, tokens: token_tx, pending: BTreeMap::new(), next: 0 }
    }

    fn next(&mut self) -> Result<Option<Vec<GameReport>>, String> {
        match self {
            Pipeline::Inline { splitter, rules } => match splitter.next_batch() {
                Ok(Some(b)) => Ok(Some(check_batch(&b, *rules))),
                Ok(None) => Ok(None),
                Err(e) => Err(e.to_string()),
            },
            Pipeline::Threads { results, tokens, pending, next } => loop {
                if let Some(r) = pending.remove(next) {
                    *next += 1;
                    let _ = tokens.try_send(());
                    return r.map(Some);
                }
                match results.recv() {
                    Ok((seq, r)) => {
                        pending.insert(seq, r);
                    }
                    Err(_) => return Ok(None),
                }
            },
        }
    }
}

// ---------------------------------------------------------------------------
// Python binding.

type FindingTuple = (&'static str, u32, String, &'static str, String);
type GameTuple = (u64, u64, Vec<(String, String)>, Option<String>, u32, Vec<FindingTuple>);

struct RunState {
    pipeline: Pipeline,
    games: u64,
    failed: bool,
}

/// A check of one PGN file (or standard input, "-"). Iterating gives one
/// tuple per batch of games: (games, plies, reports), where a report is
/// (number, line, tags, result, plies, findings) and a finding is
/// (kind, ply, move, rule, text). With `problems_only`, only games with
/// findings are reported (all are counted).
#[pyclass(frozen, module = "chesslaws._core", name = "CheckRun")]
pub struct CheckRun {
    state: Mutex<RunState>,
    count: Arc<AtomicU64>,
    total: Option<u64>,
    problems_only: bool,
}

#[pymethods]
impl CheckRun {
    #[new]
    #[pyo3(signature = (path, edition = "2023", jobs = 1, problems_only = false))]
    fn new(py: Python<'_>, path: String, edition: &str, jobs: usize, problems_only: bool) -> PyResult<Self> {
        let rules = Rules::for_edition(edition)
            .ok_or_else(|| PyValueError::new_err(format!("unknown edition {edition:?}: choose 1989, 1997 or 2023")))?;
        if jobs == 0 {
            return Err(PyValueError::new_err("jobs must be at least 1"));
        }
        let count = Arc::new(AtomicU64::new(0));
        let c2 = Arc::clone(&count);
        let (input, total) = py
            .detach(move || open_input(&path, c2).map_err(|e| format!("cannot read {path}: {e}")))
            .map_err(PyOSError::new_err)?;
        let pipeline = Pipeline::start(input, rules, jobs);
        Ok(CheckRun {
            state: Mutex::new(RunState { pipeline, games: 0, failed: false }),
            count,
            total,
            problems_only,
        })
    }

    fn __iter__(slf: Py<Self>) -> Py<Self> {
        slf
    }

    fn __next__(&self, py: Python<'_>) -> PyResult<Option<(u64, u64, Vec<GameTuple>)>> {
        let problems_only = self.problems_only;
        let out = py.detach(|| {
            let mut st = self.state.lock().unwrap_or_else(|e| e.into_inner());
            if st.failed {
                return Ok(None);
            }
            let reports = match st.pipeline.next() {
                Ok(Some(r)) => r,
                Ok(None) => return Ok(None),
                Err(e) => {
                    st.failed = true;
                    return Err(e);
                }
            };
            let n = reports.len() as u64;
            let mut plies = 0u64;
            let mut games = Vec::new();
            for mut r in reports {
                st.games += 1;
                r.number = st.games;
                plies += u64::from(r.plies);
                if problems_only && r.findings.is_empty() {
                    continue;
                }
                let findings = r.findings.into_iter().map(|f| (f.kind, f.ply, f.mv, f.rule, f.text)).collect();
                games.push((r.number, r.line, r.tags, r.result, r.plies, findings));
            }
            Ok(Some((n, plies, games)))
        });
        out.map_err(PyOSError::new_err)
    }

    /// Bytes read from the file so far (compressed bytes for .gz / .zst).
    #[getter]
    fn bytes_read(&self) -> u64 {
        self.count.load(Ordering::Relaxed)
    }

    /// The file's size on disk; None for standard input.
    #[getter]
    fn total_bytes(&self) -> Option<u64> {
        self.total
    }
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<CheckRun>()?;
    m.add("CHECK_MATE_BUDGET", MATE_BUDGET)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clocks() {
        for t in ["0:01:02.5", " 1:00:00 ", "0:00:00", "59", "3:07", "x", "1:2:3:4", "", "0:00:01.25"] {
            assert_eq!(clock_ms(t.as_bytes()), crate::pgn::parse_clock(t), "{t}");
        }
        assert_eq!(last_clock(b"a [%clk 0:00:09] b [%clk 0:00:00]"), Some(0));
    }

    #[test]
    fn junk() {
        assert_eq!(first_junk(b"[E \"x\"]\n\n1. e4 e5 2. Zz9 *\n"), Some((2, "Zz9".into())));
        assert_eq!(first_junk(b"1. e4 (1. Zz9) e5 { Zz9 } 1-0\n"), None);
        assert_eq!(first_junk(b"1. e4 e5 2. O-O-O 0-0 1/2-1/2\n"), None);
    }

    fn split(text: &str) -> Vec<(u64, String)> {
        let mut s = Splitter::new(Box::new(io::Cursor::new(text.as_bytes().to_vec())));
        let mut out = Vec::new();
        while let Some(b) = s.next_batch().unwrap() {
            for g in b.games {
                out.push((g.line, String::from_utf8_lossy(&b.buf[g.start..g.end]).into_owned()));
            }
        }
        out
    }

    #[test]
    fn splitting() {
        let g = split("[A \"1\"]\n\n1. e4 {x\n\n[y]} e5 *\n[B \"2\"]\n1. d4 *\n\n\n1. c4 *\n");
        assert_eq!(g.len(), 3);
        assert_eq!(g[0].0, 1);
        assert_eq!(g[1].0, 6);
        assert_eq!(g[2].0, 10);
        let g = split("[A \"1\"]\n\n1. e4 { open\n\n[Event \"2\"]\n1. d4 *\n");
        assert_eq!(g.len(), 2);
        assert_eq!(g[1].0, 5);
        // A line longer than LINE_LIMIT stays one line of one game.
        let long = format!("[A \"1\"]\n\n1. e4 {{{}}} e5 *\n\n[B \"2\"]\n\n1. d4 *\n", "[x".repeat(LINE_LIMIT));
        let g = split(&long);
        assert_eq!(g.len(), 2);
        assert_eq!(g[0].1.len(), long.find("[B").unwrap() - 1);
        assert_eq!(g[1].0, 5);
    }
}
