//! The [`Splitter`]: cuts a PGN byte stream into games where a game ends
//! (`crate::pgn::gameend`: after its result, or at a blank line before a tag pair or
//! the end of the input), remembering the line each starts on, and packs them into
//! [`Batch`]es. Blank lines inside a movetext are left out of its game's text.

use std::io::{self, BufRead, Read};

use super::{BATCH_BYTES, BATCH_GAMES, LINE_LIMIT, MAX_GAME_BYTES};
use crate::input::Input;
use crate::pgn::gameend::MovetextEnd;

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
pub(super) fn movetext_after_tag(line: &[u8]) -> bool {
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

pub(super) fn looks_like_tag(line: &[u8]) -> bool {
    if line.first() != Some(&b'[') {
        return false;
    }
    let name = line[1..].iter().take_while(|b| b.is_ascii_alphanumeric() || **b == b'_').count();
    name > 0 && line[1 + name..].iter().skip_while(|b| **b == b' ').next() == Some(&b'"')
}

/// Cuts a PGN byte stream into games (see the module docs).
pub struct Splitter {
    pub(super) input: Input,
    pub(super) line_no: u64,
    pub(super) line: Vec<u8>,
    pub(super) carry: bool,
    /// (line, start offset in the batch) of the game being read.
    pub(super) open: Option<(u64, usize)>,
    pub(super) has_movetext: bool,
    pub(super) in_comment: bool,
    pub(super) prev_blank: bool,
    /// Where the open game's movetext stands: ended by its result, or not.
    pub(super) end: MovetextEnd,
    /// Blank lines after movetext whose game has no result yet: they end it if a tag pair or the end
    /// of the input comes next, and are left out of it if its moves go on (see `crate::pgn::gameend`).
    pub(super) held_blank: bool,
    pub(super) truncated: bool,
    /// The last read stopped at LINE_LIMIT inside a line.
    pub(super) partial: bool,
    /// An I/O error met after some games of a batch were read.
    pub(super) error: Option<io::Error>,
    pub(super) seq: u64,
    pub(super) eof: bool,
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
            end: MovetextEnd::default(),
            held_blank: false,
            truncated: false,
            partial: false,
            error: None,
            seq: 0,
            eof: false,
        }
    }

    pub(super) fn finish(&mut self, batch: &mut Batch) {
        if let Some((line, start)) = self.open.take() {
            batch.games.push(RawGame { line, start, end: batch.buf.len(), truncated: self.truncated });
        }
        self.has_movetext = false;
        self.in_comment = false;
        self.end = MovetextEnd::default();
        self.held_blank = false;
        self.truncated = false;
    }

    pub(super) fn append(&mut self, batch: &mut Batch, body: &[u8]) {
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

    pub(super) fn scan_braces(&mut self, body: &[u8]) {
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
            if self.held_blank && !blank {
                if self.end.blank_ends_game(Some(body)) {
                    // The blank lines before this line ended the game.
                    self.finish(&mut batch);
                    if full {
                        self.line = line;
                        self.carry = true;
                        self.prev_blank = true;
                        break;
                    }
                } else {
                    // The moves go on: the blank lines were inside the movetext (left out of it).
                    self.held_blank = false;
                }
            }
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
                    self.end.line(body);
                }
            } else if blank {
                if self.has_movetext && !self.end.ended() {
                    self.held_blank = true;
                } else if self.has_movetext {
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
                    self.end.line(&body[memchr::memrchr(b']', body).map_or(0, |k| k + 1)..]);
                }
            } else {
                self.has_movetext = true;
                self.append(&mut batch, body);
                self.scan_braces(body);
                self.end.line(body);
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

#[cfg(test)]
mod tests {
    use super::*;

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
