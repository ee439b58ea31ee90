//! Input: a file or standard input, plain, gzip or zstd (told by the magic
//! bytes), read through a byte counter (the progress bar); and what an input
//! that is no text is.

use std::fs::File;
use std::io::{self, BufRead, BufReader, Read};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

struct Counting<R> {
    inner: R,
    count: Arc<AtomicU64>,
}

impl<R: Read> Read for Counting<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.count.fetch_add(n as u64, Ordering::Relaxed);
        Ok(n)
    }
}

pub type Input = Box<dyn BufRead + Send>;

/// Opens `path` ("-": standard input), decompressing gzip and zstd (told by
/// their magic bytes). Returns the input and the size on disk, if known.
pub fn open_input(path: &str, count: Arc<AtomicU64>) -> io::Result<(Input, Option<u64>)> {
    let (raw, total): (Box<dyn Read + Send>, Option<u64>) = if path == "-" {
        (Box::new(io::stdin()), None)
    } else {
        let f = File::open(path)?;
        let meta = f.metadata()?;
        if meta.is_dir() {
            return Err(io::Error::other(format!("{path} is a directory")));
        }
        (Box::new(f), Some(meta.len()))
    };
    let mut br = BufReader::with_capacity(1 << 20, Counting { inner: raw, count });
    let head = br.fill_buf()?;
    let input: Input = if head.starts_with(&[0x1f, 0x8b]) {
        Box::new(BufReader::with_capacity(1 << 20, flate2::bufread::MultiGzDecoder::new(br)))
    } else if head.starts_with(&[0x28, 0xb5, 0x2f, 0xfd]) {
        Box::new(BufReader::with_capacity(1 << 20, zstd::stream::read::Decoder::with_buffer(br)?))
    } else if let Some(what) = not_text(head) {
        // Said at once, rather than read as text into findings on its bytes.
        let source = if path == "-" { "standard input" } else { "the file" };
        let advice = if what.starts_with("UTF") { ": save it as UTF-8" } else { "" };
        return Err(io::Error::new(io::ErrorKind::InvalidData, format!("{source} is {what}, not PGN text{advice}")));
    } else {
        Box::new(br)
    };
    Ok((input, total))
}

/// What the first bytes of an input show it is when it is no text a PGN
/// reader reads (UTF-8 or Latin-1): UTF-16 or UTF-32 text, an archive, a
/// binary file. None when it may be text.
pub fn not_text(head: &[u8]) -> Option<&'static str> {
    let head = &head[..head.len().min(4096)];
    if head.starts_with(b"\xff\xfe\x00\x00") || head.starts_with(b"\x00\x00\xfe\xff") {
        return Some("UTF-32 text");
    }
    if head.starts_with(b"\xff\xfe") || head.starts_with(b"\xfe\xff") {
        return Some("UTF-16 text");
    }
    for (magic, what) in [
        (&b"PK\x03\x04"[..], "a ZIP archive"),
        (b"BZh", "bzip2-compressed"),
        (b"\xfd7zXZ\x00", "xz-compressed"),
        (b"7z\xbc\xaf", "a 7-Zip archive"),
        (b"%PDF", "a PDF document"),
        (b"SQLite format 3\x00", "an SQLite database"),
    ] {
        if head.starts_with(magic) {
            return Some(what);
        }
    }
    let zeros = |start: usize| {
        let n = head.iter().skip(start).step_by(2).count();
        n > 0 && head.iter().skip(start).step_by(2).filter(|&&b| b == 0).count() * 10 > n * 9
    };
    if zeros(1) {
        return Some("UTF-16LE text (without a byte-order mark)");
    }
    if zeros(0) {
        return Some("UTF-16BE text (without a byte-order mark)");
    }
    // Control characters that no text has (a stray one in a PGN file is
    // read as the text it is in): a binary file.
    let nul = head.iter().filter(|&&b| b == 0).count();
    let control = head.iter().filter(|&&b| b < 0x20 && !matches!(b, b'\t' | b'\n' | b'\r' | 0x0b | 0x0c | 0x1a | 0x1b)).count();
    ((nul >= 4 && nul * 100 > head.len()) || (control >= 4 && control * 10 > head.len())).then_some("a binary file")
}
