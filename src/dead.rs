//! Dead positions and "can this side still checkmate?" (Laws 1997 Articles
//! 6.9 and 9.6; 2023 Articles 5.2.2, 6.9 and 7.5.5).
//!
//! The question answered is the one of Article 6.9: can `color` checkmate
//! the opponent by *any* series of legal moves, both sides cooperating (a
//! helpmate), starting with whoever is to move in the position? A line in
//! which the other side gives checkmate first ends there (checkmate ends the
//! game, Article 5.1), so it does not count for `color`; the same for a
//! stalemate. This is exactly the notion of the `chasolver` crate (its
//! search treats "White mated" and stalemate as dead ends when White is the
//! intended winner), which does the real work here. Two things it ignores,
//! and so do we: the halfmove clock (the 75-move rule of 2023 Article
//! 9.6.2) and repetitions (fivefold, 2023 Article 9.6.1); a helpmate line
//! never needs either.
//!
//! The pipeline for one (position, color):
//! 1. the game is already over (checkmate or stalemate on the board);
//! 2. `color` has insufficient material in the strict sense (lone king; a
//!    king and one knight against king and queens only; kings and bishops
//!    all on one colour of square with no pawns or knights on the board);
//! 3. `chasolver::is_unwinnable_fast`: sound, proves unwinnability only;
//! 4. the full helpmate search: `chasolver::winnability` when the budget is
//!    `None` or at least [`CHASOLVER_NODE_BOUND`] (chasolver bounds its own
//!    work with node limits it does not let callers change), otherwise our
//!    own iterative-deepening helpmate search limited to `budget` nodes.
//!
//! Every helpmate line is replayed with shakmaty before it is reported: a
//! line that does not end in the opponent being checkmated is never
//! returned as a proof.
//!
//! `chasolver` works on the `chess` crate's `Board`; positions cross over by
//! FEN (en passant square only when the capture is legal).

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::str::FromStr;
use std::sync::atomic::{AtomicUsize, Ordering};

use chasolver::{is_unwinnable_fast, winnability, Winnability};
use chess::{BitBoard, Board, ChessMove, MoveGen, Piece, EMPTY};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyString;
use shakmaty::fen::Fen;
use shakmaty::san::{San, SanPlus, Suffix};
use shakmaty::uci::UciMove;
use shakmaty::{Bitboard, CastlingMode, Chess, Color, EnPassantMode, Move, Position as _, Role};

use crate::position::Position;

/// A budget at least this large lets `chasolver::winnability` run: its own
/// node limits add up to about this many search nodes (1,000 in its
/// shallow phase, 1,000,000 in its iterative deepening, 2^24 in its guided
/// deep search, a few thousand in its probes; its static analyses and
/// check-chain search are not counted in nodes).
pub const CHASOLVER_NODE_BOUND: u64 = 1_000 + 1_000_000 + (1 << 24) + 4_000;

/// Deepest line our own bounded search tries, in plies.
const BOUNDED_MAX_PLY: u8 = 96;

/// Batches shorter than this are analysed on the calling thread.
const MIN_BATCH_FOR_THREADS: usize = 4;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Verdict {
    Winnable,
    Unwinnable,
    Undetermined,
}

impl Verdict {
    fn name(self) -> &'static str {
        match self {
            Verdict::Winnable => "winnable",
            Verdict::Unwinnable => "unwinnable",
            Verdict::Undetermined => "undetermined",
        }
    }
}

#[derive(Clone, Debug)]
pub(crate) struct Analysis {
    color: Color,
    pub(crate) verdict: Verdict,
    line: Vec<String>,
    pub(crate) reason: String,
}

type AnalysisTuple = (&'static str, &'static str, Vec<String>, String);

impl Analysis {
    fn into_tuple(self) -> AnalysisTuple {
        (crate::position::color_name(self.color), self.verdict.name(), self.line, self.reason)
    }
}

fn side(c: Color) -> &'static str {
    match c {
        Color::White => "White",
        Color::Black => "Black",
    }
}

fn chess_color(c: Color) -> chess::Color {
    match c {
        Color::White => chess::Color::White,
        Color::Black => chess::Color::Black,
    }
}

// ---------------------------------------------------------------------------
// Reasons.
// ---------------------------------------------------------------------------

fn plural(n: u32, one: &str, many: &str) -> String {
    if n == 1 {
        format!("a {one}")
    } else {
        format!("{n} {many}")
    }
}

/// "king, light-squared bishop and 3 pawns".
fn material_of(pos: &Chess, c: Color) -> String {
    let b = pos.board();
    let ours = b.by_color(c);
    let mut parts: Vec<String> = vec!["king".into()];
    let q = (ours & b.queens()).count() as u32;
    let r = (ours & b.rooks()).count() as u32;
    let n = (ours & b.knights()).count() as u32;
    let bl = (ours & b.bishops() & Bitboard::LIGHT_SQUARES).count() as u32;
    let bd = (ours & b.bishops() & Bitboard::DARK_SQUARES).count() as u32;
    let p = (ours & b.pawns()).count() as u32;
    if q > 0 {
        parts.push(plural(q, "queen", "queens"));
    }
    if r > 0 {
        parts.push(plural(r, "rook", "rooks"));
    }
    if bl > 0 {
        parts.push(plural(bl, "light-squared bishop", "light-squared bishops"));
    }
    if bd > 0 {
        parts.push(plural(bd, "dark-squared bishop", "dark-squared bishops"));
    }
    if n > 0 {
        parts.push(plural(n, "knight", "knights"));
    }
    if p > 0 {
        parts.push(plural(p, "pawn", "pawns"));
    }
    if parts.len() == 1 {
        return "a lone king".into();
    }
    let last = parts.pop().unwrap_or_default();
    format!("{} and {}", parts.join(", "), last)
}

fn join_and(items: &[String]) -> String {
    match items.len() {
        0 => String::new(),
        1 => items[0].clone(),
        _ => format!("{} and {}", items[..items.len() - 1].join(", "), items[items.len() - 1]),
    }
}

/// Files on which a white pawn stands directly in front of a black pawn.
fn locked_files(pos: &Chess) -> Vec<String> {
    let b = pos.board();
    let white = b.by_color(Color::White) & b.pawns();
    let black = b.by_color(Color::Black) & b.pawns();
    let mut files: Vec<char> = white
        .into_iter()
        .filter(|sq| sq.offset(8).is_some_and(|up| black.contains(up)))
        .map(|sq| sq.file().char())
        .collect();
    files.sort_unstable();
    files.dedup();
    files.into_iter().map(|f| f.to_string()).collect()
}

/// The reason for a proven "cannot mate" that is not a plain material case.
fn unwinnable_reason(pos: &Chess, color: Color, how: &str) -> String {
    let b = pos.board();
    let mut facts: Vec<String> = Vec::new();
    let files = locked_files(pos);
    if !files.is_empty() {
        let n = files.len();
        facts.push(if n == 1 {
            format!("the pawns on the {}-file are locked head to head", files[0])
        } else {
            format!("the pawns are locked head to head on the {} files", join_and(&files))
        });
    }
    let wb = b.by_color(Color::White) & b.bishops();
    let bb = b.by_color(Color::Black) & b.bishops();
    let one_colour = |x: Bitboard| {
        x.any() && ((x & Bitboard::LIGHT_SQUARES).is_empty() || (x & Bitboard::DARK_SQUARES).is_empty())
    };
    if one_colour(wb) && one_colour(bb) && (wb & Bitboard::LIGHT_SQUARES).any() != (bb & Bitboard::LIGHT_SQUARES).any() {
        facts.push("the bishops run on squares of opposite colours".into());
    }
    let material = format!(
        "{} has {}, {} has {}",
        side(color),
        material_of(pos, color),
        side(!color),
        material_of(pos, !color)
    );
    if facts.is_empty() {
        format!(
            "No series of legal moves lets {} checkmate ({}; {}).",
            side(color),
            material,
            how
        )
    } else {
        format!(
            "No series of legal moves lets {} checkmate: {} ({}; {}).",
            side(color),
            join_and(&facts),
            material,
            how
        )
    }
}

/// The reason when shakmaty's strict insufficient-material test holds.
fn material_reason(pos: &Chess, color: Color) -> String {
    let b = pos.board();
    let ours = b.by_color(color);
    let w = side(color);
    let l = side(!color);
    if ours.count() == 1 {
        return format!("{w} has a lone king.");
    }
    if (ours & b.knights()).any() {
        let theirs = material_of(pos, !color);
        return format!(
            "{w} has only a king and a knight, and {l} has {theirs}: a lone knight cannot checkmate \
             unless a pawn, knight, bishop or rook of {l} blocks its own king."
        );
    }
    let light = (b.bishops() & Bitboard::DARK_SQUARES).is_empty();
    let (on, off) = if light { ("light", "dark") } else { ("dark", "light") };
    format!(
        "{w} has only a king and bishops, every bishop on the board stands on {on} squares and there \
         are no pawns or knights: the {off} squares around {l}'s king can be neither attacked nor blocked."
    )
}

/// "23... Kg7 24. Qh7#" from the position's move number.
fn numbered_line(pos: &Chess, sans: &[String]) -> String {
    let mut out = Vec::with_capacity(sans.len() + sans.len() / 2 + 1);
    let mut number = pos.fullmoves().get();
    let mut turn = pos.turn();
    for (i, san) in sans.iter().enumerate() {
        match turn {
            Color::White => out.push(format!("{number}. {san}")),
            Color::Black => {
                if i == 0 {
                    out.push(format!("{number}... {san}"));
                } else {
                    out.push(san.clone());
                }
                number += 1;
            }
        }
        turn = !turn;
    }
    out.join(" ")
}

// ---------------------------------------------------------------------------
// Crossing over to the `chess` crate.
// ---------------------------------------------------------------------------

/// The position for the `chess` crate, and whether castling rights were left
/// out: that crate knows only standard castling, so a Chess960 position
/// (2023 Guidelines II) goes over without its castling rights. Its moves are
/// then a subset of the real ones: a helpmate it finds is a real one, but
/// "no helpmate" proves nothing.
fn to_board(pos: &Chess) -> Result<(Board, bool), String> {
    let mut fen = Fen::from_position(pos, EnPassantMode::Legal).to_string();
    let dropped = pos.castles().mode() == CastlingMode::Chess960 && pos.castles().any();
    if dropped {
        let mut fields: Vec<&str> = fen.split(' ').collect();
        fields[2] = "-";
        fen = fields.join(" ");
    }
    Board::from_str(&fen).map(|b| (b, dropped)).map_err(|e| format!("{fen}: {e}"))
}

fn uci_text(m: ChessMove) -> String {
    let promo = match m.get_promotion() {
        None => "",
        Some(Piece::Queen) => "q",
        Some(Piece::Rook) => "r",
        Some(Piece::Bishop) => "b",
        Some(Piece::Knight) => "n",
        Some(_) => "?",
    };
    format!("{}{}{}", m.get_source(), m.get_dest(), promo)
}

/// Replays `line` with shakmaty. Returns the SAN moves when the line is
/// legal and ends with `color` having checkmated the opponent.
fn verified_line(pos: &Chess, color: Color, line: &[ChessMove]) -> Result<Vec<String>, String> {
    let mut p = pos.clone();
    let mut sans = Vec::with_capacity(line.len());
    for (i, m) in line.iter().enumerate() {
        let text = uci_text(*m);
        let uci = UciMove::from_ascii(text.as_bytes()).map_err(|_| format!("move {} ({text}) unreadable", i + 1))?;
        let mv = uci.to_move(&p).map_err(|_| format!("move {} ({text}) illegal", i + 1))?;
        // SanPlus::from_move_and_play_unchecked would compute the full game
        // outcome after every move; only a check needs the mate test.
        let san = San::from_move(&p, mv);
        p.play_unchecked(mv);
        let suffix = if p.is_check() {
            Some(if p.legal_moves().is_empty() { Suffix::Checkmate } else { Suffix::Check })
        } else {
            None
        };
        sans.push(SanPlus { san, suffix }.to_string());
    }
    if p.is_checkmate() && p.turn() == !color {
        Ok(sans)
    } else {
        Err("the line does not end in checkmate".into())
    }
}

/// The same check as [`verified_line`] on the `chess` crate's boards, without
/// writing SAN: every move legal, and the last one mates `color`'s opponent.
fn line_mates(board: &Board, color: Color, line: &[ChessMove]) -> bool {
    let mut b = *board;
    for m in line {
        if !b.legal(*m) {
            return false;
        }
        b = b.make_move_new(*m);
    }
    b.status() == chess::BoardStatus::Checkmate && b.side_to_move() == !chess_color(color)
}

// ---------------------------------------------------------------------------
// Our own bounded helpmate search (used when a budget is given).
// ---------------------------------------------------------------------------

const LIGHT: BitBoard = BitBoard(0x55AA_55AA_55AA_55AA);
const DARK: BitBoard = BitBoard(0xAA55_AA55_AA55_AA55);

/// shakmaty's `has_insufficient_material`, on a `chess::Board`.
fn insufficient(b: &Board, c: chess::Color) -> bool {
    let ours = *b.color_combined(c);
    let theirs = *b.color_combined(!c);
    if ours & (*b.pieces(Piece::Pawn) | *b.pieces(Piece::Rook) | *b.pieces(Piece::Queen)) != EMPTY {
        return false;
    }
    if ours & *b.pieces(Piece::Knight) != EMPTY {
        return ours.popcnt() <= 2
            && theirs & !*b.pieces(Piece::King) & !*b.pieces(Piece::Queen) == EMPTY;
    }
    if ours & *b.pieces(Piece::Bishop) != EMPTY {
        let bishops = *b.pieces(Piece::Bishop);
        let same = bishops & DARK == EMPTY || bishops & LIGHT == EMPTY;
        return same && *b.pieces(Piece::Knight) == EMPTY && *b.pieces(Piece::Pawn) == EMPTY;
    }
    true
}

/// `chess::Board` hashes itself as its 64-bit Zobrist key; pass it through.
#[derive(Default)]
struct ZobristHasher(u64);

impl Hasher for ZobristHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for b in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(*b);
        }
    }
    fn write_u64(&mut self, n: u64) {
        self.0 ^= n;
    }
}

type BoardMap<V> = HashMap<Board, V, BuildHasherDefault<ZobristHasher>>;

enum Bounded {
    Found(Vec<ChessMove>),
    /// Every line ends (mate by the other side, stalemate, insufficient
    /// material) before the depth limit without mate: provably unwinnable.
    Exhausted,
    OutOfBudget,
}

struct BoundedSearch {
    winner: chess::Color,
    nodes: u64,
    budget: u64,
    out_of_budget: bool,
    /// Set when a line was cut short by the depth limit or the budget.
    cut: bool,
    /// Position -> (plies left it was searched with, whether that was cut).
    tt: BoardMap<(u8, bool)>,
    moves: Vec<ChessMove>,
}

impl BoundedSearch {
    fn order(&self, b: &Board) -> Vec<(i32, ChessMove, Board)> {
        let winner_to_move = b.side_to_move() == self.winner;
        let mut children: Vec<(i32, ChessMove, Board)> = MoveGen::new_legal(b)
            .map(|m| {
                let child = b.make_move_new(m);
                let capture = b.piece_on(m.get_dest()).is_some();
                let mut score = 0;
                if winner_to_move {
                    if *child.checkers() != EMPTY {
                        score += 8;
                    }
                    if m.get_promotion() == Some(Piece::Queen) {
                        score += 4;
                    }
                    if capture {
                        score += 2;
                    }
                } else {
                    // The loser helps: hemming its own king in is good,
                    // taking the winner's material rarely is.
                    if capture {
                        score -= 4;
                    }
                    if b.piece_on(m.get_source()) == Some(Piece::King) {
                        score += 1;
                    }
                }
                (score, m, child)
            })
            .collect();
        children.sort_by(|a, c| c.0.cmp(&a.0));
        children
    }

    fn search(&mut self, b: &Board, left: u8) -> Option<Vec<ChessMove>> {
        let has_moves = MoveGen::new_legal(b).len() > 0;
        if !has_moves {
            if b.side_to_move() != self.winner && *b.checkers() != EMPTY {
                return Some(self.moves.clone());
            }
            return None;
        }
        if insufficient(b, self.winner) {
            return None;
        }
        if left == 0 {
            self.cut = true;
            return None;
        }
        if let Some(&(done, was_cut)) = self.tt.get(b) {
            if done >= left {
                self.cut |= was_cut;
                return None;
            }
        }
        let outer_cut = std::mem::replace(&mut self.cut, false);
        for (_, m, child) in self.order(b) {
            self.nodes += 1;
            if self.nodes > self.budget {
                self.out_of_budget = true;
                self.cut = true;
                return None;
            }
            self.moves.push(m);
            if let Some(line) = self.search(&child, left - 1) {
                return Some(line);
            }
            self.moves.pop();
            if self.out_of_budget {
                return None;
            }
        }
        let cut_here = self.cut;
        self.tt.insert(*b, (left, cut_here));
        self.cut = outer_cut || cut_here;
        None
    }
}

fn bounded_helpmate(board: &Board, winner: chess::Color, budget: u64) -> Bounded {
    let mut s = BoundedSearch {
        winner,
        nodes: 0,
        budget,
        out_of_budget: false,
        cut: false,
        tt: BoardMap::default(),
        moves: Vec::with_capacity(BOUNDED_MAX_PLY as usize),
    };
    for depth in 1..=BOUNDED_MAX_PLY {
        s.cut = false;
        s.moves.clear();
        if let Some(line) = s.search(board, depth) {
            return Bounded::Found(line);
        }
        if s.out_of_budget {
            return Bounded::OutOfBudget;
        }
        if !s.cut {
            return Bounded::Exhausted;
        }
    }
    Bounded::OutOfBudget
}

// ---------------------------------------------------------------------------
// The analysis.
// ---------------------------------------------------------------------------

pub(crate) fn analyse(pos: &Chess, color: Color, budget: Option<u64>) -> Analysis {
    analyse_with(pos, color, budget, true, None)
}

/// What CHA-Solver's full search (`winnability`) answered for one board
/// and intended winner: a helpmate line, no helpmate, or no answer within
/// its node limits.
#[derive(Clone)]
enum Solved {
    Line(Vec<ChessMove>),
    NoMate,
    Undecided,
}

/// CHA-Solver's answers kept by board, for a run that meets the same
/// positions again (`chesslaws check` over a database: the same end
/// positions in many games, the last position of a game asked about for
/// its dead position and for the winner's mate). The search is a pure
/// function of the board (pieces, side to move, castling rights, en
/// passant square) and the intended winner, so an answer kept is the
/// answer the search would give again. Bounded: emptied when full.
/// Shared by the threads of a run (`check --jobs N`: what one worker
/// solved, the others need not solve again); the lock is held to look up
/// and to store, never during a search.
#[derive(Default)]
pub(crate) struct SolvedCache {
    map: std::sync::Mutex<BoardMap<[Option<Solved>; 2]>>,
}

/// CHA-Solver's answers for the whole process: shared by `check`'s workers (each checks batch after
/// batch: the same end positions come back in a database) and by the arbiter's dead-position search
/// in live games and replays (real games share their openings: about a tenth of the positions searched
/// after a pawn move or a capture in the corpus's games had been searched in an earlier game).
pub(crate) static SOLVED: std::sync::LazyLock<SolvedCache> = std::sync::LazyLock::new(SolvedCache::default);

/// Boards a [`SolvedCache`] holds at most (a few hundred bytes each).
const SOLVED_CACHE_BOARDS: usize = 4096;

impl SolvedCache {
    fn winnability(&self, board: &Board, winner: chess::Color) -> Solved {
        let i = winner.to_index();
        let lock = || self.map.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some(Some(s)) = lock().get(board).map(|e| &e[i]) {
            return s.clone();
        }
        let s = solve(board, winner);
        let mut map = lock();
        if map.len() >= SOLVED_CACHE_BOARDS && !map.contains_key(board) {
            map.clear();
        }
        map.entry(*board).or_default()[i] = Some(s.clone());
        s
    }
}

fn solve(board: &Board, winner: chess::Color) -> Solved {
    match winnability(board, winner) {
        Some(Winnability::Winnable { helpmate }) => Solved::Line(helpmate),
        Some(Winnability::Unwinnable) => Solved::NoMate,
        None => Solved::Undecided,
    }
}

/// [`analyse`] with CHA-Solver's answers kept in `cache`.
pub(crate) fn analyse_cached(pos: &Chess, color: Color, cache: &SolvedCache) -> Analysis {
    analyse_with(pos, color, None, true, Some(cache))
}

/// `with_line`: write the helpmate line in SAN (checked with shakmaty);
/// without it a winnable line is checked on the solver's own boards only.
fn analyse_with(
    pos: &Chess,
    color: Color,
    budget: Option<u64>,
    with_line: bool,
    cache: Option<&SolvedCache>,
) -> Analysis {
    let done = |verdict: Verdict, line: Vec<String>, reason: String| Analysis { color, verdict, line, reason };
    let w = side(color);
    let l = side(!color);

    let no_moves = pos.legal_moves().is_empty();
    if no_moves && pos.is_check() {
        return if pos.turn() == !color {
            done(Verdict::Winnable, vec![], format!("{w} has already checkmated {l}."))
        } else {
            done(
                Verdict::Unwinnable,
                vec![],
                format!("{w} is checkmated: the game is over, so {w} cannot checkmate."),
            )
        };
    }
    if no_moves {
        return done(
            Verdict::Unwinnable,
            vec![],
            format!(
                "The position is stalemate ({} has no legal move): no move can follow, so {w} cannot checkmate.",
                side(pos.turn())
            ),
        );
    }
    if pos.has_insufficient_material(color) {
        return done(Verdict::Unwinnable, vec![], material_reason(pos, color));
    }

    let (board, castling_dropped) = match to_board(pos) {
        Ok(b) => b,
        Err(e) => {
            return done(
                Verdict::Undetermined,
                vec![],
                format!("The position could not be handed to the helpmate solver ({e})."),
            )
        }
    };
    let winner = chess_color(color);
    let chess960_undecided = || {
        done(
            Verdict::Undetermined,
            vec![],
            format!(
                "No checkmate by {w} was found without castling, and the helpmate solver cannot play \
                 Chess960 castling: undetermined while castling rights remain."
            ),
        )
    };

    if is_unwinnable_fast(&board, winner) {
        if castling_dropped {
            return chess960_undecided();
        }
        return done(
            Verdict::Unwinnable,
            vec![],
            unwinnable_reason(pos, color, "proved by CHA-Solver's fast analysis"),
        );
    }

    let found: Result<Option<Vec<ChessMove>>, ()> = match budget {
        Some(n) if n < CHASOLVER_NODE_BOUND => match bounded_helpmate(&board, winner, n) {
            Bounded::Found(line) => Ok(Some(line)),
            Bounded::Exhausted => Ok(None),
            Bounded::OutOfBudget => Err(()),
        },
        _ => match cache.map_or_else(|| solve(&board, winner), |c| c.winnability(&board, winner)) {
            Solved::Line(helpmate) => Ok(Some(helpmate)),
            Solved::NoMate => Ok(None),
            Solved::Undecided => Err(()),
        },
    };
    match found {
        Ok(Some(line)) if !with_line => {
            if line_mates(&board, color, &line) {
                done(Verdict::Winnable, vec![], format!("{w} can checkmate ({} plies).", line.len()))
            } else {
                done(Verdict::Undetermined, vec![], format!("The helpmate line found for {w} failed verification."))
            }
        }
        Ok(Some(line)) => match verified_line(pos, color, &line) {
            Ok(sans) => {
                let text = numbered_line(pos, &sans);
                done(Verdict::Winnable, sans, format!("{w} can checkmate: {text} (a helpmate line)."))
            }
            Err(e) => done(
                Verdict::Undetermined,
                vec![],
                format!("The helpmate line found for {w} failed verification ({e})."),
            ),
        },
        Ok(None) if castling_dropped => chess960_undecided(),
        Ok(None) => {
            let how = if budget.is_some_and(|n| n < CHASOLVER_NODE_BOUND) {
                format!("every series of legal moves ends without a checkmate by {w}")
            } else {
                "proved by CHA-Solver's full search".to_string()
            };
            done(Verdict::Unwinnable, vec![], unwinnable_reason(pos, color, &how))
        }
        Err(()) => {
            let limit = match budget {
                Some(n) if n < CHASOLVER_NODE_BOUND => format!("a budget of {n} nodes"),
                _ => "the solver's node limits".to_string(),
            };
            done(
                Verdict::Undetermined,
                vec![],
                format!("Whether {w} can still checkmate could not be decided within {limit}."),
            )
        }
    }
}

/// Dead in the sense of Article 9.6: neither side can checkmate. `None`
/// when neither side is proven able to mate and one is undetermined. Without a budget (or with one
/// no smaller than the solver's own bound) CHA-Solver's answers are kept in [`SOLVED`]: the answer for
/// a board is the same each time it is asked.
pub(crate) fn dead(pos: &Chess, budget: Option<u64>) -> Option<bool> {
    dead_with(pos, first_asked(pos), budget, Some(&SOLVED))
}

/// The side whose mate is looked for first: the one with more queens and rooks (the side to move
/// when even). Only the time depends on it: [`dead_with`]'s answer is the same whichever side comes
/// first (alive if either side can mate, dead if neither can, else undecided). On the positions of
/// random games that need the search (after a pawn move or a capture), CHA-Solver finds one side's
/// mate about three times as fast as the other's on average; asking the side with the heavier
/// pieces first takes about a fifth off the search's mean time (the side to move first: none).
fn first_asked(pos: &Chess) -> Color {
    let board = pos.board();
    let heavy = |c: Color| (board.rooks_and_queens() & board.by_color(c)).count();
    let turn = pos.turn();
    if heavy(!turn) > heavy(turn) {
        !turn
    } else {
        turn
    }
}

/// [`dead`], asking first whether `first` can mate (enough to show the
/// position alive), with CHA-Solver's answers kept in `cache`.
pub(crate) fn dead_cached(pos: &Chess, first: Color, cache: &SolvedCache) -> Option<bool> {
    dead_with(pos, first, None, Some(cache))
}

fn dead_with(pos: &Chess, first: Color, budget: Option<u64>, cache: Option<&SolvedCache>) -> Option<bool> {
    let a = analyse_with(pos, first, budget, false, cache);
    if a.verdict == Verdict::Winnable {
        return Some(false);
    }
    let b = analyse_with(pos, !first, budget, false, cache);
    match (a.verdict, b.verdict) {
        (_, Verdict::Winnable) => Some(false),
        (Verdict::Unwinnable, Verdict::Unwinnable) => Some(true),
        _ => None,
    }
}

fn worker_count(jobs: usize, threads: Option<usize>) -> usize {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let wanted = threads.unwrap_or(if jobs >= MIN_BATCH_FOR_THREADS { cores } else { 1 });
    wanted.clamp(1, jobs.max(1))
}

fn analyse_batch(jobs: Vec<(Chess, Color)>, budget: Option<u64>, threads: Option<usize>) -> Vec<Analysis> {
    let workers = worker_count(jobs.len(), threads);
    if workers <= 1 {
        return jobs.iter().map(|(p, c)| analyse(p, *c, budget)).collect();
    }
    let next = AtomicUsize::new(0);
    let mut results: Vec<Option<Analysis>> = vec![None; jobs.len()];
    let parts: Vec<Vec<(usize, Analysis)>> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..workers)
            .map(|_| {
                scope.spawn(|| {
                    let mut out = Vec::new();
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        let Some((p, c)) = jobs.get(i) else { break };
                        out.push((i, analyse(p, *c, budget)));
                    }
                    out
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap_or_default()).collect()
    });
    for (i, a) in parts.into_iter().flatten() {
        results[i] = Some(a);
    }
    results
        .into_iter()
        .zip(jobs.iter())
        .map(|(r, (_, c))| {
            r.unwrap_or_else(|| Analysis {
                color: *c,
                verdict: Verdict::Undetermined,
                line: vec![],
                reason: "The analysis of this position failed.".into(),
            })
        })
        .collect()
}

// ---------------------------------------------------------------------------
// Python bindings.
// ---------------------------------------------------------------------------

fn parse_color(color: &str) -> PyResult<Color> {
    match color {
        "white" => Ok(Color::White),
        "black" => Ok(Color::Black),
        _ => Err(crate::InvalidInput::new_err(format!("color must be 'white' or 'black', not {color:?}"))),
    }
}

fn check_budget(budget: Option<i64>) -> PyResult<Option<u64>> {
    match budget {
        None => Ok(None),
        Some(n) if n < 0 => Err(PyValueError::new_err(format!("budget must be a non-negative number of nodes, not {n}"))),
        Some(n) => Ok(Some(n as u64)),
    }
}

/// Can `color` checkmate by some series of legal moves from `position`?
/// Returns (color, verdict, helpmate line in SAN, reason).
#[pyfunction]
#[pyo3(signature = (position, color, budget = None))]
fn can_mate(py: Python<'_>, position: &Position, color: &str, budget: Option<i64>) -> PyResult<AnalysisTuple> {
    let c = parse_color(color)?;
    let budget = check_budget(budget)?;
    let pos = position.pos.clone();
    Ok(py.detach(move || analyse(&pos, c, budget)).into_tuple())
}

/// `can_mate` for many positions in one call, on several threads.
/// `colors` is one colour for all positions or one colour per position.
#[pyfunction]
#[pyo3(signature = (positions, colors, budget = None, threads = None))]
fn can_mate_many(
    py: Python<'_>,
    positions: Vec<PyRef<'_, Position>>,
    colors: &Bound<'_, PyAny>,
    budget: Option<i64>,
    threads: Option<usize>,
) -> PyResult<Vec<AnalysisTuple>> {
    let budget = check_budget(budget)?;
    let cols: Vec<Color> = if let Ok(s) = colors.cast::<PyString>() {
        vec![parse_color(s.to_str()?)?; positions.len()]
    } else {
        let names: Vec<String> = colors.extract()?;
        if names.len() != positions.len() {
            return Err(PyValueError::new_err(format!(
                "got {} positions but {} colors",
                positions.len(),
                names.len()
            )));
        }
        names.iter().map(|n| parse_color(n)).collect::<PyResult<_>>()?
    };
    if threads == Some(0) {
        return Err(PyValueError::new_err("threads must be at least 1"));
    }
    let jobs: Vec<(Chess, Color)> = positions.iter().map(|p| p.pos.clone()).zip(cols).collect();
    let out = py.detach(move || analyse_batch(jobs, budget, threads));
    Ok(out.into_iter().map(Analysis::into_tuple).collect())
}

/// (White's analysis, Black's analysis).
#[pyfunction]
#[pyo3(signature = (position, budget = None))]
fn dead_analysis(py: Python<'_>, position: &Position, budget: Option<i64>) -> PyResult<(AnalysisTuple, AnalysisTuple)> {
    let budget = check_budget(budget)?;
    let pos = position.pos.clone();
    let (w, b) = py.detach(move || (analyse(&pos, Color::White, budget), analyse(&pos, Color::Black, budget)));
    Ok((w.into_tuple(), b.into_tuple()))
}

/// True when neither side can checkmate (Article 9.6), False when one can,
/// None when undecided within the budget.
#[pyfunction]
#[pyo3(signature = (position, budget = None))]
fn is_dead(py: Python<'_>, position: &Position, budget: Option<i64>) -> PyResult<Option<bool>> {
    let budget = check_budget(budget)?;
    let pos = position.pos.clone();
    Ok(py.detach(move || dead(&pos, budget)))
}

/// The same position for every rule that can matter to a mate: the pieces, the side to move, the
/// castling rights, and no en passant capture in either.
fn same_position(a: &Chess, b: &Chess) -> bool {
    a.board() == b.board()
        && a.turn() == b.turn()
        && a.castles().castling_rights() == b.castles().castling_rights()
        && a.ep_square(EnPassantMode::Legal).is_none()
        && b.ep_square(EnPassantMode::Legal).is_none()
}

/// A quiet move: neither a pawn's move nor a capture nor castling, so that the same piece can go
/// back the way it came.
fn quiet(m: &Move) -> Option<(Role, shakmaty::Square, shakmaty::Square)> {
    match *m {
        Move::Normal { role, from, capture: None, to, promotion: None } if role != Role::Pawn => Some((role, from, to)),
        _ => None,
    }
}

/// Can `before` be reached again from `after`, the position after `mv` in `before`, by legal moves?
/// Tries: the other side makes a quiet move, the mover takes his move back, the other side takes
/// back his, and the position is `before` again (castling rights and all). Then, if some series of
/// legal moves led from `before` to a checkmate, one leads from `after` too: `after` is not dead
/// when `before` was not. Only the first `tries` quiet replies are tried; false says "not shown".
pub fn returns_to(before: &Chess, after: &Chess, mv: &Move, tries: usize) -> bool {
    let Some((role, from, to)) = quiet(mv) else { return false };
    if before.ep_square(EnPassantMode::Legal).is_some() {
        return false; // the en passant right would be gone for good
    }
    let mut check = before.clone();
    check.play_unchecked(*mv);
    if !same_position(&check, after) {
        return false; // `after` is not `before` + `mv`
    }
    let back = Move::Normal { role, from: to, capture: None, to: from, promotion: None };
    let mut tried = 0;
    for reply in after.legal_moves() {
        let Some((r2, f2, t2)) = quiet(&reply) else { continue };
        tried += 1;
        if tried > tries {
            break;
        }
        let mut p = after.clone();
        p.play_unchecked(reply);
        if !p.is_legal(back) {
            continue;
        }
        p.play_unchecked(back);
        let undo = Move::Normal { role: r2, from: t2, capture: None, to: f2, promotion: None };
        if !p.is_legal(undo) {
            continue;
        }
        p.play_unchecked(undo);
        if same_position(&p, before) {
            return true;
        }
    }
    false
}

/// Python: can `before` be reached again from `after` (= `before` + `uci`) by legal moves? See
/// [`returns_to`]; a move that is not legal in `before` gives false.
#[pyfunction(name = "returns_to")]
#[pyo3(signature = (before, after, uci, tries = 16))]
fn returns_to_py(before: &Position, after: &Position, uci: &str, tries: usize) -> bool {
    let Ok(parsed) = UciMove::from_ascii(uci.trim().as_bytes()) else { return false };
    let Ok(mv) = parsed.to_move(&before.pos) else { return false };
    returns_to(&before.pos, &after.pos, &mv, tries)
}

/// `is_dead` for many positions in one call, on several threads.
#[pyfunction]
#[pyo3(signature = (positions, budget = None, threads = None))]
fn is_dead_many(
    py: Python<'_>,
    positions: Vec<PyRef<'_, Position>>,
    budget: Option<i64>,
    threads: Option<usize>,
) -> PyResult<Vec<Option<bool>>> {
    let budget = check_budget(budget)?;
    if threads == Some(0) {
        return Err(PyValueError::new_err("threads must be at least 1"));
    }
    let jobs: Vec<Chess> = positions.iter().map(|p| p.pos.clone()).collect();
    Ok(py.detach(move || {
        let workers = worker_count(jobs.len(), threads);
        if workers <= 1 {
            return jobs.iter().map(|p| dead(p, budget)).collect();
        }
        let next = AtomicUsize::new(0);
        let mut out = vec![None; jobs.len()];
        let parts: Vec<Vec<(usize, Option<bool>)>> = std::thread::scope(|scope| {
            let hs: Vec<_> = (0..workers)
                .map(|_| {
                    scope.spawn(|| {
                        let mut v = Vec::new();
                        loop {
                            let i = next.fetch_add(1, Ordering::Relaxed);
                            let Some(p) = jobs.get(i) else { break };
                            v.push((i, dead(p, budget)));
                        }
                        v
                    })
                })
                .collect();
            hs.into_iter().map(|h| h.join().unwrap_or_default()).collect()
        });
        for (i, d) in parts.into_iter().flatten() {
            out[i] = d;
        }
        out
    }))
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(can_mate, m)?)?;
    m.add_function(wrap_pyfunction!(can_mate_many, m)?)?;
    m.add_function(wrap_pyfunction!(dead_analysis, m)?)?;
    m.add_function(wrap_pyfunction!(is_dead, m)?)?;
    m.add_function(wrap_pyfunction!(is_dead_many, m)?)?;
    m.add_function(wrap_pyfunction!(returns_to_py, m)?)?;
    m.add("CHASOLVER_NODE_BOUND", CHASOLVER_NODE_BOUND)?;
    Ok(())
}
