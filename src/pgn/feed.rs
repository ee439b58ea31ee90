//! The feed: wraps any `BufRead` and gives `pgn_reader` a line at a time, so
//! that it knows the line of every move and sees the text the reader passes
//! over without a visitor call (syntax errors); broken tag lines are repaired.

use std::collections::VecDeque;
use std::io::{self, BufRead, Read};
use std::sync::{Arc, Mutex};

use super::gameend::MovetextEnd;
use super::{CHUNK, MAX_ERRORS, MAX_JUNK_TEXT};

// ---------------------------------------------------------------------------
// Shared state between the feed and the visitor.

/// Text the reader skipped without a visitor call: not a move, a tag, a
/// comment, a NAG, a result or a move number.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Junk {
    pub line: u64,
    pub text: String,
    pub(super) end: u64,
}

#[derive(Debug, Default)]
pub struct Tracking {
    /// Line (1-based) where the reader's current token starts.
    pub line: u64,
    /// Set by the visitor on every call; cleared by the feed.
    pub(super) event: bool,
    /// Set while the visitor skips a variation (no junk is reported there).
    pub(super) skipping: bool,
    pub(super) junk: Vec<Junk>,
}

pub type SharedTracking = Arc<Mutex<Tracking>>;

pub(super) fn lock(t: &SharedTracking) -> std::sync::MutexGuard<'_, Tracking> {
    t.lock().unwrap_or_else(|e| e.into_inner())
}

// ---------------------------------------------------------------------------
// The feed.

pub(super) struct Piece {
    pub(super) start: u64,
    pub(super) data: Vec<u8>,
    pub(super) line: u64,
}

impl Piece {
    pub(super) fn end(&self) -> u64 {
        self.start + self.data.len() as u64
    }
}

/// A `Read` for `pgn_reader::Reader` that hands out one line per call and
/// tracks the line of the reader's current token (see the module docs).
///
/// It relies on `pgn_reader` 0.29 reading into the free tail of a fixed
/// buffer, so that `capacity - buf.len()` is the number of bytes the reader
/// holds unread.
pub struct LineFeed<R> {
    pub(super) inner: R,
    pub(super) tracking: SharedTracking,
    pub(super) pieces: VecDeque<Piece>,
    pub(super) carry: Vec<u8>,
    pub(super) delivered: u64,
    pub(super) next_line: u64,
    pub(super) capacity: usize,
    pub(super) last_offset: u64,
    pub(super) eof: bool,
    pub(super) at_line_start: bool,
    /// The names of the tags read since the last line that was not a tag
    /// (a set: a section of 80,000 tags looked each name up among those
    /// before it, quadratic).
    pub(super) tag_names: std::collections::HashSet<Vec<u8>>,
    pub(super) in_tags: bool,
    /// A tag line held back while an empty movetext is handed out before it.
    pub(super) held: Option<Vec<u8>>,
    /// Lines read ahead past a blank line, to see whether it ends the game.
    pub(super) ahead: VecDeque<Vec<u8>>,
    /// Movetext has been handed out since the last tag section.
    pub(super) in_movetext: bool,
    /// Where that movetext stands: ended by its result, or not (`super::gameend`).
    pub(super) end: MovetextEnd,
}

impl<R: BufRead> LineFeed<R> {
    pub fn new(inner: R, tracking: SharedTracking) -> Self {
        LineFeed {
            inner,
            tracking,
            pieces: VecDeque::new(),
            carry: Vec::new(),
            delivered: 0,
            next_line: 1,
            capacity: 0,
            last_offset: 0,
            eof: false,
            at_line_start: true,
            tag_names: std::collections::HashSet::new(),
            in_tags: false,
            held: None,
            ahead: VecDeque::new(),
            in_movetext: false,
            end: MovetextEnd::default(),
        }
    }

    /// The next piece of input: one read ahead first.
    pub(super) fn next_input(&mut self, max: usize) -> io::Result<Option<Vec<u8>>> {
        match self.ahead.pop_front() {
            Some(mut p) => {
                if p.len() > max.max(1) {
                    let rest = p.split_off(max.max(1));
                    self.ahead.push_front(rest);
                }
                Ok(Some(p))
            }
            None => self.next_piece(max),
        }
    }

    /// A blank line in the movetext of a game with no result yet: does it end the game? Reads ahead to
    /// the next line that is not blank (kept in `ahead`): it does when that line is a tag pair or there
    /// is none (`super::gameend`).
    pub(super) fn blank_ends_game(&mut self) -> io::Result<bool> {
        let mut i = 0;
        loop {
            if i == self.ahead.len() {
                match self.next_piece(CHUNK)? {
                    Some(p) => self.ahead.push_back(p),
                    None => return Ok(self.end.blank_ends_game(None)),
                }
            }
            let line = &self.ahead[i];
            let text = if line.starts_with(b"\xef\xbb\xbf") { &line[3..] } else { &line[..] };
            if !is_blank_line(text) {
                return Ok(self.end.blank_ends_game(Some(text)));
            }
            i += 1;
        }
    }

    /// Notes what the line `data` (at a line start) is: a tag line starts a tag section, other text is
    /// movetext, read for the end of its game.
    pub(super) fn follow(&mut self, data: &[u8]) {
        if data.first() == Some(&b'[') && tag_name(data).is_some() {
            self.in_movetext = false;
            self.end = MovetextEnd::default();
        } else if !is_blank_line(data) {
            self.in_movetext = true;
            self.end.line(data);
        }
    }

    /// Does the line `data` (at a line start) repeat a tag of the tag
    /// section it belongs to? Then the section before it was a game with
    /// tags and no movetext, and the line starts the next game.
    pub(super) fn starts_new_game(&mut self, data: &[u8]) -> bool {
        let text = trim_ascii_start(data);
        if text.is_empty() {
            return false;
        }
        match tag_name(text) {
            Some(name) => {
                let repeated = self.in_tags && self.tag_names.contains(name);
                if !self.in_tags || repeated {
                    self.tag_names.clear();
                }
                self.in_tags = true;
                self.tag_names.insert(name.to_vec());
                repeated
            }
            None => {
                if text[0] != b'%' && text[0] != b';' {
                    self.in_tags = false;
                    self.tag_names.clear();
                }
                false
            }
        }
    }

    pub(super) fn line_of(&self, offset: u64) -> u64 {
        for p in &self.pieces {
            if p.start <= offset && offset < p.end() {
                return p.line;
            }
        }
        self.next_line
    }

    pub(super) fn bytes_between(&self, from: u64, to: u64) -> Vec<u8> {
        let mut out = Vec::new();
        for p in &self.pieces {
            let s = from.max(p.start);
            let e = to.min(p.end());
            if s < e {
                out.extend_from_slice(&p.data[(s - p.start) as usize..(e - p.start) as usize]);
            }
        }
        out
    }

    /// The reader has consumed everything before `offset`.
    pub(super) fn observe(&mut self, offset: u64) {
        let skipped = if offset > self.last_offset {
            self.bytes_between(self.last_offset, offset)
        } else {
            Vec::new()
        };
        // Whitespace and byte order marks (the reader skips one before every game).
        let mut first_non_ws = None;
        let mut i = 0;
        while i < skipped.len() {
            if skipped[i..].starts_with(b"\xef\xbb\xbf") {
                i += 3;
            } else if skipped[i].is_ascii_whitespace() {
                i += 1;
            } else {
                first_non_ws = Some(i);
                break;
            }
        }
        let junk_line = first_non_ws.map(|i| self.line_of(self.last_offset + i as u64));
        let line = self.line_of(offset);
        {
            let mut t = lock(&self.tracking);
            if !t.event && !t.skipping {
                if let (Some(i), Some(jl)) = (first_non_ws, junk_line) {
                    let text = &skipped[i..];
                    let trimmed_len = text.len()
                        - text.iter().rev().take_while(|b| b.is_ascii_whitespace()).count();
                    let text = &text[..trimmed_len];
                    if !is_harmless(text) {
                        let start = self.last_offset + i as u64;
                        let end = start + text.len() as u64;
                        let s = String::from_utf8_lossy(&text[..text.len().min(MAX_JUNK_TEXT)]).into_owned();
                        let count = t.junk.len();
                        match t.junk.last_mut() {
                            Some(prev) if prev.end == start => {
                                if prev.text.len() < MAX_JUNK_TEXT {
                                    prev.text.push_str(&s);
                                }
                                prev.end = end;
                            }
                            _ if count < MAX_ERRORS => t.junk.push(Junk { line: jl, text: s, end }),
                            _ => {}
                        }
                    }
                }
            }
            t.event = false;
            t.line = line;
        }
        self.last_offset = offset;
        while self.pieces.front().is_some_and(|p| p.end() <= offset) {
            self.pieces.pop_front();
        }
    }

    /// Reads the next piece of input: a line, or a part of a very long line
    /// cut after a space (or at a character boundary).
    pub(super) fn next_piece(&mut self, max: usize) -> io::Result<Option<Vec<u8>>> {
        let limit = max.min(CHUNK);
        let mut piece = std::mem::take(&mut self.carry);
        if let Some(nl) = piece.iter().position(|&b| b == b'\n') {
            self.carry = piece.split_off(nl + 1);
            return Ok(Some(piece));
        }
        let mut ended = false;
        while piece.len() < limit {
            let buf = self.inner.fill_buf()?;
            if buf.is_empty() {
                break;
            }
            let room = limit - piece.len();
            let window = &buf[..buf.len().min(room)];
            if let Some(nl) = window.iter().position(|&b| b == b'\n') {
                piece.extend_from_slice(&window[..=nl]);
                self.inner.consume(nl + 1);
                ended = true;
                break;
            }
            let n = window.len();
            piece.extend_from_slice(window);
            self.inner.consume(n);
        }
        if piece.is_empty() {
            return Ok(None);
        }
        if !ended && piece.len() >= limit {
            let cut = match piece.iter().rposition(|&b| b == b' ' || b == b'\t') {
                Some(i) if i > 0 => i + 1,
                _ => {
                    let mut i = piece.len();
                    while i > 1 && (piece[i - 1] & 0xC0) == 0x80 {
                        i -= 1;
                    }
                    if i > 1 && piece[i - 1] >= 0xC0 {
                        i -= 1;
                    }
                    i.max(1)
                }
            };
            self.carry = piece.split_off(cut);
        }
        Ok(Some(piece))
    }
}

pub(super) fn trim_ascii_start(data: &[u8]) -> &[u8] {
    let skip = data.iter().take_while(|b| b.is_ascii_whitespace()).count();
    &data[skip..]
}

/// The name of a tag pair `[Name "value"]` starting `text`, if it is one.
pub(super) fn tag_name(text: &[u8]) -> Option<&[u8]> {
    let rest = text.strip_prefix(b"[")?;
    let rest = trim_ascii_start(rest);
    let len = rest.iter().take_while(|b| b.is_ascii_alphanumeric() || **b == b'_').count();
    if len == 0 || !rest[0].is_ascii_alphanumeric() {
        return None;
    }
    let after = trim_ascii_start(&rest[len..]);
    if after.first() == Some(&b'"') {
        Some(&rest[..len])
    } else {
        None
    }
}

/// A tag line whose values have quotes that are not escaped
/// (`[Event "Club "Victory""]`), rewritten with them escaped, so that the
/// values read here as `chesslaws check` reads them (its tag reader,
/// `check::parse_tag_line`: up to the last `"]`), not as junk and a game
/// that falls apart. None when the line is no such tag line.
pub(super) fn repair_tag_line(line: &[u8]) -> Option<Vec<u8>> {
    if !line.trim_ascii_start().starts_with(b"[") {
        return None;
    }
    let mut tags = Vec::new();
    let mut errors = Vec::new();
    let rest = crate::tags::parse_tag_line(line, 0, &mut tags, &mut errors, 0);
    if errors.is_empty()
        || tags.is_empty()
        || !errors.iter().all(|e| e.contains("not escaped") || e.contains("ends with a backslash"))
    {
        return None;
    }
    let mut out = Vec::with_capacity(line.len() + 8);
    for ((n0, n1), (v0, v1)) in tags {
        out.push(b'[');
        out.extend_from_slice(&line[n0..n1]);
        out.extend_from_slice(b" \"");
        let value = &line[v0..v1];
        let mut k = 0;
        while k < value.len() {
            match value[k] {
                b'\\' if k + 1 < value.len() => {
                    out.extend_from_slice(&value[k..k + 2]);
                    k += 2;
                }
                b'\\' => {
                    // A backslash ending the value: itself, escaped.
                    out.extend_from_slice(b"\\\\");
                    k += 1;
                }
                b'"' => {
                    out.extend_from_slice(b"\\\"");
                    k += 1;
                }
                b => {
                    out.push(b);
                    k += 1;
                }
            }
        }
        out.extend_from_slice(b"\"]");
    }
    match rest {
        Some(i) => {
            out.push(b' ');
            out.extend_from_slice(&line[i..]);
        }
        None if line.ends_with(b"\r\n") => out.extend_from_slice(b"\r\n"),
        None if line.ends_with(b"\n") => out.push(b'\n'),
        None => {}
    }
    Some(out)
}

pub(super) fn is_blank_line(text: &[u8]) -> bool {
    text.iter().all(u8::is_ascii_whitespace)
}

pub(super) fn is_harmless(text: &[u8]) -> bool {
    if text.is_empty() || text[0] == b'%' || text[0] == b';' {
        return true;
    }
    // Move numbers like `12.` or `12...`, and stray dots.
    let digits = text.iter().take_while(|b| b.is_ascii_digit()).count();
    text[digits..].iter().all(|&b| b == b'.' || b == b' ')
}

impl<R: BufRead> Read for LineFeed<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.capacity = self.capacity.max(buf.len());
        let held = (self.capacity - buf.len()) as u64;
        let offset = self.delivered.saturating_sub(held);
        self.observe(offset);
        // Keep the reader's current line and the whole next line in its
        // buffer: enough for every look-ahead it makes.
        let ahead = self.pieces.iter().filter(|p| p.end() > offset).count();
        if ahead >= 2 || self.eof {
            return Ok(0);
        }
        let held_line = self.held.take();
        let was_held = held_line.is_some();
        let piece = match held_line {
            Some(mut p) => {
                if p.len() > buf.len() {
                    self.held = Some(p.split_off(buf.len().max(1)));
                }
                Some(p)
            }
            None => self.next_input(buf.len())?,
        };
        match piece {
            None => {
                self.eof = true;
                Ok(0)
            }
            Some(mut data) => {
                // A byte order mark at the start of a line (a file start, or
                // files joined with `cat`) is not text.
                if self.at_line_start && !was_held && data.starts_with(b"\xef\xbb\xbf") {
                    data.drain(..3);
                }
                // DOS and Windows leftovers: a Ctrl-Z ending the file, form
                // feeds: white space, as python-chess reads them.
                for b in data.iter_mut() {
                    if matches!(*b, 0x1a | 0x0b | 0x0c) {
                        *b = b' ';
                    }
                }
                if self.at_line_start && !was_held {
                    if let Some(fixed) = repair_tag_line(&data).filter(|f| f.len() <= buf.len()) {
                        data = fixed;
                    }
                }
                if self.at_line_start
                    && !was_held
                    && self.in_movetext
                    && !self.end.ended()
                    && !self.end.in_comment()
                    && data.ends_with(b"\n")
                    && is_blank_line(&data)
                    && !self.blank_ends_game()?
                {
                    // A blank line inside the movetext, moves after it: not handed to the reader (which
                    // would end the game there), but counted as a line.
                    self.next_line += 1;
                    return self.read(buf);
                }
                let mut synthetic = false;
                if self.at_line_start && !was_held && data.len() <= buf.len() && self.starts_new_game(&data) {
                    // A game with tags and no moves: an empty comment as its
                    // movetext ends it here (the reader would otherwise take
                    // the next game's tags as its own).
                    self.held = Some(data);
                    data = b"{}\n".to_vec();
                    synthetic = true;
                }
                if self.at_line_start && !synthetic {
                    self.follow(&data);
                } else if !synthetic && self.in_movetext {
                    self.end.line(&data);
                }
                self.at_line_start = data.last() == Some(&b'\n');
                if data.is_empty() {
                    return self.read(buf);
                }
                let n = data.len();
                buf[..n].copy_from_slice(&data);
                let line = self.next_line;
                if data.last() == Some(&b'\n') && !synthetic {
                    self.next_line += 1;
                }
                self.pieces.push_back(Piece { start: self.delivered, data, line });
                self.delivered += n as u64;
                Ok(n)
            }
        }
    }
}
