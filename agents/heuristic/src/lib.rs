//! Chorus heuristic planner and report templates: turns a query into a plan of steps,
//! and step results into a report text, in English and Vietnamese.
//!
//! Pure functions, no I/O: the Planner agent calls [`plan`], the Synthesizer calls
//! [`render_report`]. The planner never guesses: what it cannot read fully becomes
//! [`PlanOutcome::Unplannable`] with a message saying what Chorus can do, built from the
//! tools that are actually available. Numbers in a report come only from step outcomes.

pub mod args;
pub mod arith;
pub mod averages;
pub mod builder;
pub mod capabilities;
pub mod change;
pub mod compound;
pub mod counted;
pub mod coverage;
pub mod dates;
pub mod dozens;
pub mod everyday;
pub mod exchange;
pub mod expr;
pub mod filler;
pub mod formula;
pub mod frames;
pub mod help;
pub mod language;
pub mod lexer;
pub mod messages;
pub mod normalise;
pub mod numbers;
pub mod places;
pub mod proportion;
pub mod question;
pub mod rates;
pub mod ratio;
pub mod recall;
pub mod remaining;
pub mod scaling;
pub mod scope;
pub mod sentence;
pub mod shares;
pub mod shifts;
pub mod template;
pub mod tolerant;
pub mod weights;
pub mod wording;
pub mod workdays;

use chorus_bus::{Language, Plan, TaskContext};

pub use capabilities::{Capabilities, Missing};
pub use compound::PartError;
pub use language::detect as detect_language;
pub use question::{Question, resume};
pub use recall::Conversation;

/// Longest query accepted, in characters.
pub const MAX_QUERY_CHARS: usize = 1000;
/// Most steps in one plan.
pub const MAX_STEPS: usize = 32;

/// Limits on what the planner accepts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Longest query, in characters.
    pub max_query_chars: usize,
    /// Most steps in one plan.
    pub max_steps: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_query_chars: MAX_QUERY_CHARS,
            max_steps: MAX_STEPS,
        }
    }
}

/// What the planner made of a query.
#[derive(Debug, Clone, PartialEq)]
pub enum PlanOutcome {
    /// A plan covering every part of the query, or (with `unplanned`) the parts of a
    /// compound request that were understood.
    Planned {
        /// The steps.
        plan: Plan,
        /// The language to answer in.
        language: Language,
        /// The parts that were not understood and why, then what Chorus can do; `None`
        /// when every part was.
        unplanned: Option<String>,
    },
    /// The user asked what Chorus can do ("what can you do", "help").
    Capabilities {
        /// The language to answer in.
        language: Language,
        /// What Chorus can do with the available tools.
        message: String,
    },
    /// The query, or a part of it, could not be planned (not understood, over a limit,
    /// or needing a pool or tool that is unavailable).
    Unplannable {
        /// The language to answer in.
        language: Language,
        /// What could not be done and why, then what Chorus can do.
        message: String,
        /// When the only obstacle is a pool with no live agent: that pool (the Planner
        /// waits for it a little before answering this).
        pool_down: Option<String>,
    },
    /// Something is missing or reads two ways: ask the user (the Planner resumes with
    /// [`question::resume`] once the answer comes).
    Question {
        /// The language to ask in.
        language: Language,
        /// The question.
        question: Box<Question>,
    },
}

impl PlanOutcome {
    /// The language of the answer.
    pub fn language(&self) -> Language {
        match self {
            PlanOutcome::Planned { language, .. }
            | PlanOutcome::Capabilities { language, .. }
            | PlanOutcome::Unplannable { language, .. }
            | PlanOutcome::Question { language, .. } => *language,
        }
    }
}

/// Plans `query` with the tools in `tools`, within the default [`Limits`], as a
/// one-shot request.
pub fn plan(query: &str, ctx: &TaskContext, tools: &Capabilities) -> PlanOutcome {
    plan_with_limits(query, ctx, tools, &Limits::default())
}

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

/// Plans `query` as a turn of `conversation` whose earlier requests were `questions`
/// (oldest first): besides what [`plan_in`] reads, an ellipsis takes the last question
/// with one part replaced — after "what time is it in Rome", "and in Lima?"; after
/// "what's 12% of 850", "and 15%?"; after a weekday of 14 March 2027, "and the year
/// after?" ([`recall::ellipses`]).
///
/// The order is what keeps a follow-up from answering another question: the request
/// alone (a reference to an earlier answer taken as in [`plan_in`]); then an ellipsis,
/// which replaces the part it names ("nếu giảm 30% thì sao" after a 20% discount is a
/// 30% discount, never 30% off the discounted price); then a continuation of the last
/// answer ("then halve it"). A weekday answer is never a value to go on from: a
/// reference to it ("how many days until that day") takes the date it was the weekday
/// of, the date of the question before.
pub fn plan_turn(
    query: &str,
    ctx: &TaskContext,
    tools: &Capabilities,
    conversation: &Conversation,
    questions: &[String],
) -> PlanOutcome {
    let conversation = &recall::with_question_dates(conversation, questions);
    // `125 x 8` in a Vietnamese conversation is answered in Vietnamese.
    let in_session_language;
    let ctx = match recall::session_language(query, ctx.language.as_deref(), questions) {
        Some(language) => {
            in_session_language = TaskContext {
                language: Some(language.to_owned()),
                ..ctx.clone()
            };
            &in_session_language
        }
        None => ctx,
    };
    let limits = Limits::default();
    let planning = |continuations| Planning {
        ctx,
        tools,
        limits: &limits,
        conversation,
        questions,
        continuations,
        ask: false,
    };
    let complete = |o: &PlanOutcome| {
        matches!(
            o,
            PlanOutcome::Planned {
                unplanned: None,
                ..
            }
        )
    };
    // `and 4/30?`, `còn 30/4?` after a date question: the date replaced, not a
    // division read alone.
    if recall::opens_ellipsis(query) {
        // `and how many days from that to feb 14 2027`: a reference to the last answer
        // in a question of its own, before any ellipsis of the last question.
        let toks = lexer::lex(query);
        if recall::find(&toks, query).is_some() && !recall::keeps_rate(query) {
            let own = planning(false).plan(query);
            if complete(&own) {
                return own;
            }
        }
        let ellipsis = recall::ellipses(query, questions)
            .into_iter()
            .map(|text| {
                Planning {
                    questions: &[],
                    ..planning(false)
                }
                .plan(&text)
            })
            .find(complete);
        if let Some(found) = ellipsis {
            return found;
        }
        // `what about 5pm new york time in tokyo`: a whole request of the same kind
        // as the last question, after the words that open a follow-up.
        let same_kind = recall::without_lead(query).and_then(|rest| {
            let alone = Planning {
                questions: &[],
                ..planning(false)
            };
            let tools = |o: &PlanOutcome| match o {
                PlanOutcome::Planned {
                    plan,
                    unplanned: None,
                    ..
                } => {
                    let mut t: Vec<String> = plan.steps.iter().map(|s| s.tool.clone()).collect();
                    t.sort();
                    t.dedup();
                    Some(t)
                }
                _ => None,
            };
            let found = alone.plan(&rest);
            let before = tools(&alone.plan(questions.last()?))?;
            (tools(&found)? == before).then_some(found)
        });
        if let Some(found) = same_kind {
            return found;
        }
        if recall::day_month_reads_two_ways(query, questions) {
            let language = detect_language(query, ctx.language.as_deref());
            let reason = messages::part_error(
                &PartError::NotUnderstood(query.trim().trim_end_matches('?').to_owned()),
                language,
            );
            return planning(false).refuse(reason, language);
        }
    }
    // `thêm 1 tuần nữa thì là ngày nào` after a date answer: from that date, not today.
    if let Some(text) = recall::more_time_on_date(query, conversation) {
        let found = planning(false).plan(&text);
        if complete(&found) {
            return found;
        }
    }
    // The request alone, then (`Planning::plan_canonical`) as an ellipsis, then going on
    // from the last answer; asked about when none reads.
    let turn = Planning {
        ask: true,
        ..planning(true)
    };
    // `thêm 2 cái quần … nữa thì tổng bn` after a total: the added part alone is no
    // answer to the new total; not understood rather than a wrong total.
    if recall::adds_to_last_total(query, conversation) {
        // The added part alone as one computation of written numbers (`2 cái quần 200
        // nghìn 1 cái` → 2 × 200000): the new total is the last one plus it.
        let added = match turn.plan(query) {
            PlanOutcome::Planned {
                plan,
                unplanned: None,
                ..
            } => recall::one_computation(&plan),
            _ => None,
        };
        let value = conversation.answers.last();
        if let (Some(added), Some(value)) = (added, value) {
            let text = format!("{value} + {added}");
            if let PlanOutcome::Planned {
                mut plan,
                unplanned: None,
                ..
            } = planning(false).plan(&text)
            {
                recall::mark(&mut plan, value, &added);
                return PlanOutcome::Planned {
                    plan,
                    language: detect_language(query, ctx.language.as_deref()),
                    unplanned: None,
                };
            }
        }
        let language = detect_language(query, ctx.language.as_deref());
        let reason = messages::part_error(
            &PartError::NotUnderstood(query.trim().trim_end_matches('?').to_owned()),
            language,
        );
        return planning(false).refuse(reason, language);
    }
    // `vậy 1 năm được bao nhiêu` after an amount a month: twelve of them.
    if let Some(text) = recall::over_other_period(query, questions, conversation) {
        let found = planning(false).plan(&text);
        if complete(&found) {
            return found;
        }
    }
    // `còn lại bao nhiêu` after `cọc trước 30% thì bao nhiêu`: the amount less the share.
    if let Some(text) = recall::rest_after_share(query, questions, conversation) {
        let found = planning(false).plan(&text);
        if complete(&found) {
            return found;
        }
    }
    // `6pm there is what time in hanoi` after a question about the time in Los Angeles.
    if let Some(text) = recall::place_there(query, questions) {
        let found = planning(false).plan(&text);
        if complete(&found) {
            return found;
        }
    }
    // `nếu mỗi tháng tăng 15% thì mỗi tháng được bao nhiêu` after `6tr2 một tháng, một
    // năm bao nhiêu`: from the amount a month, never the year's total.
    if let Some(text) = recall::on_rate_amount(query, questions) {
        let found = planning(false).plan(&text);
        if complete(&found) {
            return found;
        }
    }
    let first = turn.plan(query);
    if complete(&first) {
        return first;
    }
    // `how many days between the two birth dates`: the last questions' dates.
    if let Some(text) = recall::between_question_dates(query, questions) {
        let found = planning(false).plan(&text);
        if complete(&found) {
            return found;
        }
    }
    // `cộng hai kết quả đó lại`: the last two answers.
    if let Some(text) = recall::two_answers(query, conversation) {
        let found = planning(false).plan(&text);
        if complete(&found) {
            return found;
        }
    }
    // `ok add that to the 160`: read again without the acknowledgement.
    if let Some(text) = recall::tidied(query) {
        let again = turn.plan(&text);
        if complete(&again) {
            return again;
        }
    }
    first
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

/// What a request was understood as, before any message is worded: a plan (with the
/// parts not understood), or why there is none.
enum Understanding {
    /// A plan, and the parts that were not understood.
    Plan(Plan, Vec<PartError>),
    /// Only greetings or punctuation: nothing was asked.
    Nothing,
    /// No part could be read.
    Unread(PartError),
    /// More steps than the limit.
    TooManySteps(usize),
    /// A step needs a pool or tool that is not live (in the step's part).
    Missing(Missing, String),
    /// The plan is not a valid DAG.
    Invalid(String),
}

impl Understanding {
    /// How many parts were not understood (`usize::MAX` when nothing can be planned): a
    /// reading whose only obstacle is a pool with no live agent was understood (the
    /// Planner waits for the pool), so a question is still asked while a pool is down.
    fn misses(&self) -> usize {
        match self {
            Understanding::Plan(_, failed) => failed.len(),
            Understanding::Missing(Missing::Pool(_), _) => 0,
            _ => usize::MAX,
        }
    }

    /// The parts not understood, as the user wrote them.
    fn failed(&self) -> Vec<String> {
        match self {
            Understanding::Plan(_, failed) => failed.iter().filter_map(PartError::text).collect(),
            Understanding::Unread(e) => e.text().into_iter().collect(),
            _ => Vec::new(),
        }
    }
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
        let (query, toks) = match &settled {
            Some(text) => (text.as_str(), lexer::lex(text)),
            None => (query, toks),
        };
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
        if reading.misses() > 0 && scope::outside_tools(query, language.as_str()).is_none() {
            if let Some(parsed) = compound::frames_reading(&toks, query)
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
        let outside = scope::outside_tools(query, language.as_str()).is_some()
            && !question::everyday_money(query)
            && !question::days_to_own_event(query);
        let may_ask = !outside
            && match &reading {
                Understanding::Plan(_, failed) => !failed.is_empty(),
                Understanding::Missing(Missing::Pool(_), _) | Understanding::Nothing => false,
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
        if let Some(q) = question::missing_date(query, language, |t| better(t)) {
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

    /// Reads `query` part by part and plans what was understood.
    fn understand(&self, query: &str) -> Understanding {
        self.understand_lexed(query, &lexer::lex(query))
    }

    /// [`Planning::understand`] of `query` lexed as `toks`.
    fn understand_lexed(&self, query: &str, toks: &[lexer::Token]) -> Understanding {
        let parsed = match compound::parse_request(toks, query) {
            Ok(parsed) if parsed.parts.is_empty() => return Understanding::Nothing,
            Ok(parsed) => parsed,
            // Words of context before a question (`em gái ở Frankfurt giờ này mấy giờ
            // rồi`): the question after them.
            Err(e) => match compound::after_context(toks, query) {
                Some(parsed) => parsed,
                None => return Understanding::Unread(e),
            },
        };
        self.lower(parsed)
    }

    /// The plan of the parts `parsed` read, with the parts it could not.
    fn lower(&self, parsed: compound::Parsed) -> Understanding {
        let steps: usize = parsed.parts.iter().map(|p| p.query.step_count()).sum();
        if steps > self.limits.max_steps {
            return Understanding::TooManySteps(steps);
        }
        let mut builder = builder::PlanBuilder::new();
        for part in &parsed.parts {
            part.query.lower_into(&mut builder, &part.text);
        }
        let plan = builder.finish();
        for step in &plan.steps {
            if let Some(m) = self.tools.missing(&step.pool, &step.tool) {
                return Understanding::Missing(m, step.part.clone());
            }
        }
        match plan.validate(self.limits.max_steps) {
            Ok(()) => Understanding::Plan(plan, parsed.failed),
            Err(e) => Understanding::Invalid(e.to_string()),
        }
    }

    /// The outcome of an understanding, worded in `language`.
    fn outcome(&self, understood: Understanding, language: Language) -> PlanOutcome {
        match understood {
            Understanding::Plan(plan, failed) => {
                let unplanned = (!failed.is_empty()).then(|| {
                    let reasons: Vec<String> = failed
                        .iter()
                        .map(|e| messages::part_error(e, language))
                        .collect();
                    messages::with_capabilities(&reasons.join(" "), language, self.tools)
                });
                PlanOutcome::Planned {
                    plan,
                    language,
                    unplanned,
                }
            }
            // Nothing asked (a greeting, a lone `?`): not an answer, so not completed.
            Understanding::Nothing => self.refuse(messages::nothing_asked(language), language),
            Understanding::Unread(e) => self.refuse(messages::part_error(&e, language), language),
            Understanding::TooManySteps(steps) => self.refuse(
                messages::too_many_steps(steps, self.limits.max_steps, language),
                language,
            ),
            Understanding::Missing(m, part) => {
                let pool_down = match &m {
                    Missing::Pool(pool) => Some(pool.clone()),
                    Missing::Tool { .. } => None,
                };
                let reason = messages::missing(&m, &part, language);
                PlanOutcome::Unplannable {
                    message: messages::with_capabilities(&reason, language, self.tools),
                    language,
                    pool_down,
                }
            }
            Understanding::Invalid(e) => self.refuse(e, language),
        }
    }
}

pub use args::render_arguments;
pub use template::{attempts_line, render_report, report_status};

/// The words of `toks`, lowercase and folded (without marks).
fn folded_words(toks: &[lexer::Token]) -> Vec<String> {
    toks.iter()
        .filter_map(lexer::Token::word)
        .map(normalise::fold::fold)
        .collect()
}
