//! One sample message per topic, for round-trip tests.

use chorus_bus::*;
use serde_json::json;

fn args(v: serde_json::Value) -> serde_json::Map<String, serde_json::Value> {
    v.as_object().cloned().unwrap_or_default()
}

fn msg(topic: Topic, payload: Payload) -> Message {
    Message::new("task-1", topic, "tester", payload)
}

/// A request on `task_available`.
pub fn task_request(query: &str) -> Message {
    msg(
        Topic::task_available(),
        Payload::TaskAvailable(TaskRequest {
            query: query.into(),
            context: TaskContext {
                now: Some("2026-01-01T00:00:00Z".into()),
                timezone: Some("Asia/Ho_Chi_Minh".into()),
                language: Some("vi".into()),
                session_id: Some("conv-1".into()),
                day_first: Some(true),
            },
        }),
    )
}

/// A step on `math_task` with a distinct task id.
pub fn math_task(task_id: &str) -> Message {
    let mut m = msg(
        Topic::pool_task("math"),
        Payload::StepTask(StepTask {
            step_id: "s1".into(),
            pool: "math".into(),
            tool: "sum".into(),
            arguments: args(json!({"a": 2, "b": 4})),
            context: TaskContext::default(),
            iteration: 1,
        }),
    );
    m.task_id = task_id.into();
    m
}

/// One message for every fixed topic plus a pool's two topics.
pub fn every_topic() -> Vec<Message> {
    let ok = StepOutcome::Ok {
        value: json!(6),
        text: "6".into(),
    };
    let plan: Plan = serde_json::from_value(json!({"steps": [
        {"id": "s1", "pool": "math", "tool": "sum", "arguments": {"a": 2, "b": 4}, "part": "2+4"},
        {"id": "s2", "pool": "math", "tool": "multiply", "arguments": {"a": {"$ref": "s1"}, "b": 3}}
    ]}))
    .expect("plan");
    vec![
        task_request("tính 2+4 = ??"),
        msg(
            Topic::plan_ready(),
            Payload::PlanReady(PlanReady {
                query: "(2+4)*3".into(),
                context: TaskContext::default(),
                language: chorus_bus::Language::En,
                plan,
                planner: PlannerKind::Heuristic,
                unplanned: None,
                reply: None,
                dispatched: false,
                iteration: 1,
                retried: Vec::new(),
            }),
        ),
        math_task("task-1"),
        msg(
            Topic::pool_result("math"),
            Payload::StepResult(StepResult {
                step_id: "s1".into(),
                pool: "math".into(),
                tool: "sum".into(),
                arguments: args(json!({"a": 2, "b": 4})),
                outcome: ok.clone(),
                agent: "math-1".into(),
                elapsed_us: 120,
                iteration: 1,
            }),
        ),
        msg(
            Topic::tool_request(),
            Payload::ToolRequest(ToolRequest {
                step_id: "s1".into(),
                server: "http://127.0.0.1:9001/mcp".into(),
                tool: "sum".into(),
                arguments: args(json!({"a": 2, "b": 4})),
            }),
        ),
        msg(
            Topic::tool_response(),
            Payload::ToolResponse(ToolResponse {
                step_id: "s1".into(),
                tool: "sum".into(),
                outcome: StepOutcome::failed("division by zero"),
                elapsed_us: 80,
            }),
        ),
        msg(
            Topic::final_report(),
            Payload::FinalReport(FinalReport {
                query: "2+4".into(),
                status: ReportStatus::Completed,
                text: "2 + 4 = 6".into(),
                language: chorus_bus::Language::En,
                steps: vec![StepReport {
                    step_id: "s1".into(),
                    part: "2+4".into(),
                    pool: "math".into(),
                    tool: "sum".into(),
                    arguments: args(json!({"a": 2, "b": 4})),
                    inputs: Default::default(),
                    recalled: Vec::new(),
                    outcome: Some(ok),
                    output: true,
                }],
                written_by: "template".into(),
                iterations: 1,
                retried: Vec::new(),
            }),
        ),
        msg(
            Topic::clarification_needed(),
            Payload::ClarificationNeeded(ClarificationNeeded {
                question: "Which date do you mean?".into(),
                options: vec![
                    AnswerOption {
                        label: "3 April 2026".into(),
                        value: "2026-04-03".into(),
                    },
                    AnswerOption {
                        label: "4 March 2026".into(),
                        value: "2026-03-04".into(),
                    },
                ],
                part: "what weekday is 03/04/2026".into(),
                language: chorus_bus::Language::En,
                number: 1,
                query: "what weekday is 03/04/2026".into(),
                session_id: Some("conv-1".into()),
            }),
        ),
        msg(
            Topic::parse("clarification_answer").expect("topic"),
            Payload::ClarificationAnswer(ClarificationAnswer {
                answer: "3 April".into(),
                question: Some(1),
            }),
        ),
        msg(
            Topic::parse("renavigate_request").expect("topic"),
            Payload::RenavigateRequest(RenavigateRequest {
                iteration: 1,
                failed_steps: vec![failed_step()],
                reason: "s2 sum: sum timed out after 1000 ms".into(),
                plan: None,
            }),
        ),
        msg(
            Topic::parse("verification_done").expect("topic"),
            Payload::VerificationDone(VerificationDone {
                iteration: 1,
                verdict: Verdict::Reiterate,
                reasons: vec!["s2 sum: sum timed out after 1000 ms".into()],
                failed_steps: vec![failed_step()],
                plan: None,
            }),
        ),
        msg(
            Topic::dead_letter(),
            Payload::DeadLetter(DeadLetter {
                topic: "math_task".into(),
                entry_id: "1-0".into(),
                role: "math".into(),
                deliveries: 6,
                reason: "boom".into(),
                original: "{}".into(),
            }),
        ),
        msg(
            Topic::agent_heartbeat(),
            Payload::AgentHeartbeat(AgentHeartbeat {
                role: "pool".into(),
                instance: "math-1".into(),
                pool: Some("math".into()),
                tools: vec![ToolInfo {
                    name: "sum".into(),
                    description: "a + b".into(),
                    input_schema: json!({"type": "object"}),
                }],
                ttl_ms: 5000,
            }),
        ),
    ]
}

/// A step that failed for a reason that can pass.
fn failed_step() -> FailedStep {
    FailedStep {
        step_id: "s2".into(),
        pool: "math".into(),
        tool: "sum".into(),
        reason: "sum timed out after 1000 ms".into(),
    }
}
