//! The end of a planning call: what a request that does not read is asked (the
//! rate of a conversion, a missing number, date or weekday), or else its reading's
//! outcome.

use std::cell::OnceCell;

use chorus_bus::Language;

use super::Planning;
use super::understanding::Understanding;
use crate::{Missing, PlanOutcome, Question, dates, lexer, question, recall, scope};

impl Planning<'_> {
    /// The question that settles what `reading` of `query` (lexed as `toks`) missed,
    /// when one is asked; else the outcome of `reading`.
    pub(super) fn asked_or_read(
        &self,
        query: &str,
        toks: &[lexer::Token],
        reading: Understanding,
        reference: Option<recall::Reference>,
        language: Language,
    ) -> PlanOutcome {
        // One amount converted into a currency with no rate said: the rate is asked
        // (there is no rate service), never guessed.
        if reading.misses() > 0
            && self.ask
            && let Some(end) = crate::exchange::rate_asked_after(toks)
        {
            return PlanOutcome::Question {
                question: Box::new(question::exchange_rate(&query[..end], language)),
                language,
            };
        }
        // A request outside every tool (`convert 100 usd to euros at today's rate`) is
        // refused, never asked about.
        let outside = scope::outside_tools(query, language).is_some()
            && !question::everyday_money(query)
            && !question::days_to_own_event(query);
        // (The price or count asked is tried once, by planning the request again: for
        // a request nothing reads, to know whether to ask, then as the question.)
        let priced = OnceCell::new();
        let may_ask = !outside
            && match &reading {
                Understanding::Plan(_, failed) => !failed.is_empty(),
                Understanding::Missing(Missing::Pool(_), _) => false,
                // (`split the bill between us`: nothing read, but the amount can be asked.)
                // (`how much is my pay this week if i work 32 hrs`: nothing read, but
                // the rate can be asked.)
                Understanding::Nothing => {
                    question::splits_without_amount(query)
                        || self.ask && self.price_or_count(&priced, query, language).is_some()
                }
                _ => true,
            };
        if may_ask
            && self.ask
            && let Some(question) =
                self.question(query, toks, &reading, reference, &priced, language)
        {
            return PlanOutcome::Question {
                language,
                question: Box::new(question),
            };
        }
        self.outcome(reading, language)
    }

    /// The question that would settle what `reading` missed, if one would: each kind
    /// is tried with a placeholder answer, and asked only when that reads better.
    fn question(
        &self,
        query: &str,
        toks: &[lexer::Token],
        reading: &Understanding,
        reference: Option<recall::Reference>,
        priced: &OnceCell<Option<Question>>,
        language: Language,
    ) -> Option<Question> {
        let better = |text: &str| self.understand(text).misses() < reading.misses();
        // A placeholder of each kind an answer could be: a number, a date.
        if let Some(r) = reference.filter(|_| self.conversation.answers.is_empty())
            && ["1", "2000-01-01"]
                .iter()
                .any(|p| better(&r.replaced_by(query, p)))
        {
            return Some(question::which_value(&r.text, query.trim(), language));
        }
        // (`bán 300 kg tôm thì được bao nhiêu tiền`: the price of one is asked, never
        // which number the part misses.)
        if let Some(q) = self.price_or_count(priced, query, language) {
            return Some(q.clone());
        }
        for part in &reading.failed() {
            let Some(at) = query.find(part.as_str()) else {
                continue;
            };
            let end = at + part.len();
            if better(&format!("{} 1{}", &query[..end], &query[end..])) {
                return Some(question::missing_operand(part, language));
            }
        }
        if let Some(q) = question::missing_date(query, language, |t| better(t))
            .or_else(|| question::missing_count(query, language, |t| better(t)))
            .or_else(|| question::missing_birth(query, language, |t| better(t)))
            .or_else(|| {
                let plans = |t: &str| self.plans_quietly(t);
                let after_answer = self
                    .conversation
                    .answers
                    .last()
                    .is_some_and(|a| a.parse::<f64>().is_ok());
                question::missing_amount(query, language, after_answer, plans)
            })
        {
            return Some(q);
        }
        let (text, name) = dates::bare_weekday(toks, query)?;
        let q = question::which_weekday(&text, name, language);
        q.options
            .iter()
            .any(|o| better(&query.replacen(&text, &o.value, 1)))
            .then_some(q)
    }

    /// The price or count `query` never said, asked ([`question::missing_price_or_count`]),
    /// found once and kept in `priced`.
    fn price_or_count<'a>(
        &self,
        priced: &'a OnceCell<Option<Question>>,
        query: &str,
        language: Language,
    ) -> Option<&'a Question> {
        priced
            .get_or_init(|| {
                question::missing_price_or_count(query, language, |t| self.plans_quietly(t))
            })
            .as_ref()
    }

    /// Whether `text` plans whole, read as a whole request in every reading of it and
    /// never asked about.
    fn plans_quietly(&self, text: &str) -> bool {
        let quiet = Planning {
            ask: false,
            ..*self
        };
        matches!(
            quiet.plan_canonical(text),
            PlanOutcome::Planned {
                unplanned: None,
                ..
            }
        )
    }
}
