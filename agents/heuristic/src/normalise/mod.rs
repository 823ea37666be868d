//! Normalisation: the stage before any grammar rule. People type full-width digits,
//! Vietnamese without its marks, typos, `$12.50`, `375k` and `1.500.000 đồng`; the
//! grammar should see one canonical spelling of each and nothing else.
//!
//! The stages, in order, each its own module:
//! 1. [`unicode`]: NFKC per character cluster, any Unicode decimal digit to ASCII,
//!    dashes, quotes and spaces to one form each;
//! 2. [`fold`]: Vietnamese words matched with and without diacritics, through a folded
//!    lexicon built from the planner's own vocabulary ([`lexicon`]);
//! 3. [`typo`]: shorthand (`wat`, `pls`) and typos of vocabulary words, by edit
//!    distance, never on numbers and never from one operation to another;
//! 4. [`amounts`]: money and amounts to plain decimals (`$1,250` → `1250`,
//!    `2 triệu` → `2000000`, `7,5` → `7.5` in Vietnamese).
//!
//! The result keeps, for every piece of canonical text, the span of the user's text it
//! came from, so the parts a report quotes are quoted as the user wrote them
//! ([`Normalised::original`]). Case is kept (the lexer lowercases); place names stay as
//! typed.

pub mod amounts;
pub mod dictionary;
pub mod fold;
pub mod lexicon;
pub mod typo;
pub mod unicode;

use std::ops::Range;

/// What a piece of text is, for the stages after Unicode.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// Letters (with inner apostrophes or hyphens).
    Word,
    /// ASCII digits with inner `.` and `,`.
    Number,
    /// Whitespace.
    Space,
    /// Any other character.
    Other,
}

/// A piece of the text being normalised, with the span of the user's text it stands for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Piece {
    /// The canonical text so far.
    pub text: String,
    /// What it is.
    pub kind: Kind,
    /// Byte range in the user's text.
    pub orig: Range<usize>,
    /// Whether `text` is exactly the user's text at `orig` (offsets inside map 1:1).
    pub same: bool,
}

impl Piece {
    /// The text lowercased, for lookups.
    pub fn lower(&self) -> String {
        self.text.to_lowercase()
    }

    /// Replaces the text, keeping the span.
    pub fn set(&mut self, text: String) {
        if text != self.text {
            self.text = text;
            self.same = false;
        }
    }
}

/// The language the normaliser reads the words in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reading {
    /// English conventions: `1,250` is a thousand and more, `2,5` a list.
    English,
    /// Vietnamese conventions: words folded, `1.500.000` thousands, `7,5` a decimal.
    Vietnamese,
}

/// A query in canonical form, with the way back to what the user typed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Normalised {
    /// The canonical text the grammar reads.
    pub text: String,
    /// How its words were read.
    pub reading: Reading,
    /// `(canonical byte range, user's byte range, same text)` for each piece, in order.
    spans: Vec<(Range<usize>, Range<usize>, bool)>,
    /// The user's text.
    source: String,
}

impl Normalised {
    /// The user's words for `part`, a piece of [`Normalised::text`] (the first place it
    /// occurs); `part` itself when it is not a piece of it.
    pub fn original(&self, part: &str) -> String {
        if part.is_empty() || self.text == self.source {
            return part.to_owned();
        }
        let Some(at) = self.text.find(part) else {
            return part.to_owned();
        };
        let (start, end) = (self.map(at, false), self.map(at + part.len(), true));
        match self.source.get(start..end) {
            Some(s) if start < end => s.trim().to_owned(),
            _ => part.to_owned(),
        }
    }

    /// The user's byte offset for canonical offset `at` (as an end when `end`).
    fn map(&self, at: usize, end: bool) -> usize {
        let found = self.spans.iter().position(|(out, _, _)| match end {
            false => out.start <= at && at < out.end,
            true => out.start < at && at <= out.end,
        });
        let hit = found.map(|k| &self.spans[k]);
        match hit {
            Some((out, orig, true)) => orig.start + (at - out.start),
            // `2.4 million` became `2400000`: the words it took in (now empty) end there.
            Some((out, orig, false)) if end && at == out.end => found
                .and_then(|k| {
                    self.spans[k + 1..]
                        .iter()
                        .take_while(|(o, _, _)| o.is_empty())
                        .last()
                })
                .map_or(orig.end, |(_, last, _)| last.end),
            Some((_, orig, false)) if end => orig.end,
            Some((_, orig, false)) => orig.start,
            None if end => self.source.len(),
            None => 0,
        }
    }
}

/// Days of the week labelling the items of a list (`mon 820k, tue 760k`, `t2 500k`).
/// Kept here because this folder's literals are not learnt as vocabulary: `thu`, `mon`,
/// `sat` and `cn` typed without marks are Vietnamese words (`thứ`, `món`, `sát`) the
/// normaliser must still restore.
pub const WEEKDAY_LABELS: &[&str] = &[
    "mon",
    "tue",
    "tues",
    "wed",
    "thu",
    "thur",
    "thurs",
    "fri",
    "sat",
    "sun",
    "monday",
    "tuesday",
    "wednesday",
    "thursday",
    "friday",
    "saturday",
    "sunday",
    "t2",
    "t3",
    "t4",
    "t5",
    "t6",
    "t7",
    "cn",
];

/// `nay thứ mấy`, `nay ngày bao nhiêu`: `nay` opening a question of the day is `hôm
/// nay`, today.
fn today_said_short(pieces: &mut [Piece]) {
    let mut words = (0..pieces.len()).filter(|&i| pieces[i].kind == Kind::Word);
    if let (Some(first), Some(next)) = (words.next(), words.next())
        && pieces[first].lower() == "nay"
        && matches!(pieces[next].lower().as_str(), "thứ" | "ngày")
    {
        let said = fold::with_case_of(&pieces[first].text, "hôm nay");
        pieces[first].set(said);
    }
}

/// `thứ hai 18 hộp, thứ ba 22, …`: weekdays named in words before an amount, twice or
/// more, label a list's items as `t2`, `t3` do (never a count: `hai`, `ba` are no
/// numbers there).
fn weekdays_as_labels(pieces: &mut [Piece]) {
    const DAYS: &[(&str, &str)] = &[
        ("hai", "t2"),
        ("ba", "t3"),
        ("tu", "t4"),
        ("nam", "t5"),
        ("sau", "t6"),
        ("bay", "t7"),
    ];
    let next = |pieces: &[Piece], i: usize| fold::near(pieces, i, true);
    let found: Vec<(usize, usize, &str)> = (0..pieces.len())
        .filter_map(|i| {
            if pieces[i].kind != Kind::Word || fold::fold(&pieces[i].lower()) != "thu" {
                return None;
            }
            let j = next(pieces, i)?;
            let (_, label) = DAYS
                .iter()
                .find(|(d, _)| fold::fold(&pieces[j].lower()) == *d)?;
            let k = next(pieces, j)?;
            (pieces[j].kind == Kind::Word && pieces[k].kind == Kind::Number)
                .then_some((i, j, *label))
        })
        .collect();
    if found.len() < 2 {
        return;
    }
    for (i, j, label) in found {
        pieces[i].set(label.to_owned());
        for piece in &mut pieces[i + 1..=j] {
            piece.set(String::new());
        }
    }
}

/// Normalises `query`; `hint` is the client's language hint (`vi`, `en-US`, …).
pub fn normalise(query: &str, hint: Option<&str>) -> Normalised {
    let mut pieces = unicode::pieces(query);
    let reading = fold::reading(&pieces, hint);
    typo::expand_shorthand(&mut pieces, reading);
    if reading == Reading::Vietnamese {
        fold::restore(&mut pieces);
        today_said_short(&mut pieces);
        weekdays_as_labels(&mut pieces);
    }
    typo::correct(&mut pieces, reading);
    let pieces = amounts::canonical(pieces, reading);
    let (mut text, mut spans) = (String::with_capacity(query.len()), Vec::new());
    for p in pieces {
        let start = text.len();
        text.push_str(&p.text);
        spans.push((start..text.len(), p.orig, p.same));
    }
    Normalised {
        text,
        reading,
        spans,
        source: query.to_owned(),
    }
}

/// `outcome` of planning `norm.text`, with every part it quotes (the steps' parts, the
/// question's part and where its answer goes, quoted text in messages) in the user's
/// own words.
pub fn quote_user(outcome: crate::PlanOutcome, norm: &Normalised) -> crate::PlanOutcome {
    use crate::PlanOutcome;
    use crate::question::Fill;
    if norm.text == norm.source {
        return outcome;
    }
    match outcome {
        PlanOutcome::Planned {
            mut plan,
            language,
            unplanned,
        } => {
            for step in &mut plan.steps {
                step.part = norm.original(&step.part);
            }
            PlanOutcome::Planned {
                plan,
                language,
                unplanned: unplanned.map(|m| requote(&m, norm)),
            }
        }
        PlanOutcome::Unplannable {
            language,
            message,
            pool_down,
        } => PlanOutcome::Unplannable {
            language,
            message: requote(&message, norm),
            pool_down,
        },
        PlanOutcome::Question {
            language,
            mut question,
        } => {
            question.text = requote(&question.text, norm);
            question.part = norm.original(&question.part);
            question.fill = match question.fill {
                Fill::After(t) => Fill::After(norm.original(&t)),
                Fill::Replace(t) => Fill::Replace(norm.original(&t)),
                Fill::Appended(t) => Fill::Appended(t),
                other => other,
            };
            PlanOutcome::Question { language, question }
        }
        other => other,
    }
}

/// `message` with each `"quoted"` piece of the canonical text put back in the user's
/// words.
fn requote(message: &str, norm: &Normalised) -> String {
    let mut out = String::with_capacity(message.len());
    let mut rest = message;
    while let Some(open) = rest.find('"') {
        let Some(close) = rest[open + 1..].find('"') else {
            break;
        };
        let quoted = &rest[open + 1..open + 1 + close];
        out.push_str(&rest[..=open]);
        match norm.text.contains(quoted) && !quoted.is_empty() {
            true => out.push_str(&norm.original(quoted)),
            false => out.push_str(quoted),
        }
        out.push('"');
        rest = &rest[open + close + 2..];
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_stages_compose_into_one_canonical_text() {
        assert_eq!(normalise("２＋４", None).text, "2+4");
        assert_eq!(
            normalise("can bac hai cua 81", None).text,
            "căn bậc hai của 81"
        );
        assert_eq!(normalise("wat is 6 tims 7", None).text, "what is 6 times 7");
        assert_eq!(
            normalise("1.500.000 đồng chia đều cho 4 người", None).text,
            "1500000 chia đều cho 4 người"
        );
    }

    #[test]
    fn a_canonical_piece_maps_back_to_the_users_words() {
        let n = normalise("can bac hai cua 81, va 2 nhan 3", None);
        assert_eq!(n.original("căn bậc hai của 81"), "can bac hai cua 81");
        let n = normalise("split $84.60 between 3", None);
        assert_eq!(n.original("84.60 between"), "84.60 between");
        assert_eq!(n.original("not there"), "not there");
    }

    #[test]
    fn text_already_canonical_is_unchanged() {
        for q in [
            "2+4",
            "tính 2+4 = ??",
            "what day is it in 10 days",
            "25/12/2026 là thứ mấy",
        ] {
            assert_eq!(normalise(q, None).text, q);
        }
    }
}
