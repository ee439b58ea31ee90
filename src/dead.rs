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
//! 3. forced play into stalemate: the side to move has one legal move (and
//!    then the other, up to a few plies), or only moves that stalemate: no
//!    checkmate can follow, said in those words;
//! 4. `chasolver::is_unwinnable_fast`: sound, proves unwinnability only;
//! 5. the full helpmate search: `chasolver::winnability` when the budget is
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

use std::str::FromStr;
use std::sync::atomic::{AtomicUsize, Ordering};

use chasolver::{is_unwinnable_fast, winnability, Winnability};
use chess::{Board, ChessMove, Piece};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyString;
use shakmaty::fen::Fen;
use shakmaty::san::{San, SanPlus, Suffix};
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, Color, EnPassantMode, Move, Position as _, Role};

use crate::position::Position;

mod bounded;
mod reasons;

use bounded::{bounded_helpmate, BoardMap, Bounded};
use reasons::{material_reason, numbered_line, unwinnable_reason};

/// A budget at least this large lets `chasolver::winnability` run: its own
/// node limits add up to about this many search nodes (1,000 in its
/// shallow phase, 1,000,000 in its iterative deepening, 2^24 in its guided
/// deep search, a few thousand in its probes; its static analyses and
/// check-chain search are not counted in nodes).
pub const CHASOLVER_NODE_BOUND: u64 = 1_000 + 1_000_000 + (1 << 24) + 4_000;

/// Deepest line our own bounded search tries, in plies.
pub(super) const BOUNDED_MAX_PLY: u8 = 96;

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
// The analysis.
// ---------------------------------------------------------------------------

pub(crate) fn analyse(pos: &Chess, color: Color, budget: Option<u64>) -> Analysis {
    analyse_with(pos, color, budget, true, None)
}

/// Plies of forced play [`forced_stalemate`] follows.
const FORCED_STALEMATE_PLIES: usize = 8;

/// Why every series of legal moves from `pos` ends in stalemate, when it does within
/// [`FORCED_STALEMATE_PLIES`]: the side to move has one legal move (and then the other, and so on) until a
/// position where every legal move stalemates, or a stalemate. "White's only legal move, 3. Kxg1,
/// stalemates Black." Then no checkmate can follow, whoever is asked about (1997 9.6, 2023 5.2.2: a
/// position from which no series of legal moves leads to checkmate). A mate or a choice of moves on the
/// way: None, and the analysis goes on.
fn forced_stalemate(pos: &Chess) -> Option<String> {
    let mut p = pos.clone();
    let mut line: Vec<String> = Vec::new();
    for _ in 0..FORCED_STALEMATE_PLIES {
        let moves = p.legal_moves();
        if moves.is_empty() {
            return None; // a position with no move: judged before this is asked
        }
        let (mover, other) = (side(p.turn()), side(!p.turn()));
        let stalemates = |m: &Move| {
            let mut after = p.clone();
            after.play_unchecked(*m);
            !after.is_check() && after.legal_moves().is_empty()
        };
        if moves.len() > 1 {
            if !moves.iter().all(stalemates) {
                return None;
            }
            return Some(if line.is_empty() {
                format!("Every legal move of {mover} stalemates {other}.")
            } else {
                format!("After {}, every legal move of {mover} stalemates {other}.", numbered_line(pos, &line))
            });
        }
        let m = moves[0];
        line.push(SanPlus::from_move(p.clone(), m).to_string());
        if stalemates(&m) {
            let moves = numbered_line(pos, &line);
            return Some(if line.len() == 1 {
                format!("{mover}'s only legal move, {moves}, stalemates {other}.")
            } else {
                format!("The only legal moves, {moves}, end in stalemate.")
            });
        }
        p.play_unchecked(m);
    }
    None
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
    if let Some(why) = forced_stalemate(pos) {
        // The same words whichever side is asked about: neither can mate.
        return done(Verdict::Unwinnable, vec![], why);
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
