//! A pool agent: runs the steps of one pool by calling their tools on the pool's MCP
//! server. Replicas share the pool's consumer group, so each step goes to one of them.
//! A tool error is a failed step carrying the tool's message; an unreachable server is
//! retried with backoff until the attempts or the task's deadline run out (the role's
//! in-flight permit given back while it backs off). A failure that can pass
//! (unreachable server, timeout) is marked so, and the verdict decides whether the task
//! tries again; a step of a later attempt first waits (up to the task's deadline, less
//! a reserve) for the server to answer again.

use std::collections::HashMap;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::time::{Duration, Instant};

use async_trait::async_trait;
use chorus_bus::PoolName;
use chorus_bus::{
    Deadline, Delivery, Message, Payload, StepOutcome, StepResult, StepTask, ToolRequest,
    ToolResponse, Topic,
};
use chorus_mcp_common::client::{McpClient, McpError, ToolSpec};
use serde_json::Value;
use tokio::sync::RwLock;
use tracing::{Instrument, debug, info_span, warn};

use super::Ctx;
use crate::runtime::{self, HandleError, Handler};
use crate::state::once;

/// Opens a connection to the pool's MCP server.
pub type Connector = Arc<
    dyn Fn() -> Pin<Box<dyn Future<Output = Result<McpClient, McpError>> + Send>> + Send + Sync,
>;

/// How hard to try an unreachable server.
#[derive(Debug, Clone, Copy)]
pub struct Retry {
    /// Attempts in all, the first included.
    pub attempts: u32,
    /// Wait before the second attempt; doubled after each failure.
    pub initial_backoff: Duration,
    /// Longest one tool call may take (less when the task's deadline is nearer).
    pub call_timeout: Duration,
}

/// Time a step of a later attempt keeps back from the deadline, on top of the call
/// timeout, when waiting for its server (for the result and the report).
const SERVER_WAIT_RESERVE: Duration = Duration::from_millis(500);

/// How long a step of a later attempt may wait for its server: until the deadline
/// less the whole call that follows (`call_timeout`) and [`SERVER_WAIT_RESERVE`], so
/// that a call to a server still silent fails, and its result and the report are
/// written, before the deadline rather than racing it; one call timeout without a
/// deadline.
fn server_wait_budget(deadline: Option<Deadline>, call_timeout: Duration) -> Duration {
    deadline.map_or(call_timeout, |d| {
        d.remaining()
            .saturating_sub(call_timeout)
            .saturating_sub(SERVER_WAIT_RESERVE)
    })
}

/// How often a silent server is asked again.
const SERVER_POLL: Duration = Duration::from_millis(100);

/// Which of the task context's values a tool takes, read from its input schema: a
/// property named `now` takes the reference time, one named `timezone` the user's IANA
/// time zone. Each is filled when the step leaves it out, independently of the other:
/// Chorus's date tools take both, a third-party `get_current_time` only `timezone`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ContextArgs {
    /// The schema has a `now` property.
    pub now: bool,
    /// The schema has a `timezone` property.
    pub timezone: bool,
}

impl ContextArgs {
    /// What a tool with input schema `schema` takes from the context; nothing when the
    /// schema has no `properties` object.
    pub fn of(schema: &Value) -> ContextArgs {
        let properties = schema.get("properties").and_then(Value::as_object);
        let has = |name: &str| properties.is_some_and(|p| p.contains_key(name));
        ContextArgs {
            now: has("now"),
            timezone: has("timezone"),
        }
    }
}

/// The handler of one pool's `<pool>_task`.
pub struct PoolAgent {
    ctx: Ctx,
    pool: PoolName,
    server: String,
    connector: Connector,
    client: RwLock<Option<McpClient>>,
    /// What each tool takes from the task context (`now`, `timezone`), by tool name;
    /// `None` until the server's tool list was read.
    contextual: RwLock<Option<HashMap<String, ContextArgs>>>,
    retry: Retry,
    /// When the server last answered a tool list.
    answered_at: std::sync::Mutex<Option<Instant>>,
    /// Held by the one step asking a silent server whether it answers again; others
    /// waiting read its finding.
    probe: tokio::sync::Mutex<()>,
}

impl PoolAgent {
    /// A pool agent for `pool`, reaching its server (named `server` in events) with `connector`.
    pub fn new(
        ctx: Ctx,
        pool: &PoolName,
        server: &str,
        connector: Connector,
        retry: Retry,
    ) -> Self {
        PoolAgent {
            ctx,
            pool: pool.clone(),
            server: server.to_owned(),
            connector,
            client: RwLock::new(None),
            contextual: RwLock::new(None),
            retry,
            answered_at: std::sync::Mutex::new(None),
            probe: tokio::sync::Mutex::new(()),
        }
    }

    /// The server's tools (connecting when needed); used for heartbeats and at start.
    pub async fn tools(&self) -> Result<Vec<ToolSpec>, McpError> {
        let tools = self.client().await?.list_tools().await?;
        let contextual = tools
            .iter()
            .map(|t| (t.name.clone(), ContextArgs::of(&t.input_schema)))
            .filter(|(_, takes)| *takes != ContextArgs::default())
            .collect();
        *self.contextual.write().await = Some(contextual);
        *self
            .answered_at
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner) = Some(Instant::now());
        Ok(tools)
    }

    /// The client, connected on first use. Once made it is kept: the MCP client bounds
    /// every call by `call_timeout` and opens a new session by itself when its server
    /// restarts; only the first connection is bounded here.
    async fn client(&self) -> Result<McpClient, McpError> {
        if let Some(c) = self.client.read().await.as_ref() {
            return Ok(c.clone());
        }
        let mut slot = self.client.write().await;
        if let Some(c) = slot.as_ref() {
            return Ok(c.clone());
        }
        let limit = self.retry.call_timeout;
        let connected = tokio::time::timeout(limit, (self.connector)())
            .await
            .map_err(|_| McpError::Unreachable {
                endpoint: self.server.clone(),
                reason: format!("connecting took longer than {limit:?}"),
            })??;
        let c = connected.with_call_timeout(limit);
        *slot = Some(c.clone());
        Ok(c)
    }

    /// Calls the tool: a tool error or a permanent MCP error (an unknown method, a
    /// protocol error) fails the step at once, as does a call that answers nothing
    /// within the call timeout (the task's deadline is near); an unreachable server is
    /// retried with backoff, within the attempts and the deadline.
    async fn call(&self, task: &StepTask, deadline: Option<Deadline>) -> StepOutcome {
        let failed = StepOutcome::failed;
        let failed_for_now = StepOutcome::failed_transient;
        let mut backoff = self.retry.initial_backoff;
        let mut last_error = None;
        for attempt in 1..=self.retry.attempts.max(1) {
            if deadline.is_some_and(Deadline::passed) {
                return failed(format!(
                    "the deadline passed before {} could run",
                    task.tool
                ));
            }
            let called = match self.client().await {
                Ok(client) => client.call(&task.tool, task.arguments.clone()).await,
                Err(e) => Err(e),
            };
            match called {
                Ok(out) if out.is_error => return failed(out.text),
                Ok(out) => {
                    return StepOutcome::Ok {
                        value: out.value,
                        text: out.text,
                    };
                }
                Err(McpError::Timeout { timeout, .. }) => {
                    return failed_for_now(format!(
                        "{} timed out after {} ms",
                        task.tool,
                        timeout.as_millis()
                    ));
                }
                Err(e) if e.is_retryable() => last_error = Some(e),
                // The server refused the request itself (an unknown tool, arguments
                // it rejects before the tool runs): say so without its endpoint,
                // which may be a local program path.
                Err(McpError::Protocol { message, .. }) => {
                    return failed(format!(
                        "the {} server refused {}: {message}",
                        self.pool, task.tool
                    ));
                }
                Err(e) => return failed(e.to_string()),
            }
            if attempt < self.retry.attempts {
                debug!(attempt, error = ?last_error, "MCP server unreachable; retrying");
                // A wait on the server, not on this role: the permit goes back meanwhile.
                runtime::without_permit(tokio::time::sleep(backoff)).await;
                backoff = backoff.saturating_mul(2);
            }
        }
        let why = last_error.map(|e| e.to_string()).unwrap_or_default();
        failed_for_now(format!("the {} server is unreachable: {why}", self.pool))
    }

    /// Whether the server answered a tool list after `since`.
    fn answered_since(&self, since: Instant) -> bool {
        self.answered_at
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .is_some_and(|at| at >= since)
    }

    /// Before a step of a later attempt: waits until the server answers a tool list
    /// again, never longer than [`server_wait_budget`], without holding the role's
    /// permit. One waiting step asks at a time (each ask bounded by the call
    /// timeout) and the others read its answer, so a silent server is not flooded. The
    /// call goes ahead either way; when the server is still silent it fails again and
    /// the verdict decides.
    async fn wait_until_answering(&self, deadline: Option<Deadline>) {
        let since = Instant::now();
        let budget = server_wait_budget(deadline, self.retry.call_timeout);
        let until = tokio::time::Instant::now() + budget;
        let answered = runtime::without_permit(tokio::time::timeout_at(until, async {
            loop {
                {
                    let _asking = self.probe.lock().await;
                    if self.answered_since(since) || self.tools().await.is_ok() {
                        return;
                    }
                }
                tokio::time::sleep(SERVER_POLL).await;
            }
        }))
        .await;
        if answered.is_err() {
            warn!(pool = %self.pool, "server still silent; calling anyway");
        }
    }

    /// Adds the task context's `now` and `timezone` to a tool that takes them (each on
    /// its own, see [`ContextArgs`]) when the step left them out.
    async fn with_context(&self, mut task: StepTask) -> StepTask {
        let takes = self
            .contextual
            .read()
            .await
            .as_ref()
            .and_then(|c| c.get(&task.tool).copied())
            .unwrap_or_default();
        if let (true, Some(now)) = (takes.now, &task.context.now) {
            task.arguments
                .entry("now")
                .or_insert_with(|| Value::String(now.clone()));
        }
        if let (true, Some(tz)) = (takes.timezone, &task.context.timezone) {
            task.arguments
                .entry("timezone")
                .or_insert_with(|| Value::String(tz.clone()));
        }
        task
    }

    async fn run(&self, msg: &Message, task: StepTask) -> Result<(), HandleError> {
        if self.contextual.read().await.is_none() {
            // Learn which tools take a reference time (best effort; retried next time).
            let _ = self.tools().await;
        }
        let task = self.with_context(task).await;
        if task.iteration > 1 {
            self.wait_until_answering(msg.deadline_ms).await;
        }
        let request = ToolRequest {
            step_id: task.step_id.clone(),
            server: self.server.clone(),
            tool: task.tool.clone(),
            arguments: task.arguments.clone(),
        };
        let me = &self.ctx.instance;
        let request = msg.reply(Topic::tool_request(), me, Payload::ToolRequest(request));
        // The tool_request event is written while the tool runs, not before it.
        let started = Instant::now();
        // Traces on: the call is an `execute_tool` span, the MCP server's parent.
        let tool_span = chorus_telemetry::traces::spans::execute_tool(
            &task.tool,
            &self.server,
            &msg.task_id,
            &task.step_id,
        );
        let (announced, outcome) = tokio::join!(
            self.ctx.bus.publish(&request),
            self.call(&task, msg.deadline_ms)
                .instrument(tool_span.clone())
        );
        let elapsed_us = started.elapsed().as_micros() as u64;
        announced?;
        let took = std::time::Duration::from_micros(elapsed_us);
        chorus_telemetry::metrics::tools::step(&self.pool, &task.tool, &outcome, took);
        if let StepOutcome::Failed { error, .. } = &outcome {
            chorus_telemetry::traces::spans::failed(&tool_span, "tool_error");
            warn!(tool = %task.tool, %error, "step failed");
        }
        let response = ToolResponse {
            step_id: task.step_id.clone(),
            tool: task.tool.clone(),
            outcome: outcome.clone(),
            elapsed_us,
        };
        let result = StepResult {
            step_id: task.step_id.clone(),
            pool: self.pool.as_str().to_owned(),
            tool: task.tool.clone(),
            arguments: task.arguments.clone(),
            outcome,
            agent: me.clone(),
            elapsed_us,
            iteration: task.iteration,
        };
        let response = msg.reply(Topic::tool_response(), me, Payload::ToolResponse(response));
        let result = msg.reply(
            Topic::pool_result(&self.pool),
            me,
            Payload::StepResult(result),
        );
        // The response event and the result go out together, once, under one once-key
        // (nothing else publishes either: a key each would guard nothing more).
        self.ctx
            .bus
            .publish_all_once(
                &once::result(&msg.task_id, &task.step_id, task.iteration),
                self.ctx.state.ttl(),
                &[response, result],
            )
            .await?;
        Ok(())
    }
}

#[async_trait]
impl Handler for PoolAgent {
    async fn handle(&self, delivery: &Delivery) -> Result<(), HandleError> {
        let msg = &delivery.message;
        let Payload::StepTask(task) = &msg.payload else {
            return Err(HandleError::no_payload(&delivery.topic, "step"));
        };
        let span = info_span!("step", step_id = %task.step_id, tool = %task.tool);
        self.run(msg, task.clone()).instrument(span).await
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_later_attempt_waits_for_its_server_no_later_than_leaves_room_for_the_call() {
        let call = Duration::from_millis(500);
        // 6 s left: the wait ends 1 s before the deadline, so a call to a server
        // still silent times out 500 ms before it (the e2e case had waited until
        // 500 ms before the deadline and its 500 ms call lost the race with the
        // Chief's deadline report).
        let budget = server_wait_budget(Some(Deadline::after(Duration::from_secs(6))), call);
        assert!(budget <= Duration::from_secs(5), "{budget:?}");
        assert!(budget >= Duration::from_millis(4_900), "{budget:?}");
        // Too little left for a whole call: no wait at all.
        let near = Deadline::after(Duration::from_millis(800));
        assert_eq!(server_wait_budget(Some(near), call), Duration::ZERO);
        // No deadline: one call timeout.
        assert_eq!(server_wait_budget(None, call), call);
    }

    #[test]
    fn each_context_value_is_taken_by_the_tools_whose_schema_names_it() {
        let date = json!({"type": "object", "properties": {"date": {}, "now": {}, "timezone": {}}});
        assert_eq!(
            ContextArgs::of(&date),
            ContextArgs {
                now: true,
                timezone: true
            }
        );
        // A third-party get_current_time: a required timezone, no reference time.
        let current = json!({"type": "object", "properties": {"timezone": {"type": "string"}},
                             "required": ["timezone"]});
        assert_eq!(
            ContextArgs::of(&current),
            ContextArgs {
                now: false,
                timezone: true
            }
        );
        let convert = json!({"type": "object", "properties": {"source_timezone": {}, "time": {}}});
        assert_eq!(ContextArgs::of(&convert), ContextArgs::default());
        assert_eq!(
            ContextArgs::of(&json!({"type": "object"})),
            ContextArgs::default()
        );
        assert_eq!(ContextArgs::of(&json!(true)), ContextArgs::default());
    }
}
