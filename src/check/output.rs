//! What a run writes besides the reports: each game's JSON and, with `--fix`,
//! the game as the Laws have it.

use super::pipeline::Config;
use super::scan::Scan;
use super::GameReport;

pub(super) fn push_escaped_tag(out: &mut Vec<u8>, value: &str) {
    for b in value.bytes() {
        if b == b'"' || b == b'\\' {
            out.push(b'\\');
        }
        if b == b'\n' || b == b'\r' {
            out.push(b' ');
        } else {
            out.push(b);
        }
    }
}

/// The game as `--fix` writes it: the tags (Result set to the result the
/// Laws give, quotes escaped), the movetext up to its end by the Laws, a
/// comment citing the article where the result changed, and the result.
pub(super) fn fixed_game(movetext: &[u8], scan: &Scan, r: &GameReport, cfg: &Config) -> Vec<u8> {
    let recorded = r.result.as_deref().unwrap_or("*");
    let result: &str = r.fix.map_or(recorded, |f| f.result);
    let mut out = Vec::with_capacity(movetext.len() + 512);
    let mut has_result = false;
    for (name, value) in &r.tags {
        out.extend_from_slice(b"[");
        out.extend_from_slice(name.as_bytes());
        out.extend_from_slice(b" \"");
        if name == "Result" {
            has_result = true;
            out.extend_from_slice(result.as_bytes());
        } else {
            push_escaped_tag(&mut out, value);
        }
        out.extend_from_slice(b"\"]\n");
    }
    if !has_result {
        out.extend_from_slice(b"[Result \"");
        out.extend_from_slice(result.as_bytes());
        out.extend_from_slice(b"\"]\n");
    }
    out.push(b'\n');
    let cut = match r.fix.and_then(|f| f.cut_ply) {
        Some(0) => Some(0),
        Some(p) => scan.move_ends.get(p as usize - 1).copied(),
        None => None,
    };
    let body_end = cut.or(scan.result_at.map(|(a, _)| a)).unwrap_or(movetext.len());
    let body = movetext[..body_end.min(movetext.len())].trim_ascii();
    out.extend_from_slice(body);
    if let Some(f) = r.fix {
        let why = r
            .findings
            .iter()
            .find(|x| x.rule == f.rule && !x.rule.is_empty())
            .map(|x| x.text.replace('}', ")"))
            .unwrap_or_default();
        let article = cfg.article(f.rule).unwrap_or("?");
        if !body.is_empty() {
            out.push(b' ');
        }
        let cut_note = if f.cut_ply.is_some() { " The moves recorded after the end are left out." } else { "" };
        let change =
            if f.result != recorded { format!(" The result is {}, not {recorded}.", f.result) } else { String::new() };
        let text = format!("{{chesslaws check, Article {article} (Laws of {}): {why}.{change}{cut_note}}}", cfg.edition);
        out.extend_from_slice(text.as_bytes());
    }
    if !out.ends_with(b"\n\n") || !body.is_empty() || r.fix.is_some() {
        out.push(b' ');
    }
    if out.ends_with(b"\n\n ") {
        out.pop();
    }
    out.extend_from_slice(result.as_bytes());
    out.extend_from_slice(b"\n\n");
    out
}

pub(super) fn push_json_str(out: &mut String, s: &str) {
    use std::fmt::Write as _;
    out.push('"');
    for ch in s.chars() {
        match ch {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

/// One game as a JSON line (as `json.dumps(..., ensure_ascii=False)` writes
/// a dict): the start, up to the number.
pub fn write_json_start(out: &mut String, number: u64, file: Option<&str>) {
    use std::fmt::Write as _;
    out.push('{');
    if let Some(f) = file {
        out.push_str("\"file\": ");
        push_json_str(out, f);
        out.push_str(", ");
    }
    let _ = write!(out, "\"game\": {number}");
}

/// The tags as a Python dict has them: each name once, at its first place,
/// with its last value. Linear in the number of tags (a game with 80,000
/// tags of distinct names took a minute when each name was looked for among
/// those before it).
pub(super) fn dict_order(tags: &[(String, String)]) -> Vec<(&str, &str)> {
    let mut last: std::collections::HashMap<&str, usize> = std::collections::HashMap::with_capacity(tags.len());
    for (i, (name, _)) in tags.iter().enumerate() {
        last.insert(name.as_str(), i);
    }
    let mut out = Vec::with_capacity(last.len());
    for (name, _) in tags {
        // The first place of a name takes its last value; later places find it taken.
        if let Some(i) = last.remove(name.as_str()) {
            out.push((name.as_str(), tags[i].1.as_str()));
        }
    }
    out
}

/// One finding as the JSON line gives it: its article and edition named.
pub(super) struct JsonFinding<'a> {
    pub(super) kind: &'a str,
    pub(super) ply: u32,
    pub(super) mv: &'a str,
    pub(super) article: Option<&'a str>,
    pub(super) edition: &'a str,
    pub(super) text: &'a str,
}

/// The rest of the JSON line, after the game's number: the one writer of a
/// game's report, for the worker threads ([`write_json_rest`]) and for
/// reports made in Python (`chesslaws.check.GameReport.json_line`,
/// through `report_json` of the binding).
pub(super) fn write_json_fields<'a>(
    out: &mut String,
    line: u64,
    tags: &[(String, String)],
    result: Option<&str>,
    plies: u32,
    findings: impl Iterator<Item = JsonFinding<'a>>,
    notes: &[String],
) {
    use std::fmt::Write as _;
    let _ = write!(out, ", \"line\": {line}, \"tags\": {{");
    // A dict: the first place of a name, its last value.
    let mut first = true;
    for (name, value) in dict_order(tags) {
        if !first {
            out.push_str(", ");
        }
        first = false;
        push_json_str(out, name);
        out.push_str(": ");
        push_json_str(out, value);
    }
    out.push_str("}, \"result\": ");
    match result {
        Some(x) => push_json_str(out, x),
        None => out.push_str("null"),
    }
    let _ = write!(out, ", \"plies\": {plies}, \"findings\": [");
    for (i, f) in findings.enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        out.push_str("{\"kind\": ");
        push_json_str(out, f.kind);
        let _ = write!(out, ", \"ply\": {}, \"move\": ", f.ply);
        push_json_str(out, f.mv);
        out.push_str(", \"article\": ");
        match f.article {
            Some(a) => push_json_str(out, a),
            None => out.push_str("null"),
        }
        out.push_str(", \"edition\": ");
        push_json_str(out, f.edition);
        out.push_str(", \"text\": ");
        push_json_str(out, f.text);
        out.push('}');
    }
    out.push(']');
    if !notes.is_empty() {
        // Only where there are notes: the line of every other game stays as it was.
        out.push_str(", \"notes\": [");
        for (i, n) in notes.iter().enumerate() {
            if i > 0 {
                out.push_str(", ");
            }
            push_json_str(out, n);
        }
        out.push(']');
    }
    out.push_str("}\n");
}

/// The rest of a checked game's JSON line, after its number.
pub fn write_json_rest(out: &mut String, r: &GameReport, cfg: &Config) {
    let findings = r.findings.iter().map(|f| JsonFinding {
        kind: f.kind,
        ply: f.ply,
        mv: &f.mv,
        article: cfg.article(f.rule),
        edition: &cfg.edition,
        text: &f.text,
    });
    write_json_fields(out, r.line, &r.tags, r.result.as_deref(), r.plies, findings, &r.notes);
}

#[cfg(test)]
mod tests {
    #[test]
    fn tags_in_dict_order() {
        let t = |n: &str, v: &str| (n.to_string(), v.to_string());
        let tags = vec![t("Event", "a"), t("Site", "b"), t("Event", "c"), t("Round", "d"), t("Site", "e")];
        assert_eq!(super::dict_order(&tags), vec![("Event", "c"), ("Site", "e"), ("Round", "d")]);
    }
}
