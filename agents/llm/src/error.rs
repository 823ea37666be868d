//! Why a model call, a model-made plan or a model-written report was not used. Every
//! variant is a reason to fall back (to the heuristic planner or to the report
//! template), never a reason to fail the task; the reason is logged and recorded.

use chorus_bus::PlanError;

/// Why a call to the model failed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LlmError {
    /// No base URL or model is set, or the model is switched off.
    #[error("the language model is not configured")]
    NotConfigured,
    /// The settings cannot make a client (a bad URL, an API key that is not a valid
    /// header value). The key itself is never part of the message.
    #[error("bad language model settings: {0}")]
    Config(String),
    /// The server did not answer within the timeout.
    #[error("the language model did not answer within {0} ms")]
    Timeout(u64),
    /// The server answered with an HTTP error status.
    #[error("the language model server answered HTTP {status}: {message}")]
    Status {
        /// The HTTP status code.
        status: u16,
        /// The server's error message, shortened.
        message: String,
    },
    /// The server could not be reached, or the connection broke.
    #[error("could not reach the language model server: {0}")]
    Transport(String),
    /// The server answered something that is not a chat completion.
    #[error("the language model server's answer is not a chat completion: {0}")]
    BadResponse(String),
    /// The completion had no text.
    #[error("the language model answered with no text")]
    Empty,
    /// The model refused to answer.
    #[error("the language model refused: {0}")]
    Refused(String),
}

impl LlmError {
    /// A short stable code for logs and metrics (`timeout`, `http_500`, …).
    pub fn code(&self) -> String {
        match self {
            LlmError::NotConfigured => "not_configured".into(),
            LlmError::Config(_) => "config".into(),
            LlmError::Timeout(_) => "timeout".into(),
            LlmError::Status { status, .. } => format!("http_{status}"),
            LlmError::Transport(_) => "transport".into(),
            LlmError::BadResponse(_) => "bad_response".into(),
            LlmError::Empty => "empty".into(),
            LlmError::Refused(_) => "refused".into(),
        }
    }
}

/// Why the model's plan was not used (the heuristic outcome is used instead).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PlanFallback {
    /// The call to the model failed (timeout, HTTP error, unreachable, …).
    #[error(transparent)]
    Call(#[from] LlmError),
    /// The answer is not JSON of the plan's shape.
    #[error("the model's plan is not valid JSON of the plan schema: {0}")]
    InvalidJson(String),
    /// The plan has no steps.
    #[error("the model's plan has no steps")]
    Empty,
    /// A step names a pool no live agent serves.
    #[error("step {step:?} uses pool {pool:?}, which no live agent serves")]
    UnknownPool {
        /// The step.
        step: chorus_bus::StepId,
        /// The pool it named.
        pool: String,
    },
    /// A step names a tool its pool does not offer.
    #[error("step {step:?} uses tool {tool:?}, which pool {pool:?} does not offer")]
    UnknownTool {
        /// The step.
        step: chorus_bus::StepId,
        /// The pool.
        pool: String,
        /// The tool it named.
        tool: String,
    },
    /// A step's arguments do not match its tool's input schema.
    #[error("step {step:?} has arguments that do not fit tool {tool:?}: {reason}")]
    BadArguments {
        /// The step.
        step: chorus_bus::StepId,
        /// The tool.
        tool: String,
        /// What is wrong (missing, unknown or mistyped argument).
        reason: String,
    },
    /// The steps are not a DAG of earlier references (cycle, forward or dangling
    /// reference, duplicate id) or exceed the step limit.
    #[error("the model's plan is not a valid DAG: {0}")]
    Invalid(PlanError),
}

impl PlanFallback {
    /// A short stable code for logs and metrics (`timeout`, `unknown_tool`, …).
    pub fn code(&self) -> String {
        match self {
            PlanFallback::Call(e) => e.code(),
            PlanFallback::InvalidJson(_) => "invalid_json".into(),
            PlanFallback::Empty => "empty_plan".into(),
            PlanFallback::UnknownPool { .. } => "unknown_pool".into(),
            PlanFallback::UnknownTool { .. } => "unknown_tool".into(),
            PlanFallback::BadArguments { .. } => "bad_arguments".into(),
            PlanFallback::Invalid(PlanError::TooManySteps(..)) => "too_many_steps".into(),
            PlanFallback::Invalid(_) => "invalid_dag".into(),
        }
    }
}

/// Why the model's report was not used (the template is used instead).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SynthFallback {
    /// The call to the model failed (timeout, HTTP error, unreachable, …).
    #[error(transparent)]
    Call(#[from] LlmError),
    /// Report writing by the model is switched off.
    #[error("report writing by the language model is switched off")]
    Disabled,
    /// The report has a number that no result, argument or the query contains.
    #[error("the model's report is not grounded in the results: {0}")]
    Ungrounded(String),
}

impl SynthFallback {
    /// A short stable code for logs and metrics (`timeout`, `ungrounded`, …).
    pub fn code(&self) -> String {
        match self {
            SynthFallback::Call(e) => e.code(),
            SynthFallback::Disabled => "disabled".into(),
            SynthFallback::Ungrounded(_) => "ungrounded".into(),
        }
    }
}
