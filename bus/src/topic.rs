//! Topic names. A topic is one Redis stream (and one Pub/Sub mirror channel) and fixes
//! the payload type of every message on it. Pool topics (`<pool>_task`, `<pool>_result`)
//! are built from a pool name, so a new pool is configuration, not code.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::error::DecodeError;

/// The kind of a topic, which decides the payload type carried on it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TopicKind {
    /// `task_available`: a user's request ([`crate::TaskRequest`]).
    TaskAvailable,
    /// `plan_ready`: the plan for a task ([`crate::PlanReady`]).
    PlanReady,
    /// `<pool>_task`: one step sent to a pool ([`crate::StepTask`]).
    PoolTask,
    /// `<pool>_result`: one step's outcome ([`crate::StepResult`]).
    PoolResult,
    /// `tool_request`: a pool agent is about to call an MCP tool ([`crate::ToolRequest`]).
    ToolRequest,
    /// `tool_response`: what the MCP tool answered ([`crate::ToolResponse`]).
    ToolResponse,
    /// `final_report`: the one report of a task ([`crate::FinalReport`]).
    FinalReport,
    /// `clarification_needed`: the planner needs more from the user ([`crate::ClarificationNeeded`]).
    ClarificationNeeded,
    /// `clarification_answer`: the user's answer ([`crate::ClarificationAnswer`]).
    ClarificationAnswer,
    /// `task_cancel`: a client asks to cancel a task ([`crate::TaskCancel`]).
    TaskCancel,
    /// `renavigate_request`: ask the planner to re-plan ([`crate::RenavigateRequest`]).
    RenavigateRequest,
    /// `verification_done`: a check on a report finished ([`crate::VerificationDone`]).
    VerificationDone,
    /// `dead_letter`: a message that could not be handled ([`crate::DeadLetter`]).
    DeadLetter,
    /// `agent_heartbeat`: an agent is alive and offers tools ([`crate::AgentHeartbeat`]).
    AgentHeartbeat,
}

/// A topic name, such as `task_available` or `math_result`.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Topic(String);

/// Suffix of a pool's task topic.
const TASK_SUFFIX: &str = "_task";
/// Suffix of a pool's result topic.
const RESULT_SUFFIX: &str = "_result";
/// Longest topic name accepted (Redis keys can be longer; people's topics should not).
pub const MAX_TOPIC_LEN: usize = 64;

impl Topic {
    /// `task_available`.
    pub const TASK_AVAILABLE: &'static str = "task_available";
    /// `plan_ready`.
    pub const PLAN_READY: &'static str = "plan_ready";
    /// `tool_request`.
    pub const TOOL_REQUEST: &'static str = "tool_request";
    /// `tool_response`.
    pub const TOOL_RESPONSE: &'static str = "tool_response";
    /// `final_report`.
    pub const FINAL_REPORT: &'static str = "final_report";
    /// `clarification_needed`.
    pub const CLARIFICATION_NEEDED: &'static str = "clarification_needed";
    /// `clarification_answer`.
    pub const CLARIFICATION_ANSWER: &'static str = "clarification_answer";
    /// `task_cancel`.
    pub const TASK_CANCEL: &'static str = "task_cancel";
    /// `renavigate_request`.
    pub const RENAVIGATE_REQUEST: &'static str = "renavigate_request";
    /// `verification_done`.
    pub const VERIFICATION_DONE: &'static str = "verification_done";
    /// `dead_letter`.
    pub const DEAD_LETTER: &'static str = "dead_letter";
    /// `agent_heartbeat`.
    pub const AGENT_HEARTBEAT: &'static str = "agent_heartbeat";

    /// Every fixed topic name (pool topics excluded).
    pub const FIXED: [&'static str; 12] = [
        Self::TASK_AVAILABLE,
        Self::PLAN_READY,
        Self::TOOL_REQUEST,
        Self::TOOL_RESPONSE,
        Self::FINAL_REPORT,
        Self::CLARIFICATION_NEEDED,
        Self::CLARIFICATION_ANSWER,
        Self::TASK_CANCEL,
        Self::RENAVIGATE_REQUEST,
        Self::VERIFICATION_DONE,
        Self::DEAD_LETTER,
        Self::AGENT_HEARTBEAT,
    ];

    /// Parses and validates a topic name: a known fixed topic, or `<pool>_task` /
    /// `<pool>_result` where the pool name is lowercase ASCII letters, digits and `-`.
    pub fn parse(name: &str) -> Result<Self, DecodeError> {
        let topic = Topic(name.to_owned());
        topic.kind().map(|_| topic)
    }

    /// `task_available`.
    pub fn task_available() -> Self {
        Topic(Self::TASK_AVAILABLE.to_owned())
    }
    /// `plan_ready`.
    pub fn plan_ready() -> Self {
        Topic(Self::PLAN_READY.to_owned())
    }
    /// `tool_request`.
    pub fn tool_request() -> Self {
        Topic(Self::TOOL_REQUEST.to_owned())
    }
    /// `tool_response`.
    pub fn tool_response() -> Self {
        Topic(Self::TOOL_RESPONSE.to_owned())
    }
    /// `final_report`.
    pub fn final_report() -> Self {
        Topic(Self::FINAL_REPORT.to_owned())
    }
    /// `clarification_needed`.
    pub fn clarification_needed() -> Self {
        Topic(Self::CLARIFICATION_NEEDED.to_owned())
    }
    /// `clarification_answer`.
    pub fn clarification_answer() -> Self {
        Topic(Self::CLARIFICATION_ANSWER.to_owned())
    }

    /// `task_cancel`.
    pub fn task_cancel() -> Self {
        Topic(Self::TASK_CANCEL.to_owned())
    }
    /// `verification_done`.
    pub fn verification_done() -> Self {
        Topic(Self::VERIFICATION_DONE.to_owned())
    }
    /// `renavigate_request`.
    pub fn renavigate_request() -> Self {
        Topic(Self::RENAVIGATE_REQUEST.to_owned())
    }
    /// `dead_letter`.
    pub fn dead_letter() -> Self {
        Topic(Self::DEAD_LETTER.to_owned())
    }
    /// `agent_heartbeat`.
    pub fn agent_heartbeat() -> Self {
        Topic(Self::AGENT_HEARTBEAT.to_owned())
    }

    /// `<pool>_task`, the topic a pool's agents consume.
    pub fn pool_task(pool: &str) -> Self {
        Topic(format!("{pool}{TASK_SUFFIX}"))
    }

    /// `<pool>_result`, the topic a pool's agents produce.
    pub fn pool_result(pool: &str) -> Self {
        Topic(format!("{pool}{RESULT_SUFFIX}"))
    }

    /// The topic name.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The pool of a `<pool>_task` or `<pool>_result` topic.
    pub fn pool(&self) -> Option<&str> {
        self.0
            .strip_suffix(TASK_SUFFIX)
            .or_else(|| self.0.strip_suffix(RESULT_SUFFIX))
            .filter(|p| is_pool_name(p))
    }

    /// The kind of this topic, or an error naming the unknown topic.
    pub fn kind(&self) -> Result<TopicKind, DecodeError> {
        let kind = match self.0.as_str() {
            Self::TASK_AVAILABLE => TopicKind::TaskAvailable,
            Self::PLAN_READY => TopicKind::PlanReady,
            Self::TOOL_REQUEST => TopicKind::ToolRequest,
            Self::TOOL_RESPONSE => TopicKind::ToolResponse,
            Self::FINAL_REPORT => TopicKind::FinalReport,
            Self::CLARIFICATION_NEEDED => TopicKind::ClarificationNeeded,
            Self::CLARIFICATION_ANSWER => TopicKind::ClarificationAnswer,
            Self::TASK_CANCEL => TopicKind::TaskCancel,
            Self::RENAVIGATE_REQUEST => TopicKind::RenavigateRequest,
            Self::VERIFICATION_DONE => TopicKind::VerificationDone,
            Self::DEAD_LETTER => TopicKind::DeadLetter,
            Self::AGENT_HEARTBEAT => TopicKind::AgentHeartbeat,
            other if other.len() <= MAX_TOPIC_LEN => match (
                other.strip_suffix(TASK_SUFFIX),
                other.strip_suffix(RESULT_SUFFIX),
            ) {
                (Some(pool), _) if is_pool_name(pool) => TopicKind::PoolTask,
                (_, Some(pool)) if is_pool_name(pool) => TopicKind::PoolResult,
                _ => return Err(DecodeError::UnknownTopic(truncate(other))),
            },
            other => return Err(DecodeError::UnknownTopic(truncate(other))),
        };
        Ok(kind)
    }
}

/// A pool name is 1..=32 of lowercase ASCII letters, digits and `-`, and is not a
/// fixed topic's prefix such as `tool`.
pub fn is_pool_name(pool: &str) -> bool {
    !pool.is_empty()
        && pool.len() <= 32
        && pool != "tool"
        && pool
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
}

fn truncate(s: &str) -> String {
    s.chars().take(MAX_TOPIC_LEN).collect()
}

impl fmt::Display for Topic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl AsRef<str> for Topic {
    fn as_ref(&self) -> &str {
        &self.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pool_topics_are_recognised_and_name_their_pool() {
        let t = Topic::parse("math_task").expect("valid");
        assert_eq!(t.kind().ok(), Some(TopicKind::PoolTask));
        assert_eq!(t.pool(), Some("math"));
        let r = Topic::pool_result("date");
        assert_eq!(r.as_str(), "date_result");
        assert_eq!(r.kind().ok(), Some(TopicKind::PoolResult));
    }

    #[test]
    fn unknown_topics_are_refused_with_their_name() {
        let err = Topic::parse("Hello World").expect_err("invalid");
        assert!(err.to_string().contains("Hello World"), "{err}");
        assert!(Topic::parse("_task").is_err());
        assert!(Topic::parse("tool_task").is_err());
    }
}
