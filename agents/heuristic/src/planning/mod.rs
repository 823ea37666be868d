//! One planning call: a query normalised, then read as a request, as a calculation on
//! earlier answers, an ellipsis or a follow-up, as an everyday problem; asked about or
//! refused when none reads.

mod asking;
mod before;
mod follow_ups;
mod last_readings;
mod on_last;
mod relative;
mod turn;
mod understanding;

use chorus_bus::{Language, TaskContext};

use crate::{
    Capabilities, Conversation, Limits, PlanOutcome, detect_language, help, lexer, messages,
    normalise, recall,
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
        // (`21,6 lit x 23.450d`: Vietnamese as typed, its marks of it gone once the
        // amounts are canonical — answered in Vietnamese all the same.)
        // (Only đồng glued to an amount, `23.450d`, and millions written `1tr2` are lost
        // that way: a scan first, the language read again only then.)
        let typed_vi = self.ctx.language.is_none()
            && crate::language::amounts_typed_vi(query)
            && !detect_language(&norm.text, None).is_vi();
        let outcome = match typed_vi {
            true => {
                let ctx = TaskContext {
                    language: Some(Language::Vi.as_str().to_owned()),
                    ..self.ctx.clone()
                };
                Planning { ctx: &ctx, ..*self }.plan_canonical(&norm.text)
            }
            false => self.plan_canonical(&norm.text),
        };
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
        let mut settled: Option<String> = None;
        if let Some(asked) = self.settle_dates(&toks, query, language, &mut settled) {
            return asked;
        }
        let (query, toks) = match &settled {
            Some(text) => (text.as_str(), lexer::lex(text)),
            None => (query, toks),
        };
        let first = self
            .asked_before(&toks, query, language)
            .or_else(|| self.on_last_answers(&toks, query, language));
        if let Some(found) = first {
            return found;
        }
        let reference = recall::find(&toks, query).or_else(|| {
            recall::named_answer(&toks, query, self.questions.last().map(String::as_str))
        });
        if let Some(found) = self.with_reference(query, reference.as_ref(), language) {
            return found;
        }
        let reading = self.understand_lexed(query, &toks);
        let last = self
            .going_on(query, &reading, language)
            .or_else(|| self.last_readings(&toks, query, &reading, language));
        if let Some(found) = last {
            return found;
        }
        self.asked_or_read(query, &toks, reading, reference, language)
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
