//! The OpenAPI path items of the web view's routes, beside the routes: the page and
//! its assets, and the JSON routes it reads.

use schemars::SchemaGenerator;
use serde_json::{Value, json};

use super::{AgentList, DeadLetterList, LiveMessage, TaskHops, TaskList};

fn ok_json(description: &str, schema: Value) -> Value {
    json!({"description": description, "content": {"application/json": {"schema": schema}}})
}

fn error(description: &str) -> Value {
    json!({"description": description, "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}})
}

fn limit(default: usize) -> Value {
    json!({"name": "limit", "in": "query", "required": false,
        "description": format!("how many entries to read (default {default}, at most {})", super::MAX_LIMIT),
        "schema": {"type": "integer", "minimum": 1}})
}

fn asset(summary: &str, kind: &str) -> Value {
    json!({"get": {"summary": summary, "security": [],
        "responses": {"200": {"description": "the asset (holds no data; served without a token)",
            "content": {kind: {"schema": {"type": "string"}}}}}}})
}

/// The path items, their schemas added to `generator`'s definitions.
pub(crate) fn openapi_paths(generator: &mut SchemaGenerator) -> Value {
    let tasks = generator.subschema_for::<TaskList>().to_value();
    let hops = generator.subschema_for::<TaskHops>().to_value();
    let agents = generator.subschema_for::<AgentList>().to_value();
    let dead = generator.subschema_for::<DeadLetterList>().to_value();
    let _ = generator.subschema_for::<LiveMessage>();
    let events_doc = "Server-Sent Events from now on: one `message` event (LiveMessage) per \
        message any task publishes on the topics `chorus trace` reads (requests, plans, steps \
        and their results, questions and answers, cancellations, verdicts, reports, dead \
        letters); `lagged` ({\"missed\": N}) when this client fell behind and missed some.";
    json!({
        "/ui": asset("The live web view (HTML)", "text/html"),
        "/ui/app.js": asset("The web view's script (a module)", "text/javascript"),
        "/ui/common.js": asset("The web view's shared helpers and API client (a module)", "text/javascript"),
        "/ui/graph.js": asset("The web view's plan graph (a module)", "text/javascript"),
        "/ui/app.css": asset("The web view's style sheet", "text/css"),
        "/tasks": {"get": {
            "summary": "Recent tasks, newest first",
            "description": "Read from the last `limit` entries of task_available and final_report; a task whose report is not among them is looked up in the task state.",
            "parameters": [limit(50)],
            "responses": {
                "200": ok_json("the tasks with state, report status and latency", tasks),
                "400": error("a limit that is not a number (invalid_query)"),
                "503": error("the bus is unavailable (bus_unavailable)")
            }
        }},
        "/tasks/{id}/hops": {"get": {
            "summary": "A task's messages in order, as `chorus trace` prints them",
            "parameters": [
                {"name": "id", "in": "path", "required": true, "schema": {"type": "string"}},
                {"name": "scan", "in": "query", "required": false,
                    "description": "how many recent entries of each topic to search (default 1000, at most 10000)",
                    "schema": {"type": "integer", "minimum": 1}}
            ],
            "responses": {
                "200": ok_json("the timeline, each message with its payload", hops),
                "400": error("a scan that is not a number (invalid_query)"),
                "404": error("no message of the task in the entries searched (not_found)"),
                "503": error("the bus is unavailable (bus_unavailable)")
            }
        }},
        "/agents": {"get": {
            "summary": "The live agents from the registry",
            "responses": {
                "200": ok_json("role, pool, tools and last heartbeat of every live agent", agents),
                "503": error("the bus is unavailable (bus_unavailable)")
            }
        }},
        "/dead-letters": {"get": {
            "summary": "Recent dead letters, newest first, with their reasons",
            "parameters": [limit(50)],
            "responses": {
                "200": ok_json("the last entries of dead_letter", dead),
                "400": error("a limit that is not a number (invalid_query)"),
                "503": error("the bus is unavailable (bus_unavailable)")
            }
        }},
        "/events": {"get": {
            "summary": "A live feed of every task's messages",
            "responses": {
                "200": {"description": events_doc, "content": {"text/event-stream": {"schema": {"type": "string"}}}},
                "503": error("the bus is unavailable (bus_unavailable)")
            }
        }}
    })
}
