//! How the writers of PGN files say a game ended: the table
//! `python/chesslaws/data/terminations.tsv`, read here once for the checker
//! and, through the binding, for `chesslaws.records` (one reader of one table).

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

static TERMINATIONS_TSV: &str = include_str!("../python/chesslaws/data/terminations.tsv");

/// One rule of the table: a text (spaces collapsed, lower case) found as a
/// substring of a normalised Termination text, what it means, who writes it.
pub(crate) struct Rule {
    pub(crate) text: String,
    pub(crate) kind: &'static str,
    pub(crate) source: &'static str,
}

/// Text with its runs of white space made one space, in lower case.
fn normalise(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ").to_lowercase()
}

/// The table's rules in order, or the first line that is not
/// TEXT<TAB>KIND<TAB>SOURCE (comments and blank lines aside).
fn read_table(tsv: &'static str) -> Result<Vec<Rule>, String> {
    let mut rules = Vec::new();
    for (number, line) in tsv.lines().enumerate() {
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        let cols: Vec<&'static str> = line.split('\t').collect();
        let [text, kind, source] = cols[..] else {
            return Err(format!(
                "terminations.tsv line {}: TEXT<TAB>KIND<TAB>SOURCE expected, found {} field(s)",
                number + 1,
                cols.len()
            ));
        };
        let (text, kind, source) = (text.trim(), kind.trim(), source.trim());
        if text.eq_ignore_ascii_case("text") && kind.eq_ignore_ascii_case("kind") {
            continue; // a header
        }
        rules.push(Rule { text: normalise(text), kind, source });
    }
    Ok(rules)
}

fn table() -> &'static Result<Vec<Rule>, String> {
    static RULES: std::sync::OnceLock<Result<Vec<Rule>, String>> = std::sync::OnceLock::new();
    RULES.get_or_init(|| read_table(TERMINATIONS_TSV))
}

/// The rules of the table (none if it cannot be read: the binding says why).
fn termination_rules() -> &'static [Rule] {
    match table() {
        Ok(rules) => rules,
        Err(_) => &[],
    }
}

/// The kind of ending a `Termination` tag (or a result comment) describes,
/// by the first matching rule of `terminations.tsv`.
pub(crate) fn termination_kind(text: &str) -> Option<&'static str> {
    if text.trim().is_empty() {
        return None;
    }
    let norm = normalise(text);
    termination_rules().iter().find(|r| !r.text.is_empty() && norm.contains(r.text.as_str())).map(|r| r.kind)
}

/// The table's rules as (text, kind, source), in order.
#[pyfunction]
#[pyo3(name = "termination_rules")]
fn termination_rules_py() -> PyResult<Vec<(String, &'static str, &'static str)>> {
    match table() {
        Ok(rules) => Ok(rules.iter().map(|r| (r.text.clone(), r.kind, r.source)).collect()),
        Err(e) => Err(PyValueError::new_err(e.clone())),
    }
}

/// The kind of ending a Termination text describes, or None.
#[pyfunction]
#[pyo3(name = "termination_kind")]
fn termination_kind_py(text: &str) -> Option<&'static str> {
    termination_kind(text)
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(termination_rules_py, m)?)?;
    m.add_function(wrap_pyfunction!(termination_kind_py, m)?)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn terminations() {
        assert!(table().is_ok());
        assert_eq!(termination_kind("Magnus won on time"), Some("time_forfeit"));
        assert_eq!(termination_kind("Time forfeit"), Some("time_forfeit"));
        assert_eq!(termination_kind("Abandoned"), Some("abandoned"));
        assert_eq!(termination_kind("stalled connection"), Some("abandoned"));
        assert_eq!(termination_kind("Game drawn by timeout vs insufficient material"), Some("timeout_vs_insufficient"));
        assert_eq!(termination_kind("Black  RESIGNS"), Some("resignation"));
        assert_eq!(termination_kind(""), None);
        assert!(read_table("a\tb\n").is_err());
    }
}
