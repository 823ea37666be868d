//! One planning call: a query normalised, then read as a request, as a calculation on
//! earlier answers, an ellipsis or a follow-up, as an everyday problem; asked about or
//! refused when none reads.

mod turn;
mod understanding;

use chorus_bus::{Language, TaskContext};

use crate::{
    Capabilities, Conversation, Limits, Missing, PlanOutcome, Question, compound, dates,
    detect_language, frames, help, lexer, messages, normalise, question, recall, scope,
};
pub use turn::plan_turn;
use understanding::Understanding;

/// Plans `query` with the tools in `tools`, within `limits`, as a one-shot request.
pub fn plan_with_limits(
    query: &str,
    ctx: &TaskContext,
    tools: &Capabilities,
    limits: &Limits,
) -> PlanOutcome {
    Planning {
        ctx,
        tools,
        limits,
        conversation: &Conversation::none(),
        questions: &[],
        continuations: false,
        ask: true,
    }
    .plan(query)
}

/// Plans `query` as a turn of `conversation`: a reference to an earlier answer
/// ("multiply that by 3") takes one of its last answers.
pub fn plan_in(
    query: &str,
    ctx: &TaskContext,
    tools: &Capabilities,
    conversation: &Conversation,
) -> PlanOutcome {
    Planning {
        ctx,
        tools,
        limits: &Limits::default(),
        conversation,
        questions: &[],
        continuations: true,
        ask: true,
    }
    .plan(query)
}

/// One planning call's inputs.
struct Planning<'a> {
    ctx: &'a TaskContext,
    tools: &'a Capabilities,
    limits: &'a Limits,
    conversation: &'a Conversation,
    /// The conversation's last requests as understood, oldest first: a request that does
    /// not plan alone may be one of them with a part replaced (an ellipsis).
    questions: &'a [String],
    /// Whether a request that does not plan alone may go on from the last answer
    /// (`then halve it`).
    continuations: bool,
    /// Whether a request that does not plan may be asked about: not while
    /// [`plan_turn`] only tries a reading (asking is worked out, at a cost, once the
    /// readings of a turn are all tried).
    ask: bool,
}

impl Planning<'_> {
    /// Plans `query` after normalising it; the parts the outcome quotes are quoted
    /// as the user wrote them.
    fn plan(&self, query: &str) -> PlanOutcome {
        let chars = query.chars().count();
        if chars > self.limits.max_query_chars {
            let language = detect_language(query, self.ctx.language.as_deref());
            return self.refuse(
                messages::too_long(chars, self.limits.max_query_chars, language),
                language,
            );
        }
        let norm = normalise::normalise(query, self.ctx.language.as_deref());
        let outcome = self.plan_canonical(&norm.text);
        normalise::quote_user(outcome, &norm)
    }

    /// `text`, a calculation on earlier answers, planned with each of `values` marked as
    /// the conversation's (`recall::mark`); `None` when it is not understood.
    fn on_answers(
        &self,
        text: &str,
        values: &[&str],
        query: &str,
        language: Language,
    ) -> Option<PlanOutcome> {
        let Understanding::Plan(mut plan, failed) = self.understand(text) else {
            return None;
        };
        for value in values {
            recall::mark(&mut plan, value, query);
        }
        Some(self.outcome(Understanding::Plan(plan, failed), language))
    }

    /// The words of the conversation's last request, normalised as a request is.
    fn last_question(&self) -> Option<Vec<lexer::Token>> {
        let text = self.questions.last()?;
        let norm = normalise::normalise(text, self.ctx.language.as_deref());
        Some(lexer::lex(&norm.text))
    }

    /// The date the last turn answered, or else the one date its request said
    /// (`dam cuoi ngay 27/2/2027 con bao nhieu ngay`).
    fn date_just_said(&self) -> Option<String> {
        let date = |text: &str| -> Vec<String> {
            lexer::lex(text)
                .into_iter()
                .filter_map(|t| match t.tok {
                    lexer::Tok::Date(Some(d)) => Some(d),
                    _ => None,
                })
                .collect()
        };
        let answer = self.conversation.answers.last()?;
        if let [d] = date(answer).as_slice()
            && *d == answer.trim()
        {
            return Some(d.clone());
        }
        match date(self.questions.last()?).as_slice() {
            [d] => Some(d.clone()),
            _ => None,
        }
    }

    /// Plans `query`, already in canonical form.
    fn plan_canonical(&self, query: &str) -> PlanOutcome {
        let language = detect_language(query, self.ctx.language.as_deref());
        if query.trim().is_empty() {
            return self.refuse(messages::empty(language), language);
        }
        let toks = lexer::lex(query);
        if help::asks_for_help(&toks) {
            let message = messages::help(language, self.tools);
            return PlanOutcome::Capabilities { language, message };
        }
        // Numeric dates that read two ways: settled by the context or the language, or
        // asked about. Only a month-first reading rewrites the request.
        let mut settled: Option<String> = None;
        let two_way = question::two_way_dates(&toks, query);
        let order = match two_way.is_empty() {
            true => None,
            false => question::day_first(self.ctx, language),
        };
        for (text, day_first, month_first) in two_way {
            match order {
                Some(true) => {}
                Some(false) => {
                    let current = settled.as_deref().unwrap_or(query);
                    settled = Some(current.replacen(&text, &month_first, 1));
                }
                None => {
                    let question = question::which_date(&text, &day_first, &month_first, language);
                    return PlanOutcome::Question {
                        language,
                        question: Box::new(question),
                    };
                }
            }
        }
        // A day and month without a year that read two ways in English (`how many days
        // until 6/5`): likewise, in words.
        if !language.is_vi() {
            for (text, day_first, month_first) in question::two_way_day_months(&toks, query) {
                let current = settled.as_deref().unwrap_or(query);
                settled = Some(match question::day_first(self.ctx, language) {
                    Some(true) => current.replacen(&text, &day_first, 1),
                    Some(false) => current.replacen(&text, &month_first, 1),
                    None => {
                        let question = question::which_day_month(&text, &day_first, &month_first);
                        return PlanOutcome::Question {
                            language,
                            question: Box::new(question),
                        };
                    }
                });
            }
        }
        let (query, toks) = match &settled {
            Some(text) => (text.as_str(), lexer::lex(text)),
            None => (query, toks),
        };
        // The time `there` with no place named, or in a country of several time zones:
        // which city is asked, never a clock guessed.
        if self.ask
            && let Some(question) = question::where_there(&toks, query)
                .or_else(|| question::which_city(&toks, query, language))
        {
            return PlanOutcome::Question {
                language,
                question: Box::new(question),
            };
        }
        // `Cộng tiền công hai đứa lại`, `tổng 2 lần bn`: the last two answers summed,
        // never the last one doubled.
        if self.continuations
            && frames::asks_both_summed(&toks)
            && let [.., a, b] = self.conversation.answers.as_slice()
            && a.parse::<f64>().is_ok()
            && b.parse::<f64>().is_ok()
            && let Some(found) = self.on_answers(&format!("{a} + {b}"), &[a, b], query, language)
        {
            return found;
        }
        // `Còn thứ mấy?` after a date answered: that date's weekday.
        if self.continuations
            && normalise::lexicon::asks_weekday_alone(&folded_words(&toks))
            && let Some(date) = self.date_just_said()
            && let Some(found) = self.on_answers(
                &format!("what weekday is {date}"),
                &[&date],
                query,
                language,
            )
        {
            return found;
        }
        let reference = recall::find(&toks, query);
        // `split it 4 ways instead` after a split: "it" is the amount split before (the
        // count is replaced below), never the share divided again.
        let recount = recall::recounts_split(query, self.questions);
        if let Some(r) = reference.as_ref().filter(|_| !recount) {
            for value in self.conversation.answers.iter().rev() {
                // A weekday is said of a date, never a value to compute with.
                if recall::is_weekday(value) {
                    continue;
                }
                match self.understand(&r.replaced_by(query, value)) {
                    Understanding::Plan(mut plan, failed) if failed.is_empty() => {
                        recall::mark(&mut plan, value, &r.replaced_by(query, ""));
                        return self.outcome(Understanding::Plan(plan, failed), language);
                    }
                    // Understood, but its pool is down: the Planner waits for it and
                    // plans again.
                    down @ Understanding::Missing(Missing::Pool(_), _) => {
                        return self.outcome(down, language);
                    }
                    _ => {}
                }
            }
        }
        let reading = self.understand_lexed(query, &toks);
        // An ellipsis of an earlier request (`and for 5 people?`), before going on from
        // the last answer: `nếu giảm 30% thì sao` replaces the discount, never applies it
        // again.
        if reading.misses() > 0 {
            for text in recall::ellipses(query, self.questions) {
                if let Understanding::Plan(plan, failed) = self.understand(&text)
                    && failed.is_empty()
                {
                    return self.outcome(Understanding::Plan(plan, failed), language);
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
            let units = recall::in_other_units(query, self.questions, self.conversation);
            for (text, value) in units
                .into_iter()
                .chain(recall::continuations(query, self.conversation))
            {
                if let Understanding::Plan(mut plan, failed) = self.understand(&text)
                    && failed.is_empty()
                {
                    recall::mark(&mut plan, &value, query);
                    return self.outcome(Understanding::Plan(plan, failed), language);
                }
            }
        }
        // The last reading of an everyday problem before asking or refusing: every
        // number given one role, the roles fitting one frame (`frames/`) — the request
        // as typed, and then, in a conversation, as a follow-up of the last answer
        // (`add 10% service`, `times 15,480 won`), after every reading of its own. A
        // part outside every tool is named, never read into a frame.
        // (A booking is refused by its verb before: `flight … is 5,890` only names what
        // was paid for, as the everyday readers take it.)
        let outside = scope::outside_tools(query, Language::En)
            .is_some_and(|kind| kind != scope::BOOKINGS)
            && !crate::frames::labelled_calculation(&toks);
        if reading.misses() > 0 && !outside {
            if let Some(parsed) = compound::frames_reading_each(&toks, query)
                && let found @ Understanding::Plan(..) = self.lower(parsed)
            {
                return self.outcome(found, language);
            }
            let last = self
                .conversation
                .answers
                .iter()
                .rev()
                .find(|v| !recall::is_weekday(v))
                .filter(|_| self.continuations);
            // `con lai bao nhieu` after a share of a whole: the whole less the share;
            // `and for 16 hrs?` after a rate for one hour: that rate times the count.
            if let Some(value) = last
                && let Some(earlier) = self.last_question()
            {
                let rest =
                    frames::rest_of(&toks, &earlier).map(|whole| format!("{whole} - {value}"));
                let periods =
                    frames::for_periods(&toks, &earlier).map(|count| format!("{value} * {count}"));
                for text in [rest, periods].into_iter().flatten() {
                    if let Some(found) = self.on_answers(&text, &[value], query, language) {
                        return found;
                    }
                }
            }
            if let Some(value) = last
                && let Some(parsed) = compound::frames_after(&toks, query, value)
                && let Understanding::Plan(mut plan, failed) = self.lower(parsed)
            {
                recall::mark(&mut plan, value, query);
                return self.outcome(Understanding::Plan(plan, failed), language);
            }
        }
        // One amount converted into a currency with no rate said: the rate is asked
        // (there is no rate service), never guessed.
        if reading.misses() > 0
            && self.ask
            && let Some(end) = crate::exchange::rate_asked_after(&toks)
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
        let may_ask = !outside
            && match &reading {
                Understanding::Plan(_, failed) => !failed.is_empty(),
                Understanding::Missing(Missing::Pool(_), _) => false,
                // (`split the bill between us`: nothing read, but the amount can be asked.)
                Understanding::Nothing => question::splits_without_amount(query),
                _ => true,
            };
        if may_ask
            && self.ask
            && let Some(question) = self.question(query, &toks, &reading, reference, language)
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
                // (Read as a whole request, every reading of it, never asked about.)
                let plans = |t: &str| {
                    let quiet = Planning {
                        ask: false,
                        ..*self
                    };
                    matches!(
                        quiet.plan_canonical(t),
                        PlanOutcome::Planned {
                            unplanned: None,
                            ..
                        }
                    )
                };
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

    fn refuse(&self, reason: String, language: Language) -> PlanOutcome {
        PlanOutcome::Unplannable {
            message: messages::with_capabilities(&reason, language, self.tools),
            language,
            pool_down: None,
        }
    }
}

/// The words of `toks`, lowercase and folded (without marks).
fn folded_words(toks: &[lexer::Token]) -> Vec<String> {
    toks.iter()
        .filter_map(lexer::Token::word)
        .map(normalise::fold::fold)
        .collect()
}
