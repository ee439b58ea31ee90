//! Clock comments of PGN movetext: `[%clk H:MM:SS]` values in milliseconds.

/// `H:MM:SS(.f)`, `M:SS` or `SS` in ms, without allocating: the one reader
/// of clock values, for the checker and the PGN reader alike.
pub(crate) fn clock_ms(text: &[u8]) -> Option<u64> {
    let t = text.trim_ascii();
    let (whole, frac) = match t.iter().position(|&b| b == b'.') {
        Some(d) => (&t[..d], &t[d + 1..]),
        None => (t, &t[t.len()..]),
    };
    let mut parts = 0;
    let mut secs: u64 = 0;
    for p in whole.split(|&b| b == b':') {
        parts += 1;
        if p.is_empty() || p.len() > 6 || parts > 3 || !p.iter().all(u8::is_ascii_digit) {
            return None;
        }
        let v = p.iter().fold(0u64, |a, &b| a * 10 + u64::from(b - b'0'));
        secs = secs * 60 + v;
    }
    if !frac.iter().all(u8::is_ascii_digit) {
        return None;
    }
    let mut ms = 0u64;
    for k in 0..3 {
        ms = ms * 10 + frac.get(k).map_or(0, |&b| u64::from(b - b'0'));
    }
    Some(secs * 1000 + ms)
}

pub(crate) fn last_clock(raw: &[u8]) -> Option<u64> {
    let mut found = None;
    let mut i = 0;
    // Each "[%clk" (found by its '%': a memmem searcher costs more to set up
    // than most comments are long).
    while let Some(j) = memchr::memchr(b'%', &raw[i..]) {
        let p = i + j;
        if p == 0 || raw[p - 1] != b'[' || !raw[p + 1..].starts_with(b"clk") {
            i = p + 1;
            continue;
        }
        let s = p + 4;
        let e = raw[s..].iter().position(|&b| b == b']').map(|k| s + k)?;
        if let Some(ms) = clock_ms(&raw[s..e]) {
            found = Some(ms);
        }
        i = e;
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clocks() {
        let cases = [
            ("0:01:02.5", Some(62_500)),
            (" 1:00:00 ", Some(3_600_000)),
            ("0:00:00", Some(0)),
            ("59", Some(59_000)),
            ("3:07", Some(187_000)),
            ("x", None),
            ("1:2:3:4", None),
            ("", None),
            ("0:00:01.25", Some(1_250)),
        ];
        for (t, ms) in cases {
            assert_eq!(clock_ms(t.as_bytes()), ms, "{t}");
        }
        assert_eq!(last_clock(b"a [%clk 0:00:09] b [%clk 0:00:00]"), Some(0));
    }
}
