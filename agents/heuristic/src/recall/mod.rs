//! Follow-ups in a conversation: "now multiply that by 3", "add 10 days to that date",
//! "nhân kết quả đó với 3". A reference to an earlier answer is replaced by one of the
//! conversation's last answers — the first, latest first, with which the request plans —
//! and the plan's steps name the arguments that came from it, so the report can say
//! "18 = 6 (your last answer) × 3".

use crate::lexer::Token;

mod added;
mod continuation;
mod ellipsis;
mod headcount;
mod leads;
mod lists;
mod pairs;
mod periods;
mod priced;
mod reasked;
mod reference;
mod replace;
mod rewrites;
mod roles;
mod session;
mod times;

pub use added::{Added, added_to_total};
pub use continuation::continuations;
pub use ellipsis::{day_month_reads_two_ways, ellipses, in_other_units, keeps_rate};
pub use leads::{opens_ellipsis, tidied, without_lead};
pub use pairs::{between_question_dates, difference_of_last_two, rest_after_share, two_answers};
pub use periods::so_many_periods;
pub use priced::priced_last;
pub use reference::{Reference, find, mark, named_answer};
pub use rewrites::{
    deposit_of_whole, more_time_on_date, on_rate_amount, one_computation, over_other_period,
    place_there, same_way,
};
pub use roles::recounts_split;
pub use session::{is_weekday, session_language, with_question_dates};
pub use times::so_many_of_that;

/// What the planner knows of the conversation a request belongs to.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Conversation {
    /// Whether the request belongs to a session at all.
    pub session: bool,
    /// The output values of the session's last answered turns, oldest first (numbers
    /// as decimal strings, dates as ISO dates): a reference takes the latest that fits.
    pub answers: Vec<String>,
}

impl Conversation {
    /// No conversation: a one-shot request.
    pub fn none() -> Self {
        Self::default()
    }
}

/// `text` with the bytes `span` replaced by `new`.
fn splice(text: &str, span: (usize, usize), new: &str) -> String {
    format!("{}{new}{}", &text[..span.0], &text[span.1..])
}

/// The span and ISO date of the first date in `toks` (lexed from `src`): digits or
/// words.
fn date_span(toks: &[Token]) -> Option<((usize, usize), Option<String>)> {
    (0..toks.len()).find_map(|i| match &toks[i].tok {
        crate::lexer::Tok::Date(d) => Some(((toks[i].start, toks[i].end), d.clone())),
        _ => {
            let (d, next) = crate::dates::written_date(toks, i)?;
            Some(((toks[i].start, toks[next - 1].end), d))
        }
    })
}

/// `a/b` at `k` of `toks`: the two numbers.
fn fraction_at(toks: &[Token], k: usize) -> Option<(u32, u32)> {
    use crate::lexer::Tok;
    let num = |j: usize| match &toks.get(j)?.tok {
        Tok::Num(n) => n.parse::<u32>().ok(),
        _ => None,
    };
    toks.get(k + 1)
        .is_some_and(|t| t.is_sym('/'))
        .then_some(())?;
    Some((num(k)?, num(k + 2)?))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lexer::lex;

    fn reference(src: &str) -> Option<String> {
        find(&lex(src), src).map(|r| r.text)
    }

    #[test]
    fn a_follow_up_with_its_own_operation_is_no_ellipsis() {
        let before = ["rồi chia kết quả cho 4".to_owned()];
        assert!(ellipses("nhân thêm 3 nữa", &before).is_empty());
        assert!(ellipses("then 3 more", &["divide it by 4".to_owned()]).is_empty());
        // A number alone (with what it counts) still replaces its kind.
        assert_eq!(
            ellipses("and 6 people?", &["split 240 between 4 people".to_owned()]),
            ["split 240 between 6 people"]
        );
    }

    #[test]
    fn a_bare_number_replaces_the_one_nearest_in_size_or_none() {
        let before = ["tuition is 7800 in 3 instalments, how much each".to_owned()];
        assert_eq!(
            ellipses("and for 4?", &before),
            ["tuition is 7800 in 4 instalments, how much each"]
        );
        // (18 is about as near to 15 as to 8: no guess.)
        assert!(ellipses("and 12?", &["15 an hour times 8 hours".to_owned()]).is_empty());
        assert_eq!(
            ellipses(
                "and 60,000 yen at that rate",
                &["sending 40000 home at 172 dong per yen".to_owned()]
            ),
            ["sending 60000 home at 172 dong per yen"]
        );
    }

    #[test]
    fn references_are_found_longest_first_in_both_languages() {
        assert_eq!(reference("now multiply that by 3").as_deref(), Some("that"));
        assert_eq!(
            reference("add 10 days to that date").as_deref(),
            Some("that date")
        );
        assert_eq!(
            reference("nhân kết quả đó với 3").as_deref(),
            Some("kết quả đó")
        );
        assert_eq!(reference("cộng thêm 5 vào đó").as_deref(), Some("đó"));
        assert_eq!(reference("cộng 5 sau đó nhân 2"), None);
        assert_eq!(reference("2+4"), None);
    }

    #[test]
    fn a_reference_is_replaced_where_it_stands() {
        let src = "Now multiply THAT by 3";
        let r = find(&lex(src), src).expect("found");
        assert_eq!(r.replaced_by(src, "6"), "Now multiply 6 by 3");
    }
}
