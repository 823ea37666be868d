//! Stage 1: Unicode. Each character cluster (a letter and the marks after it) is put in
//! NFKC form, so full-width `２＋４` is `2+4`, decomposed Vietnamese is composed and a
//! no-break space is a space; a decimal digit of any script (`٢`, `२`, `๒`) becomes its
//! ASCII digit; dashes, curly quotes and runs of spaces become one form each. The text
//! is then cut into pieces: words, numbers, spaces and single other characters.

use std::ops::Range;

use unicode_normalization::UnicodeNormalization;
use unicode_normalization::char::is_combining_mark;

use super::{Kind, Piece};

/// The zero of each run of ten decimal digits outside ASCII that NFKC leaves alone
/// (Arabic-Indic, Devanagari, Bengali, …, Thai, Lao, Tibetan, Myanmar, Khmer, …).
const DIGIT_ZEROS: &[u32] = &[
    0x0660, 0x06F0, 0x07C0, 0x0966, 0x09E6, 0x0A66, 0x0AE6, 0x0B66, 0x0BE6, 0x0C66, 0x0CE6, 0x0D66,
    0x0DE6, 0x0E50, 0x0ED0, 0x0F20, 0x1040, 0x1090, 0x17E0, 0x1810, 0x1946, 0x19D0, 0x1A80, 0x1A90,
    0x1B50, 0x1BB0, 0x1C40, 0x1C50, 0xA620, 0xA8D0, 0xA900, 0xA9D0, 0xA9F0, 0xAA50, 0xABF0,
];

/// The ASCII digit for a decimal digit of any script that has one.
pub fn ascii_digit(c: char) -> Option<char> {
    if c.is_ascii_digit() {
        return Some(c);
    }
    let code = c as u32;
    DIGIT_ZEROS
        .iter()
        .find(|&&zero| (zero..zero + 10).contains(&code))
        .and_then(|zero| char::from_digit(code - zero, 10))
}

/// One form for characters people type several ways.
fn canonical_char(c: char) -> char {
    match c {
        '‘' | '’' | '‛' | '`' | '´' | 'ʼ' => '\'',
        '“' | '”' | '„' | '‟' => '"',
        '‐' | '‑' | '‒' | '–' | '—' | '―' | '−' | '﹣' => '-',
        '⁄' | '∕' => '/',
        '∗' => '*',
        c if c.is_whitespace() => ' ',
        c => ascii_digit(c).unwrap_or(c),
    }
}

/// One character of the canonical text and the span of the user's text it comes from.
struct Unit {
    c: char,
    orig: Range<usize>,
    same: bool,
}

/// The canonical characters of `text`, cluster by cluster.
fn units(text: &str) -> Vec<Unit> {
    let mut out = Vec::with_capacity(text.len());
    let mut chars = text.char_indices().peekable();
    while let Some((start, c)) = chars.next() {
        let mut end = start + c.len_utf8();
        while let Some(&(i, m)) = chars.peek() {
            if !is_combining_mark(m) {
                break;
            }
            end = i + m.len_utf8();
            chars.next();
        }
        let cluster = &text[start..end];
        let simple = cluster.len() == c.len_utf8() && c.is_ascii();
        if simple {
            let n = canonical_char(c);
            out.push(Unit {
                c: n,
                orig: start..end,
                same: n == c,
            });
            continue;
        }
        let canon: Vec<char> = cluster.nfkc().map(canonical_char).collect();
        let same = canon.len() == 1 && canon[0].len_utf8() == end - start && canon[0] == c;
        out.extend(canon.into_iter().map(|n| Unit {
            c: n,
            orig: start..end,
            same,
        }));
    }
    out
}

fn is_word_char(c: char) -> bool {
    c.is_alphabetic()
}

/// The pieces of `text`: words (letters with inner `'` or `-`), numbers (digits with
/// inner `.` or `,`), one space for each run of spaces, and single other characters.
pub fn pieces(text: &str) -> Vec<Piece> {
    let units = units(text);
    let mut out: Vec<Piece> = Vec::new();
    let mut i = 0;
    while i < units.len() {
        let c = units[i].c;
        let (kind, len) = if is_word_char(c) {
            (Kind::Word, run(&units, i, is_word_char, &['\'', '-']))
        } else if c.is_ascii_digit() {
            (
                Kind::Number,
                run(&units, i, |c| c.is_ascii_digit(), &['.', ',']),
            )
        } else if c == ' ' {
            let n = units[i..].iter().take_while(|u| u.c == ' ').count();
            (Kind::Space, n)
        } else {
            (Kind::Other, 1)
        };
        let slice = &units[i..i + len];
        let mut piece = Piece {
            text: slice.iter().map(|u| u.c).collect(),
            kind,
            orig: slice[0].orig.start..slice[len - 1].orig.end,
            same: slice.iter().all(|u| u.same),
        };
        if kind == Kind::Space {
            piece.set(" ".to_owned());
        }
        out.push(piece);
        i += len;
    }
    out
}

/// Length of a run from `i` of characters passing `inner`, with single `joiners`
/// between two of them.
fn run(units: &[Unit], i: usize, inner: impl Fn(char) -> bool, joiners: &[char]) -> usize {
    let mut j = i;
    while j < units.len() {
        let c = units[j].c;
        let joins = joiners.contains(&c) && j > i && units.get(j + 1).is_some_and(|n| inner(n.c));
        if inner(c) || joins {
            j += 1;
        } else {
            break;
        }
    }
    j - i
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(s: &str) -> String {
        pieces(s).iter().map(|p| p.text.as_str()).collect()
    }

    #[test]
    fn full_width_and_other_scripts_digits_become_ascii() {
        assert_eq!(text("２＋４"), "2+4");
        assert_eq!(text("٢+٤"), "2+4");
        assert_eq!(text("२५ × ४"), "25 × 4");
        assert_eq!(text("๑๒ - ๓"), "12 - 3");
    }

    #[test]
    fn decomposed_vietnamese_is_composed() {
        let nfd = "ti\u{301}nh 2 co\u{302}\u{323}ng 4";
        assert_eq!(text(nfd), "tính 2 cộng 4");
    }

    #[test]
    fn dashes_quotes_and_spaces_have_one_form() {
        assert_eq!(text("10 – 4"), "10 - 4");
        assert_eq!(text("what’s   2\u{a0}+\t2"), "what's 2 + 2");
        assert_eq!(text("“2+2”"), "\"2+2\"");
    }

    #[test]
    fn pieces_are_words_numbers_spaces_and_symbols() {
        let kinds: Vec<Kind> = pieces("what's 1,250.5+x").iter().map(|p| p.kind).collect();
        assert_eq!(
            kinds,
            vec![
                Kind::Word,
                Kind::Space,
                Kind::Number,
                Kind::Other,
                Kind::Word
            ]
        );
        let p = pieces("ab ２");
        assert_eq!(p[2].orig, 3..6);
        assert!(!p[2].same);
        assert!(p[0].same);
    }
}
