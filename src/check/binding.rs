//! The Python binding: `CheckRun`, iterated batch by batch.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use pyo3::exceptions::{PyOSError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyBytes;

use super::output::{write_json_fields, write_json_rest, write_json_start, JsonFinding};
use super::pipeline::{Config, Pipeline};
use super::rules::Rules;
use crate::input::{not_text, open_input};

pub(super) type FindingTuple = (&'static str, u32, String, &'static str, String);
pub(super) type GameTuple =
    (u64, u64, Vec<(String, String)>, Option<String>, u32, Vec<FindingTuple>, Vec<String>);

/// What one batch of games gives: counts over every game read, the reports
/// (a report is (number, line, tags, result, plies, findings, notes), a finding
/// (kind, ply, move, rule, text)), and what JSON and `--fix` write.
#[pyclass(frozen, get_all, module = "chesslaws._core", name = "CheckBatch")]
pub struct CheckBatch {
    /// Games read in the batch (also those not reported).
    games: u64,
    /// Plies read in the batch.
    plies: u64,
    /// The reported games (none in JSON mode).
    reports: Vec<GameTuple>,
    /// In JSON mode: one JSON line per reported game.
    json: Option<String>,
    /// With `fix`: the batch's games as `--fix` writes them (UTF-8 PGN).
    fixed: Option<Py<PyBytes>>,
    /// Findings per kind.
    kinds: Vec<(&'static str, u64)>,
    /// Games with at least one finding.
    with_findings: u64,
    /// What `--fix` did, per key.
    fixes: Vec<(String, u64)>,
}

pub(super) struct RunState {
    pub(super) pipeline: Pipeline,
    pub(super) games: u64,
    pub(super) failed: bool,
}

/// A check of one PGN file (or standard input, "-") under an edition (a
/// `chesslaws.editions.Edition`: its rules and its articles). Iterating
/// gives one [`CheckBatch`] per batch of games. With `problems_only`, only
/// games with findings are reported (all are counted). With `json`, the
/// reports come as JSON lines and the list is empty. With `fix`, the batch
/// carries its games as `--fix` writes them.
#[pyclass(frozen, module = "chesslaws._core", name = "CheckRun")]
pub struct CheckRun {
    pub(super) state: Mutex<RunState>,
    pub(super) count: Arc<AtomicU64>,
    pub(super) total: Option<u64>,
    pub(super) problems_only: bool,
    pub(super) json: bool,
    pub(super) file: Option<String>,
    pub(super) cfg: Arc<Config>,
}

#[pymethods]
impl CheckRun {
    #[new]
    #[pyo3(signature = (path, edition, jobs = 1, problems_only = false, json = false, file = None, fix = false, keep_unreadable = false))]
    #[allow(clippy::too_many_arguments)]
    pub(super) fn new(
        py: Python<'_>,
        path: String,
        edition: &Bound<'_, PyAny>,
        jobs: usize,
        problems_only: bool,
        json: bool,
        file: Option<String>,
        fix: bool,
        keep_unreadable: bool,
    ) -> PyResult<Self> {
        let rules = Rules::from_edition(edition)?;
        if jobs == 0 {
            return Err(PyValueError::new_err("jobs must be at least 1"));
        }
        let cfg = Arc::new(Config {
            rules,
            edition: edition.getattr("name")?.extract()?,
            articles: py.import("builtins")?.getattr("dict")?.call1((edition.getattr("articles")?,))?.extract()?,
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

    pub(super) fn __iter__(slf: Py<Self>) -> Py<Self> {
        slf
    }

    pub(super) fn __next__(&self, py: Python<'_>) -> PyResult<Option<CheckBatch>> {
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
                // The text report lists the games with notes too; `--json --only-problems` only those
                // with findings.
                if problems_only && r.findings.is_empty() && (as_json || r.notes.is_empty()) {
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
                games.push((r.number, r.line, r.tags, r.result, r.plies, findings, r.notes));
            }
            Ok(Some((n, plies, games, json, fixed, kinds, with_findings, fixes.into_iter().collect::<Vec<_>>())))
        });
        let out = out.map_err(PyOSError::new_err)?;
        Ok(out.map(|(games, plies, reports, json, fixed, kinds, with_findings, fixes)| CheckBatch {
            games,
            plies,
            reports,
            json,
            fixed: fixed.map(|v| PyBytes::new(py, &v).unbind()),
            kinds,
            with_findings,
            fixes,
        }))
    }

    /// Bytes read from the file so far (compressed bytes for .gz / .zst).
    #[getter]
    pub(super) fn bytes_read(&self) -> u64 {
        self.count.load(Ordering::Relaxed)
    }

    /// The file's size on disk; None for standard input.
    #[getter]
    pub(super) fn total_bytes(&self) -> Option<u64> {
        self.total
    }
}

/// What the first bytes of a file show it is when it is no text a PGN reader
/// reads (see [`not_text`]): the one rule, for the CLI's own reading too.
#[pyfunction]
#[pyo3(name = "not_text")]
pub(super) fn not_text_py(head: &[u8]) -> Option<&'static str> {
    not_text(head)
}

/// A finding as Python holds it: (kind, ply, move, article, edition, text).
type JsonFindingTuple = (String, u32, String, Option<String>, String, String);

/// One game's report as the JSON line `check --json` writes (with its
/// newline), for a report held in Python (`GameReport.json_line`): the
/// writer of the worker threads, so that a report reads the same whichever
/// path made it.
#[pyfunction]
#[pyo3(signature = (number, line, tags, result, plies, findings, file = None, notes = Vec::new()))]
#[allow(clippy::too_many_arguments)]
pub(super) fn report_json(
    number: u64,
    line: u64,
    tags: Vec<(String, String)>,
    result: Option<&str>,
    plies: u32,
    findings: Vec<JsonFindingTuple>,
    file: Option<&str>,
    notes: Vec<String>,
) -> String {
    let mut out = String::new();
    write_json_start(&mut out, number, file);
    let findings = findings.iter().map(|(kind, ply, mv, article, edition, text)| JsonFinding {
        kind,
        ply: *ply,
        mv,
        article: article.as_deref(),
        edition,
        text,
    });
    write_json_fields(&mut out, line, &tags, result, plies, findings, &notes);
    out
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<CheckRun>()?;
    m.add_function(wrap_pyfunction!(report_json, m)?)?;
    m.add_class::<CheckBatch>()?;
    m.add_function(wrap_pyfunction!(not_text_py, m)?)?;
    Ok(())
}
