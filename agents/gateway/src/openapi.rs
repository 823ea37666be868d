//! The OpenAPI 3.1 document of the HTTP API, put together from each door's own path
//! items (`native`, `a2a`, `openai`, `ui`; the native and web view's schemas come from
//! their wire types through schemars) and the answers every guarded door gives,
//! committed as docs/openapi.json and tested to match (`chorus openapi >
//! docs/openapi.json` regenerates it).

use schemars::generate::SchemaSettings;
use serde_json::{Value, json};

/// The OpenAPI document.
pub fn openapi() -> Value {
    let mut settings = SchemaSettings::draft2020_12();
    settings.definitions_path = "/components/schemas".into();
    let mut generator = settings.into_generator();
    let native_paths = crate::native::openapi_paths(&mut generator);
    let view_paths = crate::ui::openapi_paths(&mut generator);
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
    let mut document = json!({
        "openapi": "3.1.0",
        "info": {
            "title": "Chorus Chief API",
            "version": env!("CARGO_PKG_VERSION"),
            "description": "Submit requests to Chorus and follow them to their final report."
        },
        "paths": native_paths,
        "components": {"schemas": schemas}
    });
    // Each door documents its own routes, beside them; a path two doors name
    // (`/tasks`) gets the methods of each.
    let extras = [
        crate::a2a::openapi_paths(),
        crate::openai::openapi_paths(),
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
