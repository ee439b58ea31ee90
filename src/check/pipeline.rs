//! Checking batches of games: one text at a time through the visitor, and the
//! pipeline that runs batches inline or on worker threads, in input order.

use std::cell::Cell;
use std::collections::BTreeMap;
use std::io::{self, Read};
use std::sync::mpsc::{sync_channel, Receiver, SyncSender};
use std::sync::{Arc, Mutex};

use pgn_reader::{RawComment, Reader, Visitor};

use super::output::{fixed_game, write_json_rest};
use crate::ending::final_comment;
use super::rules::Rules;
use super::scan::{scan_movetext, Event, Scan};
use super::split::{Batch, Splitter};
use super::visitor::Checker;
use super::{Finding, Fix, GameReport, DRAW, MAX_GAME_BYTES};
use crate::input::Input;
use crate::tags::{decode_value, parse_head, Head};

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
    pub(super) fn article(&self, rule: &str) -> Option<&str> {
        if rule.is_empty() {
            None
        } else {
            self.articles.get(rule).map(String::as_str)
        }
    }
}

pub(super) fn count_lines(text: &[u8]) -> u64 {
    memchr::memchr_iter(b'\n', text).count() as u64
}

pub(super) fn finish_report(checker: &mut Checker, r: &mut GameReport) {
    let _ = checker;
    r.readable = !r.findings.iter().any(|f| {
        matches!(f.kind, "illegal_move" | "ambiguous_move" | "unreadable_move")
            || (f.kind == "pgn_error" && (f.text.starts_with("the FEN tag") || f.text.starts_with("variant ")))
    });
}

/// tag sections follow each other with no movetext between them).
/// A window on the batch's buffer, read by `pgn_reader`.
pub struct Window<'a> {
    pub(super) buf: &'a [u8],
    pub(super) span: &'a Cell<(usize, usize)>,
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
    pub(super) reader: Option<Reader<Window<'a>>>,
    pub(super) buf: &'a [u8],
    pub(super) span: &'a Cell<(usize, usize)>,
}

impl<'a> Feed<'a> {
    pub fn new(buf: &'a [u8], span: &'a Cell<(usize, usize)>) -> Self {
        Feed { reader: None, buf, span }
    }

    /// The reader, reading `part` (a part of the buffer) next.
    pub(super) fn reader_for(&mut self, part: &[u8]) -> &mut Reader<Window<'a>> {
        let start = (part.as_ptr() as usize).wrapping_sub(self.buf.as_ptr() as usize);
        assert!(start <= self.buf.len() && start + part.len() <= self.buf.len(), "a part of the batch");
        self.span.set((start, start + part.len()));
        let (buf, span) = (self.buf, self.span);
        self.reader.get_or_insert_with(|| Reader::new(Window { buf, span }))
    }

    /// After a read error the reader may hold unread bytes: start afresh.
    pub(super) fn discard(&mut self) {
        self.reader = None;
    }
}

/// A game's report once the checker is done with it: its line, its tags
/// (with findings or when all are asked for; only the first game of a
/// text has them), its readability and, with `--fix`, the game as the
/// Laws have it (`record`: the game's text, kept as it is when it cannot
/// be fixed and `--keep-unreadable` asks for it).
#[allow(clippy::too_many_arguments)]
pub(super) fn game_report(
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
    if first && (cfg.all_tags || !r.findings.is_empty() || !r.notes.is_empty()) {
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
            if matches!(name, b"FEN" | b"Variant" | b"Result" | b"Termination" | b"LawsTermination" | b"TerminationDetails")
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
            let c = final_comment(&movetext[a..b]);
            checker.fix_comment = c.fix;
            if let Some(text) = c.text {
                checker.final_comment = String::from_utf8_lossy(text).into_owned();
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

pub(super) type Done = (u64, Result<Vec<GameReport>, String>);

pub(super) enum Pipeline {
    Inline { splitter: Splitter, cfg: Arc<Config> },
    Threads { results: Receiver<Done>, tokens: SyncSender<()>, pending: BTreeMap<u64, Result<Vec<GameReport>, String>>, next: u64 },
}

impl Pipeline {
    pub(super) fn start(input: Input, cfg: Arc<Config>, jobs: usize) -> Pipeline {
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

    pub(super) fn next(&mut self) -> Result<Option<Vec<GameReport>>, String> {
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
