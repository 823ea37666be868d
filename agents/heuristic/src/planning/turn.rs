//! Planning a turn of a conversation: the request alone, then as an ellipsis of an
//! earlier question, then going on from an earlier answer, in an order that keeps a
//! follow-up from answering another question.

use chorus_bus::{Language, TaskContext};

use super::Planning;
use crate::{
    Capabilities, Conversation, Limits, PartError, PlanOutcome, detect_language, lexer, messages,
    recall,
};

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
///
/// [`plan_in`]: crate::plan_in
pub fn plan_turn(
    query: &str,
    ctx: &TaskContext,
    tools: &Capabilities,
    conversation: &Conversation,
    questions: &[String],
) -> PlanOutcome {
    let conversation = &recall::with_question_dates(conversation, questions);
    // `125 x 8` in a Vietnamese conversation is answered in Vietnamese.
    let in_session_language = in_session_language(query, ctx, questions);
    let turn = Turn {
        query,
        ctx: in_session_language.as_ref().unwrap_or(ctx),
        tools,
        limits: Limits::default(),
        conversation,
        questions,
    };
    // `and 4/30?`, `còn 30/4?` after a date question: the date replaced, not a
    // division read alone.
    let found = turn
        .ellipsis()
        // `thêm 1 tuần nữa thì là ngày nào` after a date answer: from that date, not today.
        .or_else(|| turn.rewritten(recall::more_time_on_date(query, conversation)))
        .or_else(|| turn.added_to_total())
        .or_else(|| turn.deposit_of_whole())
        // `vậy 1 năm được bao nhiêu` after an amount a month: twelve of them.
        .or_else(|| turn.rewritten(recall::over_other_period(query, questions, conversation)))
        // `26 ngay thi bao nhieu` after an amount for one day: 26 of them.
        .or_else(|| turn.rewritten(recall::so_many_periods(query, questions, conversation)))
        // `còn lại bao nhiêu` after `cọc trước 30% thì bao nhiêu`: the amount less the share.
        .or_else(|| turn.rewritten(recall::rest_after_share(query, questions, conversation)))
        // `6pm there is what time in hanoi` after a question about the time in Los Angeles.
        .or_else(|| turn.rewritten(recall::place_there(query, questions)))
        // `nếu mỗi tháng tăng 15% thì mỗi tháng được bao nhiêu` after `6tr2 một tháng, một
        // năm bao nhiêu`: from the amount a month, never the year's total.
        .or_else(|| turn.rewritten(recall::on_rate_amount(query, questions)))
        .or_else(|| turn.so_many_of_that())
        // `2775 split the same way` after a split of 1850: the last question, its amount
        // replaced.
        .or_else(|| turn.rewritten(recall::same_way(query, questions)))
        // `how much less a month is that` after two amounts a month: their difference;
        // `tổng 2 đợt` after two lots: their sum (before `2` reads as a number added).
        .or_else(|| turn.rewritten(recall::difference_of_last_two(query, conversation)))
        .or_else(|| turn.rewritten(recall::two_answers(query, conversation)));
    if let Some(found) = found {
        return found;
    }
    // The request alone, then (`Planning::plan_canonical`) as an ellipsis, then going on
    // from the last answer; asked about when none reads.
    let first = turn.asking().plan(query);
    if complete(&first) {
        return first;
    }
    // `how many days between the two birth dates`: the last questions' dates.
    turn.rewritten(recall::between_question_dates(query, questions))
        // `ok add that to the 160`: read again without the acknowledgement.
        .or_else(|| {
            let again = turn.asking().plan(&recall::tidied(query)?);
            complete(&again).then_some(again)
        })
        .unwrap_or(first)
}

/// `ctx` in the session's language, when the conversation's tells `query`'s apart from
/// the context's.
fn in_session_language(
    query: &str,
    ctx: &TaskContext,
    questions: &[String],
) -> Option<TaskContext> {
    let language = recall::session_language(query, ctx.language.as_deref(), questions)?;
    Some(TaskContext {
        language: Some(language.to_owned()),
        ..ctx.clone()
    })
}

/// Whether `o` is a plan of the whole request.
fn complete(o: &PlanOutcome) -> bool {
    matches!(
        o,
        PlanOutcome::Planned {
            unplanned: None,
            ..
        }
    )
}

/// The tools a plan of the whole request uses, each once.
fn tools_used(o: &PlanOutcome) -> Option<Vec<String>> {
    match o {
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
    }
}

/// One turn being planned: the request, its context in the session's language, and what
/// each reading of it is planned with.
struct Turn<'a> {
    query: &'a str,
    ctx: &'a TaskContext,
    tools: &'a Capabilities,
    limits: Limits,
    conversation: &'a Conversation,
    questions: &'a [String],
}

impl Turn<'_> {
    /// A reading of the turn, never asked about; going on from the last answer only
    /// with `continuations`.
    fn planning(&self, continuations: bool) -> Planning<'_> {
        Planning {
            ctx: self.ctx,
            tools: self.tools,
            limits: &self.limits,
            conversation: self.conversation,
            questions: self.questions,
            continuations,
            ask: false,
        }
    }

    /// A reading of the turn that knows no earlier question.
    fn without_questions(&self) -> Planning<'_> {
        Planning {
            questions: &[],
            ..self.planning(false)
        }
    }

    /// The request alone, going on from the last answer, and asked about when none reads.
    fn asking(&self) -> Planning<'_> {
        Planning {
            ask: true,
            ..self.planning(true)
        }
    }

    /// `text`, planned without going on from the last answer, when it plans whole.
    fn whole(&self, text: &str) -> Option<chorus_bus::Plan> {
        match self.planning(false).plan(text) {
            PlanOutcome::Planned {
                plan,
                unplanned: None,
                ..
            } => Some(plan),
            _ => None,
        }
    }

    /// `text`, the turn as a reading of `recall` rewrote it, when it plans whole.
    fn rewritten(&self, text: Option<String>) -> Option<PlanOutcome> {
        let found = self.planning(false).plan(&text?);
        complete(&found).then_some(found)
    }

    /// The request refused as not understood, in `language`.
    fn not_understood(&self, language: Language) -> PlanOutcome {
        let reason = messages::part_error(
            &PartError::NotUnderstood(self.query.trim().trim_end_matches('?').to_owned()),
            language,
        );
        self.planning(false).refuse(reason, language)
    }

    /// The request as an ellipsis, when it opens as one.
    fn ellipsis(&self) -> Option<PlanOutcome> {
        if !recall::opens_ellipsis(self.query) {
            return None;
        }
        self.reference_of_own()
            .or_else(|| self.ellipsis_of_last())
            .or_else(|| self.same_kind())
            .or_else(|| self.day_month_two_ways())
    }

    /// `and how many days from that to feb 14 2027`: a reference to the last answer
    /// in a question of its own, before any ellipsis of the last question.
    fn reference_of_own(&self) -> Option<PlanOutcome> {
        let query = self.query;
        let toks = lexer::lex(query);
        if recall::find(&toks, query).is_none() || recall::keeps_rate(query) {
            return None;
        }
        let own = self.planning(false).plan(query);
        complete(&own).then_some(own)
    }

    /// The last question with the part the request names replaced.
    fn ellipsis_of_last(&self) -> Option<PlanOutcome> {
        recall::ellipses(self.query, self.questions)
            .into_iter()
            .map(|text| self.without_questions().plan(&text))
            .find(complete)
    }

    /// `what about 5pm new york time in tokyo`: a whole request of the same kind
    /// as the last question, after the words that open a follow-up.
    fn same_kind(&self) -> Option<PlanOutcome> {
        // (`what about if 4 of us split it` after a split counts the sharers again: read
        // without the questions, `it` would be the share.)
        if recall::recounts_split(self.query, self.questions) {
            return None;
        }
        let rest = recall::without_lead(self.query)?;
        let alone = self.without_questions();
        let found = alone.plan(&rest);
        let before = tools_used(&alone.plan(self.questions.last()?))?;
        (tools_used(&found)? == before).then_some(found)
    }

    /// A day and month that read two ways after the last question: refused.
    fn day_month_two_ways(&self) -> Option<PlanOutcome> {
        if !recall::day_month_reads_two_ways(self.query, self.questions) {
            return None;
        }
        let language = detect_language(self.query, self.ctx.language.as_deref());
        Some(self.not_understood(language))
    }

    /// `thêm 2 cái quần … nữa thì tổng bn`, `add 3 drench at 64.50` after a total: the
    /// added part alone is no answer to the new total.
    fn added_to_total(&self) -> Option<PlanOutcome> {
        let (query, ctx) = (self.query, self.ctx);
        let added = recall::added_to_total(query, self.conversation, self.questions)?;
        // (`thêm 40 lít nữa thì tổng` after `60 lít nước mắm 85k 1 lít`: the last question
        // with more of what it priced.)
        if added.counts_priced_unit {
            let more = recall::ellipses(query, self.questions)
                .into_iter()
                .map(|text| self.planning(false).plan(&text))
                .find(complete);
            if more.is_some() {
                return more;
            }
        }
        // The added part alone as one computation of written numbers (`2 cái quần 200
        // nghìn 1 cái` → 2 × 200000), read without going on from the last answer, or
        // the one number said (`thêm 9,5 km nữa`): the new total is the last one plus
        // it. (A sum said alone, `add 10 and 20`, is a request of its own unless the
        // total is asked.)
        let alone = self
            .whole(&added.text)
            .and_then(|plan| recall::one_computation(&plan))
            .filter(|part| added.total_asked || !part.contains('+'));
        let part = alone.or_else(|| added.lone_number.clone());
        if let Some(part) = part {
            let value = &added.base;
            let op = if added.taken { '-' } else { '+' };
            let text = format!("{value} {op} ({part})");
            if let Some(mut plan) = self.whole(&text) {
                recall::mark(&mut plan, value, &part);
                return Some(in_own_words(plan, query, ctx));
            }
        }
        added
            .total_asked
            .then(|| self.not_understood(turn_language(query, ctx)))
    }

    /// `what if i pay 40% upfront instead` after instalments: a share of the whole.
    fn deposit_of_whole(&self) -> Option<PlanOutcome> {
        let text =
            recall::deposit_of_whole(self.query, self.questions, &self.conversation.answers)?;
        let plan = self.whole(&text)?;
        Some(in_own_words(plan, self.query, self.ctx))
    }

    /// `nếu khách lấy 2 đơn như thế thì tổng bao nhiêu` after a price: that times 2.
    fn so_many_of_that(&self) -> Option<PlanOutcome> {
        let text = recall::so_many_of_that(self.query, self.conversation)?;
        let mut plan = self.whole(&text)?;
        if let Some(value) = self.conversation.answers.last() {
            recall::mark(&mut plan, value, self.query);
        }
        Some(in_own_words(plan, self.query, self.ctx))
    }
}

/// `plan`, made from a text of the planner's own (`2660000 * 2`), as the turn `query`:
/// each step quotes the request as asked, so the conversation remembers it in its own
/// words, and the answer is in the request's language.
fn in_own_words(mut plan: chorus_bus::Plan, query: &str, ctx: &TaskContext) -> PlanOutcome {
    for step in &mut plan.steps {
        step.part = query.trim().trim_end_matches('?').to_owned();
    }
    PlanOutcome::Planned {
        plan,
        language: turn_language(query, ctx),
        unplanned: None,
    }
}

/// The language of the turn `query`, told from it as normalised (`them 95k nua` reads
/// Vietnamese once its marks are back), as the planner tells a request's.
fn turn_language(query: &str, ctx: &TaskContext) -> Language {
    let hint = ctx.language.as_deref();
    detect_language(&crate::normalise::normalise(query, hint).text, hint)
}
