//! Text from outside (a line of an input file, what a solver printed) made safe to echo on a
//! terminal.
//!
//! A terminal acts on the control characters it is sent: `\x1b[2J` clears the screen, other
//! sequences move the cursor, rewrite the title or the colours, and a right-to-left override
//! turns the rest of a line around. A message that quotes its input verbatim hands that power
//! to whoever wrote the input. So every message of tomek that quotes input goes through
//! [`escape`] or [`excerpt`]: printable text stays as it is, any other character is written as
//! an escape, and bytes that are not UTF-8 are written as `\xNN`. The backslash itself is
//! doubled, so that an escape in the message always stands for one character of the input.

use std::fmt::Write;

/// `bytes` as text that a terminal prints as it is: `\t`, `\r` and `\n` for those, `\\` for a
/// backslash, `\xNN` for the other ASCII control characters and for bytes that are not UTF-8,
/// and `\u{NNNN}` for the other control and formatting characters (the C1 controls, bidirectional
/// overrides, zero-width characters).
pub fn escape(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len());
    for chunk in bytes.utf8_chunks() {
        for c in chunk.valid().chars() {
            push_char(&mut out, c);
        }
        for &b in chunk.invalid() {
            let _ = write!(out, "\\x{b:02x}");
        }
    }
    out
}

/// [`escape`] of at most the first `max` bytes of `bytes` (cut before a character that would
/// pass the limit); when that is not all of them, followed by `… (N bytes)`, N being the
/// length of the whole.
pub fn excerpt(bytes: &[u8], max: usize) -> String {
    if bytes.len() <= max {
        return escape(bytes);
    }
    // Step back (at most three bytes) to the start of a character the limit would split.
    let mut cut = max;
    while cut > 0 && max - cut < 3 && bytes[cut] & 0xC0 == 0x80 {
        cut -= 1;
    }
    let mut s = escape(&bytes[..cut]);
    let _ = write!(
        s,
        "… ({} bytes)",
        crate::output::grouped(bytes.len() as u128)
    );
    s
}

fn push_char(out: &mut String, c: char) {
    match c {
        '\t' => out.push_str("\\t"),
        '\r' => out.push_str("\\r"),
        '\n' => out.push_str("\\n"),
        '\\' => out.push_str("\\\\"),
        '\0'..='\x1f' | '\x7f' => {
            let _ = write!(out, "\\x{:02x}", c as u32);
        }
        c if needs_escape(c) => {
            let _ = write!(out, "\\u{{{:x}}}", c as u32);
        }
        c => out.push(c),
    }
}

/// The characters beyond ASCII that act on a terminal or on the text around them rather than
/// show: the C1 controls (U+009B opens a control sequence like `ESC [`), and the format
/// characters that reorder or hide text.
fn needs_escape(c: char) -> bool {
    matches!(c,
        '\u{80}'..='\u{9f}'
        | '\u{ad}'
        | '\u{61c}'
        | '\u{200b}'..='\u{200f}'
        | '\u{2028}'..='\u{202e}'
        | '\u{2060}'..='\u{206f}'
        | '\u{feff}'
        | '\u{fff9}'..='\u{fffb}')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn printable_text_stays_and_the_rest_is_escaped() {
        assert_eq!(escape(b"Case #1: X won"), "Case #1: X won");
        assert_eq!(escape("é ☃".as_bytes()), "é ☃");
        assert_eq!(
            escape(b"\x1b[2J\x00 a\tb\r\n\x7f"),
            "\\x1b[2J\\x00 a\\tb\\r\\n\\x7f"
        );
        assert_eq!(escape(b"a\\x1b"), "a\\\\x1b");
        assert_eq!(escape(b"\xff\xc3("), "\\xff\\xc3(");
        assert_eq!(
            escape("\u{9b}2J \u{202e}ab".as_bytes()),
            "\\u{9b}2J \\u{202e}ab"
        );
    }

    #[test]
    fn long_text_is_cut_with_its_length() {
        assert_eq!(excerpt(b"abcdef", 6), "abcdef");
        assert_eq!(excerpt(b"abcdefg", 3), "abc… (7 bytes)");
        // A character the limit would split is left out whole.
        assert_eq!(excerpt("abé!".as_bytes(), 3), "ab… (5 bytes)");
        assert_eq!(excerpt("abé!".as_bytes(), 4), "abé… (5 bytes)");
        // Bytes that are not UTF-8 are cut anywhere.
        assert_eq!(excerpt(b"ab\xc3\xc3\xc3", 3), "ab\\xc3… (5 bytes)");
        let long = vec![b'\x1b'; 5000];
        let e = excerpt(&long, 100);
        assert!(
            e.starts_with("\\x1b\\x1b") && e.ends_with("… (5,000 bytes)"),
            "{e}"
        );
        assert!(!e.contains('\x1b'));
    }
}
