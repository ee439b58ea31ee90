//! Streaming PGN reading on `pgn-reader`, with every move played (and so
//! validated) by shakmaty.
//!
//! The reading core does not touch Python:
//!
//! - [`LineFeed`] wraps any `BufRead` and feeds `pgn_reader::Reader` a line
//!   at a time. Because the reader asks for more input at the start of every
//!   movetext token, the feed knows how far the reader has got, and so the
//!   line of every move. It also sees the bytes the reader passed over
//!   without telling its visitor anything (tokens that are not moves), which
//!   become syntax errors.
//! - [`GameCollector`] is a `pgn_reader::Visitor` that plays the main line,
//!   collects tags, comments, NAGs, `[%clk]` values and `(=)` draw offers,
//!   counts the variations it skips, and records errors; it produces a plain
//!   [`GameRecord`] per game.
//! - [`PgnGames`] iterates `GameRecord`s from a `BufRead` in constant memory;
//!   a bad game gives a record with errors and reading goes on.
//!
//! Only [`PyPgnReader`] builds Python objects.

use std::io::{self, BufRead};
use std::ops::ControlFlow;
use std::sync::{Arc, Mutex};

use pgn_reader::{Nag, Outcome, RawComment, RawTag, Reader, SanPlus, Skip, Visitor};
use pyo3::exceptions::{PyOSError, PyTypeError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyList, PyTuple};
use shakmaty::fen::Fen;
use shakmaty::san::{San, SanError};
use shakmaty::{CastlingMode, Chess, Color, EnPassantMode, KnownOutcome, Position as _};

use crate::position::{chess960_start, uci_in};
use crate::tags::is_chess960;

mod feed;
pub(crate) mod gameend;

use feed::{lock, LineFeed, SharedTracking, Tracking};

/// Longest piece of input handed to the reader at once; longer lines are cut
/// after a space.
const CHUNK: usize = 16 * 1024;
/// The reader's token and tag-line sizes: larger than anything the feed ever
/// buffers, so the reader asks the feed for input before every token.
const READER_TOKEN: usize = 64 * 1024;
/// Longest comment kept (longer ones are cut): memory stays bounded.
const MAX_COMMENT: usize = 1 << 20;
/// The `Variant` tag values that mean standard chess (lower case): the PGN
/// standard's, lichess's ("Standard", "From Position"), cutechess's and
/// TCEC's ("normal"), and other common spellings.
const STANDARD_VARIANTS: &[&str] = &[
    "", "standard", "chess", "normal", "from position", "fromposition", "classical", "orthodox",
    "standard chess", "traditional", "regular", "international",
];
/// Errors kept per game, and the longest text quoted in one.
const MAX_ERRORS: usize = 100;
const MAX_JUNK_TEXT: usize = 80;


// ---------------------------------------------------------------------------
// Game records.

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MoveRecord {
    pub ply: u32,
    pub san: String,
    pub uci: String,
    pub clock_ms: Option<u64>,
    pub comment: Option<String>,
    pub nags: Vec<u8>,
    pub line: u64,
    pub draw_offer: bool,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameError {
    pub game: u64,
    pub line: u64,
    pub move_number: u32,
    pub mv: String,
    pub reason: String,
}

#[derive(Debug, Clone, Default)]
pub struct GameRecord {
    pub number: u64,
    pub line: u64,
    pub tags: Vec<(String, String)>,
    /// Comment before the first move.
    pub comment: Option<String>,
    pub moves: Vec<MoveRecord>,
    pub result: Option<String>,
    pub errors: Vec<GameError>,
    pub variations_skipped: u32,
    /// The position after the last move played (the start position if none).
    pub position: Chess,
    /// Chess960 (a `Variant` tag such as "Chess960" or cutechess's
    /// "fischerandom", or a FEN whose castling rights only Chess960 allows).
    pub chess960: bool,
}

/// Parses a `[%clk H:MM:SS(.f)]` value (also `M:SS` and `SS`) into ms.
pub fn parse_clock(text: &str) -> Option<u64> {
    crate::clocks::clock_ms(text.trim().as_bytes())
}

/// Splits a comment into its text without `[%clk ...]` commands and `(=)`
/// markers, the last clock value, and whether it marks a draw offer.
pub fn parse_comment(raw: &str) -> (String, Option<u64>, bool) {
    let mut text = String::with_capacity(raw.len());
    let mut clock = None;
    let mut rest = raw;
    while let Some(i) = rest.find("[%clk") {
        match rest[i..].find(']') {
            Some(j) => {
                let value = &rest[i + 5..i + j];
                match parse_clock(value) {
                    Some(ms) => {
                        clock = Some(ms);
                        text.push_str(&rest[..i]);
                    }
                    None => text.push_str(&rest[..i + j + 1]),
                }
                rest = &rest[i + j + 1..];
            }
            None => break,
        }
    }
    text.push_str(rest);
    let draw = text.contains("(=)");
    let text = if draw { text.replace("(=)", "") } else { text };
    // Line breaks inside a comment are the writer's wrapping, not text.
    let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
    (text, clock, draw)
}

fn outcome_text(o: Outcome) -> &'static str {
    match o {
        Outcome::Known(KnownOutcome::Decisive { winner: Color::White }) => "1-0",
        Outcome::Known(KnownOutcome::Decisive { winner: Color::Black }) => "0-1",
        Outcome::Known(KnownOutcome::Draw) => "1/2-1/2",
        Outcome::Unknown => "*",
    }
}

// ---------------------------------------------------------------------------
// The visitor.

#[derive(Default)]
struct PendingMove {
    comments: Vec<String>,
    clock: Option<u64>,
    draw: bool,
}

/// A `pgn_reader::Visitor` that plays the main line and builds a
/// [`GameRecord`]. All state lives in the visitor, so a game cut short by an
/// I/O or syntax error can still be finished with [`GameCollector::abort`].
pub struct GameCollector {
    tracking: Option<SharedTracking>,
    games: u64,
    game: GameRecord,
    pos: Chess,
    /// The FEN tag and its line, read when the movetext starts (the Variant
    /// tag may come after it).
    fen: Option<(u64, String)>,
    chess960: bool,
    /// After an unplayable move, later moves are not played.
    stopped: bool,
    depth: u32,
    started: bool,
    pre: PendingMove,
    cur: Option<PendingMove>,
    /// The pieces of a long comment read so far.
    partial: Vec<u8>,
}

impl GameCollector {
    /// `tracking` comes from the [`LineFeed`] the reader reads from; without
    /// it lines are reported as 0 and skipped text is not reported.
    pub fn new(tracking: Option<SharedTracking>) -> Self {
        GameCollector {
            tracking,
            games: 0,
            game: GameRecord::default(),
            pos: Chess::default(),
            fen: None,
            chess960: false,
            stopped: false,
            depth: 0,
            started: false,
            pre: PendingMove::default(),
            cur: None,
            partial: Vec::new(),
        }
    }

    /// Called at every visitor call: current line, and junk since the last.
    fn touch(&mut self) -> u64 {
        let (line, junk) = match &self.tracking {
            Some(t) => {
                let mut t = lock(t);
                t.event = true;
                (t.line, std::mem::take(&mut t.junk))
            }
            None => (0, Vec::new()),
        };
        if !self.started {
            self.started = true;
            self.game.line = junk.first().map_or(line, |j| j.line.min(line));
        }
        let mut junk = junk.into_iter().peekable();
        while let Some(j) = junk.next() {
            if j.text == "e" && junk.peek().is_some_and(|n| n.text == "p") {
                // "e.p." (en passant) written after the move: the reader passes
                // over "e" and "p" between its dots; check skips it too.
                junk.next();
                continue;
            }
            let words: Vec<&str> = j.text.split_ascii_whitespace().collect();
            let readable = !j.text.starts_with('[')
                && !words.is_empty()
                && words.iter().all(|w| {
                    crate::notation::is_annotation(w.as_bytes()) || crate::notation::parse_alt(w.as_bytes()).is_some()
                });
            if readable {
                for w in words {
                    self.play_other(j.line, w);
                }
                continue;
            }
            let reason = if j.text.starts_with('[') {
                "not a tag pair: a tag is written [Name \"value\"]".to_string()
            } else if self.game.moves.is_empty() && self.game.tags.is_empty() && j.text.starts_with('"') {
                "stray text before the game".to_string()
            } else {
                "not a move, a comment, an annotation or a result".to_string()
            };
            if !j.text.starts_with('[') {
                // The moves after text that is not a move cannot be trusted
                // to be the players' moves: stop playing.
                self.stopped = true;
            }
            self.error_at(j.line, j.text, reason);
        }
        line
    }

    fn set_skipping(&self, on: bool) {
        if let Some(t) = &self.tracking {
            lock(t).skipping = on;
        }
    }

    fn move_number(&self) -> u32 {
        self.pos.fullmoves().get()
    }

    fn error_at(&mut self, line: u64, mv: String, reason: String) {
        if self.game.errors.len() >= MAX_ERRORS {
            return;
        }
        let mv = if mv.len() > MAX_JUNK_TEXT {
            let mut cut = MAX_JUNK_TEXT;
            while !mv.is_char_boundary(cut) {
                cut -= 1;
            }
            format!("{}…", &mv[..cut])
        } else {
            mv
        };
        let e = GameError {
            game: self.game.number,
            line,
            move_number: self.move_number(),
            mv,
            reason,
        };
        self.game.errors.push(e);
    }

    fn flush_move(&mut self) {
        if let Some(p) = self.cur.take() {
            if let Some(m) = self.game.moves.last_mut() {
                let text = p.comments.join(" ");
                m.comment = if text.is_empty() { None } else { Some(text) };
                m.clock_ms = p.clock;
                m.draw_offer = p.draw;
            }
        }
    }

    fn finish(&mut self) -> GameRecord {
        self.partial.clear();
        self.flush_move();
        let _ = self.touch();
        if self.depth > 0 {
            let line = self.tracking.as_ref().map_or(0, |t| lock(t).line);
            self.error_at(line, "(".into(), "a variation is not closed with ')'".into());
        }
        let pre = std::mem::take(&mut self.pre);
        let text = pre.comments.join(" ");
        self.game.comment = if text.is_empty() { None } else { Some(text) };
        self.set_skipping(false);
        self.depth = 0;
        self.started = false;
        self.stopped = false;
        self.game.position = std::mem::take(&mut self.pos);
        self.game.chess960 = self.chess960;
        std::mem::take(&mut self.game)
    }

    /// Ends a game the reader gave up on (`why` is the reader's error).
    pub fn abort(&mut self, why: &str) -> GameRecord {
        let line = self.tracking.as_ref().map_or(0, |t| lock(t).line);
        let reason = match why {
            "unterminated comment" => "a comment is not closed with '}' before the end of the file".to_string(),
            "unterminated tag" => "a tag is not closed before the end of the line".to_string(),
            other => other.to_string(),
        };
        if !self.started {
            self.started = true;
            self.game.line = line;
        }
        self.error_at(line, String::new(), reason);
        self.finish()
    }

    pub fn games_started(&self) -> u64 {
        self.games
    }

    fn play(&mut self, line: u64, san_plus: SanPlus) {
        // Resolved as `chesslaws check` resolves it (UCI coordinates read as
        // a pawn move, a missing or extra capture sign tolerated).
        let result = crate::notation::resolve(&self.pos, &san_plus.san);
        self.play_move(line, san_plus.to_string(), result, Some(san_plus.san));
    }

    /// Plays a token `pgn_reader` passed over that `chesslaws check` reads
    /// as a move or an annotation (FIDE promotions `a8Q`, long algebraic
    /// `e2-e4`, UCI `e7e8Q`, figurines, "+=", "N"), so that a record reads
    /// the same here as there.
    fn play_other(&mut self, line: u64, token: &str) {
        if crate::notation::is_annotation(token.as_bytes()) {
            return;
        }
        let Some(alt) = crate::notation::parse_alt(token.as_bytes()) else {
            return;
        };
        if !self.stopped {
            self.flush_move();
            let result = alt.to_move(&self.pos);
            let san = match alt {
                crate::notation::Alt::San(san) => Some(san),
                crate::notation::Alt::Coords { .. } => None,
            };
            self.play_move(line, token.to_string(), result, san);
        }
    }

    fn play_move(&mut self, line: u64, text: String, result: Result<shakmaty::Move, SanError>, san: Option<San>) {
        match result {
            Ok(m) => {
                let uci = uci_in(&self.pos, m);
                let san = shakmaty::san::SanPlus::from_move_and_play_unchecked(&mut self.pos, m).to_string();
                self.game.moves.push(MoveRecord {
                    ply: self.game.moves.len() as u32 + 1,
                    san,
                    uci,
                    clock_ms: None,
                    comment: None,
                    nags: Vec::new(),
                    line,
                    draw_offer: false,
                });
                self.cur = Some(PendingMove::default());
            }
            Err(e) => {
                let side = if self.pos.turn() == Color::White { "white" } else { "black" };
                let fen = Fen::from_position(&self.pos, EnPassantMode::Legal).to_string();
                let reason = match e {
                    SanError::IllegalSan => {
                        if matches!(san, Some(San::Null)) {
                            format!("a null move is not a move ({side} to move in {fen})")
                        } else {
                            format!("illegal move for {side} in {fen}")
                        }
                    }
                    SanError::AmbiguousSan => {
                        let fits: Vec<String> = self
                            .pos
                            .legal_moves()
                            .into_iter()
                            .filter(|m| san.is_some_and(|s| s.matches(*m)))
                            .map(|m| format!("{} ({})", San::from_move(&self.pos, m), uci_in(&self.pos, m)))
                            .collect();
                        format!("ambiguous move for {side} in {fen}: it fits {}", fits.join(" and "))
                    }
                };
                self.error_at(line, text, reason);
                self.stopped = true;
            }
        }
    }
}

impl Visitor for GameCollector {
    type Tags = ();
    type Movetext = ();
    type Output = GameRecord;

    fn begin_tags(&mut self) -> ControlFlow<GameRecord, ()> {
        self.games += 1;
        self.game = GameRecord { number: self.games, ..GameRecord::default() };
        self.pos = Chess::default();
        self.fen = None;
        self.chess960 = false;
        self.stopped = false;
        self.started = false;
        self.depth = 0;
        self.pre = PendingMove::default();
        self.cur = None;
        self.partial.clear();
        ControlFlow::Continue(())
    }

    fn tag(&mut self, _tags: &mut (), name: &[u8], value: RawTag<'_>) -> ControlFlow<GameRecord> {
        let line = self.touch();
        let name = crate::tags::decode_text(name).trim().to_string();
        let value = crate::tags::decode_text(&value.decode());
        if name == "FEN" {
            self.fen = Some((line, value.clone()));
        } else if name == "Variant" {
            let v = value.trim().to_ascii_lowercase();
            let v = v.split_whitespace().collect::<Vec<_>>().join(" ");
            if is_chess960(&value) {
                self.chess960 = true;
            } else if !STANDARD_VARIANTS.contains(&v.as_str()) {
                self.error_at(line, String::new(), format!("variant {value:?} is neither standard chess nor Chess960"));
                self.stopped = true;
            }
        }
        self.game.tags.push((name, value));
        ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self, _tags: ()) -> ControlFlow<GameRecord, ()> {
        match self.fen.take() {
            Some((line, value)) => {
                let mode = if self.chess960 { CastlingMode::Chess960 } else { CastlingMode::Standard };
                let parsed = Fen::from_ascii(value.trim().as_bytes()).map_err(|e| e.to_string()).and_then(|f| {
                    match f.clone().into_position::<Chess>(mode) {
                        Ok(p) => Ok(p),
                        // Castling rights only Chess960 allows (Shredder-FEN
                        // files, a king off e1): a Chess960 game without its
                        // Variant tag.
                        Err(e) => match f.into_position::<Chess>(CastlingMode::Chess960) {
                            Ok(p) => {
                                self.chess960 = true;
                                Ok(p)
                            }
                            Err(_) => Err(e.to_string()),
                        },
                    }
                });
                match parsed {
                    Ok(p) => self.pos = p,
                    Err(e) => {
                        self.error_at(line, String::new(), format!("the FEN tag {value:?} is not a position: {e}"));
                        self.stopped = true;
                    }
                }
            }
            None if self.chess960 => {
                // Chess960 without a FEN: the standard array (position 518).
                self.pos = chess960_start(518, 518).expect("518");
            }
            None => {}
        }
        ControlFlow::Continue(())
    }

    fn san(&mut self, _m: &mut (), san_plus: SanPlus) -> ControlFlow<GameRecord> {
        let line = self.touch();
        if self.depth > 0 || self.stopped {
            return ControlFlow::Continue(());
        }
        self.flush_move();
        self.play(line, san_plus);
        ControlFlow::Continue(())
    }

    fn nag(&mut self, _m: &mut (), nag: Nag) -> ControlFlow<GameRecord> {
        let _ = self.touch();
        if self.depth == 0 && self.cur.is_some() {
            if let Some(m) = self.game.moves.last_mut() {
                m.nags.push(nag.0);
            }
        }
        ControlFlow::Continue(())
    }

    fn partial_comment(&mut self, _m: &mut (), comment: RawComment<'_>) -> ControlFlow<GameRecord> {
        // Long comments arrive in pieces; keep them (up to a bound, so that
        // an unclosed brace cannot take the rest of a big file into memory).
        let _ = self.touch();
        let room = MAX_COMMENT.saturating_sub(self.partial.len());
        let bytes = comment.as_bytes();
        self.partial.extend_from_slice(&bytes[..bytes.len().min(room)]);
        ControlFlow::Continue(())
    }

    fn comment(&mut self, _m: &mut (), comment: RawComment<'_>) -> ControlFlow<GameRecord> {
        let _ = self.touch();
        let raw = if self.partial.is_empty() {
            String::from_utf8_lossy(comment.as_bytes()).into_owned()
        } else {
            let mut whole = std::mem::take(&mut self.partial);
            let room = MAX_COMMENT.saturating_sub(whole.len());
            let bytes = comment.as_bytes();
            whole.extend_from_slice(&bytes[..bytes.len().min(room)]);
            String::from_utf8_lossy(&whole).into_owned()
        };
        let target = match self.cur.as_mut() {
            Some(c) => c,
            None => &mut self.pre,
        };
        let (text, clock, draw) = parse_comment(&raw);
        if clock.is_some() {
            target.clock = clock;
        }
        target.draw |= draw;
        if !text.is_empty() {
            target.comments.push(text);
        }
        ControlFlow::Continue(())
    }

    fn begin_variation(&mut self, _m: &mut ()) -> ControlFlow<GameRecord, Skip> {
        let _ = self.touch();
        self.game.variations_skipped += 1;
        self.depth += 1;
        self.set_skipping(true);
        ControlFlow::Continue(Skip(true))
    }

    fn end_variation(&mut self, _m: &mut ()) -> ControlFlow<GameRecord> {
        let line = self.touch();
        if self.depth == 0 {
            self.error_at(line, ")".into(), "')' closes no variation".into());
        } else {
            self.depth -= 1;
            if self.depth == 0 {
                self.set_skipping(false);
            }
        }
        ControlFlow::Continue(())
    }

    fn outcome(&mut self, _m: &mut (), outcome: Outcome) -> ControlFlow<GameRecord> {
        let line = self.touch();
        if self.depth == 0 {
            if let Some(prev) = &self.game.result {
                let prev = prev.clone();
                self.error_at(line, outcome_text(outcome).into(), format!("a second result after {prev}"));
            } else {
                self.game.result = Some(outcome_text(outcome).to_string());
            }
        }
        ControlFlow::Continue(())
    }

    fn end_game(&mut self, _m: ()) -> GameRecord {
        self.finish()
    }
}

// ---------------------------------------------------------------------------
// Iterating games.

/// Games from a PGN byte stream, one [`GameRecord`] at a time.
pub struct PgnGames<R: BufRead> {
    reader: Reader<LineFeed<R>>,
    visitor: GameCollector,
    done: bool,
}

impl<R: BufRead> PgnGames<R> {
    pub fn new(input: R) -> Self {
        let tracking: SharedTracking = Arc::new(Mutex::new(Tracking::default()));
        let feed = LineFeed::new(input, tracking.clone());
        let reader = Reader::build(feed)
            .set_supported_tag_line_length(READER_TOKEN)
            .set_supported_comment_length(READER_TOKEN - 2)
            .finish();
        PgnGames { reader, visitor: GameCollector::new(Some(tracking)), done: false }
    }
}

impl<R: BufRead> Iterator for PgnGames<R> {
    type Item = GameRecord;

    fn next(&mut self) -> Option<GameRecord> {
        if self.done {
            return None;
        }
        let before = self.visitor.games_started();
        match self.reader.read_game(&mut self.visitor) {
            Ok(Some(g)) => Some(g),
            Ok(None) => {
                self.done = true;
                None
            }
            Err(e) => {
                if e.kind() != io::ErrorKind::InvalidData {
                    // An I/O error: report it on a game of its own and stop.
                    self.done = true;
                }
                if self.visitor.games_started() == before {
                    let _ = self.visitor.begin_tags();
                }
                Some(self.visitor.abort(&e.to_string()))
            }
        }
    }
}

// ---------------------------------------------------------------------------
// Python binding.

type Input = Box<dyn BufRead + Send>;

type MoveTuple = (u32, String, String, Option<u64>, Option<String>, Vec<u32>, u64, bool);
type ErrorTuple = (u64, u64, u32, String, String);

/// Games read from a PGN file or bytes; iterating gives one tuple per game:
/// (number, line, tags, moves, result, errors, variations_skipped, comment,
/// FEN after the last move played).
#[pyclass(frozen, module = "chesslaws._core", name = "PgnReader")]
pub struct PyPgnReader {
    games: Mutex<PgnGames<Input>>,
}

fn game_to_py(py: Python<'_>, g: GameRecord) -> PyResult<Py<PyAny>> {
    let moves: Vec<MoveTuple> = g
        .moves
        .into_iter()
        .map(|m| {
            let nags = m.nags.iter().map(|&n| u32::from(n)).collect();
            (m.ply, m.san, m.uci, m.clock_ms, m.comment, nags, m.line, m.draw_offer)
        })
        .collect();
    let errors: Vec<ErrorTuple> = g
        .errors
        .into_iter()
        .map(|e| (e.game, e.line, e.move_number, e.mv, e.reason))
        .collect();
    let t = PyTuple::new(
        py,
        [
            g.number.into_pyobject(py)?.into_any(),
            g.line.into_pyobject(py)?.into_any(),
            PyList::new(py, g.tags)?.into_any(),
            PyList::new(py, moves)?.into_any(),
            g.result.into_pyobject(py)?.into_any(),
            PyList::new(py, errors)?.into_any(),
            g.variations_skipped.into_pyobject(py)?.into_any(),
            g.comment.into_pyobject(py)?.into_any(),
            Fen::from_position(&g.position, EnPassantMode::Legal)
                .to_string()
                .into_pyobject(py)?
                .into_any(),
            pyo3::types::PyBool::new(py, g.chess960).to_owned().into_any(),
        ],
    )?;
    Ok(t.into_any().unbind())
}

#[pymethods]
impl PyPgnReader {
    /// Reads `source`: a path (str or os.PathLike) or the PGN bytes.
    #[new]
    fn new(source: &Bound<'_, PyAny>) -> PyResult<Self> {
        let input: Input = if let Ok(b) = source.cast::<PyBytes>() {
            Box::new(io::Cursor::new(b.as_bytes().to_vec()))
        } else if let Ok(path) = source.extract::<std::path::PathBuf>() {
            // Plain, gzip or zstd (told by the magic bytes), as `check` reads them.
            let mut name = path.to_string_lossy().into_owned();
            if name == "-" {
                name = "./-".into(); // a file named "-", not standard input
            }
            let count = std::sync::Arc::new(std::sync::atomic::AtomicU64::new(0));
            let (input, _) = crate::input::open_input(&name, count)
                .map_err(|e| PyOSError::new_err(format!("cannot open {}: {e}", path.display())))?;
            input
        } else {
            return Err(PyTypeError::new_err("a PGN source is a path or bytes"));
        };
        Ok(PyPgnReader { games: Mutex::new(PgnGames::new(input)) })
    }

    fn __iter__(slf: Py<Self>) -> Py<Self> {
        slf
    }

    fn __next__(&self, py: Python<'_>) -> PyResult<Option<Py<PyAny>>> {
        // Reading and playing the moves needs no Python: let other threads run.
        let next = py.detach(|| {
            let mut games = self.games.lock().unwrap_or_else(|e| e.into_inner());
            games.next()
        });
        match next {
            Some(g) => Ok(Some(game_to_py(py, g)?)),
            None => Ok(None),
        }
    }
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyPgnReader>()?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::feed::repair_tag_line;
    use super::*;

    fn read(text: &str) -> Vec<GameRecord> {
        PgnGames::new(io::Cursor::new(text.as_bytes().to_vec())).collect()
    }

    #[test]
    fn clocks() {
        assert_eq!(parse_clock("0:01:02.5"), Some(62_500));
        assert_eq!(parse_clock(" 1:00:00 "), Some(3_600_000));
        assert_eq!(parse_clock("x"), None);
    }

    #[test]
    fn a_game_with_tags_and_no_moves_is_a_game() {
        let g = read("[Event \"a\"]\n[Result \"?\"]\n \n\n[Event \"b\"]\n[Result \"1-0\"]\n\n1. e4 1-0\n");
        assert_eq!(g.len(), 2);
        assert_eq!(g[0].tags, vec![("Event".into(), "a".into()), ("Result".into(), "?".into())]);
        assert!(g[0].moves.is_empty() && g[0].errors.is_empty() && g[0].result.is_none());
        assert_eq!(g[1].line, 5);
        assert_eq!(g[1].moves[0].line, 8);
        assert_eq!(g[1].result.as_deref(), Some("1-0"));
    }

    #[test]
    fn read_as_check_reads_them() {
        // Tag values with quotes not escaped, as check's parse_tag_line reads them.
        assert_eq!(
            repair_tag_line(b"[Site \"Club \"Victory\"\"]\r\n").as_deref(),
            Some(&b"[Site \"Club \\\"Victory\\\"\"]\r\n"[..])
        );
        assert_eq!(repair_tag_line(b"[Site \"Club\"]\n"), None);
        assert_eq!(repair_tag_line(b"[Event \"Tournament \\\"]\n").as_deref(), Some(&b"[Event \"Tournament \\\\\"]\n"[..]));
        assert_eq!(repair_tag_line(b"1. e4 e5 *\n"), None);
        let g = read("[Event \"Tournament \"Championship\" Finals\"]\n[White \"A\"]\n\n1. e2-e4 {x} e7e5 2. \u{2658}f3 += N Nc6 *\n");
        assert_eq!(g.len(), 1);
        assert_eq!(g[0].tags[0], ("Event".into(), "Tournament \"Championship\" Finals".into()));
        assert!(g[0].errors.is_empty(), "{:?}", g[0].errors);
        let san: Vec<&str> = g[0].moves.iter().map(|m| m.san.as_str()).collect();
        assert_eq!(san, ["e4", "e5", "Nf3", "Nc6"]);
        assert_eq!(g[0].moves[0].comment.as_deref(), Some("x"));
        // "e.p." after an en passant capture is no move.
        let g = read("1. e4 a6 2. e5 d5 3. exd6 e.p. c6 *\n");
        assert!(g[0].errors.is_empty() && g[0].moves.len() == 6, "{:?}", g[0].errors);
        // A move check cannot play is an error here too, and nothing after it is played.
        let g = read("1. e2-e5 e5 *\n");
        assert!(g[0].moves.is_empty() && g[0].errors[0].reason.starts_with("illegal move"), "{:?}", g[0].errors);
    }

    #[test]
    fn normal_is_standard_chess() {
        for v in ["normal", "Standard", "From Position", "standard  chess"] {
            let g = read(&format!("[Variant \"{v}\"]\n\n1. e4 *\n"));
            assert!(g[0].errors.is_empty(), "{v}: {:?}", g[0].errors);
        }
        assert!(read("[Variant \"Chess960\"]\n\n1. e4 *\n")[0].errors.is_empty());
        assert!(!read("[Variant \"Atomic\"]\n\n1. e4 *\n")[0].errors.is_empty());
    }

    #[test]
    fn lines_and_junk() {
        let g = read("[Event \"a\"]\n\n1. e4 e5\n2. Nf3\n Zz9 Nc6 *\n\n1. d4 *\n");
        eprintln!("{g:#?}");
        assert_eq!(g.len(), 2);
        assert_eq!(g[0].line, 1);
        assert_eq!(g[0].moves.len(), 3);
        assert_eq!(g[0].moves[2].line, 4);
        assert_eq!(g[0].errors.len(), 1);
        assert_eq!(g[0].errors[0].line, 5);
        assert_eq!(g[0].errors[0].mv, "Zz9");
        assert_eq!(g[1].line, 7);
        assert_eq!(g[1].moves[0].line, 7);
    }
}

