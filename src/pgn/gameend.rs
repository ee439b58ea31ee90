//! Where a game ends in a PGN text: the one rule for `chesslaws check` (its splitter) and for the reader
//! behind `chesslaws convert` (the line feed). A game ends after its result (the termination marker that
//! closes the movetext), or at a blank line followed by a tag pair or the end of the input. A blank line
//! inside the movetext, with moves after it (an old correspondence game typed with a blank line between
//! its parts, an export with an empty line after a comment), leaves the game whole, as pgn-extract reads
//! it.

/// What the movetext lines read so far say about the end of their game.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct MovetextEnd {
    /// Inside a `{...}` comment that spans lines.
    in_comment: bool,
    /// The last token outside comments is a result (`1-0`, `0-1`, `1/2-1/2`, `*`).
    ended: bool,
}

fn is_result(token: &[u8]) -> bool {
    matches!(token, b"1-0" | b"0-1" | b"1/2-1/2" | b"*")
}

impl MovetextEnd {
    /// Reads one line of movetext (a line of a tag section or a `%` escape line changes nothing).
    pub(crate) fn line(&mut self, line: &[u8]) {
        if line.first() == Some(&b'%') {
            return;
        }
        let mut rest = line;
        // The text outside comments, segment by segment; the last token of the last non-empty one counts.
        let mut last: Option<&[u8]> = None;
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
                let (segment, more) = match memchr::memchr2(b'{', b';', rest) {
                    Some(i) => (&rest[..i], Some((rest[i], i))),
                    None => (rest, None),
                };
                if let Some(token) = segment.split(|b| b.is_ascii_whitespace() || b"()".contains(b)).rfind(|t| !t.is_empty()) {
                    last = Some(token);
                }
                match more {
                    Some((b'{', i)) => {
                        self.in_comment = true;
                        rest = &rest[i + 1..];
                    }
                    _ => break, // the end of the line, or a `;` comment to it
                }
            }
        }
        if let Some(token) = last {
            self.ended = is_result(token);
        }
    }

    /// Does a blank line here end the game? `next` is the next line that is not blank (after a byte order
    /// mark), None at the end of the input. Inside a comment, never.
    pub(crate) fn blank_ends_game(&self, next: Option<&[u8]>) -> bool {
        !self.in_comment && (self.ended || next.is_none_or(|l| l.first() == Some(&b'[')))
    }

    /// Inside a `{...}` comment that spans lines (a blank line there is the comment's).
    pub(crate) fn in_comment(&self) -> bool {
        self.in_comment
    }

    /// Does the game's result close what was read (so that a blank line after it ends the game, whatever
    /// follows)?
    pub(crate) fn ended(&self) -> bool {
        self.ended && !self.in_comment
    }
}

#[cfg(test)]
mod tests {
    use super::MovetextEnd;

    fn after(lines: &[&str]) -> MovetextEnd {
        let mut e = MovetextEnd::default();
        for l in lines {
            e.line(l.as_bytes());
        }
        e
    }

    #[test]
    fn a_blank_line_ends_a_game_after_its_result_or_before_tags() {
        let open = after(&["1. e4 e5 2. Nf3 Nc6"]);
        assert!(!open.blank_ends_game(Some(b"3. Bb5 a6 1-0")));
        assert!(open.blank_ends_game(Some(b"[Event \"x\"]")));
        assert!(open.blank_ends_game(None));
        assert!(after(&["1. d4 *"]).blank_ends_game(Some(b"1. c4 *")));
        assert!(after(&["36. Bd4 f5 { Time control.", "} 1/2-1/2"]).ended());
        assert!(after(&["1. e4 1-0 {White won}"]).ended());
        assert!(after(&["1. e4 1-0 ; a remark"]).ended());
        assert!(!after(&["1. e4 {a comment that goes on"]).blank_ends_game(Some(b"[x]")));
        assert!(!after(&["1. e4 {1-0} e5"]).ended());
        assert!(after(&["1. e4 (1. d4 d5) 1-0"]).ended());
    }
}
