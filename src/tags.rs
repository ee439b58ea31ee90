//! PGN tag sections, read as a careful reader would: tag lines with their syntax
//! faults named, values unescaped and decoded, the Variant and Result tags.

/// The tag section of one game (the text up to its movetext).
#[derive(Debug, Default)]
pub(crate) struct Head {
    /// (name, value) byte ranges in the text given to [`parse_head`]; the
    /// value still escaped (see [`Head::decode`]).
    pub tags: Vec<((usize, usize), (usize, usize))>,
    /// Syntax faults, each naming its line (counted from the section's start, 1-based).
    pub errors: Vec<String>,
    /// Offset of the first line of the section.
    pub start: usize,
    /// Offset where the movetext (or the next header block) starts.
    pub end: usize,
    /// The section is followed, after a blank line, by another tag section:
    /// a game without movetext.
    pub header_only: bool,
}

pub(crate) fn unescape_into(raw: &[u8], out: &mut Vec<u8>) {
    let mut k = 0;
    while k < raw.len() {
        if raw[k] == b'\\' && matches!(raw.get(k + 1), Some(b'"') | Some(b'\\')) {
            out.push(raw[k + 1]);
            k += 2;
        } else {
            out.push(raw[k]);
            k += 1;
        }
    }
}

/// The most of a tag line an error shows.
pub(crate) const SHOWN_LINE: usize = 200;

/// The tags of one line (`[Name "value"]`, possibly several), or why not.
/// Returns where text that is no tag starts on the line (the movetext, in
/// `[Result "*"] e4 *`), if any.
pub(crate) fn parse_tag_line(
    line: &[u8],
    base: usize,
    tags: &mut Vec<((usize, usize), (usize, usize))>,
    errors: &mut Vec<String>,
    line_no: usize,
) -> Option<usize> {
    // The line, as each error on it shows it: cut when long, since every tag of a line of thousands of
    // tags may have its error (each showing the whole line made the report grow with their square).
    let shown = || {
        let body = line.trim_ascii();
        if body.len() <= SHOWN_LINE {
            String::from_utf8_lossy(body).into_owned()
        } else {
            let mut cut = SHOWN_LINE;
            while cut > 0 && body[cut] & 0xC0 == 0x80 {
                cut -= 1; // not inside a UTF-8 character
            }
            format!("{}... ({} bytes)", String::from_utf8_lossy(&body[..cut]), body.len())
        }
    };
    let mut i = 0;
    let n = line.len();
    loop {
        while i < n && line[i].is_ascii_whitespace() {
            i += 1;
        }
        if i >= n {
            return None;
        }
        if line[i] != b'[' {
            if i > 0 && line[i - 1] == b']' {
                // Text stuck to a tag's closing bracket ([Event "x"]junk): a
                // broken tag line, read without it as python-chess does.
                errors.push(format!("line {line_no}: text after the tag is left out: {}", shown()));
                return None;
            }
            return Some(i);
        }
        i += 1;
        while i < n && line[i] == b' ' {
            i += 1;
        }
        let name_start = i;
        while i < n && (line[i].is_ascii_alphanumeric() || line[i] == b'_' || line[i] == b'-') {
            i += 1;
        }
        let name_end = i;
        let name = || String::from_utf8_lossy(&line[name_start..name_end]).into_owned();
        while i < n && line[i] == b' ' {
            i += 1;
        }
        if name_start == name_end || line.get(i) != Some(&b'"') {
            errors.push(format!("line {line_no}: a tag must be [Name \"value\"]: {}", shown()));
            return None;
        }
        i += 1;
        let value_start = i;
        let mut close = None;
        let mut stray = false;
        let mut k = i;
        while k < n {
            match line[k] {
                b'\\' => k += 2,
                b'"' => {
                    let mut j = k + 1;
                    while j < n && line[j] == b' ' {
                        j += 1;
                    }
                    if line.get(j) == Some(&b']') {
                        close = Some((k, j + 1));
                        // What follows on the line: another tag, the
                        // movetext, or (python-chess reads it so) more of
                        // this value, up to the line's last `"]`:
                        // [Event "he said "hi"]"].
                        let rest = line[j + 1..].trim_ascii();
                        if !rest.is_empty() && !rest.starts_with(b"[") && rest.ends_with(b"]") {
                            let body = line.trim_ascii_end();
                            let end = body.len() - 1;
                            let mut q = end;
                            while q > j && body[q - 1] == b' ' {
                                q -= 1;
                            }
                            if q > j + 1 && body[q - 1] == b'"' {
                                close = Some((q - 1, end + 1));
                                stray = true;
                            }
                        }
                        break;
                    }
                    stray = true;
                    k += 1;
                }
                _ => k += 1,
            }
        }
        let body = line.trim_ascii_end();
        if close.is_none() && body.ends_with(b"\\\"]") && body.len() - 3 >= value_start {
            // [Event "Tournament \"]: a backslash ending the value, not an
            // escaped quote (python-chess reads it so).
            close = Some((body.len() - 2, body.len()));
            errors.push(format!(
                "line {line_no}: the value of the tag {} ends with a backslash, read as a backslash (write \\\\): {}",
                name(),
                shown()
            ));
        }
        let Some((value_end, after)) = close else {
            errors.push(format!("line {line_no}: the tag {} is not closed with '\"]': {}", name(), shown()));
            return None;
        };
        if stray {
            errors.push(format!(
                "line {line_no}: the value of the tag {} has a quote that is not escaped (write \\\"): {}",
                name(),
                shown()
            ));
        }
        tags.push(((base + name_start, base + name_end), (base + value_start, base + value_end)));
        i = after;
    }
}

impl Head {
    /// The tags as text (values unescaped).
    pub fn decode(&self, text: &[u8]) -> Vec<(String, String)> {
        self.tags.iter().map(|&(n, v)| (decode_name(text, n), decode_value(text, v))).collect()
    }
}

/// Text of a PGN file as python-chess reads it opened as it should be:
/// UTF-8, and where the bytes are not UTF-8, Latin-1 (the names in old DOS
/// and Windows files: "M\xfcller" is "Müller", not "M\u{fffd}ller").
pub(crate) fn decode_text(bytes: &[u8]) -> String {
    match std::str::from_utf8(bytes) {
        Ok(s) => s.to_string(),
        Err(_) => bytes.iter().map(|&b| b as char).collect(),
    }
}

pub(crate) fn decode_name(text: &[u8], (a, b): (usize, usize)) -> String {
    decode_text(&text[a..b])
}

pub(crate) fn decode_value(text: &[u8], (a, b): (usize, usize)) -> String {
    let raw = &text[a..b];
    if memchr::memchr(b'\\', raw).is_none() {
        return decode_text(raw);
    }
    let mut value = Vec::with_capacity(raw.len());
    unescape_into(raw, &mut value);
    decode_text(&value)
}

/// Reads the tag section at the start of `text`.
pub(crate) fn parse_head(text: &[u8], first_line: u64) -> Head {
    let mut head = Head::default();
    let n = text.len();
    let mut i = 0;
    let mut line_no = first_line as usize - 1;
    let mut seen_tag = false;
    let mut blank_after_tags = false;
    let mut started = false;
    while i < n {
        let e = memchr::memchr(b'\n', &text[i..]).map_or(n, |j| i + j + 1);
        let mut line = &text[i..e];
        line_no += 1;
        if line.starts_with(b"\xef\xbb\xbf") {
            line = &line[3..];
        }
        let body = line.trim_ascii_start();
        if body.is_empty() {
            if seen_tag {
                blank_after_tags = true;
            }
        } else if body[0] == b'%' {
            // An escape line: ignored.
        } else if body[0] == b'[' {
            if blank_after_tags {
                head.end = i;
                head.header_only = true;
                return head;
            }
            if !started {
                head.start = i;
                started = true;
            }
            seen_tag = true;
            let base = e - body.len();
            if let Some(k) = parse_tag_line(body, base, &mut head.tags, &mut head.errors, line_no) {
                // Movetext on the tag's line.
                head.end = e - body.len() + k;
                return head;
            }
        } else {
            head.end = i;
            if !started {
                head.start = i;
            }
            return head;
        }
        i = e;
    }
    head.end = n;
    if !started {
        head.start = n;
    }
    head
}

/// The spellings of standard chess in a `Variant` tag (cutechess writes
/// "normal"; "From Position" comes with a FEN).
pub(crate) fn is_standard_variant(value: &str) -> bool {
    let v = value.split_whitespace().collect::<Vec<_>>().join(" ").to_ascii_lowercase();
    matches!(
        v.as_str(),
        "" | "standard" | "chess" | "normal" | "from position" | "fromposition" | "standard chess" | "classical"
            | "orthodox" | "international chess"
    )
}

/// Chess960 (Fischer random chess, the 2023 Laws' Guidelines II).
pub(crate) fn is_chess960(value: &str) -> bool {
    let v: String = value.chars().filter(|c| c.is_ascii_alphanumeric()).collect::<String>().to_ascii_lowercase();
    matches!(v.as_str(), "chess960" | "960" | "fischerandom" | "fischerrandom" | "fischerrandomchess" | "freestyle")
}

pub(crate) fn parse_result(text: &str) -> Option<&'static str> {
    match text.trim() {
        "1-0" => Some("1-0"),
        "0-1" => Some("0-1"),
        "1/2-1/2" | "½-½" => Some("1/2-1/2"),
        "*" => Some("*"),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tags_read_carefully() {
        let text: &[u8] = b"[Event \"Tournament \"Championship\" Finals\"]\n[Site \"a \\\"b\\\"\"] [Round \"5\"]\n\n1. e4 *\n";
        let h = parse_head(text, 10);
        let tags = h.decode(text);
        assert_eq!(tags[0], ("Event".to_string(), "Tournament \"Championship\" Finals".to_string()));
        assert_eq!(tags[1], ("Site".to_string(), "a \"b\"".to_string()));
        assert_eq!(tags[2].0, "Round");
        assert_eq!(h.errors.len(), 1);
        assert!(h.errors[0].starts_with("line 10:"), "{}", h.errors[0]);
        assert!(!h.header_only);
        let h = parse_head(b"[Event \"A\"]\n\n[Event \"B\"]\n\n1. e4 *\n", 1);
        assert!(h.header_only);
        assert_eq!(h.end, 13);
    }
}
