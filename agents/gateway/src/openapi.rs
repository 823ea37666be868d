//! The OpenAPI 3.1 document of the HTTP API, built from the request and response types
//! (their JSON Schemas come from schemars) plus the A2A and OpenAI-compatible routes' own
//! path items and the web view's (`ui`), committed as docs/openapi.json and tested to
//! match (`chorus openapi > docs/openapi.json` regenerates it).

use chorus_bus::{ClarificationNeeded, FinalReport, PlanReady, StepResult};
use schemars::generate::SchemaSettings;
use serde_json::{Value, json};

use super::answers::{AnswerAccepted, NewAnswer};
use super::stream::QuestionEvent;
use super::tasks::TaskStatus;
use super::{Accepted, NewTask};

fn error_response(description: &str) -> Value {
    json!({"description": description, "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}})
}

fn json_body(schema: &Value) -> Value {
    json!({"required": true, "content": {"application/json": {"schema": schema}}})
}

/// The OpenAPI document.
pub fn openapi() -> Value {
    let mut settings = SchemaSettings::draft2020_12();
    settings.definitions_path = "/components/schemas".into();
    let mut generator = settings.into_generator();
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
    let view_paths = super::ui::openapi_paths(&mut generator);
    let mut schemas = generator.take_definitions(true);
    schemas.insert(
        "Error".into(),
        json!({
            "type": "object",
            "required": ["error"],
            "properties": {"error": {"type": "object", "required": ["code", "message"],
                "properties": {"code": {"type": "string"}, "message": {"type": "string"}}}}
        }),
    );
    let stream_doc = "Server-Sent Events, in order: `accepted` ({\"task_id\"}), `plan` (PlanReady), \
        one `step` per step result (StepResult), then `report` (FinalReport); or `error` when no \
        report comes within the task's deadline. When the task asks the user something, a \
        `question` event (QuestionEvent: the ClarificationNeeded and the task_id) comes before \
        the plan and the stream stays open, the task's deadline paused: once an answer arrives \
        through any door (POST /tasks/{id}/answer, a bare clarification_answer on the bus, the \
        CLI) the plan, steps and report follow, or another `question` when the answer did not \
        settle it. A question left unanswered for agents.answer_timeout_ms ends with the report, \
        status `unanswered`. The same task sent again while it waits gets its question at once.";
    let mut document = json!({
        "openapi": "3.1.0",
        "info": {
            "title": "Chorus Chief API",
            "version": env!("CARGO_PKG_VERSION"),
            "description": "Submit requests to Chorus and follow them to their final report."
        },
        "paths": {
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
        },
        "components": {"schemas": schemas}
    });
    // The protocol doors and the web view document their own routes, beside them; a
    // path both name (`/tasks`) gets the methods of each.
    let extras = [
        super::a2a::openapi_paths(),
        super::openai::openapi_paths(),
        view_paths,
    ];
    for extra in extras {
        if let (Some(paths), Value::Object(more)) = (document["paths"].as_object_mut(), extra) {
            for (path, item) in more {
                match (paths.get_mut(&path), item) {
                    (Some(Value::Object(known)), Value::Object(methods)) => known.extend(methods),
                    (_, item) => {
                        paths.insert(path, item);
                    }
                }
            }
        }
    }
    add_guard_responses(&mut document);
    document
}

/// Paths every client may reach by any name (probes, scrapers, the public agent card):
/// no Host or Origin check (docs/security.md, "Slow clients and browsers").
const OPEN_PATHS: &[&str] = &["/healthz", "/metrics", "/.well-known/agent-card.json"];

/// The answers every door gives before its handler runs, added to each operation that
/// does not document them already: 403 for a Host outside `http.allowed_hosts` or a
/// foreign Origin, and, where a body is read, 408 when it does not arrive within
/// `http.body_timeout_ms` and 415 when it is not JSON. Each in the door's own error
/// shape (native, A2A JSON-RPC, OpenAI), so described without a schema here.
fn add_guard_responses(document: &mut Value) {
    let Some(paths) = document["paths"].as_object_mut() else {
        return;
    };
    for (path, item) in paths.iter_mut() {
        if OPEN_PATHS.contains(&path.as_str()) {
            continue;
        }
        let Some(methods) = item.as_object_mut() else {
            continue;
        };
        for (method, operation) in methods.iter_mut() {
            let Some(responses) = operation
                .get_mut("responses")
                .and_then(Value::as_object_mut)
            else {
                continue;
            };
            let mut add = |code: &str, description: &str| {
                responses
                    .entry(code.to_owned())
                    .or_insert_with(|| json!({ "description": description }));
            };
            add(
                "403",
                "the Host is not loopback nor in http.allowed_hosts (host_not_allowed), or the \
                 request carries an Origin other than the host it was sent to (foreign_origin)",
            );
            if matches!(method.as_str(), "post" | "put" | "patch") {
                add(
                    "408",
                    "the body did not arrive within http.body_timeout_ms (body_timeout); the \
                     connection is closed",
                );
                add("415", "the body is not JSON (not_json)");
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::openapi;

    #[test]
    fn every_guarded_door_documents_the_guards_answers_and_open_paths_do_not() {
        let doc = openapi();
        let responses = |path: &str, method: &str| doc["paths"][path][method]["responses"].clone();
        assert!(responses("/tasks/{id}", "get").get("403").is_some());
        assert!(responses("/tasks/{id}", "get").get("408").is_none());
        for (path, method) in [
            ("/tasks", "post"),
            ("/a2a", "post"),
            ("/v1/chat/completions", "post"),
        ] {
            let r = responses(path, method);
            for code in ["403", "408", "415"] {
                assert!(r.get(code).is_some(), "{method} {path} lacks {code}: {r}");
            }
        }
        assert!(responses("/healthz", "get").get("403").is_none());
    }
}
