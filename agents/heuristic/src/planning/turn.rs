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
    // `thêm 2 cái quần … nữa thì tổng bn`, `add 3 drench at 64.50` after a total: the
    // added part alone is no answer to the new total.
    if let Some(added) = recall::added_to_total(query, conversation, questions) {
        // (`thêm 40 lít nữa thì tổng` after `60 lít nước mắm 85k 1 lít`: the last question
        // with more of what it priced.)
        if added.counts_priced_unit {
            for text in recall::ellipses(query, questions) {
                let found = planning(false).plan(&text);
                if complete(&found) {
                    return found;
                }
            }
        }
        // The added part alone as one computation of written numbers (`2 cái quần 200
        // nghìn 1 cái` → 2 × 200000), read without going on from the last answer, or
        // the one number said (`thêm 9,5 km nữa`): the new total is the last one plus
        // it. (A sum said alone, `add 10 and 20`, is a request of its own unless the
        // total is asked.)
        let alone = match planning(false).plan(&added.text) {
            PlanOutcome::Planned {
                plan,
                unplanned: None,
                ..
            } => recall::one_computation(&plan),
            _ => None,
        }
        .filter(|part| added.total_asked || !part.contains('+'));
        let part = alone.or_else(|| added.lone_number.clone());
        if let Some(part) = part {
            let value = &added.base;
            let op = if added.taken { '-' } else { '+' };
            let text = format!("{value} {op} ({part})");
            if let PlanOutcome::Planned {
                mut plan,
                unplanned: None,
                ..
            } = planning(false).plan(&text)
            {
                recall::mark(&mut plan, value, &part);
                return in_own_words(plan, query, ctx);
            }
        }
        if added.total_asked {
            let language = turn_language(query, ctx);
            let reason = messages::part_error(
                &PartError::NotUnderstood(query.trim().trim_end_matches('?').to_owned()),
                language,
            );
            return planning(false).refuse(reason, language);
        }
    }
    // `what if i pay 40% upfront instead` after instalments: a share of the whole.
    if let Some(text) = recall::deposit_of_whole(query, questions)
        && let PlanOutcome::Planned {
            plan,
            unplanned: None,
            ..
        } = planning(false).plan(&text)
    {
        return in_own_words(plan, query, ctx);
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
    // `nếu khách lấy 2 đơn như thế thì tổng bao nhiêu` after a price: that times 2.
    if let Some(text) = recall::so_many_of_that(query, conversation) {
        let found = planning(false).plan(&text);
        if let PlanOutcome::Planned {
            mut plan,
            unplanned: None,
            ..
        } = found
        {
            if let Some(value) = conversation.answers.last() {
                recall::mark(&mut plan, value, query);
            }
            return in_own_words(plan, query, ctx);
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
