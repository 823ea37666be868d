//! The OpenAPI path items of the OpenAI-compatible routes, for the gateway's OpenAPI
//! document to merge into its `paths` ([`openapi_paths`]). Schemas are inlined (no
//! `$ref` into the document's components), so the items stand on their own.

use schemars::JsonSchema;
use schemars::generate::SchemaSettings;
use serde_json::{Value, json};

use super::wire::{ChatCompletion, ChatCompletionChunk, ChatRequest, Model, ModelList};

/// The JSON Schema of `T`, every subschema inlined.
fn schema<T: JsonSchema>() -> Value {
    let generator = SchemaSettings::draft2020_12()
        .with(|s| s.inline_subschemas = true)
        .into_generator();
    let mut value = generator.into_root_schema_for::<T>().to_value();
    if let Some(object) = value.as_object_mut() {
        object.remove("$schema");
    }
    value
}

/// OpenAI's error body.
fn error(description: &str) -> Value {
    let shape = json!({
        "type": "object",
        "required": ["error"],
        "properties": {"error": {"type": "object", "required": ["message", "type", "param", "code"],
            "properties": {
                "message": {"type": "string"},
                "type": {"type": "string", "description": "invalid_request_error or server_error"},
                "param": {"type": ["string", "null"]},
                "code": {"type": ["string", "null"]}
            }}}
    });
    json!({"description": description, "content": {"application/json": {"schema": shape}}})
}

fn ok(description: &str, schema: Value) -> Value {
    json!({"description": description, "content": {"application/json": {"schema": schema}}})
}

/// The path items of `GET /v1/models`, `GET /v1/models/{model}` and
/// `POST /v1/chat/completions`, keyed by path.
pub(crate) fn openapi_paths() -> Value {
    let stream_doc = "With \"stream\": true, Server-Sent Events: `data: {chat.completion.chunk}` \
        (ChatCompletionChunk) — the role first, the content in pieces, an empty delta with \
        finish_reason \"stop\", a usage chunk with no choices when stream_options.include_usage, \
        then `data: [DONE]`; `data: {\"error\": …}` and no [DONE] when no report came in time.";
    let mut chunk = schema::<ChatCompletionChunk>();
    if let Some(object) = chunk.as_object_mut() {
        object.insert("description".into(), json!(stream_doc));
    }
    json!({
        "/v1/models": {"get": {
            "summary": "OpenAI-compatible: the one model, chorus",
            "tags": ["openai"],
            "responses": {"200": ok("{\"object\":\"list\",\"data\":[the chorus model]}", schema::<ModelList>())}
        }},
        "/v1/models/{model}": {"get": {
            "summary": "OpenAI-compatible: a model",
            "tags": ["openai"],
            "parameters": [{"name": "model", "in": "path", "required": true, "schema": {"type": "string"}}],
            "responses": {
                "200": ok("the model", schema::<Model>()),
                "404": error("not chorus (model_not_found)")
            }
        }},
        "/v1/chat/completions": {"post": {
            "summary": "OpenAI-compatible chat completion: the last user message is the request, the messages before it the conversation",
            "description": "The conversation's session is found from its messages (docs/openai.md): a follow-up uses the earlier answers, and when the previous assistant message was Chorus's question the last user message is its answer. The completion's content is the report's text (markdown) or the task's question with its numbered options; finish_reason is stop. Fields Chorus does not use (temperature, max_tokens, tools, …) are accepted and ignored. Usage counts words.",
            "tags": ["openai"],
            "requestBody": {"required": true, "content": {"application/json": {"schema": schema::<ChatRequest>()}}},
            "responses": {
                "200": {"description": "the completion (stream false), or its chunks as Server-Sent Events (stream true)",
                    "content": {
                        "application/json": {"schema": schema::<ChatCompletion>()},
                        "text/event-stream": {"schema": chunk}
                    }},
                "400": error("bad body, no user message (no_user_message), a role or content part Chorus cannot read (invalid_messages), an empty or too long request or answer"),
                "404": error("a model other than chorus (model_not_found)"),
                "413": error("body over 1 MiB (body_too_large)"),
                "503": error("the bus is unavailable (bus_unavailable); nothing was accepted"),
                "504": error("no report before the task's deadline (no_report); sent with x-should-retry: false")
            }
        }}
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_paths_have_their_operations_and_self_contained_schemas() {
        let paths = openapi_paths();
        let post = &paths["/v1/chat/completions"]["post"];
        assert_eq!(
            post["requestBody"]["content"]["application/json"]["schema"]["required"],
            json!(["model", "messages"])
        );
        let completion = &post["responses"]["200"]["content"]["application/json"]["schema"];
        assert!(
            completion["properties"]["choices"].is_object(),
            "{completion}"
        );
        for code in ["400", "404", "413", "503", "504"] {
            assert!(post["responses"][code].is_object(), "{code}");
        }
        assert!(paths["/v1/models"]["get"]["responses"]["200"].is_object());
        assert!(paths["/v1/models/{model}"]["get"]["responses"]["404"].is_object());
        assert!(!paths.to_string().contains("$ref"), "schemas are inlined");
    }
}
