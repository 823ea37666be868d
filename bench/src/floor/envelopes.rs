//! The envelopes a `2+4` task carries from hop to hop, as a real run wrote them
//! (`envelopes.json`: one entry of each stream, taken with `XREVRANGE … COUNT 1` during a
//! `chorus-bench --spawn` run, and the FINISHED verdict seen on its channel). Relays send
//! copies of them, so every hop carries what the real one carries, byte for byte but for
//! the ids and the time.

use chorus_bus::{Message, Payload, StepId};

use super::super::BenchError;

/// The captured envelopes, one per hop a `2+4` task crosses after its request.
#[derive(Debug, Clone)]
pub struct Envelopes {
    /// `plan_ready`: the one-step plan.
    pub plan_ready: Message,
    /// `math_task`: the step.
    pub pool_task: Message,
    /// `tool_request`: the event the pool agent writes while the tool runs.
    pub tool_request: Message,
    /// `tool_response`: the tool's answer.
    pub tool_response: Message,
    /// `math_result`: the step's result.
    pub pool_result: Message,
    /// `final_report`: the report.
    pub final_report: Message,
    /// `verification_done`: the verdict FINISHED (announced on its channel only).
    pub finished: Message,
}

/// The fixture, as captured.
const FIXTURE: &str = include_str!("envelopes.json");

impl Envelopes {
    /// Reads the captured envelopes.
    pub fn load() -> Result<Envelopes, BenchError> {
        let all: serde_json::Map<String, serde_json::Value> = serde_json::from_str(FIXTURE)
            .map_err(|e| BenchError::Args(format!("envelopes.json: {e}")))?;
        let one = |name: &str| -> Result<Message, BenchError> {
            let value = all
                .get(name)
                .ok_or_else(|| BenchError::Args(format!("envelopes.json has no {name}")))?;
            Message::from_json(&value.to_string())
                .map_err(|e| BenchError::Args(format!("envelopes.json, {name}: {e}")))
        };
        Ok(Envelopes {
            plan_ready: one("plan_ready")?,
            pool_task: one("math_task")?,
            tool_request: one("tool_request")?,
            tool_response: one("tool_response")?,
            pool_result: one("math_result")?,
            final_report: one("final_report")?,
            finished: one("verification_done")?,
        })
    }

    /// The step's id and attempt, as its once-keys name them.
    pub fn step(&self) -> (StepId, u32) {
        match &self.pool_task.payload {
            Payload::StepTask(t) => (t.step_id.clone(), t.iteration),
            _ => (StepId::from("s1"), 1),
        }
    }

    /// The step's tool call as a JSON-RPC `tools/call`'s params (the tool's name and
    /// arguments), as the pool agent sends them.
    pub fn call_params(&self) -> serde_json::Value {
        match &self.tool_request.payload {
            Payload::ToolRequest(r) => {
                serde_json::json!({ "name": r.tool, "arguments": r.arguments })
            }
            _ => serde_json::json!({ "name": "sum", "arguments": {} }),
        }
    }
}

/// `template` sent on as the answer to `incoming`: the same topic, payload and receiver,
/// in `incoming`'s task with a fresh id and time, its deadline and trace context.
pub fn answer(incoming: &Message, template: &Message, from: &str) -> Message {
    let mut out = incoming.reply(template.topic.clone(), from, template.payload.clone());
    out.to_agent = template.to_agent.clone();
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use chorus_bus::Topic;

    #[test]
    fn the_fixture_holds_every_hop_of_a_one_step_task() {
        let e = Envelopes::load().expect("fixture");
        assert_eq!(e.plan_ready.topic, Topic::plan_ready());
        assert_eq!(e.pool_task.topic, Topic::pool_task("math"));
        assert_eq!(e.pool_result.topic, Topic::pool_result("math"));
        assert_eq!(e.final_report.topic, Topic::final_report());
        assert_eq!(e.finished.topic, Topic::verification_done());
        assert!(matches!(e.tool_response.payload, Payload::ToolResponse(_)));
        assert_eq!(e.call_params()["name"], "sum");
    }

    #[test]
    fn an_answer_is_in_the_incoming_task() {
        let e = Envelopes::load().expect("fixture");
        let incoming = e.pool_task.clone();
        let mut other = e.final_report.clone();
        other.task_id = "another".into();
        let out = answer(&incoming, &other, "me");
        assert_eq!(out.task_id, incoming.task_id);
        assert_eq!(out.topic, Topic::final_report());
        assert_eq!(out.from_agent, "me");
        assert_eq!(out.to_agent, other.to_agent);
        assert_ne!(out.id, other.id);
    }
}
