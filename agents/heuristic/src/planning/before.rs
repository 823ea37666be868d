//! What is settled or asked before a request is read: numeric dates that read two
//! ways, and the place of a time asked with none named.

use chorus_bus::Language;

use super::Planning;
use crate::{PlanOutcome, lexer, question};

impl Planning<'_> {
    /// The two-way dates of `query` (lexed as `toks`) settled, the request rewritten
    /// into `settled` when a reading rewrites it; the question asked instead when
    /// nothing settles one.
    pub(super) fn settle_dates(
        &self,
        toks: &[lexer::Token],
        query: &str,
        language: Language,
        settled: &mut Option<String>,
    ) -> Option<PlanOutcome> {
        // Numeric dates that read two ways: settled by the context or the language, or
        // asked about. Only a month-first reading rewrites the request.
        let two_way = question::two_way_dates(toks, query);
        let order = match two_way.is_empty() {
            true => None,
            false => question::day_first(self.ctx, language),
        };
        for (text, day_first, month_first) in two_way {
            match order {
                Some(true) => {}
                Some(false) => {
                    let current = settled.as_deref().unwrap_or(query);
                    *settled = Some(current.replacen(&text, &month_first, 1));
                }
                None => {
                    let question = question::which_date(&text, &day_first, &month_first, language);
                    return Some(PlanOutcome::Question {
                        language,
                        question: Box::new(question),
                    });
                }
            }
        }
        // A day and month without a year that read two ways in English (`how many days
        // until 6/5`): likewise, in words.
        if !language.is_vi() {
            for (text, day_first, month_first) in question::two_way_day_months(toks, query) {
                let current = settled.as_deref().unwrap_or(query);
                *settled = Some(match question::day_first(self.ctx, language) {
                    Some(true) => current.replacen(&text, &day_first, 1),
                    Some(false) => current.replacen(&text, &month_first, 1),
                    None => {
                        let question = question::which_day_month(&text, &day_first, &month_first);
                        return Some(PlanOutcome::Question {
                            language,
                            question: Box::new(question),
                        });
                    }
                });
            }
        }
        None
    }

    /// The city asked when a time is asked `there` with no place named, or in a country
    /// of several time zones.
    pub(super) fn asked_before(
        &self,
        toks: &[lexer::Token],
        query: &str,
        language: Language,
    ) -> Option<PlanOutcome> {
        // The time `there` with no place named, or in a country of several time zones:
        // which city is asked, never a clock guessed.
        if self.ask
            && let Some(question) = question::where_there(toks, query)
                .or_else(|| question::which_city(toks, query, language))
        {
            return Some(PlanOutcome::Question {
                language,
                question: Box::new(question),
            });
        }
        None
    }
}
