//! The lexer: splits a query into numbers, dates, words and symbols, each with its byte
//! span in the original text (so a compound request's parts can quote the user).
//!
//! Numbers are kept as normalised decimal strings, never floats. Date shapes are
//! recognised here, before arithmetic sees them: `2026-12-25` is a date, not
//! `2026 - 12 - 25`. Slash (and dot) dates are day-first: `25/12/2026`.

/// What a token is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Tok {
    /// A literal number as a normalised decimal string (`"2"`, `"-0.5"` never: signs are symbols).
    Num(String),
    /// A date-shaped literal: the ISO date when valid, `None` when not a real date.
    Date(Option<String>),
    /// A word, lowercased.
    Word(String),
    /// Any other character; `×`, `·` and `**` become `*`/`^`, `÷` becomes `/`, `−` becomes `-`.
    Sym(char),
}

/// A token with its byte span in the original query.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Token {
    /// What it is.
    pub tok: Tok,
    /// Byte offset of its first character.
    pub start: usize,
    /// Byte offset just past its last character.
    pub end: usize,
}

impl Token {
    /// The word, if this token is one.
    pub fn word(&self) -> Option<&str> {
        match &self.tok {
            Tok::Word(w) => Some(w),
            _ => None,
        }
    }

    /// Whether this token is the symbol `c`.
    pub fn is_sym(&self, c: char) -> bool {
        self.tok == Tok::Sym(c)
    }

    /// The number, if this token is one (in canonical form).
    pub fn number(&self) -> Option<&str> {
        match &self.tok {
            Tok::Num(n) => Some(n),
            _ => None,
        }
    }
}

/// The indices of the numbers in `toks`.
pub fn number_positions(toks: &[Token]) -> Vec<usize> {
    (0..toks.len())
        .filter(|&k| toks[k].number().is_some())
        .collect()
}

/// Whether `toks` hold a percentage sign or a date: another question than an amount
/// read over the whole request.
pub fn has_percent_or_date(toks: &[Token]) -> bool {
    toks.iter()
        .any(|t| t.is_sym('%') || matches!(t.tok, Tok::Date(_)))
}

/// Whether `toks` hold the words of `phrase` from index `i` on.
pub fn words_at(toks: &[Token], i: usize, phrase: &[&str]) -> bool {
    phrase
        .iter()
        .enumerate()
        .all(|(k, w)| toks.get(i + k).and_then(Token::word) == Some(*w))
}

/// Whether `toks` hold one of `phrases` anywhere (`how many hours`, `mấy tiếng`).
pub fn says(toks: &[Token], phrases: &[&[&str]]) -> bool {
    (0..toks.len()).any(|i| phrases.iter().any(|p| words_at(toks, i, p)))
}

/// The index right after each place `toks` say one of `phrases` (the first phrase that
/// fits there), in order: where what a question asks of stands (`mấy hộp`, `how many
/// kg`).
pub fn after_phrases<'a>(
    toks: &'a [Token],
    phrases: &'a [&'a [&'a str]],
) -> impl Iterator<Item = usize> + 'a {
    (0..toks.len()).filter_map(move |i| {
        phrases
            .iter()
            .find(|p| words_at(toks, i, p))
            .map(|p| i + p.len())
    })
}

/// Whether `toks` hold a clock time written with a colon (`10:00`, `7:30`): an hour
/// and two digits of minutes, never a ratio or a division to compute.
pub fn has_clock_time(toks: &[Token]) -> bool {
    toks.windows(3).any(|w| match (&w[0].tok, &w[2].tok) {
        // (Minutes as typed: two digits, `00` lexed as 0.)
        (Tok::Num(h), Tok::Num(m)) if w[1].is_sym(':') => {
            w[2].end - w[2].start == 2
                && m.bytes().all(|b| b.is_ascii_digit())
                && h.parse::<u32>().is_ok_and(|h| h <= 24)
                && m.parse::<u32>().is_ok_and(|m| m < 60)
        }
        _ => false,
    })
}

/// Splits `text` into tokens.
pub fn lex(text: &str) -> Vec<Token> {
    let chars: Vec<(usize, char)> = text.char_indices().collect();
    let byte_at = |i: usize| chars.get(i).map_or(text.len(), |c| c.0);
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i].1;
        let start = byte_at(i);
        if c.is_whitespace() {
            i += 1;
            continue;
        }
        if c.is_ascii_digit() || (c == '.' && next_is_digit(&chars, i + 1)) {
            let (tok, len) = lex_date(&chars, i).unwrap_or_else(|| lex_number(&chars, i));
            i += len;
            out.push(Token {
                tok,
                start,
                end: byte_at(i),
            });
            continue;
        }
        if c.is_alphabetic() {
            let mut len = word_len(&chars, i);
            // `m2`, `m²`, `cm3`: an area or a volume is one unit word (never `m` then 2).
            let power = chars.get(i + len).map(|c| c.1);
            let after = chars.get(i + len + 1).map(|c| c.1);
            let unit: String = chars[i..i + len].iter().map(|c| c.1).collect();
            if matches!(unit.as_str(), "m" | "cm" | "mm" | "km" | "ft" | "in")
                && matches!(power, Some('2' | '3' | '²' | '³'))
                && !after.is_some_and(|a| a.is_alphanumeric())
            {
                len += 1;
            }
            // `t2 1tr2, t3 900k`: a weekday written short is one word (never `t`, then
            // a count of 2).
            let weekday = len == 1
                && matches!(c, 't' | 'T')
                && (i == 0 || !chars[i - 1].1.is_alphanumeric())
                && matches!(power, Some('2'..='7'))
                && !after
                    .is_some_and(|a| a.is_alphanumeric() || matches!(a, '.' | ',' | ':' | '/'));
            if weekday {
                len += 1;
            }
            let raw: String = chars[i..i + len].iter().map(|c| c.1).collect();
            i += len;
            out.push(Token {
                tok: Tok::Word(clean_word(&raw)),
                start,
                end: byte_at(i),
            });
            continue;
        }
        let (sym, len) = match c {
            '*' if chars.get(i + 1).is_some_and(|n| n.1 == '*') => ('^', 2),
            '×' | '·' | '✕' => ('*', 1),
            '÷' => ('/', 1),
            '−' | '–' => ('-', 1),
            '？' => ('?', 1),
            other => (other, 1),
        };
        i += len;
        out.push(Token {
            tok: Tok::Sym(sym),
            start,
            end: byte_at(i),
        });
    }
    out
}

fn next_is_digit(chars: &[(usize, char)], i: usize) -> bool {
    chars.get(i).is_some_and(|c| c.1.is_ascii_digit())
}

/// Length of a word: letters, with inner apostrophes and inner hyphens between letters
/// (`what's`, `twenty-one`).
fn word_len(chars: &[(usize, char)], i: usize) -> usize {
    let mut j = i;
    while j < chars.len() {
        let c = chars[j].1;
        let joiner = matches!(c, '\'' | '’' | '-')
            && j > i
            && chars.get(j + 1).is_some_and(|n| n.1.is_alphabetic());
        if c.is_alphabetic() || joiner {
            j += 1;
        } else {
            break;
        }
    }
    j - i
}

/// Lowercases and drops a possessive or contracted `'s` (`today's` → `today`).
fn clean_word(raw: &str) -> String {
    let lower = raw.to_lowercase().replace('’', "'");
    match lower.strip_suffix("'s") {
        Some(base) => base.to_owned(),
        None => lower,
    }
}

fn digits_at(chars: &[(usize, char)], i: usize) -> String {
    chars[i.min(chars.len())..]
        .iter()
        .map(|c| c.1)
        .take_while(char::is_ascii_digit)
        .collect()
}

/// `YYYY-MM-DD`, or day-first `D/M/YYYY`, `D-M-YYYY`, `D.M.YYYY`.
fn lex_date(chars: &[(usize, char)], i: usize) -> Option<(Tok, usize)> {
    let first = digits_at(chars, i);
    let sep = chars.get(i + first.len())?.1;
    if !matches!(sep, '-' | '/' | '.') {
        return None;
    }
    let second = digits_at(chars, i + first.len() + 1);
    if second.is_empty() || second.len() > 2 {
        return None;
    }
    let at = i + first.len() + 1 + second.len();
    if chars.get(at)?.1 != sep {
        return None;
    }
    let third = digits_at(chars, at + 1);
    let len = at + 1 + third.len() - i;
    if next_is_digit(chars, i + len) || chars.get(i + len).is_some_and(|c| c.1.is_alphabetic()) {
        return None;
    }
    let short = first.len() <= 2;
    let (y, m, d) = if first.len() == 4 && sep == '-' && (1..=2).contains(&third.len()) {
        (first, second, third)
    } else if (1..=2).contains(&first.len()) && third.len() == 4 {
        (third, second, first)
    } else {
        return None;
    };
    let (y, m, d): (i32, u32, u32) = (y.parse().ok()?, m.parse().ok()?, d.parse().ok()?);
    // `03/15/1998`: no month 15, so the writer put the month first (US order); only
    // where that is the one reading (`31/13/2026` stays invalid).
    let (m, d) = match (m, d) {
        (13..=31, 1..=12) if short => (d, m),
        kept => kept,
    };
    Some((Tok::Date(iso_date(y, m, d)), len))
}

/// `YYYY-MM-DD` when the year, month and day make a real date.
pub fn iso_date(y: i32, m: u32, d: u32) -> Option<String> {
    let real =
        (1..=9999).contains(&y) && (1..=12).contains(&m) && (1..=days_in_month(y, m)).contains(&d);
    real.then(|| format!("{y:04}-{m:02}-{d:02}"))
}

/// Days in month `m` of year `y` (Gregorian).
pub fn days_in_month(y: i32, m: u32) -> u32 {
    match m {
        2 if (y % 4 == 0 && y % 100 != 0) || y % 400 == 0 => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// A number: digits with optional `,ddd` thousands groups and an optional decimal part
/// after `.` (or after `,` when what follows is not a group of exactly three digits).
fn lex_number(chars: &[(usize, char)], i: usize) -> (Tok, usize) {
    let mut int = digits_at(chars, i);
    let mut j = i + int.len();
    loop {
        let group = digits_at(chars, j + 1);
        let is_group = chars.get(j).is_some_and(|c| c.1 == ',') && group.len() == 3;
        if !is_group || int.is_empty() {
            break;
        }
        int.push_str(&group);
        j += 4;
    }
    let mut frac = String::new();
    if let Some(&(_, c)) = chars.get(j)
        && (c == '.' || (c == ',' && !int.is_empty()))
        && next_is_digit(chars, j + 1)
    {
        frac = digits_at(chars, j + 1);
        j += 1 + frac.len();
    }
    // `3.2e4`, `1e-3`: scientific notation, an exponent of at most two digits right
    // after the digits and no letter after it.
    if let Some((exp, len)) = exponent(chars, j) {
        let (int, frac) = shift_point(&int, &frac, exp);
        return (Tok::Num(normalise(&int, &frac)), j + len - i);
    }
    (Tok::Num(normalise(&int, &frac)), j - i)
}

/// The exponent written at `j` (`e4`, `E-3`, `e+2`) and its length.
fn exponent(chars: &[(usize, char)], j: usize) -> Option<(i32, usize)> {
    if !matches!(chars.get(j)?.1, 'e' | 'E') {
        return None;
    }
    let sign = match chars.get(j + 1)?.1 {
        '-' => Some(-1),
        '+' => Some(1),
        _ => None,
    };
    let at = j + 1 + usize::from(sign.is_some());
    let digits = digits_at(chars, at);
    let after = chars.get(at + digits.len()).map(|c| c.1);
    if digits.is_empty() || digits.len() > 2 || after.is_some_and(char::is_alphanumeric) {
        return None;
    }
    let value: i32 = digits.parse().ok()?;
    Some((
        sign.unwrap_or(1) * value,
        1 + usize::from(sign.is_some()) + digits.len(),
    ))
}

/// The digits `int`.`frac` with the point moved `exp` places right (left when negative).
fn shift_point(int: &str, frac: &str, exp: i32) -> (String, String) {
    let digits = format!("{int}{frac}");
    let point = int.len() as i32 + exp;
    if point <= 0 {
        (
            String::new(),
            format!("{}{digits}", "0".repeat((-point) as usize)),
        )
    } else if point as usize >= digits.len() {
        (
            format!("{digits}{}", "0".repeat(point as usize - digits.len())),
            String::new(),
        )
    } else {
        let (a, b) = digits.split_at(point as usize);
        (a.to_owned(), b.to_owned())
    }
}

/// The canonical decimal string: no leading zeros, no trailing fractional zeros.
pub fn normalise(int: &str, frac: &str) -> String {
    let int = int.trim_start_matches('0');
    let frac = frac.trim_end_matches('0');
    let int = if int.is_empty() { "0" } else { int };
    if frac.is_empty() {
        int.to_owned()
    } else {
        format!("{int}.{frac}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scientific_notation_is_a_number() {
        assert_eq!(toks("3.2e4"), vec![Tok::Num("32000".into())]);
        assert_eq!(toks("1e-3"), vec![Tok::Num("0.001".into())]);
        assert_eq!(toks("2.5E+2"), vec![Tok::Num("250".into())]);
        // (`5eggs` is no exponent: a letter follows the digits.)
        assert_eq!(toks("5e3x")[0], Tok::Num("5".into()));
    }

    fn toks(text: &str) -> Vec<Tok> {
        lex(text).into_iter().map(|t| t.tok).collect()
    }

    fn num(s: &str) -> Tok {
        Tok::Num(s.into())
    }

    #[test]
    fn a_weekday_written_short_is_one_word() {
        let word = |w: &str| Tok::Word(w.into());
        assert_eq!(toks("t2 1,2"), vec![word("t2"), num("1.2")]);
        assert_eq!(toks("T7"), vec![word("t7")]);
        // Never a longer number, nor a `t` inside a word.
        assert_eq!(toks("t25"), vec![word("t"), num("25")]);
        assert_eq!(toks("at2"), vec![word("at"), num("2")]);
    }

    #[test]
    fn numbers_are_normalised_decimal_strings() {
        assert_eq!(
            toks("02 .5 2.50 1,000 2,5"),
            vec![num("2"), num("0.5"), num("2.5"), num("1000"), num("2.5")]
        );
    }

    #[test]
    fn double_star_is_power_and_times_sign_is_multiply() {
        assert_eq!(
            toks("2**10 6×7 8÷2"),
            vec![
                num("2"),
                Tok::Sym('^'),
                num("10"),
                num("6"),
                Tok::Sym('*'),
                num("7"),
                num("8"),
                Tok::Sym('/'),
                num("2")
            ]
        );
    }

    #[test]
    fn iso_and_day_first_slash_dates_become_iso() {
        assert_eq!(
            toks("2026-12-25"),
            vec![Tok::Date(Some("2026-12-25".into()))]
        );
        assert_eq!(
            toks("25/12/2026"),
            vec![Tok::Date(Some("2026-12-25".into()))]
        );
        assert_eq!(toks("1/2/2026"), vec![Tok::Date(Some("2026-02-01".into()))]);
    }

    #[test]
    fn impossible_dates_are_marked_invalid() {
        assert_eq!(toks("2026-02-30"), vec![Tok::Date(None)]);
        assert_eq!(toks("31/13/2026"), vec![Tok::Date(None)]);
        assert_eq!(toks("2026-13-05"), vec![Tok::Date(None)]);
    }

    #[test]
    fn a_month_first_date_is_read_where_it_reads_one_way_only() {
        assert_eq!(
            toks("03/15/1998"),
            vec![Tok::Date(Some("1998-03-15".into()))]
        );
        assert_eq!(
            toks("12-31-2026"),
            vec![Tok::Date(Some("2026-12-31".into()))]
        );
        // Both ways possible: day first, as before.
        assert_eq!(
            toks("03/04/2027"),
            vec![Tok::Date(Some("2027-04-03".into()))]
        );
        assert_eq!(toks("02/30/2026"), vec![Tok::Date(None)]);
    }

    #[test]
    fn a_slash_without_a_year_is_division() {
        assert_eq!(toks("10/4"), vec![num("10"), Tok::Sym('/'), num("4")]);
    }

    #[test]
    fn words_are_lowercased_with_possessives_dropped_and_spans_kept() {
        let t = lex("What's Today's date, Tính");
        assert_eq!(t[0].tok, Tok::Word("what".into()));
        assert_eq!(t[1].tok, Tok::Word("today".into()));
        assert_eq!(t[4].tok, Tok::Word("tính".into()));
        assert_eq!(&"What's Today's date, Tính"[t[4].start..t[4].end], "Tính");
    }

    #[test]
    fn hyphenated_number_words_stay_one_word() {
        assert_eq!(toks("twenty-one"), vec![Tok::Word("twenty-one".into())]);
    }
}
