//! The OpenAPI path items of the native routes, beside the routes; their bodies' and
//! answers' schemas come from the wire types (schemars) and join the document's
//! components.

use chorus_bus::{ClarificationNeeded, FinalReport, PlanReady, StepResult};
use schemars::SchemaGenerator;
use serde_json::{Value, json};

use super::wire::{Accepted, AnswerAccepted, NewAnswer, NewTask, QuestionEvent, TaskStatus};

fn error_response(description: &str) -> Value {
    json!({"description": description, "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}})
}

fn json_body(schema: &Value) -> Value {
    json!({"required": true, "content": {"application/json": {"schema": schema}}})
}

/// The path items, their schemas added to `generator`'s definitions.
pub(crate) fn openapi_paths(generator: &mut SchemaGenerator) -> Value {
    let new_task = generator.subschema_for::<NewTask>().to_value();
    let accepted = generator.subschema_for::<Accepted>().to_value();
    let status = generator.subschema_for::<TaskStatus>().to_value();
    let new_answer = generator.subschema_for::<NewAnswer>().to_value();
    let answer_accepted = generator.subschema_for::<AnswerAccepted>().to_value();
    let _ = generator.subschema_for::<ClarificationNeeded>();
    let _ = generator.subschema_for::<QuestionEvent>();
    let _ = generator.subschema_for::<PlanReady>();
    let _ = generator.subschema_for::<StepResult>();
    let _ = generator.subschema_for::<FinalReport>();
    let stream_doc = "Server-Sent Events, in order: `accepted` ({\"task_id\"}), `plan` (PlanReady), \
        one `step` per step result (StepResult), then `report` (FinalReport); or `error` when no \
        report comes within the task's deadline. When the task asks the user something, a \
        `question` event (QuestionEvent: the ClarificationNeeded and the task_id) comes before \
        the plan and the stream stays open, the task's deadline paused: once an answer arrives \
        through any door (POST /tasks/{id}/answer, a bare clarification_answer on the bus, the \
        CLI) the plan, steps and report follow, or another `question` when the answer did not \
        settle it. A question left unanswered for agents.answer_timeout_ms ends with the report, \
        status `unanswered`. The same task sent again while it waits gets its question at once.";
    json!({
        "/healthz": {"get": {"summary": "Health: every role of the topology has a live agent", "responses": {
            "200": {"description": "ok: {\"status\":\"ok\"}",
                "content": {"application/json": {"schema": {"type": "object"}}}},
            "503": {"description": "degraded: {\"status\":\"degraded\",\"missing\":[roles]}",
                "content": {"application/json": {"schema": {"type": "object"}}}}}}},
        "/tasks": {"post": {
            "summary": "Submit a task",
            "requestBody": json_body(&new_task),
            "responses": {
                "202": {"description": "accepted", "content": {"application/json": {"schema": accepted}}},
                "200": {"description": "the task id was sent before with the same request: that task's state", "content": {"application/json": {"schema": status}}},
                "400": error_response("empty or too long query, invalid task id, malformed JSON"),
                "409": error_response("the task id is taken by another request (task_id_taken)"),
                "413": error_response("body too large"),
                "415": error_response("not JSON"),
                "422": error_response("JSON of the wrong shape, or an unusable context field (invalid_context)"),
                "503": error_response("the bus is unavailable")
            }
        }},
        "/tasks/{id}": {"get": {
            "summary": "A task's state and report",
            "parameters": [{"name": "id", "in": "path", "required": true, "schema": {"type": "string"}}],
            "responses": {
                "200": {"description": "pending; input_required while the task waits for the answer to its question (in `question`, answer with POST /tasks/{id}/answer), its deadline paused; done with the report", "content": {"application/json": {"schema": status}}},
                "404": error_response("unknown or expired task")
            }
        }, "delete": {
            "summary": "Cancel a task",
            "description": "Goes through the one way in for cancellations: the task's one report, status `canceled`, with what had finished by then, is published and answered here. No further step is dispatched; results still in flight are ignored.",
            "parameters": [
                {"name": "id", "in": "path", "required": true, "schema": {"type": "string"}},
                {"name": "reason", "in": "query", "required": false, "description": "why, shown in the report (at most 500 characters)", "schema": {"type": "string"}}
            ],
            "responses": {
                "200": {"description": "canceled: state done with the report (status canceled)", "content": {"application/json": {"schema": status}}},
                "404": error_response("unknown or expired task (unknown_task)"),
                "409": error_response("the task's report is out (finished), or it was canceled already (already_canceled)"),
                "422": error_response("reason over 500 characters (reason_too_long)"),
                "503": error_response("the bus is unavailable (bus_unavailable)")
            }
        }},
        "/tasks/{id}/answer": {"post": {
            "summary": "Answer the question a task asked",
            "description": "The task must be in state input_required. The answer goes to the one way in for answers, which settles the task's open question once; the task then goes on (follow it with GET /tasks/{id} or the stream that showed the question).",
            "parameters": [{"name": "id", "in": "path", "required": true, "schema": {"type": "string"}}],
            "requestBody": json_body(&new_answer),
            "responses": {
                "202": {"description": "the answer settled the question", "content": {"application/json": {"schema": answer_accepted}}},
                "400": error_response("malformed JSON (malformed_json)"),
                "404": error_response("unknown or expired task (unknown_task)"),
                "409": error_response("the task is not waiting for this answer: its report is out (task_finished), it asked nothing (nothing_asked), the question was answered already (already_answered), or the question named was not asked (no_such_question)"),
                "413": error_response("body too large"),
                "415": error_response("not JSON"),
                "422": error_response("empty answer (empty_answer), answer over 1000 characters (answer_too_long), or JSON of the wrong shape (invalid_body)"),
                "503": error_response("the bus is unavailable (bus_unavailable)")
            }
        }},
        "/chat/stream": {"post": {
            "summary": "Submit a task and stream its progress",
            "requestBody": json_body(&new_task),
            "responses": {
                "200": {"description": stream_doc, "content": {"text/event-stream": {"schema": {"type": "string"}}}},
                "400": error_response("empty or too long query, invalid task id, malformed JSON"),
                "409": error_response("the task id is taken by another request (task_id_taken)"),
                "422": error_response("JSON of the wrong shape, or an unusable context field (invalid_context)")
            }
        }}
    })
}
