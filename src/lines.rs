//! Reading text line by line in bounded memory: a judge's reader must answer a file with a
//! 500 MB line as it answers any other, so it keeps the first bytes of each line, counts the
//! rest, and lets the caller look at what it does not keep as it streams past.

use std::io::{self, BufRead, BufReader, Read};

/// One line as read, without its newline.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Line {
    /// The first bytes of the line, at most the reader's limit (all of it when it is shorter).
    pub kept: Vec<u8>,
    /// The length of the whole line.
    pub len: usize,
    /// The last byte of the line, kept or not.
    pub last: Option<u8>,
    /// Whether a newline ended it (rather than the end of the input).
    pub newline: bool,
}

impl Line {
    /// Whether the line is longer than what was kept.
    pub fn cut(&self) -> bool {
        self.len > self.kept.len()
    }
}

/// Lines of a source, each held to its first `keep` bytes.
pub struct BoundedLines<R> {
    src: BufReader<R>,
    keep: usize,
    number: u64,
}

impl<R: Read> BoundedLines<R> {
    /// Reads `src`, keeping at most `keep` bytes of each line.
    pub fn new(src: R, keep: usize) -> BoundedLines<R> {
        BoundedLines {
            src: BufReader::with_capacity(1 << 16, src),
            keep,
            number: 0,
        }
    }

    /// Lines read so far: the number of the last line returned.
    pub fn number(&self) -> u64 {
        self.number
    }

    /// The next line, or `None` at the end of the input.
    pub fn next_line(&mut self) -> io::Result<Option<Line>> {
        self.next_with(|_, _| {})
    }

    /// The next line; `rest(offset, bytes)` is shown every byte past the kept ones, in
    /// pieces, with the offset in the line of each piece's first byte.
    pub fn next_with(&mut self, mut rest: impl FnMut(usize, &[u8])) -> io::Result<Option<Line>> {
        let mut line = Line::default();
        let mut any = false;
        loop {
            let buf = match self.src.fill_buf() {
                Ok(b) => b,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            if buf.is_empty() {
                break;
            }
            any = true;
            let (content, used) = match buf.iter().position(|&b| b == b'\n') {
                Some(i) => (&buf[..i], i + 1),
                None => (buf, buf.len()),
            };
            let room = self.keep.saturating_sub(line.kept.len()).min(content.len());
            line.kept.extend_from_slice(&content[..room]);
            if room < content.len() {
                rest(line.len + room, &content[room..]);
            }
            if let Some(&b) = content.last() {
                line.last = Some(b);
            }
            line.len += content.len();
            let done = used > content.len();
            self.src.consume(used);
            if done {
                line.newline = true;
                break;
            }
        }
        if !any {
            return Ok(None);
        }
        self.number += 1;
        Ok(Some(line))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_lines_are_cut_and_their_rest_is_shown() {
        let text = format!("ab\n{}\nlast", "x".repeat(100_000));
        let mut lines = BoundedLines::new(text.as_bytes(), 4);
        let first = lines.next_line().unwrap().unwrap();
        assert_eq!(
            (first.kept.as_slice(), first.len, first.newline),
            (&b"ab"[..], 2, true)
        );
        let mut seen = 0;
        let long = lines.next_with(|at, bytes| {
            assert_eq!(at, 4 + seen);
            seen += bytes.len();
        });
        let long = long.unwrap().unwrap();
        assert!(long.cut() && long.kept == b"xxxx" && long.len == 100_000);
        assert_eq!(seen, 100_000 - 4);
        let last = lines.next_line().unwrap().unwrap();
        assert_eq!(
            (last.kept.as_slice(), last.newline, last.last),
            (&b"last"[..], false, Some(b't'))
        );
        assert_eq!(lines.number(), 3);
        assert!(lines.next_line().unwrap().is_none());
    }
}
