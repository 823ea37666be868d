//! A request read on what the conversation said before: its last answers, a
//! reference to one of them, an ellipsis of an earlier request, or a follow-up going
//! on from the last answer.

use chorus_bus::Language;

use super::understanding::Understanding;
use super::{Planning, folded_words};
use crate::{Missing, PlanOutcome, frames, lexer, normalise, recall};

impl Planning<'_> {
    /// `query` (lexed as `toks`) read on the conversation's last answers: the last two
    /// summed, or the weekday of the date just said.
    pub(super) fn on_last_answers(
        &self,
        toks: &[lexer::Token],
        query: &str,
        language: Language,
    ) -> Option<PlanOutcome> {
        // `and the day before that`, `3 weeks before, which date`: from the last date.
        if let Some(found) = self.relative_to_last_date(toks, query, language) {
            return Some(found);
        }
        // `Cộng tiền công hai đứa lại`, `tổng 2 lần bn`: the last two answers summed,
        // never the last one doubled.
        if self.continuations
            && frames::asks_both_summed(toks)
            && let [.., a, b] = self.conversation.answers.as_slice()
            && a.parse::<f64>().is_ok()
            && b.parse::<f64>().is_ok()
            && let Some(found) = self.on_answers(&format!("{a} + {b}"), &[a, b], query, language)
        {
            return Some(found);
        }
        // `plus sat 8 hrs at 42.75` after a week's pay: the last answer with a
        // calculation of its own added (or taken off).
        if self.continuations
            && let Some(found) = self.last_answer_and(toks, query, language)
        {
            return Some(found);
        }
        // `whats the difference in their ages`, `hai số chênh nhau bao nhiêu`: the last
        // two answers' difference, the larger less the smaller.
        const DIFFERENCE: &[&[&str]] = &[
            &["difference"],
            &["chênh", "nhau"],
            &["chênh", "lệch"],
            &["hơn", "kém", "nhau"],
        ];
        let plain = toks
            .iter()
            .all(|t| !matches!(t.tok, lexer::Tok::Num(_) | lexer::Tok::Date(_)));
        // (Numbers only: a birth date said in a question stands among the answers too.)
        let numbers: Vec<&String> = self
            .conversation
            .answers
            .iter()
            .filter(|a| a.parse::<f64>().is_ok())
            .collect();
        if self.continuations
            && plain
            && lexer::says(toks, DIFFERENCE)
            && let [.., a, b] = numbers.as_slice()
            && let (Ok(x), Ok(y)) = (a.parse::<f64>(), b.parse::<f64>())
        {
            let (big, small) = if x >= y { (a, b) } else { (b, a) };
            if let Some(found) =
                self.on_answers(&format!("{big} - {small}"), &[a, b], query, language)
            {
                return Some(found);
            }
        }
        // `chị trả 200k rồi, còn bao nhiêu`, `she paid 200 already, how much is left`
        // after a total: the total less what was paid.
        if self.continuations
            && let Some(found) = self.paid_off_last(toks, query, language)
        {
            return Some(found);
        }
        // `còn bao nhiêu ngày nữa` after the weekday of a date was asked: the days
        // until that date.
        if self.continuations
            && let Some(found) = self.days_until_asked_date(toks, query, language)
        {
            return Some(found);
        }
        // `how many days till their next birthday` after an age asked with a birth
        // date: the days until that birthday.
        if self.continuations
            && let Some(found) = self.days_to_birthday_said(toks, query, language)
        {
            return Some(found);
        }
        // `Còn thứ mấy?` after a date answered: that date's weekday.
        if self.continuations
            && normalise::lexicon::asks_weekday_alone(&folded_words(toks))
            && let Some(date) = self.date_just_said()
            && let Some(found) = self.on_answers(
                &format!("what weekday is {date}"),
                &[&date],
                query,
                language,
            )
        {
            return Some(found);
        }
        None
    }

    /// `còn bao nhiêu ngày nữa`, `how many days left` (no number, no date) after a
    /// question asking the weekday of a date (`ngày 18/12 là thứ mấy`): the days until
    /// that date.
    fn days_until_asked_date(
        &self,
        toks: &[lexer::Token],
        query: &str,
        language: Language,
    ) -> Option<PlanOutcome> {
        use crate::compound::{Parsed, PartQuery};
        use crate::dates::{DateQuery, NamedThen};
        const DAYS_LEFT: &[&[&str]] = &[
            &["còn", "bao", "nhiêu", "ngày"],
            &["còn", "mấy", "ngày"],
            &["how", "many", "days", "left"],
            &["how", "many", "days", "till"],
            &["how", "many", "days", "until"],
            &["how", "many", "days", "to", "go"],
        ];
        let plain = toks.iter().all(|t| {
            matches!(
                t.tok,
                lexer::Tok::Word(_) | lexer::Tok::Sym('?' | '.' | '!')
            )
        });
        if !plain || !lexer::says(toks, DAYS_LEFT) {
            return None;
        }
        let Parsed { parts, failed } = self.read_question(self.questions.last()?)?;
        let ([part], true) = (parts.as_slice(), failed.is_empty()) else {
            return None;
        };
        let until = match &part.query {
            PartQuery::Date(DateQuery::Weekday { date }) => {
                DateQuery::DaysUntil { date: date.clone() }
            }
            PartQuery::Date(DateQuery::Anchored {
                anchor,
                then: NamedThen::Weekday,
            }) => DateQuery::Anchored {
                anchor: *anchor,
                then: NamedThen::DaysUntil,
            },
            _ => return None,
        };
        self.one_part(query, PartQuery::Date(until), None, language)
    }

    /// `how many days till their next birthday`, `how many days till dads next bday` (no
    /// date said) after an age asked with a birth date: the days until the next
    /// birthday of that date — the question naming the same person (`dad`), else the
    /// last one with a birth date.
    fn days_to_birthday_said(
        &self,
        toks: &[lexer::Token],
        query: &str,
        language: Language,
    ) -> Option<PlanOutcome> {
        use crate::compound::{Parsed, PartQuery};
        use crate::dates::{Anchor, DateQuery, NamedThen, NamedYear};
        const BIRTHDAY: &[&[&str]] = &[&["birthday"], &["bday"], &["sinh", "nhật"]];
        const UNTIL: &[&[&str]] = &[
            &["how", "many", "days"],
            &["bao", "nhiêu", "ngày"],
            &["mấy", "ngày"],
        ];
        let dated = toks
            .iter()
            .any(|t| matches!(t.tok, lexer::Tok::Num(_) | lexer::Tok::Date(_)));
        if dated || !lexer::says(toks, BIRTHDAY) || !lexer::says(toks, UNTIL) {
            return None;
        }
        // (`dads next bday`: the person named, as a word of the earlier question.)
        let named: Vec<String> = toks
            .iter()
            .filter_map(|t| t.word())
            .map(|w| w.trim_end_matches("'s").trim_end_matches('s').to_owned())
            .filter(|w| {
                matches!(
                    w.as_str(),
                    "dad"
                        | "mum"
                        | "mom"
                        | "father"
                        | "mother"
                        | "son"
                        | "daughter"
                        | "wife"
                        | "husband"
                        | "brother"
                        | "sister"
                        | "grandma"
                        | "grandpa"
                )
            })
            .collect();
        let born = |question: &String| -> Option<String> {
            let Parsed { parts, .. } = self.read_question(question)?;
            parts.iter().find_map(|p| match &p.query {
                PartQuery::Date(DateQuery::Age { born }) => Some(born.clone()),
                _ => None,
            })
        };
        let mentions = |question: &String| {
            named.is_empty()
                || lexer::lex(&question.to_lowercase())
                    .iter()
                    .filter_map(|t| t.word())
                    .any(|w| named.iter().any(|n| n == w))
        };
        // (The person named must pick one birth date: a follow-up rewritten onto an
        // earlier question may name them beside another's date.)
        let mut dates = self
            .questions
            .iter()
            .rev()
            .take(4)
            .filter(|q| mentions(q))
            .filter_map(born);
        let born = dates.next()?;
        if !named.is_empty() && dates.any(|d| d != born) {
            return None;
        }
        let (month, day) = (
            born.get(5..7)?.parse().ok()?,
            born.get(8..10)?.parse().ok()?,
        );
        let anchor = Anchor::Named {
            month,
            day,
            year: NamedYear::Next,
            said: true,
        };
        let until = DateQuery::Anchored {
            anchor,
            then: NamedThen::DaysUntil,
        };
        self.one_part(query, PartQuery::Date(until), None, language)
    }

    /// `query` planned as the one part `part`, the earlier answer `recalled` (when
    /// given) marked as the conversation's; `None` when it cannot be planned.
    pub(super) fn one_part(
        &self,
        query: &str,
        part: crate::compound::PartQuery,
        recalled: Option<&str>,
        language: Language,
    ) -> Option<PlanOutcome> {
        let parsed = crate::compound::Parsed::one(query.to_owned(), part);
        let Understanding::Plan(mut plan, failed) = self.lower(parsed) else {
            return None;
        };
        if let Some(value) = recalled {
            recall::mark(&mut plan, value, query);
        }
        Some(self.outcome(Understanding::Plan(plan, failed), language))
    }

    /// An earlier question, normalised, read as parts.
    fn read_question(&self, question: &str) -> Option<crate::compound::Parsed> {
        let text = normalise::normalise(question, self.ctx.language.as_deref()).text;
        crate::compound::parse_request(&lexer::lex(&text), &text).ok()
    }

    /// `query` read with its `reference` to an earlier answer replaced by each of the
    /// conversation's answers, the last first.
    pub(super) fn with_reference(
        &self,
        query: &str,
        reference: Option<&recall::Reference>,
        language: Language,
    ) -> Option<PlanOutcome> {
        // `split it 4 ways instead` after a split: "it" is the amount split before (the
        // count is replaced below), never the share divided again.
        let recount = recall::recounts_split(query, self.questions);
        if let Some(r) = reference.filter(|_| !recount) {
            for value in self.conversation.answers.iter().rev() {
                // A weekday is said of a date, never a value to compute with.
                if recall::is_weekday(value) {
                    continue;
                }
                match self.understand(&r.replaced_by(query, value)) {
                    Understanding::Plan(mut plan, failed) if failed.is_empty() => {
                        recall::mark(&mut plan, value, &r.replaced_by(query, ""));
                        return Some(self.outcome(Understanding::Plan(plan, failed), language));
                    }
                    // Understood, but its pool is down: the Planner waits for it and
                    // plans again.
                    down @ Understanding::Missing(Missing::Pool(_), _) => {
                        return Some(self.outcome(down, language));
                    }
                    _ => {}
                }
            }
        }
        None
    }

    /// Whether `query` only names another day (`and new year's?`, `còn tết?`), read
    /// alone as that day's date, after a question counting the days to one (`days until
    /// dec 24`): it asks the same count for it.
    fn another_day_for_the_count(&self, query: &str, reading: &Understanding) -> bool {
        let Understanding::Plan(plan, failed) = reading else {
            return false;
        };
        let toks = lexer::lex(query);
        let lead = toks
            .first()
            .and_then(lexer::Token::word)
            .is_some_and(|w| matches!(w, "and" | "what" | "how" | "còn" | "thế" | "vậy"));
        let one_day = failed.is_empty()
            && matches!(plan.steps.as_slice(), [s] if s.tool == "next_date" || s.tool == "find_weekday");
        let counted = self.questions.last().is_some_and(|q| {
            let q = lexer::lex(&normalise::normalise(q, None).text);
            let says = |w: &str| q.iter().any(|t| t.word() == Some(w));
            (says("days") || says("ngày"))
                && (says("until") || says("till") || says("til") || says("nữa") || says("đến"))
        });
        lead && one_day && counted
    }

    /// `query`, not read alone (`reading`), read as an ellipsis of an earlier request or
    /// as a follow-up going on from the last answer.
    pub(super) fn going_on(
        &self,
        query: &str,
        reading: &Understanding,
        language: Language,
    ) -> Option<PlanOutcome> {
        // An ellipsis of an earlier request (`and for 5 people?`), before going on from
        // the last answer: `nếu giảm 30% thì sao` replaces the discount, never applies it
        // again.
        if reading.misses() > 0 || self.another_day_for_the_count(query, reading) {
            for text in recall::ellipses(query, self.questions) {
                if let Understanding::Plan(plan, failed) = self.understand(&text)
                    && failed.is_empty()
                {
                    return Some(self.outcome(Understanding::Plan(plan, failed), language));
                }
            }
        }
        // A follow-up that goes on from the last answer: `then halve it`, `còn nhân 3?`,
        // `how many weeks is that?`.
        // `and between 5 of us instead?` after a split counts the sharers again: never
        // the last share divided again.
        if reading.misses() > 0
            && self.continuations
            && !recall::recounts_split(query, self.questions)
        {
            // (`vậy là mấy tấn` after a weight in kg: the last answer in the unit asked.)
            let units =
                recall::in_other_units(query, self.questions, self.conversation).or_else(|| {
                    crate::weights::asked::last_in_unit(
                        query,
                        self.questions.last()?,
                        self.conversation.answers.last()?,
                    )
                });
            let priced = recall::priced_last(query, self.questions, self.conversation);
            for (text, value) in units
                .into_iter()
                .chain(priced)
                .chain(recall::continuations(query, self.conversation))
            {
                if let Understanding::Plan(mut plan, failed) = self.understand(&text)
                    && failed.is_empty()
                {
                    recall::mark(&mut plan, &value, query);
                    return Some(self.outcome(Understanding::Plan(plan, failed), language));
                }
            }
        }
        None
    }
}
