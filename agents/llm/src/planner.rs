//! Planning with the model, behind the heuristic planner.
//!
//! The path of a query: the heuristic planner first; when it is certain (it planned the
//! whole query, or the user asked what Chorus can do) its answer stands and no model is
//! called, so "2+4" costs nothing. Otherwise, when a model is configured and some tool is
//! live, the model is asked for a plan; a valid plan is used, and on any failure
//! (timeout, HTTP error, invalid JSON, unknown tool, cycle, …) the heuristic outcome is
//! used after all, with the reason recorded in [`PlanPath::FellBack`].

use std::sync::Arc;

use chorus_bus::{PlannerKind, TaskContext};
use chorus_heuristic::{Capabilities, Conversation, MAX_QUERY_CHARS, PlanOutcome, detect_language};
use serde_json::Value;
use tracing::{info, warn};

use crate::client::LlmClient;
use crate::dialect::{Dialect, Dialects, complete_structured, wire_schema};
use crate::error::{LlmError, PlanFallback};
use crate::prompt::{Prompts, plan_messages};
use crate::settings::LlmSettings;
use crate::tools::{PoolTool, capabilities};
use crate::validate::{ModelAnswer, ModelPlan, parse_answer};

/// Which way a query's plan was made.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PlanPath {
    /// The heuristic planner answered (the model was not asked, or is not configured).
    Heuristic,
    /// The model's plan passed every check and is used.
    Llm,
    /// The model was asked and failed; the heuristic outcome is used. Holds why.
    FellBack(PlanFallback),
}

impl PlanPath {
    /// The planner that made the plan, for `PlanReady::planner`.
    pub fn planner_kind(&self) -> PlannerKind {
        match self {
            PlanPath::Llm => PlannerKind::Llm,
            PlanPath::Heuristic | PlanPath::FellBack(_) => PlannerKind::Heuristic,
        }
    }

    /// A short label for logs: `heuristic`, `llm`, `llm_failed:<code>`.
    pub fn label(&self) -> String {
        match self {
            PlanPath::Heuristic => "heuristic".into(),
            PlanPath::Llm => "llm".into(),
            PlanPath::FellBack(reason) => format!("llm_failed:{}", reason.code()),
        }
    }
}

/// The heuristic outcome when it is certain: a plan for the whole query, the
/// capabilities answer to a greeting or "what can you do", or a question that settles
/// what is missing. `None` when the heuristic could not plan the query (or only part of
/// it), so a model may try.
pub fn heuristic_first(query: &str, ctx: &TaskContext, caps: &Capabilities) -> Option<PlanOutcome> {
    let outcome = chorus_heuristic::plan(query, ctx, caps);
    is_certain(&outcome).then_some(outcome)
}

/// Whether the heuristic outcome stands without asking a model.
fn is_certain(outcome: &PlanOutcome) -> bool {
    match outcome {
        PlanOutcome::Planned { unplanned, .. } => unplanned.is_none(),
        PlanOutcome::Capabilities { .. } | PlanOutcome::Question { .. } => true,
        PlanOutcome::Unplannable { .. } => false,
    }
}

/// Plans `query` (a turn of `conversation`, whose earlier requests were `questions`,
/// oldest first) with the live `tools`: the heuristic's turn planning first
/// ([`chorus_heuristic::plan_turn`]: references, ellipses, continuations), then `llm`
/// when given and needed, falling back to the heuristic outcome when the model fails.
pub async fn plan_with_fallback(
    llm: Option<&LlmPlanner>,
    query: &str,
    ctx: &TaskContext,
    tools: &[PoolTool],
    conversation: &Conversation,
    questions: &[String],
) -> (PlanOutcome, PlanPath) {
    let caps = capabilities(tools);
    let heuristic = chorus_heuristic::plan_turn(query, ctx, &caps, conversation, questions);
    let certain = is_certain(&heuristic);
    let too_long = query.chars().count() > MAX_QUERY_CHARS;
    let Some(llm) = llm.filter(|_| !certain && !too_long && !tools.is_empty()) else {
        return (heuristic, PlanPath::Heuristic);
    };
    match llm.plan(query, ctx, tools, &conversation.answers).await {
        Ok(ModelAnswer::Question(q)) => {
            info!(path = "llm", "the model asks the user");
            let question = chorus_heuristic::question::from_model(query, &q.text, &q.options);
            let language = heuristic.language();
            (
                PlanOutcome::Question {
                    language,
                    question: Box::new(question),
                },
                PlanPath::Llm,
            )
        }
        Ok(ModelAnswer::Plan(plan)) => {
            info!(
                steps = plan.steps.len(),
                path = "llm",
                "model plan accepted"
            );
            let language = heuristic.language();
            let unplanned = None;
            (
                PlanOutcome::Planned {
                    plan,
                    language,
                    unplanned,
                },
                PlanPath::Llm,
            )
        }
        Err(reason) => {
            warn!(reason = %reason, code = %reason.code(), "model plan refused; heuristic answer used");
            (heuristic, PlanPath::FellBack(reason))
        }
    }
}

/// Asks the model for plans and checks them against the live tools.
#[derive(Clone)]
pub struct LlmPlanner {
    client: LlmClient,
    prompts: Arc<Prompts>,
    /// The plan's schema as sent ([`wire_schema`]).
    schema: Arc<Value>,
    /// The structured-output dialect this process speaks.
    dialects: Dialects,
}

impl LlmPlanner {
    /// A planner for the model in `settings`, with `prompts`.
    pub fn new(settings: &LlmSettings, prompts: Prompts) -> Result<Self, LlmError> {
        Ok(LlmPlanner {
            client: LlmClient::new(settings)?.for_role("planner"),
            prompts: Arc::new(prompts),
            schema: Arc::new(wire_schema(plan_schema())),
            dialects: Dialects::new(settings.response_format, settings.json_schema),
        })
    }

    /// The settings in use.
    pub fn settings(&self) -> &LlmSettings {
        self.client.settings()
    }

    /// The model's plan for `query` with `tools`, checked: known pools and tools,
    /// arguments that fit each tool's input schema, references only to earlier steps,
    /// at most `max_steps` steps — or its question for the user. `earlier_answers` are
    /// the conversation's last answers, which the request may refer to. Any failure
    /// says why.
    pub async fn plan(
        &self,
        query: &str,
        ctx: &TaskContext,
        tools: &[PoolTool],
        earlier_answers: &[String],
    ) -> Result<ModelAnswer, PlanFallback> {
        let language = detect_language(query, ctx.language.as_deref());
        let messages = plan_messages(&self.prompts, query, ctx, language, tools, earlier_answers);
        let text =
            complete_structured(&self.client, &self.dialects, &messages, &self.schema).await?;
        parse_answer(&text, tools, self.settings().max_steps)
    }
}

/// The JSON Schema of a planning answer ([`ModelPlan`]: steps, or a question), from its
/// schemars derive.
pub fn plan_schema() -> Value {
    serde_json::to_value(schemars::schema_for!(ModelPlan)).unwrap_or(Value::Bool(true))
}

/// The `response_format` of a plan request in `dialect`, with the plan's schema as
/// sent ([`wire_schema`]).
pub fn response_format(dialect: Dialect) -> Value {
    dialect.body(&wire_schema(plan_schema()))
}

/// The structured-output dialect a planner speaks now (it may have moved on from
/// `json_schema` after a refusal).
impl LlmPlanner {
    /// The dialect of the next plan request.
    pub fn dialect(&self) -> Dialect {
        self.dialects.current()
    }
}

impl std::fmt::Debug for LlmPlanner {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LlmPlanner")
            .field("client", &self.client)
            .finish_non_exhaustive()
    }
}
