//! `Position`: an immutable chess position bound to Python.

use pyo3::prelude::*;
use pyo3::types::PyList;
use shakmaty::fen::{Fen, ParseFenError};
use shakmaty::san::{San, SanError, SanPlus, Suffix};
use shakmaty::uci::UciMove;
use shakmaty::zobrist::Zobrist64;
use shakmaty::{
    CastlingMode, Chess, Color, EnPassantMode, Move, MoveList, Position as _, PositionErrorKinds, Role,
    Square,
};

use crate::notation::{fide_to_san, king_destination_castle};
use crate::{AmbiguousMove, IllegalMove, InvalidFen, UnreadableMove};

pub const STARTING_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// Longest FEN we read: a full board with every field takes well under 100.
const MAX_FEN_LEN: usize = 256;
/// Longest move text we read (`Qa1xh8=Q+` and friends are short).
const MAX_MOVE_LEN: usize = 16;

/// Builds an exception of type `E` carrying keyword attributes.
pub fn error_with<E: pyo3::PyTypeInfo>(
    py: Python<'_>,
    message: String,
    attrs: &[(&str, Py<PyAny>)],
) -> PyErr {
    let err = PyErr::from_type(py.get_type::<E>(), (message,));
    let value = err.value(py);
    for (name, v) in attrs {
        // Setting an attribute on a fresh exception instance cannot fail.
        let _ = value.setattr(*name, v.bind(py));
    }
    err
}

fn s(py: Python<'_>, text: &str) -> Py<PyAny> {
    text.into_pyobject(py).expect("str").into_any().unbind()
}

fn fen_error(py: Python<'_>, fen: &str, field: &str, detail: String) -> PyErr {
    error_with::<InvalidFen>(
        py,
        format!("invalid FEN {fen:?}: {field}: {detail}"),
        &[("field", s(py, field)), ("fen", s(py, fen))],
    )
}

fn parse_fen_error_field(err: ParseFenError) -> (&'static str, &'static str) {
    match err {
        ParseFenError::InvalidBoard => (
            "board",
            "the piece placement must be 8 ranks of pieces (KQRBNPkqrbnp) and digits 1-8, separated by '/'",
        ),
        ParseFenError::InvalidTurn => ("turn", "the side to move must be 'w' or 'b'"),
        ParseFenError::InvalidCastling => (
            "castling",
            "castling rights must be '-' or letters from KQkq",
        ),
        ParseFenError::InvalidEpSquare => (
            "en passant",
            "the en passant square must be '-' or a square on the 3rd or 6th rank",
        ),
        ParseFenError::InvalidHalfmoveClock => (
            "halfmove clock",
            "the halfmove clock must be a non-negative integer",
        ),
        ParseFenError::InvalidFullmoves => (
            "fullmove number",
            "the fullmove number must be a positive integer",
        ),
        ParseFenError::InvalidPocket | ParseFenError::InvalidRemainingChecks => {
            ("fen", "variant fields are not part of standard chess")
        }
        _ => ("fen", "not a FEN"),
    }
}

fn position_error_reasons(kinds: PositionErrorKinds) -> Vec<&'static str> {
    let table: [(PositionErrorKinds, &str); 10] = [
        (PositionErrorKinds::EMPTY_BOARD, "the board is empty"),
        (PositionErrorKinds::MISSING_KING, "a king is missing"),
        (PositionErrorKinds::TOO_MANY_KINGS, "a side has more than one king"),
        (PositionErrorKinds::PAWNS_ON_BACKRANK, "a pawn stands on the first or eighth rank"),
        (PositionErrorKinds::INVALID_CASTLING_RIGHTS, "a castling right has no king or rook on its original square"),
        (PositionErrorKinds::INVALID_EP_SQUARE, "the en passant square does not follow a double pawn step"),
        (PositionErrorKinds::OPPOSITE_CHECK, "the side not to move is in check"),
        (PositionErrorKinds::IMPOSSIBLE_CHECK, "the check cannot have arisen from a legal move"),
        (PositionErrorKinds::TOO_MUCH_MATERIAL, "there is more material than a game can have"),
        (PositionErrorKinds::VARIANT, "a variant rule is violated"),
    ];
    table
        .iter()
        .filter(|(k, _)| kinds.contains(*k))
        .map(|(_, r)| *r)
        .collect()
}

/// The first field, in FEN order, that the errors point at: the board for
/// anything about the pieces, then the side to move (the side not to move
/// is in check), then castling rights, then the en passant square.
fn field_for_position_error(kinds: PositionErrorKinds) -> &'static str {
    let about_turn = PositionErrorKinds::OPPOSITE_CHECK;
    let about_castling = PositionErrorKinds::INVALID_CASTLING_RIGHTS;
    let about_ep = PositionErrorKinds::INVALID_EP_SQUARE;
    if !(kinds - about_turn - about_castling - about_ep).is_empty() {
        "board"
    } else if kinds.intersects(about_turn) {
        "turn"
    } else if kinds.intersects(about_castling) {
        "castling"
    } else {
        "en passant"
    }
}

/// Checks the piece placement field strictly: 8 ranks separated by '/',
/// each of exactly 8 squares, written with piece letters and single digits
/// 1-8 (no two digits in a row). Variant syntax (pockets `[..]` or a ninth
/// "rank", promoted markers `~`) is refused.
fn check_board_field(board: &str) -> Result<(), String> {
    let ranks: Vec<&str> = board.split('/').collect();
    if ranks.len() != 8 {
        return Err(format!("expected 8 ranks separated by '/', found {}", ranks.len()));
    }
    for (i, rank) in ranks.iter().enumerate() {
        let rank_no = 8 - i;
        let mut squares = 0u32;
        let mut last_was_digit = false;
        for ch in rank.chars() {
            match ch {
                '1'..='8' => {
                    if last_was_digit {
                        return Err(format!("rank {rank_no} has two digits in a row"));
                    }
                    squares += ch.to_digit(10).unwrap_or(0);
                    last_was_digit = true;
                }
                'K' | 'Q' | 'R' | 'B' | 'N' | 'P' | 'k' | 'q' | 'r' | 'b' | 'n' | 'p' => {
                    squares += 1;
                    last_was_digit = false;
                }
                _ => {
                    return Err(format!(
                        "rank {rank_no} has {ch:?}; only pieces KQRBNPkqrbnp and digits 1-8 are allowed"
                    ))
                }
            }
        }
        if squares != 8 {
            return Err(format!("rank {rank_no} describes {squares} squares instead of 8"));
        }
    }
    Ok(())
}

/// Castling rights: '-' or up to two white letters then up to two black
/// letters (`KQkq`, or the files of the rooks as in Shredder-FEN).
fn castling_field_ok(castling: &str) -> bool {
    if castling == "-" {
        return true;
    }
    let bytes = castling.as_bytes();
    let upper = bytes
        .iter()
        .take_while(|b| matches!(b, b'K' | b'Q' | b'A'..=b'H'))
        .count();
    let lower = bytes[upper..]
        .iter()
        .take_while(|b| matches!(b, b'k' | b'q' | b'a'..=b'h'))
        .count();
    !castling.is_empty() && upper <= 2 && lower <= 2 && upper + lower == bytes.len()
}

fn counter_field_ok(text: &str) -> bool {
    !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit()) && text.parse::<u32>().is_ok()
}

#[allow(dead_code)] // kept for the callers that read standard chess only
pub fn parse_fen(py: Python<'_>, fen: &str) -> PyResult<Chess> {
    parse_fen_mode(py, fen, CastlingMode::Standard)
}

/// Reads `fen` in the given castling mode. In `Chess960` mode the castling
/// field may be X-FEN (`KQkq`, where a letter means the outermost rook on that
/// side, and a rook's file letter otherwise) or Shredder-FEN (`HAha`: always
/// the rooks' files).
pub fn parse_fen_mode(py: Python<'_>, fen: &str, mode: CastlingMode) -> PyResult<Chess> {
    let text = fen.trim();
    if text.is_empty() {
        return Err(fen_error(py, fen, "fen", "the FEN is empty".into()));
    }
    if text.len() > MAX_FEN_LEN {
        return Err(fen_error(py, fen, "fen", format!("longer than {MAX_FEN_LEN} characters")));
    }
    if !text.is_ascii() {
        return Err(fen_error(py, fen, "fen", "a FEN is plain ASCII".into()));
    }
    let fields: Vec<&str> = text.split_ascii_whitespace().collect();
    if fields.len() > 6 {
        return Err(fen_error(
            py,
            fen,
            "fen",
            format!("expected at most 6 space-separated fields, found {}", fields.len()),
        ));
    }
    // Each field is checked here first, so that variant syntax shakmaty
    // would accept (pockets, promoted markers, remaining checks, saturated
    // counters) is refused and the error names the right field.
    if let Err(detail) = check_board_field(fields[0]) {
        return Err(fen_error(py, fen, "board", detail));
    }
    if let Some(turn) = fields.get(1) {
        if *turn != "w" && *turn != "b" {
            let (field, detail) = parse_fen_error_field(ParseFenError::InvalidTurn);
            return Err(fen_error(py, fen, field, detail.into()));
        }
    }
    if let Some(castling) = fields.get(2) {
        if !castling_field_ok(castling) {
            let (field, detail) = parse_fen_error_field(ParseFenError::InvalidCastling);
            return Err(fen_error(py, fen, field, detail.into()));
        }
    }
    if let Some(ep) = fields.get(3) {
        let b = ep.as_bytes();
        let ok = *ep == "-"
            || (b.len() == 2 && (b'a'..=b'h').contains(&b[0]) && (b[1] == b'3' || b[1] == b'6'));
        if !ok {
            let (field, detail) = parse_fen_error_field(ParseFenError::InvalidEpSquare);
            return Err(fen_error(py, fen, field, detail.into()));
        }
    }
    if let Some(halfmoves) = fields.get(4) {
        if !counter_field_ok(halfmoves) {
            return Err(fen_error(
                py,
                fen,
                "halfmove clock",
                format!("the halfmove clock must be an integer from 0 to {}", u32::MAX),
            ));
        }
    }
    if let Some(fullmoves) = fields.get(5) {
        // 0 is read as 1, as python-chess and lichess do.
        if !counter_field_ok(fullmoves) {
            return Err(fen_error(
                py,
                fen,
                "fullmove number",
                format!("the fullmove number must be an integer from 1 to {}", u32::MAX),
            ));
        }
    }
    let normalized = fields.join(" ");
    let parsed = Fen::from_ascii(normalized.as_bytes()).map_err(|e| {
        let (field, detail) = parse_fen_error_field(e);
        fen_error(py, fen, field, detail.into())
    })?;
    parsed
        .into_position::<Chess>(mode)
        .map_err(|e| {
            let kinds = e.kinds();
            let field = field_for_position_error(kinds);
            fen_error(py, fen, field, format!("impossible position: {}", position_error_reasons(kinds).join("; ")))
        })
}

pub fn color_name(c: Color) -> &'static str {
    match c {
        Color::White => "white",
        Color::Black => "black",
    }
}

pub(crate) fn parse_color(color: &str) -> PyResult<Color> {
    match color {
        "white" | "w" => Ok(Color::White),
        "black" | "b" => Ok(Color::Black),
        _ => Err(crate::InvalidInput::new_err(format!(
            "color must be 'white' or 'black', not {color:?}"
        ))),
    }
}

#[allow(dead_code)] // standard-chess UCI; positions use `uci_in`
pub fn uci_of(m: Move) -> String {
    UciMove::from_move(m, CastlingMode::Standard).to_string()
}

/// `SanPlus::from_move(pos.clone(), m)` for a move `m` of `legals`, the legal moves of `pos`: the same SAN,
/// with the candidates for its disambiguation taken from `legals` (shakmaty generates them again for
/// every move), and checkmate looked for only after a check (shakmaty asks for the outcome, which
/// generates the replies after every move).
pub fn san_among(pos: &Chess, m: Move, legals: &MoveList) -> SanPlus {
    let (role, to) = match m {
        Move::Normal { role, to, .. } | Move::Put { role, to } => (Some(role), to),
        Move::EnPassant { to, .. } => (Some(Role::Pawn), to),
        Move::Castle { .. } => (None, m.to()),
    };
    let mut candidates = MoveList::new();
    for &c in legals.iter() {
        let same = match (role, c) {
            (Some(r), Move::Normal { role: cr, to: ct, .. } | Move::Put { role: cr, to: ct }) => cr == r && ct == to,
            (Some(r), Move::EnPassant { to: ct, .. }) => r == Role::Pawn && ct == to,
            (None, Move::Castle { .. }) => c.castling_side() == m.castling_side(),
            _ => false,
        };
        if same {
            candidates.push(c);
        }
    }
    let san = San::disambiguate(m, &candidates);
    let mut after = pos.clone();
    after.play_unchecked(m);
    let suffix = if after.checkers().any() {
        Some(if after.legal_moves().is_empty() { Suffix::Checkmate } else { Suffix::Check })
    } else {
        None
    };
    SanPlus { san, suffix }
}

/// UCI of `m` as written in `pos`'s castling mode: in Chess960 a castling is
/// the king taking its own rook (`e1h1`), in standard chess the king's two
/// squares (`e1g1`).
pub fn uci_in(pos: &Chess, m: Move) -> String {
    UciMove::from_move(m, pos.castles().mode()).to_string()
}

/// The castling field of a Shredder-FEN: the files of the rooks that may
/// still castle, White's in capitals then Black's, each side from the h-file
/// to the a-file (`HAha`), or `-`.
fn shredder_castling(pos: &Chess) -> String {
    let rights = pos.castles().castling_rights();
    let mut out = String::new();
    for color in [Color::White, Color::Black] {
        for rook in (rights & color.backrank()).into_iter().rev() {
            let c = rook.file().char();
            out.push(if color == Color::White { c.to_ascii_uppercase() } else { c });
        }
    }
    if out.is_empty() {
        out.push('-');
    }
    out
}

/// The back rank of Chess960 starting position `number` (0-959) in the usual
/// (Scharnagl) numbering, as piece roles from the a-file to the h-file.
/// 518 is the standard array RNBQKBNR.
pub fn chess960_back_rank(number: u32) -> Option<[Role; 8]> {
    if number > 959 {
        return None;
    }
    let mut rank: [Option<Role>; 8] = [None; 8];
    let mut n = number;
    // Bishops: light-squared on b/d/f/h, dark-squared on a/c/e/g.
    rank[(2 * (n % 4) + 1) as usize] = Some(Role::Bishop);
    n /= 4;
    rank[(2 * (n % 4)) as usize] = Some(Role::Bishop);
    n /= 4;
    let place = |rank: &mut [Option<Role>; 8], nth_empty: u32, role: Role| {
        let idx = rank
            .iter()
            .enumerate()
            .filter(|(_, r)| r.is_none())
            .nth(nth_empty as usize)
            .map(|(i, _)| i)
            .expect("an empty square");
        rank[idx] = Some(role);
    };
    place(&mut rank, n % 6, Role::Queen);
    n /= 6;
    // The two knights on the five squares left, in the order of the table
    // of the numbering: (0,1) (0,2) (0,3) (0,4) (1,2) (1,3) (1,4) (2,3) (2,4) (3,4).
    const KNIGHTS: [(u32, u32); 10] =
        [(0, 1), (0, 2), (0, 3), (0, 4), (1, 2), (1, 3), (1, 4), (2, 3), (2, 4), (3, 4)];
    let (first, second) = KNIGHTS[n as usize];
    // Place the second knight first so that the first index still counts
    // the same empty squares.
    place(&mut rank, second, Role::Knight);
    place(&mut rank, first, Role::Knight);
    // The three squares left: rook, king, rook.
    place(&mut rank, 0, Role::Rook);
    place(&mut rank, 0, Role::King);
    place(&mut rank, 0, Role::Rook);
    let mut out = [Role::Pawn; 8];
    for (o, r) in out.iter_mut().zip(rank) {
        *o = r.expect("every square filled");
    }
    Some(out)
}

/// The number (0-959) of a Chess960 back rank, or None when `roles` is not one.
pub fn chess960_number(roles: &[Role; 8]) -> Option<u32> {
    (0..960).find(|&n| chess960_back_rank(n).as_ref() == Some(roles))
}

/// The Chess960 starting position with White's array `white` and Black's
/// array `black` (the same number for ordinary Chess960; different numbers
/// give "double Chess960"), all castling rights, White to move.
pub fn chess960_start(white: u32, black: u32) -> Option<Chess> {
    let w = chess960_back_rank(white)?;
    let b = chess960_back_rank(black)?;
    let letters = |roles: &[Role; 8], color: Color| -> String {
        roles.iter().map(|r| r.of(color).char()).collect()
    };
    let fen = format!(
        "{}/pppppppp/8/8/8/8/PPPPPPPP/{} w KQkq - 0 1",
        letters(&b, Color::Black),
        letters(&w, Color::White)
    );
    Fen::from_ascii(fen.as_bytes()).ok()?.into_position::<Chess>(CastlingMode::Chess960).ok()
}

fn fen_of(pos: &Chess) -> String {
    Fen::from_position(pos, EnPassantMode::Legal).to_string()
}

/// Reads `text` as a move in `pos`: UCI first (`e2e4`, `e7e8q`), then SAN
/// with English letters. Errors name the move and the position.
pub fn parse_move(py: Python<'_>, pos: &Chess, text: &str) -> PyResult<Move> {
    let t = text.trim();
    let unreadable = |why: &str| {
        error_with::<UnreadableMove>(
            py,
            format!("unreadable move {text:?} in {}: {why}", fen_of(pos)),
            &[("move", s(py, text)), ("fen", s(py, &fen_of(pos)))],
        )
    };
    if t.is_empty() {
        return Err(unreadable("the move is empty"));
    }
    if t.len() > MAX_MOVE_LEN {
        return Err(unreadable("too long to be a move"));
    }
    if !t.is_ascii() {
        return Err(unreadable("not a move in UCI or English SAN"));
    }
    let m = if let Ok(uci) = t.parse::<UciMove>() {
        let m = uci
            .to_move(pos)
            .or_else(|e| king_destination_castle(pos, uci).ok_or(e))
            .map_err(|_| illegal(py, pos, text))?;
        // shakmaty reads `e5f6q` as the en passant capture `e5f6`: a
        // promotion letter must belong to a promotion.
        if matches!(uci, UciMove::Normal { promotion: Some(_), .. }) && m.promotion().is_none() {
            return Err(illegal(py, pos, text));
        }
        m
    } else {
        parse_san_move(py, pos, text)?
    };
    // In an illegal position that stands (1997 C.3) a king may be exposed:
    // it is still never captured.
    if m.capture() == Some(Role::King) {
        return Err(illegal(py, pos, text));
    }
    Ok(m)
}

fn illegal(py: Python<'_>, pos: &Chess, text: &str) -> PyErr {
    let fen = fen_of(pos);
    error_with::<IllegalMove>(
        py,
        format!("illegal move {text:?} in {fen}"),
        &[("move", s(py, text)), ("fen", s(py, &fen))],
    )
}

pub fn parse_san_move(py: Python<'_>, pos: &Chess, text: &str) -> PyResult<Move> {
    let t = text.trim();
    let fen = || fen_of(pos);
    let san = SanPlus::from_ascii(t.as_bytes())
        .or_else(|e| match fide_to_san(t) {
            Some(san) => SanPlus::from_ascii(san.as_bytes()),
            None => Err(e),
        })
        .map_err(|_| {
            error_with::<UnreadableMove>(
                py,
                format!("unreadable move {text:?} in {}: not UCI and not SAN", fen()),
                &[("move", s(py, text)), ("fen", s(py, &fen()))],
            )
        })?;
    match san.san.to_move(pos) {
        Ok(m) => Ok(m),
        Err(SanError::IllegalSan) => Err(illegal(py, pos, text)),
        Err(SanError::AmbiguousSan) => {
            let candidates: Vec<String> = pos
                .legal_moves()
                .into_iter()
                .filter(|m| san.san.matches(*m))
                .map(|m| format!("{} ({})", San::from_move(pos, m), uci_in(pos, m)))
                .collect();
            let ucis: Vec<String> = pos
                .legal_moves()
                .into_iter()
                .filter(|m| san.san.matches(*m))
                .map(|m| uci_in(pos, m))
                .collect();
            Err(error_with::<AmbiguousMove>(
                py,
                format!("ambiguous move {text:?} in {}: it fits {}", fen(), candidates.join(" and ")),
                &[
                    ("move", s(py, text)),
                    ("fen", s(py, &fen())),
                    ("candidates", PyList::new(py, ucis).expect("list").into_any().unbind()),
                ],
            ))
        }
    }
}

/// An immutable chess position (standard chess, FIDE rules of play).
#[pyclass(frozen, module = "chesslaws._core")]
#[derive(Clone)]
pub struct Position {
    pub pos: Chess,
}

impl Position {
    /// The legal moves as (UCI, SAN with its suffix) pairs, in shakmaty's order: what
    /// `legal_moves_san` returns and `legal_moves_json` writes (one SAN for both, `san_among`).
    fn san_pairs(&self) -> Vec<(String, SanPlus)> {
        let legals = self.pos.legal_moves();
        legals.iter().map(|&m| (uci_in(&self.pos, m), san_among(&self.pos, m, &legals))).collect()
    }
}

#[pymethods]
impl Position {
    /// The position given by `fen`, or the standard initial position. With
    /// `chess960=True` castling follows Chess960 (2023 Guidelines II) and the
    /// FEN's castling field may be X-FEN or Shredder-FEN.
    #[new]
    #[pyo3(signature = (fen = None, chess960 = false))]
    fn new(py: Python<'_>, fen: Option<&str>, chess960: bool) -> PyResult<Self> {
        let mode = if chess960 { CastlingMode::Chess960 } else { CastlingMode::Standard };
        match fen {
            None if chess960 => Ok(Position { pos: chess960_start(518, 518).expect("518") }),
            None => Ok(Position { pos: Chess::default() }),
            Some(f) => Ok(Position { pos: parse_fen_mode(py, f, mode)? }),
        }
    }

    #[staticmethod]
    #[pyo3(signature = (fen, chess960 = false))]
    fn from_fen(py: Python<'_>, fen: &str, chess960: bool) -> PyResult<Self> {
        let mode = if chess960 { CastlingMode::Chess960 } else { CastlingMode::Standard };
        Ok(Position { pos: parse_fen_mode(py, fen, mode)? })
    }

    /// Chess960 starting position `number` (0-959, the usual numbering; 518
    /// is the standard array). `black` gives Black a different array (double
    /// Chess960); by default both sides have the same.
    #[staticmethod]
    #[pyo3(signature = (number, black = None))]
    fn chess960_start(number: i64, black: Option<i64>) -> PyResult<Self> {
        let check = |n: i64, who: &str| -> PyResult<u32> {
            u32::try_from(n).ok().filter(|n| *n <= 959).ok_or_else(|| {
                crate::InvalidInput::new_err(format!(
                    "{who}: a Chess960 starting position is numbered 0 to 959, not {n}"
                ))
            })
        };
        let w = check(number, "number")?;
        let b = match black {
            Some(b) => check(b, "black")?,
            None => w,
        };
        Ok(Position { pos: chess960_start(w, b).expect("valid numbers") })
    }

    /// The number (0-959) of a Chess960 back rank given as 8 piece letters
    /// from the a-file (`"RNBQKBNR"` -> 518), or None when it is not one.
    #[staticmethod]
    fn chess960_number(back_rank: &str) -> Option<u32> {
        let roles: Vec<Role> = back_rank
            .chars()
            .map(|c| Role::from_char(c.to_ascii_lowercase()))
            .collect::<Option<Vec<Role>>>()?;
        let arr: [Role; 8] = roles.try_into().ok()?;
        chess960_number(&arr)
    }

    /// True when castling follows Chess960 rules here.
    #[getter]
    fn chess960(&self) -> bool {
        self.pos.castles().mode() == CastlingMode::Chess960
    }

    /// FEN with Shredder-FEN castling letters (the rooks' files, `HAha`).
    fn shredder_fen(&self) -> String {
        let full = fen_of(&self.pos);
        let mut parts: Vec<String> = full.split(' ').map(str::to_string).collect();
        parts[2] = shredder_castling(&self.pos);
        parts.join(" ")
    }

    /// FEN, with the en passant square only where a capture is legal.
    fn fen(&self) -> String {
        fen_of(&self.pos)
    }

    /// The first four FEN fields with a legal en passant square only: equal
    /// keys mean "the same position" in the sense of the Laws (Article 9.2).
    fn repetition_key(&self) -> String {
        let full = fen_of(&self.pos);
        let mut parts = full.split(' ');
        let mut key = String::with_capacity(full.len());
        for i in 0..4 {
            if i > 0 {
                key.push(' ');
            }
            key.push_str(parts.next().unwrap_or("-"));
        }
        key
    }

    /// 64-bit Zobrist hash of the same identity as `repetition_key`.
    fn zobrist(&self) -> u64 {
        let h: Zobrist64 = self.pos.zobrist_hash(EnPassantMode::Legal);
        h.0
    }

    #[getter]
    fn turn(&self) -> &'static str {
        color_name(self.pos.turn())
    }

    /// Castling rights in FEN form, e.g. "KQkq" or "-".
    #[getter]
    fn castling_rights(&self) -> String {
        let full = self.fen();
        full.split(' ').nth(2).unwrap_or("-").to_string()
    }

    /// The en passant square when an en passant capture is legal, else None.
    #[getter]
    fn ep_square(&self) -> Option<String> {
        self.pos.legal_ep_square().map(|sq| sq.to_string())
    }

    #[getter]
    fn halfmove_clock(&self) -> u32 {
        self.pos.halfmoves()
    }

    #[getter]
    fn fullmove_number(&self) -> u32 {
        self.pos.fullmoves().get()
    }

    #[getter]
    fn ply(&self) -> u64 {
        (u64::from(self.pos.fullmoves().get()) - 1) * 2 + u64::from(self.pos.turn() == Color::Black)
    }

    /// The piece on `square` as a FEN letter ("K", "p", ...) or None.
    fn piece_at(&self, square: &str) -> PyResult<Option<char>> {
        let sq: Square = square.parse().map_err(|_| {
            crate::InvalidInput::new_err(format!("not a square: {square:?}"))
        })?;
        Ok(self.pos.board().piece_at(sq).map(|p| p.char()))
    }

    /// Every piece as (square, FEN letter), from a1 to h8.
    fn pieces(&self) -> Vec<(String, char)> {
        self.pos
            .board()
            .clone()
            .into_iter()
            .map(|(sq, p)| (sq.to_string(), p.char()))
            .collect()
    }

    /// Legal moves in UCI.
    fn legal_moves(&self) -> Vec<String> {
        self.pos
            .legal_moves()
            .into_iter()
            .filter(|m| m.capture() != Some(Role::King))
            .map(|m| uci_in(&self.pos, m))
            .collect()
    }

    /// The legal moves as the JSON text of a list of `{"uci": ..., "san": ...}` objects: the pairs of
    /// `legal_moves_san`, in the same order. The server splices it into its states as it is: no Python
    /// object per move. UCI and SAN are plain ASCII letters, digits and `x+#=-`: nothing to escape.
    fn legal_moves_json(&self) -> String {
        let pairs = self.san_pairs();
        let mut out = String::with_capacity(2 + pairs.len() * 30);
        out.push('[');
        for (k, (uci, san)) in pairs.iter().enumerate() {
            if k > 0 {
                out.push(',');
            }
            out.push_str("{\"uci\":\"");
            out.push_str(uci);
            out.push_str("\",\"san\":\"");
            san.append_to_string(&mut out);
            out.push_str("\"}");
        }
        out.push(']');
        out
    }

    /// Legal moves as (UCI, SAN with check suffix) pairs.
    fn legal_moves_san(&self) -> Vec<(String, String)> {
        self.san_pairs().into_iter().map(|(uci, san)| (uci, san.to_string())).collect()
    }

    /// True when `text` (UCI or SAN) is a legal move here.
    fn is_legal(&self, py: Python<'_>, text: &str) -> bool {
        parse_move(py, &self.pos, text).is_ok()
    }

    /// Reads a move (UCI or English SAN) and returns it in UCI.
    fn parse_move(&self, py: Python<'_>, text: &str) -> PyResult<String> {
        Ok(uci_in(&self.pos, parse_move(py, &self.pos, text)?))
    }

    /// Reads a move in SAN only and returns it in UCI.
    fn parse_san(&self, py: Python<'_>, san: &str) -> PyResult<String> {
        Ok(uci_in(&self.pos, parse_san_move(py, &self.pos, san)?))
    }

    /// The SAN (with + or #) of a move given in UCI or SAN.
    fn san(&self, py: Python<'_>, text: &str) -> PyResult<String> {
        let m = parse_move(py, &self.pos, text)?;
        Ok(SanPlus::from_move(self.pos.clone(), m).to_string())
    }

    /// The UCI of a move given in UCI or SAN.
    fn uci(&self, py: Python<'_>, text: &str) -> PyResult<String> {
        self.parse_move(py, text)
    }

    /// The position after `text` (UCI or SAN). This position is unchanged.
    fn play(&self, py: Python<'_>, text: &str) -> PyResult<Position> {
        let m = parse_move(py, &self.pos, text)?;
        let mut next = self.pos.clone();
        next.play_unchecked(m);
        Ok(Position { pos: next })
    }

    /// Plays `text` and returns (SAN with suffix, UCI, new position) at once.
    fn play_annotated(&self, py: Python<'_>, text: &str) -> PyResult<(String, String, Position)> {
        let m = parse_move(py, &self.pos, text)?;
        let mut next = self.pos.clone();
        let san = SanPlus::from_move_and_play_unchecked(&mut next, m).to_string();
        Ok((san, uci_in(&self.pos, m), Position { pos: next }))
    }

    /// Plays many moves; returns the final position. Stops with the error
    /// of the first bad move (its index is in the `index` attribute).
    fn play_many(&self, py: Python<'_>, moves: Vec<String>) -> PyResult<Position> {
        let mut pos = self.pos.clone();
        for (i, text) in moves.iter().enumerate() {
            match parse_move(py, &pos, text) {
                Ok(m) => pos.play_unchecked(m),
                Err(e) => {
                    let _ = e.value(py).setattr("index", i);
                    return Err(e);
                }
            }
        }
        Ok(Position { pos })
    }

    /// The FEN after each of `moves` played in turn from this position (each read as `play` reads
    /// it); None for the first move that cannot be played and every one after it. One call for a
    /// game's positions, as a view of its moves shows them (a live game keeps no FEN per move).
    fn fens_after(&self, py: Python<'_>, moves: Vec<String>) -> Vec<Option<String>> {
        let mut pos = self.pos.clone();
        let mut out = Vec::with_capacity(moves.len());
        let mut playing = true;
        for text in moves.iter() {
            if playing {
                match parse_move(py, &pos, text) {
                    Ok(m) => {
                        pos.play_unchecked(m);
                        out.push(Some(fen_of(&pos)));
                        continue;
                    }
                    Err(_) => playing = false,
                }
            }
            out.push(None);
        }
        out
    }

    fn is_check(&self) -> bool {
        self.pos.is_check()
    }

    fn is_checkmate(&self) -> bool {
        self.pos.is_checkmate()
    }

    fn is_stalemate(&self) -> bool {
        self.pos.is_stalemate()
    }

    /// Neither side has mating material (a quick material test only).
    fn is_insufficient_material(&self) -> bool {
        self.pos.is_insufficient_material()
    }

    /// `color` cannot mate by material alone (a quick material test only).
    fn has_insufficient_material(&self, color: &str) -> PyResult<bool> {
        Ok(self.pos.has_insufficient_material(parse_color(color)?))
    }

    /// Counts of each piece letter, e.g. {"K": 1, "k": 1, "R": 1}.
    fn material(&self) -> std::collections::HashMap<char, u32> {
        let mut out = std::collections::HashMap::new();
        for (_, p) in self.pos.board().clone().into_iter() {
            *out.entry(p.char()).or_insert(0) += 1;
        }
        out
    }

    /// Colours of the squares of `color`'s bishops: a list of "light"/"dark".
    fn bishop_square_colors(&self, color: &str) -> PyResult<Vec<&'static str>> {
        let c = parse_color(color)?;
        let b = self.pos.board();
        Ok((b.by_color(c) & b.by_role(Role::Bishop))
            .into_iter()
            .map(|sq| if sq.is_light() { "light" } else { "dark" })
            .collect())
    }

    /// Plays a move that is NOT legal, as it was made over the board: the
    /// piece on the from-square goes to the to-square (capturing what stands
    /// there, promoting if asked; a king moving two squares towards its rook
    /// castles). Used where an illegal move stands (1997 Appendix C.3). The
    /// result may be an illegal position; legal moves from it never capture a
    /// king. Raises IllegalMove when the move cannot be made at all (no piece
    /// of the side to move on the from-square, a king would be captured).
    fn play_illegal(&self, py: Python<'_>, uci: &str) -> PyResult<Position> {
        let parsed: UciMove = uci.trim().parse().map_err(|_| {
            error_with::<UnreadableMove>(
                py,
                format!("unreadable move {uci:?}: an illegal move is written in coordinates, e.g. e2e5"),
                &[("move", s(py, uci)), ("fen", s(py, &self.fen()))],
            )
        })?;
        let cannot = |why: &str| {
            error_with::<IllegalMove>(
                py,
                format!("move {uci:?} cannot be made in {}: {why}", self.fen()),
                &[("move", s(py, uci)), ("fen", s(py, &self.fen()))],
            )
        };
        let (from, to, promotion) = match parsed {
            UciMove::Normal { from, to, promotion } => (from, to, promotion),
            _ => return Err(cannot("not a move of standard chess")),
        };
        let board = self.pos.board();
        let piece = board.piece_at(from).ok_or_else(|| cannot("the from-square is empty"))?;
        if piece.color != self.pos.turn() {
            return Err(cannot("the piece on the from-square belongs to the other side"));
        }
        let capture = board.piece_at(to);
        if piece.role == Role::King
            && self.pos.castles().mode() == CastlingMode::Chess960
            && capture.is_some_and(|c| c.color == piece.color && c.role == Role::Rook)
            && self.pos.castles().castling_rights().contains(to)
        {
            // A Chess960 castling written as the king taking its own rook.
            let mut next = self.pos.clone();
            next.play_unchecked(Move::Castle { king: from, rook: to });
            return Ok(Position { pos: next });
        }
        if let Some(c) = capture {
            if c.color == piece.color {
                return Err(cannot("the to-square holds a piece of the same colour"));
            }
            if c.role == Role::King {
                return Err(cannot("a king is never captured"));
            }
        }
        let m = if piece.role == Role::King
            && from.rank() == to.rank()
            && u32::from(from.file()).abs_diff(u32::from(to.file())) == 2
        {
            let rook_file = if u32::from(to.file()) > u32::from(from.file()) { shakmaty::File::H } else { shakmaty::File::A };
            let rook = Square::from_coords(rook_file, from.rank());
            match board.piece_at(rook) {
                Some(r) if r.role == Role::Rook && r.color == piece.color && capture.is_none() => {
                    Move::Castle { king: from, rook }
                }
                _ => Move::Normal { role: piece.role, from, capture: capture.map(|c| c.role), to, promotion },
            }
        } else {
            Move::Normal { role: piece.role, from, capture: capture.map(|c| c.role), to, promotion }
        };
        let mut next = self.pos.clone();
        next.play_unchecked(m);
        Ok(Position { pos: next })
    }

    /// True when the side that just moved has left its king in check, or the
    /// position could not arise from legal moves for another reason that
    /// matters here.
    fn is_irregular(&self) -> bool {
        let setup = self.pos.to_setup(EnPassantMode::Legal);
        setup.position::<Chess>(self.pos.castles().mode()).is_err()
    }

    fn __str__(&self) -> String {
        let b = self.pos.board();
        let mut out = String::new();
        for rank in (0..8).rev() {
            for file in 0..8 {
                let sq = Square::from_coords(
                    shakmaty::File::new(file),
                    shakmaty::Rank::new(rank),
                );
                out.push(b.piece_at(sq).map_or('.', |p| p.char()));
                if file < 7 {
                    out.push(' ');
                }
            }
            out.push('\n');
        }
        out
    }

    fn __repr__(&self) -> String {
        format!("Position('{}')", self.fen())
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        match other.cast::<Position>() {
            Ok(o) => self.fen() == o.get().fen(),
            Err(_) => false,
        }
    }

    fn __hash__(&self) -> u64 {
        self.zobrist() ^ u64::from(self.pos.halfmoves()) ^ (u64::from(self.pos.fullmoves().get()) << 32)
    }
}
