//! The move grammar: every notation a move is read in (SAN, FIDE long algebraic,
//! FIDE promotions, UCI coordinates, figurines) and the resolution of a SAN to the one
//! legal move it names. The checker, the PGN reader and `Position` read moves here.

use pgn_reader::SanPlus;
use shakmaty::san::{San, SanError};
use shakmaty::uci::UciMove;
use shakmaty::{Bitboard, CastlingMode, Chess, Color, Move, Position as _, Role, Square};

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
pub(crate) fn figurine_letter(c: char) -> Option<u8> {
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
pub(crate) fn plain_san(token: &[u8]) -> Option<SanPlus> {
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
pub(crate) enum Alt {
    San(San),
    Coords { role: Option<Role>, uci: UciMove },
}

pub(crate) fn promotion_role(b: u8) -> Option<Role> {
    match b.to_ascii_uppercase() {
        b'Q' => Some(Role::Queen),
        b'R' => Some(Role::Rook),
        b'B' => Some(Role::Bishop),
        b'N' => Some(Role::Knight),
        _ => None,
    }
}

pub(crate) fn parse_alt(token: &[u8]) -> Option<Alt> {
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

/// The one legal move a SAN names in the everyday case, found without
/// generating the position's move list (shakmaty's `San::to_move` fills a
/// 256-move list per move): a piece, king or pawn move, no promotion, no en
/// passant square in play, the side to move not in check, the capture sign
/// as the board has it. `None` whenever that case does not hold or the SAN
/// does not name exactly one legal move: `San::to_move` then decides (and
/// gives the error). So a move found here is the move `to_move` gives.
pub(crate) fn resolve_quickly(pos: &Chess, san: &San) -> Option<Move> {
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

/// The forms of FIDE's algebraic notation (Laws, Appendix C) that differ
/// from PGN's SAN, rewritten to SAN: castling with zeros (`0-0`, `0-0-0`),
/// promotion without `=` (`d8Q`) and the long form with a hyphen (`e2-e4`,
/// `Ng1-f3`). None when `t` has none of them.
pub(crate) fn fide_to_san(t: &str) -> Option<String> {
    let end = t.find(['+', '#']).unwrap_or(t.len());
    let (core, suffix) = t.split_at(end);
    let mut out = match core {
        "0-0" => return Some(format!("O-O{suffix}")),
        "0-0-0" => return Some(format!("O-O-O{suffix}")),
        _ => core.to_string(),
    };
    let b = out.as_bytes();
    if let Some(i) = out.find('-') {
        if i > 0 && b[i - 1].is_ascii_digit() && b.get(i + 1).is_some_and(|c| (b'a'..=b'h').contains(c)) {
            out.remove(i);
        }
    }
    let b = out.as_bytes();
    let n = b.len();
    if n >= 3
        && matches!(b[n - 1], b'Q' | b'R' | b'B' | b'N')
        && matches!(b[n - 2], b'1' | b'8')
        && (b'a'..=b'h').contains(&b[n - 3])
    {
        out.insert(n - 1, '=');
    }
    (out != core).then(|| out + suffix)
}

/// In Chess960, a king move in coordinates to the square where the king ends
/// a castling (`b1g1` for the castling with the h-rook) is that castling when
/// it cannot be read otherwise: it is not a legal move of the king itself and
/// exactly one legal castling puts the king there.
pub(crate) fn king_destination_castle(pos: &Chess, uci: UciMove) -> Option<Move> {
    let UciMove::Normal { from, to, promotion: None } = uci else {
        return None;
    };
    if pos.castles().mode() != CastlingMode::Chess960 {
        return None;
    }
    let mut found = None;
    for m in pos.legal_moves() {
        if let Move::Castle { king, rook } = m {
            let side = shakmaty::CastlingSide::from_king_side(king < rook);
            let dest = Square::from_coords(side.king_to_file(), king.rank());
            if king == from && dest == to {
                if found.is_some() {
                    return None;
                }
                found = Some(m);
            }
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use shakmaty::fen::Fen;
    use shakmaty::EnPassantMode;

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
}
