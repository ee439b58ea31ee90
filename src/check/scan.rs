//! The scan of a movetext: what `pgn_reader` hands to the visitor and what it
//! passes over silently (tokens in other notations, text that is no move).

use pgn_reader::{KnownOutcome, Outcome, SanPlus};
use shakmaty::san::San;
use shakmaty::Color;

use crate::notation::{is_annotation, plain_san};

pub(super) fn is_token_end(b: u8) -> bool {
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
pub(super) const PLAIN_COMMENT_LIMIT: usize = 4096;

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
pub(super) fn dash_len(rest: &[u8]) -> usize {
    ["-", "\u{2013}", "\u{2014}"].iter().find(|d| rest.starts_with(d.as_bytes())).map_or(0, |d| d.len())
}

/// A result token starting `rest`, as `pgn_reader` reads it: `1-0`, `0-1`,
/// `1/2-1/2`, `½-½`, with any dash of [`dash_len`].
pub(super) fn result_token(rest: &[u8]) -> Option<(usize, Outcome)> {
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

#[cfg(test)]
mod tests {
    use super::*;

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
}
