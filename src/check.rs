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
//! 3. [`check_batch`]: the tag section of each game is read by
//!    [`parse_head`] as a careful reader would (a quote not escaped in a
//!    value is reported and kept, tag sections with no movetext are games
//!    without moves), then the movetext by `pgn_reader` (one reader per
//!    batch) with the [`Checker`] visitor, which plays the main line on a
//!    shakmaty position and applies the end-of-game rules of the chosen
//!    edition after every ply. Tokens that `pgn_reader` passes over
//!    silently are found by [`scan_movetext`] beforehand and read by
//!    [`parse_alt`] (FIDE promotions `a8Q`, long algebraic `Ng1-f3`, UCI
//!    `g1f3`) or reported as unreadable. With `--fix` the worker also writes
//!    the game as the Laws have it ([`fixed_game`]); with `--json`, the
//!    game's JSON ([`write_json_rest`]).
//! 4. [`Pipeline`]: with one job everything runs on the calling thread; with
//!    more, one reader thread splits, N workers check, and the batches come
//!    back in input order. At most `4 × jobs` batches are in flight, so
//!    memory stays bounded whatever the file size.
//!
//! Dead positions and "could the winner mate?" are decided as the arbiter
//! decides them (`chesslaws.mating`: CHA-Solver's full analysis, the same
//! Rust code), so that `check` and `convert` give one judgement (issue 26).
//! After every ply only the strict insufficient-material test runs (a few
//! bit operations). A position once dead stays dead, so at the end of the
//! game [`Checker::settle_dead`] searches the last position where it may be
//! dead ([`may_be_dead`]: each side has at most minor pieces, or pawns that
//! are all stopped, or a queen or rook behind a wall of pawns locked head to
//! head; looked at through forced play, [`through_forced_play`], and
//! CHA-Solver's answers kept by board, [`crate::dead::SolvedCache`]);
//! when it is not shown alive, it goes back to a position shown alive
//! and forward to the first dead one, the ply the arbiter would have ended
//! the game at. The result of a game won by resignation or on time (told by
//! the `Termination` tag or the result comment, through the shared table
//! `terminations.tsv`), and a draw on time, are judged by the same analysis
//! of the last position, behind the same gate ([`may_be_unwinnable`]).

use std::cell::Cell;
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
use pyo3::types::PyBytes;
use shakmaty::fen::Fen;
use shakmaty::san::{San, SanError};
use shakmaty::zobrist::Zobrist64;
use shakmaty::uci::UciMove;
use shakmaty::{Bitboard, CastlingMode, Chess, Color, EnPassantMode, Move, Position as _, Role, Square};

use crate::dead::{analyse_cached, dead_cached, Analysis, Verdict, SOLVED};

/// Can `color` mate in `pos`? The arbiter's analysis (`dead::analyse`).
fn analysis(pos: &Chess, color: Color) -> Analysis {
    analyse_cached(pos, color, &SOLVED)
}

/// Is `pos` dead (Article 9.6 / 5.2.2)? The arbiter's `dead::dead`, asking
/// first whether `first` can mate.
fn is_dead(pos: &Chess, first: Color) -> Option<bool> {
    dead_cached(pos, first, &SOLVED)
}

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
    /// 1989 10.5: "A player having a bare king cannot win the game",
    /// whatever the way he won (a resignation, an arbiter's decision), as
    /// the arbiter reads it (`chesslaws.game.state._Builder.end`).
    bare_king_never_wins: bool,
    /// 2023 5.1.2 as this project reads it: a resignation in a position
    /// where the winner could not mate is a draw.
    resign_rule: bool,
    /// 2023 5.2.3: a draw by agreement needs both players to have moved.
    agreement_both_moved: bool,
    /// 1997 Appendix C.4: in blitz (C.1: all the moves in under 15
    /// minutes, by the TimeControl tag) a player must have mating
    /// potential to win, whatever the way he won but checkmate.
    mating_potential_in_blitz: bool,
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
                bare_king_never_wins: true,
                resign_rule: false,
                agreement_both_moved: false,
                mating_potential_in_blitz: false,
            }),
            "1997" => Some(Rules {
                list_1989: false,
                dead: true,
                fivefold: false,
                seventyfive: false,
                bare_king_flag: false,
                bare_king_never_wins: false,
                resign_rule: false,
                agreement_both_moved: false,
                mating_potential_in_blitz: true,
            }),
            "2023" => Some(Rules {
                list_1989: false,
                dead: true,
                fivefold: true,
                seventyfive: true,
                bare_king_flag: false,
                bare_king_never_wins: false,
                resign_rule: true,
                agreement_both_moved: true,
                mating_potential_in_blitz: false,
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
    /// The result the Laws give, when the record gives another one.
    pub fix: Option<Fix>,
    /// The game was read to its end (no illegal or unreadable move, no
    /// broken PGN that stopped the check).
    pub readable: bool,
    /// With `--fix`: the game as it should be written.
    pub fixed_text: Option<Vec<u8>>,
    /// In JSON mode: the game's JSON after its number (written by the
    /// worker threads; only the number is added in file order).
    pub json_rest: Option<String>,
}

/// What `--fix` changes in a game.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Fix {
    pub result: &'static str,
    pub rule: &'static str,
    /// The record goes on after the end at this ply: cut it there.
    pub cut_ply: Option<u32>,
}

const DRAW: &str = "1/2-1/2";

/// 1997 Appendix C.1: a PGN TimeControl under which all the moves must be
/// made in a fixed time of under 15 minutes (as
/// `chesslaws.timecontrol.classify` reads it: the control ends in sudden
/// death; its periods' times, plus the increments of a 60-move game).
/// A tag that cannot be read is no time control: not blitz.
pub fn blitz_1997(tag: &str) -> bool {
    let tag = tag.trim();
    if tag.is_empty() || tag == "-" || tag == "?" {
        return false;
    }
    // (moves of the period or None for sudden death, ms, increment ms)
    let mut periods: Vec<(Option<u64>, u64, u64)> = Vec::new();
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
    let Some(&(None, ..)) = periods.last() else { return false };
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
    total < 15 * 60 * 1000
}

/// Whole or decimal seconds ("180", "0.5") in milliseconds.
fn seconds_ms(text: &str) -> Option<u64> {
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit() || b == b'.') {
        return None;
    }
    let secs: f64 = text.parse().ok()?;
    Some((secs * 1000.0).round() as u64)
}

/// 1997 Appendix C.4: forces that could produce, possibly by helpmate, a
/// position where the opponent having the move cannot avoid mate in one;
/// read as material, as the arbiter reads it
/// (`chesslaws.game.state._mating_potential`). `Err(why)` when `color` has
/// none.
pub fn mating_potential(board: &shakmaty::Board, color: Color) -> Result<(), &'static str> {
    let own = board.by_color(color);
    if !(own & (board.queens() | board.rooks() | board.pawns())).is_empty() {
        return Ok(());
    }
    let bishops = own & board.bishops();
    let knights = own & board.knights();
    if !bishops.is_empty() && !knights.is_empty() {
        return Ok(());
    }
    if bishops.count() >= 2 && !(bishops & Bitboard::LIGHT_SQUARES).is_empty() && !(bishops & Bitboard::DARK_SQUARES).is_empty() {
        return Ok(());
    }
    let minors = bishops.count() + knights.count();
    if minors == 0 {
        return Err("has a lone king");
    }
    if board.by_color(!color).count() > 1 {
        return Ok(()); // a minor piece, and the opponent has material that can block
    }
    if knights.count() == 2 && minors == 2 {
        return Err("has only two knights against a lone king");
    }
    Err("has only one minor piece against a lone king")
}

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
    matches!(b, b' ' | b'\t' | b'\n' | b'\r' | 0x0b | 0x0c | 0x1a | b'{' | b'}' | b'(' | b')' | b'!' | b'?' | b'$' | b';' | b'.' | b'*')
}

/// What a scan of the movetext finds beside what `pgn_reader` hands to the
/// visitor (it mirrors `pgn_reader`'s movetext tokenizer).
#[derive(Debug, Default, Clone)]
pub struct Scan {
    /// Main-line tokens that `pgn_reader` passes over without a word (FIDE
    /// promotions `a8Q`, long algebraic `e2-e4`, or text that is no move):
    /// how many whole SAN tokens came before each, and its text.
    pub extras: Vec<(u32, String)>,
    /// Byte range of the last main-line result token (`1-0`, `*`, ...).
    pub result_at: Option<(usize, usize)>,
    /// Byte range of the comment just before that result, if any (inside the braces).
    pub final_comment: Option<(usize, usize)>,
    /// With `offsets`: the byte offset after each main-line move token.
    pub move_ends: Vec<usize>,
    /// What `pgn_reader` would hand to the visitor, in order, when the
    /// movetext is [`Scan::plain`].
    pub events: Vec<Event>,
    /// The movetext is one main line that the scan reads exactly as
    /// `pgn_reader` does: no variation, no comment left open or longer than
    /// `pgn_reader`'s buffer, no byte outside ASCII or the DOS leftovers
    /// outside comments, nothing after the game's end, no tag or escape
    /// line at its start. Then [`Scan::events`] drive the checker and
    /// `pgn_reader` does not read the movetext a second time.
    pub plain: bool,
}

/// One thing `pgn_reader` hands to the visitor.
#[derive(Debug, Clone, Copy)]
pub enum Event {
    San(SanPlus),
    /// A comment's byte range (inside the braces).
    Comment(usize, usize),
    Outcome(Outcome),
}

/// Comments longer than this are read by `pgn_reader` in parts (its
/// buffer): such a movetext is left to it.
const PLAIN_COMMENT_LIMIT: usize = 4096;

pub fn scan_movetext(text: &[u8], offsets: bool) -> Scan {
    let n = text.len();
    let mut out = Scan::default();
    let start = text.trim_ascii_start();
    let mut plain = !start.starts_with(b"[") && !start.starts_with(b"%");
    let mut i = 0;
    let mut depth = 0u32;
    let mut sans = 0u32;
    let mut comment: Option<(usize, usize)> = None;
    while i < n {
        let c = text[i];
        match c {
            b'{' => match memchr::memchr(b'}', &text[i + 1..]) {
                Some(j) => {
                    if depth == 0 {
                        comment = Some((i + 1, i + 1 + j));
                    }
                    plain &= j <= PLAIN_COMMENT_LIMIT;
                    out.events.push(Event::Comment(i + 1, i + 1 + j));
                    i += j + 2;
                }
                None => {
                    plain = false;
                    break;
                }
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
                    Some(b'[') | Some(b'\n') => {
                        plain &= text[i..].iter().all(u8::is_ascii_whitespace);
                        break;
                    }
                    Some(b'\r') if text.get(i + 1) == Some(&b'\n') => {
                        plain &= text[i..].iter().all(u8::is_ascii_whitespace);
                        break;
                    }
                    _ => {}
                }
            }
            b'(' => {
                plain = false;
                depth += 1;
                i += 1;
            }
            b')' => {
                plain = false;
                depth = depth.saturating_sub(1);
                i += 1;
            }
            b'*' => {
                if depth == 0 {
                    out.result_at = Some((i, i + 1));
                    out.final_comment = comment;
                }
                out.events.push(Event::Outcome(Outcome::Unknown));
                i += 1;
            }
            0x0b | 0x0c | 0x1a => {
                plain = false;
                i += 1;
            }
            // DOS and Windows leftovers (a Ctrl-Z at the end of the file, form
            // feeds) are white space, as python-chess reads them.
            b' ' | b'\t' | b'\r' | b'.' | b'!' | b'?' => i += 1,
            b'$' => {
                i += 1;
                while i < n && !is_token_end(text[i]) {
                    i += 1;
                }
            }
            _ => {
                let rest = &text[i..];
                if let Some((result_len, outcome)) = result_token(rest) {
                    if depth == 0 {
                        out.result_at = Some((i, i + result_len));
                        out.final_comment = comment;
                    }
                    out.events.push(Event::Outcome(outcome));
                    i += result_len;
                    continue;
                }
                if c == b'0' {
                    let d = dash_len(&rest[1..]);
                    if d > 0 && rest[1 + d..].starts_with(b"0") {
                        let short = 2 + d;
                        let d2 = dash_len(&rest[short..]);
                        let long = d2 > 0 && rest[short + d2..].starts_with(b"0");
                        i += if long { short + d2 + 1 } else { short };
                        let suffix = match text.get(i) {
                            Some(b'+') => Some(shakmaty::san::Suffix::Check),
                            Some(b'#') => Some(shakmaty::san::Suffix::Checkmate),
                            _ => None,
                        };
                        if suffix.is_some() {
                            i += 1;
                        }
                        let side = if long { shakmaty::CastlingSide::QueenSide } else { shakmaty::CastlingSide::KingSide };
                        out.events.push(Event::San(SanPlus { san: San::Castle(side), suffix }));
                        if depth == 0 {
                            sans += 1;
                            comment = None;
                            if offsets {
                                out.move_ends.push(i);
                            }
                        }
                    } else {
                        i += 1;
                    }
                    continue;
                }
                if c.is_ascii_digit() {
                    while i < n && text[i].is_ascii_digit() {
                        i += 1;
                    }
                    while i < n && (text[i] == b'.' || text[i] == b' ') {
                        i += 1;
                    }
                    continue;
                }
                if rest.starts_with(b"e.p.") {
                    // "en passant", written after the move: pgn_reader skips it.
                    i += 4;
                    continue;
                }
                let start = i;
                let mut end = i;
                while end < n && !is_token_end(text[end]) {
                    end += 1;
                }
                if end == start {
                    i += 1;
                    continue;
                }
                let mut token = &text[start..end];
                plain &= token.is_ascii();
                let everyday = plain_san(token);
                if everyday.is_none() && is_annotation(token) {
                    // "+=", "±", "N", "e.p": annotations, skipped by pgn_reader too.
                    i = end;
                    continue;
                }
                let parsed = everyday.map_or_else(|| SanPlus::from_ascii_prefix(token), |san| Ok((san, token.len())));
                let whole = matches!(parsed, Ok((_, used)) if used == token.len());
                if let (true, Ok((san, _))) = (whole, parsed) {
                    out.events.push(Event::San(san));
                }
                if depth == 0 {
                    comment = None;
                    if !whole {
                        // "exd6e.p.": the "e" of "e.p." sticks to the move.
                        if token.len() > 1 && token.ends_with(b"e") && text[end..].starts_with(b".p.") {
                            token = &token[..token.len() - 1];
                            end += 3;
                        }
                        out.extras.push((sans, String::from_utf8_lossy(token).into_owned()));
                    } else {
                        sans += 1;
                    }
                    if offsets {
                        out.move_ends.push(end);
                    }
                }
                i = end;
            }
        }
    }
    out.plain = plain;
    out
}

/// The length of the dash starting `rest`: `-`, or the en or em dash that
/// `pgn_reader` also reads in a result (`1–0`) and in castling with zeros.
fn dash_len(rest: &[u8]) -> usize {
    ["-", "\u{2013}", "\u{2014}"].iter().find(|d| rest.starts_with(d.as_bytes())).map_or(0, |d| d.len())
}

/// A result token starting `rest`, as `pgn_reader` reads it: `1-0`, `0-1`,
/// `1/2-1/2`, `½-½`, with any dash of [`dash_len`].
fn result_token(rest: &[u8]) -> Option<(usize, Outcome)> {
    let half = "½".as_bytes();
    let draw = Outcome::Known(KnownOutcome::Draw);
    let (head, tail, outcome): (&[u8], &[u8], Outcome) = if rest.starts_with(b"1/2") {
        (b"1/2", b"1/2", draw)
    } else if rest.starts_with(half) {
        (half, half, draw)
    } else if rest.starts_with(b"1") {
        (b"1", b"0", Outcome::Known(KnownOutcome::Decisive { winner: Color::White }))
    } else if rest.starts_with(b"0") {
        (b"0", b"1", Outcome::Known(KnownOutcome::Decisive { winner: Color::Black }))
    } else {
        return None;
    };
    let d = dash_len(&rest[head.len()..]);
    (d > 0 && rest[head.len() + d..].starts_with(tail)).then_some((head.len() + d + tail.len(), outcome))
}

/// Annotation symbols written in the movetext (Informator-style
/// evaluations "+=", "+-", "±", "∞", novelties "N"/"TN", "ep"), which no
/// reader takes for a move.
pub(crate) fn is_annotation(token: &[u8]) -> bool {
    if matches!(token, b"N" | b"TN" | b"D" | b"ep" | b"e.p" | b"-") {
        return true;
    }
    let figurine = std::str::from_utf8(token).is_ok_and(|t| t.chars().any(|c| figurine_letter(c).is_some()));
    !figurine && token.iter().all(|&b| matches!(b, b'+' | b'-' | b'=' | b'/' | b'~') || b >= 0x80)
        && token != b"--"
}

/// The letter of a figurine (Unicode chess symbol, white or black).
fn figurine_letter(c: char) -> Option<u8> {
    match c {
        '\u{2654}' | '\u{265A}' => Some(b'K'),
        '\u{2655}' | '\u{265B}' => Some(b'Q'),
        '\u{2656}' | '\u{265C}' => Some(b'R'),
        '\u{2657}' | '\u{265D}' => Some(b'B'),
        '\u{2658}' | '\u{265E}' => Some(b'N'),
        '\u{2659}' | '\u{265F}' => Some(b'P'),
        _ => None,
    }
}

/// The everyday shapes of SAN, read directly: `e4`, `exd5`, `Nf3`, `Nbd7`,
/// `R1e2`, `Qxe7`, `e8=Q`, with `+` or `#`, as `SanPlus::from_ascii_prefix`
/// reads them whole (every other token goes to it).
fn plain_san(token: &[u8]) -> Option<SanPlus> {
    use shakmaty::san::Suffix;
    let mut t = token;
    let mut suffix = None;
    if let [rest @ .., s @ (b'+' | b'#')] = t {
        suffix = Some(if *s == b'+' { Suffix::Check } else { Suffix::Checkmate });
        t = rest;
    }
    let mut promotion = None;
    if let [rest @ .., b'=', p @ (b'Q' | b'R' | b'B' | b'N')] = t {
        promotion = Role::from_char(char::from(*p));
        t = rest;
    }
    let file = |b: u8| shakmaty::File::from_char(char::from(b));
    let rank = |b: u8| shakmaty::Rank::from_char(char::from(b));
    let square = |f: u8, r: u8| Some(Square::from_coords(file(f)?, rank(r)?));
    let san = match *t {
        [f, r] => San::Normal { role: Role::Pawn, file: None, rank: None, capture: false, to: square(f, r)?, promotion },
        [f, b'x', g, r] => {
            San::Normal { role: Role::Pawn, file: Some(file(f)?), rank: None, capture: true, to: square(g, r)?, promotion }
        }
        [p @ (b'K' | b'Q' | b'R' | b'B' | b'N'), ref rest @ ..] if promotion.is_none() => {
            let role = Role::from_char(char::from(p))?;
            let (d, capture, f, r) = match *rest {
                [f, r] => (None, false, f, r),
                [b'x', f, r] => (None, true, f, r),
                [d, f, r] => (Some(d), false, f, r),
                [d, b'x', f, r] => (Some(d), true, f, r),
                _ => return None,
            };
            let (dfile, drank) = match d {
                None => (None, None),
                Some(d) => match (file(d), rank(d)) {
                    (Some(x), _) => (Some(x), None),
                    (None, Some(y)) => (None, Some(y)),
                    (None, None) => return None,
                },
            };
            San::Normal { role, file: dfile, rank: drank, capture, to: square(f, r)?, promotion: None }
        }
        _ => return None,
    };
    Some(SanPlus { san, suffix })
}

/// A move in a notation `pgn_reader` does not read: FIDE promotions
/// without `=` (`a8Q`, `bxa1Q`), FIDE long algebraic (`e2-e4`, `Ng1-f3`,
/// `e7-e8Q`, `Ng1xf3`) and UCI coordinates (`g1f3`, `e7e8q`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Alt {
    San(San),
    Coords { role: Option<Role>, uci: UciMove },
}

fn promotion_role(b: u8) -> Option<Role> {
    match b.to_ascii_uppercase() {
        b'Q' => Some(Role::Queen),
        b'R' => Some(Role::Rook),
        b'B' => Some(Role::Bishop),
        b'N' => Some(Role::Knight),
        _ => None,
    }
}

pub fn parse_alt(token: &[u8]) -> Option<Alt> {
    // Figurine algebraic notation (♘f3): the figurine stands for the letter.
    let spelled: Vec<u8>;
    let token = match std::str::from_utf8(token) {
        Ok(t) if t.chars().any(|c| figurine_letter(c).is_some()) => {
            let mut out = Vec::with_capacity(t.len());
            for c in t.chars() {
                match figurine_letter(c) {
                    Some(b'P') => {}
                    Some(l) => out.push(l),
                    None => out.extend_from_slice(c.to_string().as_bytes()),
                }
            }
            if let Ok((san, used)) = SanPlus::from_ascii_prefix(&out) {
                if used == out.len() {
                    return Some(Alt::San(san.san));
                }
            }
            spelled = out;
            &spelled[..]
        }
        _ => token,
    };
    let mut t = token;
    while let Some((&last, rest)) = t.split_last() {
        if matches!(last, b'+' | b'#') {
            t = rest;
        } else {
            break;
        }
    }
    // Long algebraic and coordinates: [KQRBNP]? from [-x:]? to (=? promotion)?
    let (role, rest) = match t.first().and_then(|&c| Role::from_char(c as char).filter(|_| c.is_ascii_uppercase())) {
        Some(r) => (Some(r), &t[1..]),
        None => (None, t),
    };
    if rest.len() >= 4 {
        if let Ok(from) = Square::from_ascii(&rest[..2]) {
            let k = if matches!(rest[2], b'-' | b'x' | b':') { 3 } else { 2 };
            if let Some(Ok(to)) = rest.get(k..k + 2).map(Square::from_ascii) {
                let tail = &rest[k + 2..];
                let tail = tail.strip_prefix(b"=").unwrap_or(tail);
                let promotion = match tail {
                    [] => None,
                    [p] => Some(promotion_role(*p)?),
                    _ => return None,
                };
                return Some(Alt::Coords { role, uci: UciMove::Normal { from, to, promotion } });
            }
        }
    }
    // FIDE promotion without '=': a8Q, bxa1Q.
    if let [head @ .., rank @ (b'1' | b'8'), p] = t {
        let role = promotion_role(*p)?;
        let mut s = head.to_vec();
        s.push(*rank);
        s.push(b'=');
        s.push(role.upper_char() as u8);
        if let Ok(san) = San::from_ascii(&s) {
            return Some(Alt::San(san));
        }
    }
    None
}

impl Alt {
    pub(crate) fn to_move(self, pos: &Chess) -> Result<Move, SanError> {
        match self {
            Alt::San(san) => resolve(pos, &san),
            Alt::Coords { role, uci } => {
                let m = uci.to_move(pos).map_err(|_| SanError::IllegalSan)?;
                if role.is_some_and(|r| r != m.role()) {
                    return Err(SanError::IllegalSan);
                }
                Ok(m)
            }
        }
    }
}

// ---------------------------------------------------------------------------
// Tags, read as a careful reader would.

/// The tag section of one game (the text up to its movetext).
#[derive(Debug, Default)]
pub struct Head {
    /// (name, value) byte ranges in the text given to [`parse_head`]; the
    /// value still escaped (see [`Head::decode`]).
    pub tags: Vec<((usize, usize), (usize, usize))>,
    /// Syntax faults, each naming its line (counted from the section's start, 1-based).
    pub errors: Vec<String>,
    /// Offset of the first line of the section.
    pub start: usize,
    /// Offset where the movetext (or the next header block) starts.
    pub end: usize,
    /// The section is followed, after a blank line, by another tag section:
    /// a game without movetext.
    pub header_only: bool,
}

fn unescape_into(raw: &[u8], out: &mut Vec<u8>) {
    let mut k = 0;
    while k < raw.len() {
        if raw[k] == b'\\' && matches!(raw.get(k + 1), Some(b'"') | Some(b'\\')) {
            out.push(raw[k + 1]);
            k += 2;
        } else {
            out.push(raw[k]);
            k += 1;
        }
    }
}

/// The most of a tag line an error shows.
const SHOWN_LINE: usize = 200;

/// The tags of one line (`[Name "value"]`, possibly several), or why not.
/// Returns where text that is no tag starts on the line (the movetext, in
/// `[Result "*"] e4 *`), if any.
pub(crate) fn parse_tag_line(
    line: &[u8],
    base: usize,
    tags: &mut Vec<((usize, usize), (usize, usize))>,
    errors: &mut Vec<String>,
    line_no: usize,
) -> Option<usize> {
    // The line, as each error on it shows it: cut when long, since every tag of a line of thousands of
    // tags may have its error (each showing the whole line made the report grow with their square).
    let shown = || {
        let body = line.trim_ascii();
        if body.len() <= SHOWN_LINE {
            String::from_utf8_lossy(body).into_owned()
        } else {
            let mut cut = SHOWN_LINE;
            while cut > 0 && body[cut] & 0xC0 == 0x80 {
                cut -= 1; // not inside a UTF-8 character
            }
            format!("{}... ({} bytes)", String::from_utf8_lossy(&body[..cut]), body.len())
        }
    };
    let mut i = 0;
    let n = line.len();
    loop {
        while i < n && line[i].is_ascii_whitespace() {
            i += 1;
        }
        if i >= n {
            return None;
        }
        if line[i] != b'[' {
            if i > 0 && line[i - 1] == b']' {
                // Text stuck to a tag's closing bracket ([Event "x"]junk): a
                // broken tag line, read without it as python-chess does.
                errors.push(format!("line {line_no}: text after the tag is left out: {}", shown()));
                return None;
            }
            return Some(i);
        }
        i += 1;
        while i < n && line[i] == b' ' {
            i += 1;
        }
        let name_start = i;
        while i < n && (line[i].is_ascii_alphanumeric() || line[i] == b'_' || line[i] == b'-') {
            i += 1;
        }
        let name_end = i;
        let name = || String::from_utf8_lossy(&line[name_start..name_end]).into_owned();
        while i < n && line[i] == b' ' {
            i += 1;
        }
        if name_start == name_end || line.get(i) != Some(&b'"') {
            errors.push(format!("line {line_no}: a tag must be [Name \"value\"]: {}", shown()));
            return None;
        }
        i += 1;
        let value_start = i;
        let mut close = None;
        let mut stray = false;
        let mut k = i;
        while k < n {
            match line[k] {
                b'\\' => k += 2,
                b'"' => {
                    let mut j = k + 1;
                    while j < n && line[j] == b' ' {
                        j += 1;
                    }
                    if line.get(j) == Some(&b']') {
                        close = Some((k, j + 1));
                        // What follows on the line: another tag, the
                        // movetext, or (python-chess reads it so) more of
                        // this value, up to the line's last `"]`:
                        // [Event "he said "hi"]"].
                        let rest = line[j + 1..].trim_ascii();
                        if !rest.is_empty() && !rest.starts_with(b"[") && rest.ends_with(b"]") {
                            let body = line.trim_ascii_end();
                            let end = body.len() - 1;
                            let mut q = end;
                            while q > j && body[q - 1] == b' ' {
                                q -= 1;
                            }
                            if q > j + 1 && body[q - 1] == b'"' {
                                close = Some((q - 1, end + 1));
                                stray = true;
                            }
                        }
                        break;
                    }
                    stray = true;
                    k += 1;
                }
                _ => k += 1,
            }
        }
        let body = line.trim_ascii_end();
        if close.is_none() && body.ends_with(b"\\\"]") && body.len() - 3 >= value_start {
            // [Event "Tournament \"]: a backslash ending the value, not an
            // escaped quote (python-chess reads it so).
            close = Some((body.len() - 2, body.len()));
            errors.push(format!(
                "line {line_no}: the value of the tag {} ends with a backslash, read as a backslash (write \\\\): {}",
                name(),
                shown()
            ));
        }
        let Some((value_end, after)) = close else {
            errors.push(format!("line {line_no}: the tag {} is not closed with '\"]': {}", name(), shown()));
            return None;
        };
        if stray {
            errors.push(format!(
                "line {line_no}: the value of the tag {} has a quote that is not escaped (write \\\"): {}",
                name(),
                shown()
            ));
        }
        tags.push(((base + name_start, base + name_end), (base + value_start, base + value_end)));
        i = after;
    }
}

impl Head {
    /// The tags as text (values unescaped).
    pub fn decode(&self, text: &[u8]) -> Vec<(String, String)> {
        self.tags.iter().map(|&(n, v)| (decode_name(text, n), decode_value(text, v))).collect()
    }
}

/// Text of a PGN file as python-chess reads it opened as it should be:
/// UTF-8, and where the bytes are not UTF-8, Latin-1 (the names in old DOS
/// and Windows files: "M\xfcller" is "Müller", not "M\u{fffd}ller").
pub(crate) fn decode_text(bytes: &[u8]) -> String {
    match std::str::from_utf8(bytes) {
        Ok(s) => s.to_string(),
        Err(_) => bytes.iter().map(|&b| b as char).collect(),
    }
}

fn decode_name(text: &[u8], (a, b): (usize, usize)) -> String {
    decode_text(&text[a..b])
}

fn decode_value(text: &[u8], (a, b): (usize, usize)) -> String {
    let raw = &text[a..b];
    if memchr::memchr(b'\\', raw).is_none() {
        return decode_text(raw);
    }
    let mut value = Vec::with_capacity(raw.len());
    unescape_into(raw, &mut value);
    decode_text(&value)
}

/// Reads the tag section at the start of `text`.
pub fn parse_head(text: &[u8], first_line: u64) -> Head {
    let mut head = Head::default();
    let n = text.len();
    let mut i = 0;
    let mut line_no = first_line as usize - 1;
    let mut seen_tag = false;
    let mut blank_after_tags = false;
    let mut started = false;
    while i < n {
        let e = memchr::memchr(b'\n', &text[i..]).map_or(n, |j| i + j + 1);
        let mut line = &text[i..e];
        line_no += 1;
        if line.starts_with(b"\xef\xbb\xbf") {
            line = &line[3..];
        }
        let body = line.trim_ascii_start();
        if body.is_empty() {
            if seen_tag {
                blank_after_tags = true;
            }
        } else if body[0] == b'%' {
            // An escape line: ignored.
        } else if body[0] == b'[' {
            if blank_after_tags {
                head.end = i;
                head.header_only = true;
                return head;
            }
            if !started {
                head.start = i;
                started = true;
            }
            seen_tag = true;
            let base = e - body.len();
            if let Some(k) = parse_tag_line(body, base, &mut head.tags, &mut head.errors, line_no) {
                // Movetext on the tag's line.
                head.end = e - body.len() + k;
                return head;
            }
        } else {
            head.end = i;
            if !started {
                head.start = i;
            }
            return head;
        }
        i = e;
    }
    head.end = n;
    if !started {
        head.start = n;
    }
    head
}

// ---------------------------------------------------------------------------
// How the writers say the game ended: the table shared with `convert`.

static TERMINATIONS_TSV: &str = include_str!("../python/chesslaws/data/terminations.tsv");

fn termination_rules() -> &'static [(String, &'static str)] {
    static RULES: std::sync::OnceLock<Vec<(String, &'static str)>> = std::sync::OnceLock::new();
    RULES.get_or_init(|| {
        let mut rules = Vec::new();
        for line in TERMINATIONS_TSV.lines() {
            if line.starts_with('#') || line.trim().is_empty() {
                continue;
            }
            let mut cols = line.split('\t');
            let (Some(text), Some(kind)) = (cols.next(), cols.next()) else { continue };
            if text == "text" && kind == "kind" {
                continue;
            }
            let text = text.split_whitespace().collect::<Vec<_>>().join(" ").to_lowercase();
            if !text.is_empty() {
                rules.push((text, &*kind.trim().to_string().leak()));
            }
        }
        rules
    })
}

/// The kind of ending a `Termination` tag (or a result comment) describes,
/// by the first matching rule of `terminations.tsv`.
pub fn termination_kind(text: &str) -> Option<&'static str> {
    if text.trim().is_empty() {
        return None;
    }
    let norm = text.split_whitespace().collect::<Vec<_>>().join(" ").to_lowercase();
    termination_rules().iter().find(|(t, _)| norm.contains(t.as_str())).map(|(_, k)| *k)
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

/// Could `winner` be unable to mate here? The gate before CHA-Solver,
/// which decides: a side with no queen, rook or pawn (minor pieces at most),
/// a side with pawns but no queen or rook whose every pawn is stopped (the
/// square in front of it taken), a side with a queen or a rook behind a
/// wall of pawns all blocked head to head. Everywhere else the side is
/// taken to be able to mate without a search.
pub(crate) fn may_be_unwinnable(pos: &Chess, winner: Color) -> bool {
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
pub(crate) fn may_be_dead(pos: &Chess) -> bool {
    may_be_unwinnable(pos, Color::White) && may_be_unwinnable(pos, Color::Black)
}

/// Plies of forced play looked through by [`through_forced_play`].
const FORCED_PLIES: u32 = 8;

/// `may_be` (a material gate: [`may_be_dead`], [`may_be_unwinnable`]) of
/// the position or of what it must become: where the side to move has one
/// legal move, or only captures, the position can be dead (or a side
/// unable to mate) only if every position after it can, so the gate is
/// asked of those (a queen that must be taken at once, `8/2K1Q3/4k3 b`, is
/// no mating material). A material gate alone would take such a position
/// for one where the side can mate without asking CHA-Solver.
fn through_forced_play(pos: &Chess, may_be: &dyn Fn(&Chess) -> bool, plies: u32) -> bool {
    if may_be(pos) {
        return true;
    }
    if plies == 0 {
        return false;
    }
    let moves = pos.legal_moves();
    if moves.is_empty() || (moves.len() > 1 && !moves.iter().all(|m| m.is_capture())) {
        return false;
    }
    moves.iter().all(|&m| {
        let mut after = pos.clone();
        after.play_unchecked(m);
        through_forced_play(&after, may_be, plies - 1)
    })
}

/// The one legal move a SAN names in the everyday case, found without
/// generating the position's move list (shakmaty's `San::to_move` fills a
/// 256-move list per move): a piece, king or pawn move, no promotion, no en
/// passant square in play, the side to move not in check, the capture sign
/// as the board has it. `None` whenever that case does not hold or the SAN
/// does not name exactly one legal move: `San::to_move` then decides (and
/// gives the error). So a move found here is the move `to_move` gives.
fn resolve_quickly(pos: &Chess, san: &San) -> Option<Move> {
    let San::Normal { role, file, rank, capture, to, promotion: None } = *san else { return None };
    let board = pos.board();
    let us = pos.turn();
    if pos.us().contains(to) || capture != board.occupied().contains(to) || pos.checkers().any() {
        return None;
    }
    let occupied = board.occupied();
    let ours = pos.our(role);
    let from_set = match role {
        Role::Knight => shakmaty::attacks::knight_attacks(to) & ours,
        Role::Bishop => shakmaty::attacks::bishop_attacks(to, occupied) & ours,
        Role::Rook => shakmaty::attacks::rook_attacks(to, occupied) & ours,
        Role::Queen => shakmaty::attacks::queen_attacks(to, occupied) & ours,
        Role::King => {
            let king = board.king_of(us)?;
            if !shakmaty::attacks::king_attacks(king).contains(to) || board.attacks_to(to, !us, occupied).any() {
                return None;
            }
            Bitboard::from_square(king)
        }
        Role::Pawn => {
            if Bitboard::BACKRANKS.contains(to) || pos.maybe_ep_square() == Some(to) {
                return None;
            }
            let back = if us == Color::White { -8 } else { 8 };
            let behind = to.offset(back)?;
            if capture {
                // From the next file on the rank behind: the file is named.
                let f = file?;
                let from = Square::from_coords(f, behind.rank());
                if (i32::from(f) - i32::from(to.file())).abs() != 1 {
                    return None;
                }
                Bitboard::from_square(from) & ours
            } else if ours.contains(behind) {
                Bitboard::from_square(behind)
            } else {
                // Two squares from the second rank, over an empty square.
                let start = behind.offset(back)?;
                let second = if us == Color::White { shakmaty::Rank::Second } else { shakmaty::Rank::Seventh };
                if occupied.contains(behind) || start.rank() != second || !ours.contains(start) {
                    return None;
                }
                Bitboard::from_square(start)
            }
        }
    };
    let mut found = None;
    for from in from_set {
        if file.is_some_and(|f| f != from.file()) || rank.is_some_and(|r| r != from.rank()) {
            continue;
        }
        if found.is_some() {
            return None; // ambiguous: to_move says so
        }
        found = Some(from);
    }
    let from = found?;
    if role != Role::King {
        // A piece pinned to its king moves only along the pin.
        let king = board.king_of(us)?;
        let them = pos.them();
        let snipers = (shakmaty::attacks::rook_attacks(king, Bitboard(0)) & board.rooks_and_queens() & them)
            | (shakmaty::attacks::bishop_attacks(king, Bitboard(0)) & board.bishops_and_queens() & them);
        for sniper in snipers {
            let between = shakmaty::attacks::between(king, sniper) & occupied;
            if between == Bitboard::from_square(from) && !shakmaty::attacks::aligned(from, to, king) {
                return None;
            }
        }
    }
    Some(Move::Normal { role, from, capture: board.role_at(to), to, promotion: None })
}

pub(crate) fn resolve(pos: &Chess, san: &San) -> Result<Move, SanError> {
    if let Some(m) = resolve_quickly(pos, san) {
        return Ok(m);
    }
    san.to_move(pos).or_else(|e| {
        // UCI coordinates of a piece move ("g1f3") read as a pawn move with
        // both disambiguations: read them as coordinates.
        if let San::Normal { role: Role::Pawn, file: Some(f), rank: Some(r), to, promotion, .. } = *san {
            let uci = UciMove::Normal { from: Square::from_coords(f, r), to, promotion };
            if let Ok(m) = uci.to_move(pos) {
                return Ok(m);
            }
        }
        // Tolerate a missing or extra capture sign (as chesslaws.pgn does).
        if let (SanError::IllegalSan, San::Normal { role, file, rank, capture, to, promotion }) = (&e, *san) {
            let flipped = San::Normal { role, file, rank, capture: !capture, to, promotion };
            flipped.to_move(pos).map_err(|_| e)
        } else {
            Err(e)
        }
    })
}

/// The spellings of standard chess in a `Variant` tag (cutechess writes
/// "normal"; "From Position" comes with a FEN).
fn is_standard_variant(value: &str) -> bool {
    let v = value.split_whitespace().collect::<Vec<_>>().join(" ").to_ascii_lowercase();
    matches!(
        v.as_str(),
        "" | "standard" | "chess" | "normal" | "from position" | "fromposition" | "standard chess" | "classical"
            | "orthodox" | "international chess"
    )
}

/// Chess960 (Fischer random chess, the 2023 Laws' Guidelines II).
pub(crate) fn is_chess960(value: &str) -> bool {
    let v: String = value.chars().filter(|c| c.is_ascii_alphanumeric()).collect::<String>().to_ascii_lowercase();
    matches!(v.as_str(), "chess960" | "960" | "fischerandom" | "fischerrandom" | "fischerrandomchess" | "freestyle")
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
    // Each "[%clk" (found by its '%': a memmem searcher costs more to set up
    // than most comments are long).
    while let Some(j) = memchr::memchr(b'%', &raw[i..]) {
        let p = i + j;
        if p == 0 || raw[p - 1] != b'[' || !raw[p + 1..].starts_with(b"clk") {
            i = p + 1;
            continue;
        }
        let s = p + 4;
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
    scan: Scan,
    next_extra: usize,
    /// The tags were read before `pgn_reader` started (by [`parse_head`]).
    preset: bool,
    sans_seen: u32,
    /// Hashes of the positions since the last irreversible move, computed
    /// only once that run is long enough for a fifth occurrence (16 plies).
    history: Vec<u64>,
    /// The position after the last irreversible move, and the moves since.
    run_start: Chess,
    run_moves: Vec<Move>,
    ending: Option<Ending>,
    last_san: Option<SanPlus>,
    last_mover: Option<Color>,
    clocks: [Option<u64>; 2],
    /// The clock the record gives after the last move played ([%clk]).
    last_clock: Option<u64>,
    /// The position the movetext starts from, and the main-line moves played.
    start_pos: Chess,
    moves: Vec<Move>,
    has_fen: bool,
    /// The FEN tag, read when the movetext starts (the Variant tag may come after it).
    fen: Option<String>,
    /// Chess960 (2023 Laws, Guidelines II): castling by its rules.
    chess960: bool,
    report: GameReport,
    tag_result: Option<&'static str>,
    token_result: Option<&'static str>,
    termination: String,
    /// The TimeControl tag (kept only where the edition's rules need it:
    /// 1997 C.4).
    time_control: String,
    /// The comment just before the movetext's result.
    final_comment: String,
    /// That comment is the one `--fix` writes: the result is the Laws'.
    fix_comment: bool,
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
            time_control: String::new(),
            final_comment: String::new(),
            fix_comment: false,
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
        self.termination.clear();
        self.time_control.clear();
        self.final_comment.clear();
        self.fix_comment = false;
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
        dead_reason_of(&self.pos)
    }

    /// Dead positions beyond insufficient material, decided as the arbiter
    /// decides them after every move (`chesslaws.mating.is_dead`: CHA-Solver,
    /// full search, both sides), at the first ply where the arbiter would.
    /// Once dead, every later position is dead too (no series of moves from
    /// it mates): so a last position CHA-Solver shows alive means no earlier
    /// one was dead, and only games whose last position may be dead
    /// ([`may_be_dead`]) are searched, ply by ply back to one shown
    /// alive, then forward to the first dead one.
    fn settle_dead(&mut self) {
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
}

/// Why neither side can mate (CHA-Solver's full analysis, as the arbiter's
/// `dead_analysis`), or `None` when one side may.
fn dead_reason_of(pos: &Chess) -> Option<String> {
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
    } else {
        format!("{w}; {b}")
    })
}

impl Checker {
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

    fn bad_move(&mut self, text: String, null: bool, e: SanError) {
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

    /// Could `winner` have mated in the final position? `Some(reason)` when
    /// it is proven that it could not.
    fn cannot_mate(&self, winner: Color, bare_king_only: bool) -> Option<String> {
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
    fn cannot_mate_proved(&self, winner: Color, bare_king_only: bool) -> Option<String> {
        if bare_king_only {
            let ours = self.pos.board().by_color(winner);
            return (ours.count() == 1).then(|| format!("{} has only the king left", side(winner)));
        }
        let a = analysis(&self.pos, winner);
        (a.verdict == Verdict::Unwinnable).then(|| a.reason.trim_end_matches('.').to_string())
    }

    fn judge_result(&mut self) {
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
        if result == Some(DRAW) && !self.pos.legal_moves().is_empty() {
            // A draw on time (chess.com "timeout vs insufficient material",
            // lichess "Time forfeit" with 1/2-1/2): the flag of the player to
            // move fell; the game is drawn only if the opponent cannot mate
            // (Article 6.9; 1989 10.5: a bare king), as `convert` judges it.
            let said = termination_kind(&self.termination)
                .filter(|k| !matches!(*k, "normal" | "unterminated"))
                .or_else(|| termination_kind(&self.final_comment));
            let both_moved = self.ply >= 2;
            // (A draw `--fix` wrote, its comment citing the Laws, is theirs:
            // its "Time forfeit" may be the flag of the player not to move.)
            let on_time = said == Some("timeout_vs_insufficient") || (said == Some("time_forfeit") && !self.fix_comment);
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
            if on_time {
                let loser = self.pos.turn();
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
        let winner = match result {
            Some("1-0") => Color::White,
            Some("0-1") => Color::Black,
            _ => return,
        };
        let loser = !winner;
        // How the writer says the game ended: the Termination tag, else the
        // comment before the result (cutechess, TCEC).
        let said = termination_kind(&self.termination)
            .filter(|k| !matches!(*k, "normal" | "unterminated"))
            .or_else(|| termination_kind(&self.final_comment));
        // The loser's flag fell while his clock ran: on his turn, or after
        // he made his last move and before he pressed the clock (a move not
        // completed: 1997 6.7(a), 2023 6.2.1), the position on the board
        // being the one after it. With no move at all, or a clock after
        // that move showing time left (he pressed it), his clock was not
        // running: written as a resignation, as `convert` writes it.
        // (A win recorded with chess.com's "timeout vs insufficient
        // material", a draw's text, is read as a flag too, as `convert`
        // reads it.)
        let on_time = (matches!(said, Some("time_forfeit" | "abandoned" | "timeout_vs_insufficient"))
            || self.clocks[idx(loser)] == Some(0))
            && (self.pos.turn() == loser || (self.ply > 0 && self.last_clock.is_none_or(|c| c == 0)));
        let decision = matches!(said, Some("adjudication" | "rules_infraction"));
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

    /// 1997 C.4 (blitz): "In order to win, a player must have mating
    /// potential", of any win but checkmate; the arbiter's rule
    /// (`chesslaws.game.state`), read from the record's TimeControl (no
    /// tag: not blitz, as `convert` reads it).
    fn lacks_mating_potential(&self, winner: Color) -> Option<&'static str> {
        if !self.rules.mating_potential_in_blitz || !blitz_1997(&self.time_control) {
            return None;
        }
        mating_potential(self.pos.board(), winner).err()
    }

    /// 1989 10.5: the record's win (`how`, not on time) by a player having
    /// a bare king is a draw.
    fn judge_bare_king(&mut self, winner: Color, how: &str) {
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
    fn judge_mating_potential(&mut self, winner: Color, kind: &'static str, how: &str) {
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

    fn apply_tag(&mut self, name: &str, value: String) {
        match name {
            "FEN" => self.fen = Some(value.clone()),
            "Variant" => {
                if is_chess960(&value) {
                    self.chess960 = true;
                } else if !is_standard_variant(&value) {
                    self.finding("pgn_error", 0, String::new(), "", format!("variant {value:?} is not standard chess"));
                    self.stopped = true;
                }
            }
            "Result" => self.tag_result = parse_result(&value),
            "Termination" => self.termination = value,
            "TimeControl" if self.rules.mating_potential_in_blitz => self.time_control = value,
            _ => {}
        }
    }

    /// Plays the tokens `pgn_reader` skipped that come before the next
    /// whole SAN token (all that remain, at the end of the game).
    fn take_extras(&mut self) {
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

    fn play(&mut self, m: Move, san_plus: SanPlus) {
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
        if self.depth > 0 {
            let ply = self.ply;
            self.finding("pgn_error", ply, "(".into(), "", "a variation is not closed with ')'".into());
        }
        self.report.plies = self.ply;
        std::mem::take(&mut self.report)
    }
}

/// What a run does besides checking: its edition's articles (for the JSON
/// and the `--fix` comments) and whether it writes fixed games.
#[derive(Debug, Clone)]
pub struct Config {
    pub rules: Rules,
    pub edition: String,
    pub articles: std::collections::HashMap<String, String>,
    pub fix: bool,
    pub keep_unreadable: bool,
    /// Every report carries its tags (else only those with findings do).
    pub all_tags: bool,
    /// Write each reported game's JSON in the worker threads.
    pub json: bool,
    pub problems_only: bool,
}

impl Config {
    fn article(&self, rule: &str) -> Option<&str> {
        if rule.is_empty() {
            None
        } else {
            self.articles.get(rule).map(String::as_str)
        }
    }
}

fn count_lines(text: &[u8]) -> u64 {
    memchr::memchr_iter(b'\n', text).count() as u64
}

fn finish_report(checker: &mut Checker, r: &mut GameReport) {
    let _ = checker;
    r.readable = !r.findings.iter().any(|f| {
        matches!(f.kind, "illegal_move" | "ambiguous_move" | "unreadable_move")
            || (f.kind == "pgn_error" && (f.text.starts_with("the FEN tag") || f.text.starts_with("variant ")))
    });
}

/// Checks the games in one game's text (normally one game; several when
/// tag sections follow each other with no movetext between them).
/// A window on the batch's buffer, read by `pgn_reader`.
pub struct Window<'a> {
    buf: &'a [u8],
    span: &'a Cell<(usize, usize)>,
}

impl Read for Window<'_> {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        let (a, b) = self.span.get();
        let n = (b - a).min(out.len());
        out[..n].copy_from_slice(&self.buf[a..a + n]);
        self.span.set((a + n, b));
        Ok(n)
    }
}

/// One `pgn_reader::Reader` for a whole batch (a new one per game costs a
/// zeroed 16 KiB buffer), pointed at each game's movetext in turn.
pub struct Feed<'a> {
    reader: Option<Reader<Window<'a>>>,
    buf: &'a [u8],
    span: &'a Cell<(usize, usize)>,
}

impl<'a> Feed<'a> {
    pub fn new(buf: &'a [u8], span: &'a Cell<(usize, usize)>) -> Self {
        Feed { reader: None, buf, span }
    }

    /// The reader, reading `part` (a part of the buffer) next.
    fn reader_for(&mut self, part: &[u8]) -> &mut Reader<Window<'a>> {
        let start = (part.as_ptr() as usize).wrapping_sub(self.buf.as_ptr() as usize);
        assert!(start <= self.buf.len() && start + part.len() <= self.buf.len(), "a part of the batch");
        self.span.set((start, start + part.len()));
        let (buf, span) = (self.buf, self.span);
        self.reader.get_or_insert_with(|| Reader::new(Window { buf, span }))
    }

    /// After a read error the reader may hold unread bytes: start afresh.
    fn discard(&mut self) {
        self.reader = None;
    }
}

/// A game's report once the checker is done with it: its line, its tags
/// (with findings or when all are asked for; only the first game of a
/// text has them), its readability and, with `--fix`, the game as the
/// Laws have it (`record`: the game's text, kept as it is when it cannot
/// be fixed and `--keep-unreadable` asks for it).
#[allow(clippy::too_many_arguments)]
fn game_report(
    checker: &mut Checker,
    mut r: GameReport,
    first: bool,
    line: u64,
    (head, rest): (&Head, &[u8]),
    movetext: &[u8],
    record: &[u8],
    truncated: bool,
    cfg: &Config,
) -> GameReport {
    r.line = line;
    if first && (cfg.all_tags || !r.findings.is_empty()) {
        r.tags = head.decode(rest);
    }
    finish_report(checker, &mut r);
    if cfg.fix {
        r.fixed_text = if !first {
            None
        } else if r.readable && !truncated {
            Some(fixed_game(movetext, &checker.scan, &r, cfg))
        } else if cfg.keep_unreadable {
            Some(record.to_vec())
        } else {
            None
        };
    }
    checker.scan = Scan::default();
    r
}

pub fn check_text(
    checker: &mut Checker,
    feed: &mut Feed<'_>,
    text: &[u8],
    line: u64,
    truncated: bool,
    cfg: &Config,
    out: &mut Vec<GameReport>,
) {
    let first = out.len();
    let mut at = 0usize;
    loop {
        let rest = &text[at..];
        let head = parse_head(rest, line + count_lines(&text[..at]));
        let game_line = line + count_lines(&text[..at + head.start]);
        let movetext = &rest[head.end..];
        checker.reset();
        for e in &head.errors {
            checker.finding("pgn_error", 0, String::new(), "", e.clone());
        }
        for &(n, v) in &head.tags {
            let name = &rest[n.0..n.1];
            if matches!(name, b"FEN" | b"Variant" | b"Result" | b"Termination")
                || (name == b"TimeControl" && checker.rules.mating_potential_in_blitz)
            {
                checker.apply_tag(std::str::from_utf8(name).unwrap_or_default(), decode_value(rest, v));
            }
        }
        let blank = movetext.iter().all(u8::is_ascii_whitespace);
        if head.header_only || blank {
            if head.tags.is_empty() && head.errors.is_empty() {
                break;
            }
            checker.finding(
                "no_movetext",
                0,
                String::new(),
                "",
                "the game has tags but no movetext, not even a result (a game without moves)".into(),
            );
            checker.report.result = checker.tag_result.map(str::to_string);
            if checker.rules.agreement_both_moved && checker.tag_result == Some(DRAW) {
                checker.finding(
                    "agreement",
                    0,
                    String::new(),
                    "agreement",
                    "the record gives 1/2-1/2 before any move, but a draw by agreement needs both players to have \
                     made at least one move: the agreement is void (no result)"
                        .into(),
                );
                checker.report.fix = Some(Fix { result: "*", rule: "agreement", cut_ply: None });
            }
            let mut r = std::mem::take(&mut checker.report);
            r.line = game_line;
            r.tags = head.decode(rest);
            finish_report(checker, &mut r);
            if cfg.fix {
                r.fixed_text = Some(fixed_game(b"", &Scan::default(), &r, cfg));
            }
            out.push(r);
            if head.header_only {
                at += head.end;
                continue;
            }
            break;
        }
        checker.scan = scan_movetext(movetext, cfg.fix);
        if let Some((a, b)) = checker.scan.final_comment {
            // Only short comments can say how the game ended ("White loses on time").
            let c = &movetext[a..b];
            // (Not the comment `--fix` writes, which cites the Laws.)
            let c_start = c.trim_ascii_start();
            checker.fix_comment = c_start.starts_with(b"chesslaws check,");
            if c.len() <= 120 && !c_start.starts_with(b"[%") && !c_start.starts_with(b"chesslaws check,") {
                checker.final_comment = String::from_utf8_lossy(c).into_owned();
            }
        }
        checker.preset = true;
        if checker.scan.plain {
            // The scan has read the movetext as pgn_reader would: its events
            // drive the checker.
            let _ = checker.begin_tags();
            let _ = checker.begin_movetext(());
            let events = std::mem::take(&mut checker.scan.events);
            for e in &events {
                let _ = match *e {
                    Event::San(san) => checker.san(&mut (), san),
                    Event::Comment(a, b) => checker.comment(&mut (), RawComment(&movetext[a..b])),
                    Event::Outcome(o) => checker.outcome(&mut (), o),
                };
            }
            let r = checker.end_game(());
            let record = &text[at + head.start..];
            out.push(game_report(checker, r, true, game_line, (&head, rest), movetext, record, truncated, cfg));
            break;
        }
        let reader = feed.reader_for(movetext);
        let mut k = 0;
        loop {
            match reader.read_game(checker) {
                Ok(Some(r)) => {
                    let record = &text[at + head.start..];
                    out.push(game_report(checker, r, k == 0, game_line, (&head, rest), movetext, record, truncated, cfg));
                    k += 1;
                }
                Ok(None) => break,
                Err(e) => {
                    feed.discard();
                    let mut r = checker.abort(&e.to_string());
                    r.line = game_line;
                    if k == 0 {
                        r.tags = head.decode(rest);
                    }
                    r.readable = false;
                    if cfg.fix && cfg.keep_unreadable && k == 0 {
                        r.fixed_text = Some(text[at + head.start..].to_vec());
                    }
                    out.push(r);
                    break;
                }
            }
        }
        break;
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
            r.readable = false;
            r.fixed_text = None;
        }
    }
}

fn push_escaped_tag(out: &mut Vec<u8>, value: &str) {
    for b in value.bytes() {
        if b == b'"' || b == b'\\' {
            out.push(b'\\');
        }
        if b == b'\n' || b == b'\r' {
            out.push(b' ');
        } else {
            out.push(b);
        }
    }
}

/// The game as `--fix` writes it: the tags (Result set to the result the
/// Laws give, quotes escaped), the movetext up to its end by the Laws, a
/// comment citing the article where the result changed, and the result.
fn fixed_game(movetext: &[u8], scan: &Scan, r: &GameReport, cfg: &Config) -> Vec<u8> {
    let recorded = r.result.as_deref().unwrap_or("*");
    let result: &str = r.fix.map_or(recorded, |f| f.result);
    let mut out = Vec::with_capacity(movetext.len() + 512);
    let mut has_result = false;
    for (name, value) in &r.tags {
        out.extend_from_slice(b"[");
        out.extend_from_slice(name.as_bytes());
        out.extend_from_slice(b" \"");
        if name == "Result" {
            has_result = true;
            out.extend_from_slice(result.as_bytes());
        } else {
            push_escaped_tag(&mut out, value);
        }
        out.extend_from_slice(b"\"]\n");
    }
    if !has_result {
        out.extend_from_slice(b"[Result \"");
        out.extend_from_slice(result.as_bytes());
        out.extend_from_slice(b"\"]\n");
    }
    out.push(b'\n');
    let cut = match r.fix.and_then(|f| f.cut_ply) {
        Some(0) => Some(0),
        Some(p) => scan.move_ends.get(p as usize - 1).copied(),
        None => None,
    };
    let body_end = cut.or(scan.result_at.map(|(a, _)| a)).unwrap_or(movetext.len());
    let body = movetext[..body_end.min(movetext.len())].trim_ascii();
    out.extend_from_slice(body);
    if let Some(f) = r.fix {
        let why = r
            .findings
            .iter()
            .find(|x| x.rule == f.rule && !x.rule.is_empty())
            .map(|x| x.text.replace('}', ")"))
            .unwrap_or_default();
        let article = cfg.article(f.rule).unwrap_or("?");
        if !body.is_empty() {
            out.push(b' ');
        }
        let cut_note = if f.cut_ply.is_some() { " The moves recorded after the end are left out." } else { "" };
        let change =
            if f.result != recorded { format!(" The result is {}, not {recorded}.", f.result) } else { String::new() };
        let text = format!("{{chesslaws check, Article {article} (Laws of {}): {why}.{change}{cut_note}}}", cfg.edition);
        out.extend_from_slice(text.as_bytes());
    }
    if !out.ends_with(b"\n\n") || !body.is_empty() || r.fix.is_some() {
        out.push(b' ');
    }
    if out.ends_with(b"\n\n ") {
        out.pop();
    }
    out.extend_from_slice(result.as_bytes());
    out.extend_from_slice(b"\n\n");
    out
}

pub fn check_batch(batch: &Batch, cfg: &Config) -> Vec<GameReport> {
    let mut out = Vec::with_capacity(batch.games.len());
    let mut checker = Checker::new(cfg.rules);
    let span = Cell::new((0, 0));
    let mut feed = Feed::new(&batch.buf, &span);
    for g in &batch.games {
        let from = out.len();
        check_text(&mut checker, &mut feed, &batch.buf[g.start..g.end], g.line, g.truncated, cfg, &mut out);
        if cfg.json {
            for r in &mut out[from..] {
                if !cfg.problems_only || !r.findings.is_empty() {
                    let mut j = String::with_capacity(256 + 64 * r.tags.len());
                    write_json_rest(&mut j, r, cfg);
                    r.json_rest = Some(j);
                }
            }
        }
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
    } else if let Some(what) = not_text(head) {
        // Said at once, rather than read as text into findings on its bytes.
        let source = if path == "-" { "standard input" } else { "the file" };
        let advice = if what.starts_with("UTF") { ": save it as UTF-8" } else { "" };
        return Err(io::Error::new(io::ErrorKind::InvalidData, format!("{source} is {what}, not PGN text{advice}")));
    } else {
        Box::new(br)
    };
    Ok((input, total))
}

/// What the first bytes of an input show it is when it is no text a PGN
/// reader reads (UTF-8 or Latin-1): UTF-16 or UTF-32 text, an archive, a
/// binary file. None when it may be text.
pub fn not_text(head: &[u8]) -> Option<&'static str> {
    let head = &head[..head.len().min(4096)];
    if head.starts_with(b"\xff\xfe\x00\x00") || head.starts_with(b"\x00\x00\xfe\xff") {
        return Some("UTF-32 text");
    }
    if head.starts_with(b"\xff\xfe") || head.starts_with(b"\xfe\xff") {
        return Some("UTF-16 text");
    }
    for (magic, what) in [
        (&b"PK\x03\x04"[..], "a ZIP archive"),
        (b"BZh", "bzip2-compressed"),
        (b"\xfd7zXZ\x00", "xz-compressed"),
        (b"7z\xbc\xaf", "a 7-Zip archive"),
        (b"%PDF", "a PDF document"),
        (b"SQLite format 3\x00", "an SQLite database"),
    ] {
        if head.starts_with(magic) {
            return Some(what);
        }
    }
    let zeros = |start: usize| {
        let n = head.iter().skip(start).step_by(2).count();
        n > 0 && head.iter().skip(start).step_by(2).filter(|&&b| b == 0).count() * 10 > n * 9
    };
    if zeros(1) {
        return Some("UTF-16LE text (without a byte-order mark)");
    }
    if zeros(0) {
        return Some("UTF-16BE text (without a byte-order mark)");
    }
    // Control characters that no text has (a stray one in a PGN file is
    // read as the text it is in): a binary file.
    let nul = head.iter().filter(|&&b| b == 0).count();
    let control = head.iter().filter(|&&b| b < 0x20 && !matches!(b, b'\t' | b'\n' | b'\r' | 0x0b | 0x0c | 0x1a | 0x1b)).count();
    ((nul >= 4 && nul * 100 > head.len()) || (control >= 4 && control * 10 > head.len())).then_some("a binary file")
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

/// Text other than tags after the last `]` of a tag line.
fn movetext_after_tag(line: &[u8]) -> bool {
    match memchr::memrchr(b']', line) {
        // Text stuck to the bracket ([Event "x"]junk) is a broken tag line
        // (parse_tag_line leaves it out), not movetext.
        Some(k) => {
            let rest = &line[k + 1..];
            !rest.first().is_some_and(|b| !b.is_ascii_whitespace())
                && rest.iter().any(|b| !b.is_ascii_whitespace() && *b != b'[')
        }
        None => false,
    }
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
                if movetext_after_tag(body) {
                    // `[Result "*"] e4 *`: the movetext starts on the tag's line.
                    self.has_movetext = true;
                    self.scan_braces(body);
                }
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
    Inline { splitter: Splitter, cfg: Arc<Config> },
    Threads { results: Receiver<Done>, tokens: SyncSender<()>, pending: BTreeMap<u64, Result<Vec<GameReport>, String>>, next: u64 },
}

impl Pipeline {
    fn start(input: Input, cfg: Arc<Config>, jobs: usize) -> Pipeline {
        let splitter = Splitter::new(input);
        if jobs <= 1 {
            return Pipeline::Inline { splitter, cfg };
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
            let cfg = Arc::clone(&cfg);
            std::thread::spawn(move || loop {
                let batch = {
                    let rx = work_rx.lock().unwrap_or_else(|e| e.into_inner());
                    rx.recv()
                };
                let Ok(batch) = batch else { break };
                let seq = batch.seq;
                let reports = check_batch(&batch, &cfg);
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
            Pipeline::Inline { splitter, cfg } => match splitter.next_batch() {
                Ok(Some(b)) => Ok(Some(check_batch(&b, cfg))),
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
/// (games, plies, reports, JSON lines, fixed PGN, findings per kind, games
/// with findings, what --fix did per key).
type BatchTuple = (
    u64,
    u64,
    Vec<GameTuple>,
    Option<String>,
    Option<Py<PyBytes>>,
    Vec<(&'static str, u64)>,
    u64,
    Vec<(String, u64)>,
);

fn push_json_str(out: &mut String, s: &str) {
    use std::fmt::Write as _;
    out.push('"');
    for ch in s.chars() {
        match ch {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

/// One game as a JSON line, as `chesslaws.check.GameReport.to_json` writes
/// it (`json.dumps(..., ensure_ascii=False)`): the start, up to the number.
pub fn write_json_start(out: &mut String, number: u64, file: Option<&str>) {
    use std::fmt::Write as _;
    out.push('{');
    if let Some(f) = file {
        out.push_str("\"file\": ");
        push_json_str(out, f);
        out.push_str(", ");
    }
    let _ = write!(out, "\"game\": {number}");
}

/// The tags as a Python dict has them: each name once, at its first place,
/// with its last value. Linear in the number of tags (a game with 80,000
/// tags of distinct names took a minute when each name was looked for among
/// those before it).
fn dict_order(tags: &[(String, String)]) -> Vec<(&str, &str)> {
    let mut last: std::collections::HashMap<&str, usize> = std::collections::HashMap::with_capacity(tags.len());
    for (i, (name, _)) in tags.iter().enumerate() {
        last.insert(name.as_str(), i);
    }
    let mut out = Vec::with_capacity(last.len());
    for (name, _) in tags {
        // The first place of a name takes its last value; later places find it taken.
        if let Some(i) = last.remove(name.as_str()) {
            out.push((name.as_str(), tags[i].1.as_str()));
        }
    }
    out
}

/// The rest of the JSON line, after the game's number.
pub fn write_json_rest(out: &mut String, r: &GameReport, cfg: &Config) {
    use std::fmt::Write as _;
    let _ = write!(out, ", \"line\": {}, \"tags\": {{", r.line);
    // A dict: the first place of a name, its last value.
    let mut first = true;
    for (name, value) in dict_order(&r.tags) {
        if !first {
            out.push_str(", ");
        }
        first = false;
        push_json_str(out, name);
        out.push_str(": ");
        push_json_str(out, value);
    }
    out.push_str("}, \"result\": ");
    match &r.result {
        Some(x) => push_json_str(out, x),
        None => out.push_str("null"),
    }
    let _ = write!(out, ", \"plies\": {}, \"findings\": [", r.plies);
    for (i, f) in r.findings.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        out.push_str("{\"kind\": ");
        push_json_str(out, f.kind);
        let _ = write!(out, ", \"ply\": {}, \"move\": ", f.ply);
        push_json_str(out, &f.mv);
        out.push_str(", \"article\": ");
        match cfg.article(f.rule) {
            Some(a) => push_json_str(out, a),
            None => out.push_str("null"),
        }
        out.push_str(", \"edition\": ");
        push_json_str(out, &cfg.edition);
        out.push_str(", \"text\": ");
        push_json_str(out, &f.text);
        out.push('}');
    }
    out.push_str("]}\n");
}

struct RunState {
    pipeline: Pipeline,
    games: u64,
    failed: bool,
}

/// A check of one PGN file (or standard input, "-"). Iterating gives one
/// tuple per batch of games: (games, plies, reports, json, fixed, kinds,
/// games_with_findings, fix_counts), where a report is (number, line, tags,
/// result, plies, findings) and a finding is (kind, ply, move, rule, text).
/// With `problems_only`, only games with findings are reported (all are
/// counted). With `json`, the reports come as JSON lines (`json`) and the
/// list is empty. With `fix`, `fixed` is the batch's games as `--fix`
/// writes them (UTF-8 PGN).
#[pyclass(frozen, module = "chesslaws._core", name = "CheckRun")]
pub struct CheckRun {
    state: Mutex<RunState>,
    count: Arc<AtomicU64>,
    total: Option<u64>,
    problems_only: bool,
    json: bool,
    file: Option<String>,
    cfg: Arc<Config>,
}

#[pymethods]
impl CheckRun {
    #[new]
    #[pyo3(signature = (path, edition = "2023", jobs = 1, problems_only = false, articles = None, json = false, file = None, fix = false, keep_unreadable = false))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
        path: String,
        edition: &str,
        jobs: usize,
        problems_only: bool,
        articles: Option<std::collections::HashMap<String, String>>,
        json: bool,
        file: Option<String>,
        fix: bool,
        keep_unreadable: bool,
    ) -> PyResult<Self> {
        let rules = Rules::for_edition(edition)
            .ok_or_else(|| PyValueError::new_err(format!("unknown edition {edition:?}: choose 1989, 1997 or 2023")))?;
        if jobs == 0 {
            return Err(PyValueError::new_err("jobs must be at least 1"));
        }
        let cfg = Arc::new(Config {
            rules,
            edition: edition.to_string(),
            articles: articles.unwrap_or_default(),
            fix,
            keep_unreadable,
            all_tags: fix || !problems_only,
            json,
            problems_only,
        });
        let count = Arc::new(AtomicU64::new(0));
        let c2 = Arc::clone(&count);
        let (input, total) = py
            .detach(move || open_input(&path, c2).map_err(|e| format!("cannot read {path}: {e}")))
            .map_err(PyOSError::new_err)?;
        let pipeline = Pipeline::start(input, Arc::clone(&cfg), jobs);
        Ok(CheckRun {
            state: Mutex::new(RunState { pipeline, games: 0, failed: false }),
            count,
            total,
            problems_only,
            json,
            file,
            cfg,
        })
    }

    fn __iter__(slf: Py<Self>) -> Py<Self> {
        slf
    }

    fn __next__(&self, py: Python<'_>) -> PyResult<Option<BatchTuple>> {
        let problems_only = self.problems_only;
        let as_json = self.json;
        let cfg = &*self.cfg;
        let file = self.file.as_deref();
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
            let mut json = as_json.then(String::new);
            let mut fixed = cfg.fix.then(Vec::new);
            let mut kinds: Vec<(&'static str, u64)> = Vec::new();
            let mut with_findings = 0u64;
            let mut fixes: BTreeMap<String, u64> = BTreeMap::new();
            for mut r in reports {
                st.games += 1;
                r.number = st.games;
                plies += u64::from(r.plies);
                if !r.findings.is_empty() {
                    with_findings += 1;
                }
                for f in &r.findings {
                    match kinds.iter_mut().find(|(k, _)| *k == f.kind) {
                        Some((_, c)) => *c += 1,
                        None => kinds.push((f.kind, 1)),
                    }
                }
                if let Some(buf) = fixed.as_mut() {
                    let key = match (&r.fixed_text, r.readable) {
                        (Some(t), readable) => {
                            buf.extend_from_slice(t);
                            if !readable {
                                "kept_unreadable".to_string()
                            } else if let Some(f) = r.fix {
                                if f.cut_ply.is_some() {
                                    *fixes.entry("cut".into()).or_default() += 1;
                                }
                                if r.result.as_deref() == Some(f.result) {
                                    "cut_only".into()
                                } else {
                                    format!("result:{}", f.rule)
                                }
                            } else if r.findings.iter().any(|f| f.kind == "result_tag") {
                                "result_tag".into()
                            } else if r.findings.iter().any(|f| f.kind == "pgn_error") {
                                "syntax".into()
                            } else if r.findings.iter().any(|f| f.kind == "no_movetext") {
                                "no_movetext".into()
                            } else {
                                "unchanged".into()
                            }
                        }
                        (None, _) => "left_out".into(),
                    };
                    *fixes.entry(key).or_default() += 1;
                }
                if problems_only && r.findings.is_empty() {
                    continue;
                }
                if let Some(j) = json.as_mut() {
                    write_json_start(j, r.number, file);
                    match &r.json_rest {
                        Some(rest) => j.push_str(rest),
                        None => write_json_rest(j, &r, cfg),
                    }
                    continue;
                }
                let findings = r.findings.into_iter().map(|f| (f.kind, f.ply, f.mv, f.rule, f.text)).collect();
                games.push((r.number, r.line, r.tags, r.result, r.plies, findings));
            }
            Ok(Some((n, plies, games, json, fixed, kinds, with_findings, fixes.into_iter().collect::<Vec<_>>())))
        });
        let out = out.map_err(PyOSError::new_err)?;
        Ok(out.map(|(n, plies, games, json, fixed, kinds, wf, fixes)| {
            let fixed = fixed.map(|v| PyBytes::new(py, &v).unbind());
            (n, plies, games, json, fixed, kinds, wf, fixes)
        }))
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

/// What the first bytes of a file show it is when it is no text a PGN reader
/// reads (see [`not_text`]): the one rule, for the CLI's own reading too.
#[pyfunction]
#[pyo3(name = "not_text")]
fn not_text_py(head: &[u8]) -> Option<&'static str> {
    not_text(head)
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<CheckRun>()?;
    m.add_function(wrap_pyfunction!(not_text_py, m)?)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    #[test]
    fn tags_in_dict_order() {
        let t = |n: &str, v: &str| (n.to_string(), v.to_string());
        let tags = vec![t("Event", "a"), t("Site", "b"), t("Event", "c"), t("Round", "d"), t("Site", "e")];
        assert_eq!(super::dict_order(&tags), vec![("Event", "c"), ("Site", "e"), ("Round", "d")]);
    }

    use super::*;

    /// `resolve_quickly` never names another move than shakmaty's
    /// `San::to_move`: every legal move of the positions of random games
    /// (and of positions with pins, checks and en passant), written with
    /// every disambiguation and both capture signs.
    #[test]
    fn quick_resolution_agrees_with_shakmaty() {
        let mut seed: u64 = 0x9E37_79B9_7F4A_7C15;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        let mut starts: Vec<Chess> = vec![Chess::default()];
        for fen in [
            "4k3/8/8/1b6/8/3N4/4K3/8 w - - 0 1",        // a pinned knight
            "4k3/4r3/8/8/8/4R3/4K3/8 w - - 0 1",        // a rook pinned on the file
            "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2",         // en passant
            "4k3/8/8/8/1q6/8/3P4/4K3 w - - 0 1",         // a pinned pawn
            "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",      // castling
            "4k3/P7/8/8/8/8/p7/4K3 w - - 0 1",           // promotions
            "4k3/8/8/8/8/8/4q3/4K3 w - - 0 1",           // check
            "7k/8/8/8/1N3N2/8/1N3N2/7K w - - 0 1",       // four knights on one square
        ] {
            starts.push(Fen::from_ascii(fen.as_bytes()).unwrap().into_position(CastlingMode::Standard).unwrap());
        }
        let mut quick = 0;
        for game in 0..300 {
            let mut pos = starts[game % starts.len()].clone();
            for _ in 0..160 {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                for &m in &moves {
                    let minimal = San::from_move(&pos, m);
                    let mut variants = vec![minimal];
                    if let San::Normal { role, capture, to, promotion, .. } = minimal {
                        let from = m.from().unwrap();
                        for (file, rank) in [
                            (None, None),
                            (Some(from.file()), None),
                            (None, Some(from.rank())),
                            (Some(from.file()), Some(from.rank())),
                        ] {
                            for c in [capture, !capture] {
                                variants.push(San::Normal { role, file, rank, capture: c, to, promotion });
                            }
                        }
                    }
                    for san in variants {
                        if let Some(q) = resolve_quickly(&pos, &san) {
                            quick += 1;
                            assert_eq!(Ok(q), san.to_move(&pos), "{san} in {}", Fen::from_position(&pos, EnPassantMode::Legal));
                        }
                    }
                }
                let m = moves[(next() % moves.len() as u64) as usize];
                pos.play_unchecked(m);
            }
        }
        assert!(quick > 100_000, "the quick path was taken {quick} times");
    }

    #[test]
    fn clocks() {
        for t in ["0:01:02.5", " 1:00:00 ", "0:00:00", "59", "3:07", "x", "1:2:3:4", "", "0:00:01.25"] {
            assert_eq!(clock_ms(t.as_bytes()), crate::pgn::parse_clock(t), "{t}");
        }
        assert_eq!(last_clock(b"a [%clk 0:00:09] b [%clk 0:00:00]"), Some(0));
    }

    #[test]
    fn scanning() {
        // The dashes pgn_reader reads in results and castling with zeros: en and em dash.
        for (text, result) in [("1. e4 e5 1\u{2013}0\n", "1\u{2013}0"), ("1. e4 e5 0\u{2014}1\n", "0\u{2014}1"),
                               ("1. e4 e5 1/2\u{2013}1/2\n", "1/2\u{2013}1/2"), ("1. e4 e5 ½\u{2013}½\n", "½\u{2013}½")] {
            let sc = scan_movetext(text.as_bytes(), false);
            assert!(sc.extras.is_empty(), "{text}: {:?}", sc.extras);
            let (a, b) = sc.result_at.unwrap();
            assert_eq!(&text.as_bytes()[a..b], result.as_bytes());
        }
        let sc = scan_movetext("1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 4. 0\u{2013}0 *\n".as_bytes(), false);
        assert!(sc.extras.is_empty(), "{:?}", sc.extras);
        let sc = scan_movetext(b"1. e4 e5 2. Zz9 *\n", true);
        assert_eq!(sc.extras, vec![(2, "Zz9".to_string())]);
        assert_eq!(sc.result_at, Some((16, 17)));
        assert_eq!(sc.move_ends, vec![5, 8, 15]);
        let sc = scan_movetext(b"1. e4 (1. Zz9) e5 { Zz9 } 1-0\n", false);
        assert!(sc.extras.is_empty());
        assert_eq!(sc.final_comment, Some((19, 24)));
        let sc = scan_movetext(b"1. e4 e5 2. O-O-O 0-0 1/2-1/2\n", false);
        assert!(sc.extras.is_empty());
        assert_eq!(sc.result_at, Some((22, 29)));
        let sc = scan_movetext(b"1. e4 += e5 +- 2. Nf3 \xc2\xb1 N Nc6 1-0", false);
        assert!(sc.extras.is_empty(), "{:?}", sc.extras);
        let sc = scan_movetext(b"1. e2-e4 e7-e5 2. a8Q g1f3 3. exd6e.p. 1-0", false);
        assert_eq!(sc.extras.iter().map(|e| e.1.as_str()).collect::<Vec<_>>(), ["e2-e4", "e7-e5", "a8Q", "exd6"]);
    }

    #[test]
    fn plain_san_agrees_with_shakmaty() {
        let mut tokens = Vec::new();
        let alphabet: &[u8] = b"abh18KQNx=+#O-";
        for len in 1..=5 {
            let mut idx = vec![0usize; len];
            loop {
                tokens.push(idx.iter().map(|&i| alphabet[i]).collect::<Vec<u8>>());
                let mut k = 0;
                while k < len {
                    idx[k] += 1;
                    if idx[k] < alphabet.len() {
                        break;
                    }
                    idx[k] = 0;
                    k += 1;
                }
                if k == len {
                    break;
                }
            }
        }
        tokens.extend([b"Nbd7".to_vec(), b"R1e2".to_vec(), b"exd8=Q+".to_vec(), b"Qh4#".to_vec()]);
        let mut read = 0;
        for t in tokens {
            if let Some(san) = plain_san(&t) {
                read += 1;
                let shakmaty = SanPlus::from_ascii_prefix(&t);
                assert!(matches!(shakmaty, Ok((s, used)) if used == t.len() && s == san), "{}", String::from_utf8_lossy(&t));
            }
        }
        assert!(read > 500, "{read}");
        assert!(plain_san(b"Nbd7").is_some() && plain_san(b"exd8=Q+").is_some() && plain_san(b"e4").is_some());
    }

    #[test]
    fn alternative_notations() {
        let pos = Chess::default();
        for (t, uci) in [("e2-e4", "e2e4"), ("Ng1-f3", "g1f3"), ("Ng1xf3", "g1f3"), ("g1f3", "g1f3"), ("e2e4+", "e2e4")] {
            let m = parse_alt(t.as_bytes()).unwrap().to_move(&pos).unwrap();
            assert_eq!(m.to_uci(CastlingMode::Standard).to_string(), uci, "{t}");
        }
        assert!(parse_alt(b"Bg1-f3").unwrap().to_move(&pos).is_err());
        assert!(parse_alt(b"Zz9").is_none());
        for (t, uci) in [("\u{2658}f3", "g1f3"), ("\u{2658}g1-f3", "g1f3"), ("e4", "e2e4")] {
            let m = parse_alt(t.as_bytes()).map(|a| a.to_move(&pos));
            if t == "e4" {
                assert!(m.is_none());
                continue;
            }
            assert_eq!(m.unwrap().unwrap().to_uci(CastlingMode::Standard).to_string(), uci, "{t}");
        }
        for t in ["+=", "+-", "\u{b1}", "\u{221e}", "N", "TN", "=", "-/+"] {
            assert!(is_annotation(t.as_bytes()), "{t}");
        }
        for t in ["--", "\u{2658}f3", "Nf3", "e4"] {
            assert!(!is_annotation(t.as_bytes()), "{t}");
        }
        let pos: Chess = Fen::from_ascii(b"1n5k/P7/8/8/8/8/8/4K3 w - - 0 1").unwrap().into_position(CastlingMode::Standard).unwrap();
        for (t, uci) in [("a8Q", "a7a8q"), ("axb8N", "a7b8n"), ("a7-a8Q", "a7a8q"), ("a7a8q", "a7a8q"), ("a7xb8=R", "a7b8r")] {
            let m = parse_alt(t.as_bytes()).unwrap().to_move(&pos).unwrap();
            assert_eq!(m.to_uci(CastlingMode::Standard).to_string(), uci, "{t}");
        }
        // The whole-SAN path for UCI coordinates of a piece move.
        let g1f3 = San::from_ascii(b"g1f3").unwrap();
        assert_eq!(resolve(&Chess::default(), &g1f3).unwrap().to_uci(CastlingMode::Standard).to_string(), "g1f3");
    }

    #[test]
    fn tags_read_carefully() {
        let text: &[u8] = b"[Event \"Tournament \"Championship\" Finals\"]\n[Site \"a \\\"b\\\"\"] [Round \"5\"]\n\n1. e4 *\n";
        let h = parse_head(text, 10);
        let tags = h.decode(text);
        assert_eq!(tags[0], ("Event".to_string(), "Tournament \"Championship\" Finals".to_string()));
        assert_eq!(tags[1], ("Site".to_string(), "a \"b\"".to_string()));
        assert_eq!(tags[2].0, "Round");
        assert_eq!(h.errors.len(), 1);
        assert!(h.errors[0].starts_with("line 10:"), "{}", h.errors[0]);
        assert!(!h.header_only);
        let h = parse_head(b"[Event \"A\"]\n\n[Event \"B\"]\n\n1. e4 *\n", 1);
        assert!(h.header_only);
        assert_eq!(h.end, 13);
    }

    #[test]
    fn blitz_under_1997() {
        // As `chesslaws.timecontrol.classify(tc, "1997") == "blitz"` (tests/test_judgement.py compares
        // the two on more tags): all the moves in under 15 minutes, increments of 60 moves counted.
        for (tag, blitz) in [("180", true), ("180+2", true), ("840", true), ("899+0", true), ("900", false),
                             ("600+5", false), ("60+14", false), ("180+0.5", true), ("40/300", false),
                             ("40/5400:1800+30", false), ("-", false), ("?", false), ("", false),
                             ("3 min", false), ("G/5", false), ("1/259200", false), ("5/60:300", true)] {
            assert_eq!(blitz_1997(tag), blitz, "{tag}");
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
        assert_eq!(mating_potential(&board("4k3/8/8/8/8/8/8/2BBK3 w - - 0 1"), w), Ok(()));  // both colours
        assert_eq!(mating_potential(&board("4k3/8/8/8/8/8/8/B1B1K3 w - - 0 1"), w),
                   Err("has only one minor piece against a lone king"));  // same colour: as two minors, no pair
        assert_eq!(mating_potential(&board("4k3/8/8/8/8/8/8/2BNK3 w - - 0 1"), w), Ok(()));
        assert_eq!(mating_potential(&board("4k3/7p/8/8/8/8/8/2N1K3 w - - 0 1"), w), Ok(()));  // Black can block
        assert_eq!(mating_potential(&board("4k3/8/8/8/8/8/3P4/4K3 w - - 0 1"), w), Ok(()));
    }

    #[test]
    fn terminations() {
        assert_eq!(termination_kind("Magnus won on time"), Some("time_forfeit"));
        assert_eq!(termination_kind("Time forfeit"), Some("time_forfeit"));
        assert_eq!(termination_kind("Abandoned"), Some("abandoned"));
        assert_eq!(termination_kind("stalled connection"), Some("abandoned"));
        assert_eq!(termination_kind("Game drawn by timeout vs insufficient material"), Some("timeout_vs_insufficient"));
        assert_eq!(termination_kind("Black  RESIGNS"), Some("resignation"));
        assert_eq!(termination_kind(""), None);
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
