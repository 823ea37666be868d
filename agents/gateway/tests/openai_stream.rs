//! The OpenAI-compatible endpoint in process (the harness: `support`): streamed
//! completions (role, content, stop, usage, `[DONE]`), a question and its answer
//! streamed, and errors in OpenAI's shape with their status.

mod support;

use serde_json::{Value, json};
use support::System;
use support::openai::{chat, content};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_streamed_completion_sends_the_role_the_content_stop_usage_and_done() {
    let system = System::start().await;
    let query = "compute (2+4)*3 and tell me the weekday of 2026-12-25";
    let mut body = chat(&[("user", query)], true);
    body["stream_options"] = json!({"include_usage": true});
    let data = system.completion_stream(body).await;
    assert_eq!(data.last().map(String::as_str), Some("[DONE]"), "{data:?}");
    let chunks: Vec<Value> = data[..data.len() - 1]
        .iter()
        .map(|d| serde_json::from_str(d).expect("a chunk"))
        .collect();
    let id = chunks[0]["id"].as_str().expect("id");
    assert!(id.starts_with("chatcmpl-"));
    assert!(
        chunks
            .iter()
            .all(|c| c["id"] == id && c["object"] == "chat.completion.chunk")
    );
    assert_eq!(chunks[0]["choices"][0]["delta"]["role"], "assistant");
    let text: String = chunks
        .iter()
        .filter_map(|c| c["choices"][0]["delta"]["content"].as_str())
        .collect();
    assert!(text.contains("18") && text.contains("Friday"), "{text}");
    let n = chunks.len();
    assert!(
        n >= 5,
        "role, several content pieces, stop, usage: {chunks:?}"
    );
    assert_eq!(chunks[n - 2]["choices"][0]["finish_reason"], "stop");
    assert_eq!(chunks[n - 2]["chorus"]["status"], "completed");
    assert!(
        chunks[..n - 2]
            .iter()
            .all(|c| c["choices"][0]["finish_reason"].is_null())
    );
    assert_eq!(chunks[n - 1]["choices"], json!([]));
    let words = text.split_whitespace().count() as u64;
    assert_eq!(chunks[n - 1]["usage"]["completion_tokens"], words);
    assert_eq!(chunks[n - 1]["usage"]["prompt_tokens"], 9);

    // The streamed reply is the history of the next request like any other.
    let next = system
        .complete(&[
            ("user", query),
            ("assistant", &text),
            ("user", "now add 2 to that"),
        ])
        .await;
    assert!(content(&next).contains("= 20"), "{next}");
}

/// The text of a stream's chunks and the chunk that ends the choice.
fn streamed(data: &[String]) -> (String, Value) {
    assert_eq!(data.last().map(String::as_str), Some("[DONE]"), "{data:?}");
    let chunks: Vec<Value> = data[..data.len() - 1]
        .iter()
        .map(|d| serde_json::from_str(d).expect("a chunk"))
        .collect();
    let text = chunks
        .iter()
        .filter_map(|c| c["choices"][0]["delta"]["content"].as_str())
        .collect();
    let last = chunks.last().cloned().unwrap_or_default();
    assert_eq!(last["choices"][0]["finish_reason"], "stop", "{last}");
    (text, last)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_streamed_question_is_the_content_and_the_streamed_answer_gets_the_report() {
    let system = System::start().await;
    let asked = system
        .completion_stream(chat(&[("user", "divide 10 by")], true))
        .await;
    let (question, last) = streamed(&asked);
    assert!(question.contains("which number"), "{question}");
    assert_eq!(last["chorus"]["status"], "input_required", "{last}");
    assert!(
        last.get("usage").is_none_or(Value::is_null),
        "no usage asked: {last}"
    );
    let task = last["chorus"]["task_id"].as_str().expect("task").to_owned();
    assert_eq!(last["id"], format!("chatcmpl-{task}"));

    let conversation = [
        ("user", "divide 10 by"),
        ("assistant", question.as_str()),
        ("user", "2"),
    ];
    let answered = system.completion_stream(chat(&conversation, true)).await;
    let (text, last) = streamed(&answered);
    assert_eq!(text, "10 ÷ 2 = 5\n");
    assert_eq!(last["chorus"]["status"], "completed", "{last}");
    assert_eq!(last["chorus"]["task_id"], task.as_str());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn errors_come_in_openais_shape_with_their_status() {
    let system = System::start().await;
    let shape = |v: &Value| {
        let e = &v["error"];
        assert!(e["message"].is_string() && e["type"].is_string(), "{v}");
        assert!(e.get("param").is_some() && e.get("code").is_some(), "{v}");
        (
            e["type"].as_str().unwrap_or("").to_owned(),
            e["code"].as_str().unwrap_or("").to_owned(),
        )
    };
    let cases = [
        (chat(&[("system", "hello")], false), 400, "no_user_message"),
        (
            json!({"model": "chorus", "messages": []}),
            400,
            "no_user_message",
        ),
        (
            json!({"model": "gpt-4o", "messages": [{"role": "user", "content": "2+4"}]}),
            404,
            "model_not_found",
        ),
        (json!({"model": "chorus"}), 400, "invalid_body"),
        (chat(&[("user", "   ")], false), 400, "empty_query"),
        (
            chat(&[("user", &"1+".repeat(600))], false),
            400,
            "query_too_long",
        ),
        (chat(&[("wizard", "2+4")], false), 400, "invalid_messages"),
    ];
    for (body, status, code) in cases {
        let (got, error) = system.call("POST", "/v1/chat/completions", body).await;
        assert_eq!(got, status, "{error}");
        let expected = ("invalid_request_error".to_owned(), code.to_owned());
        assert_eq!(shape(&error), expected);
    }
    let (status, text) = system.post_completion("{not json".into()).await;
    assert_eq!(status, 400, "{text}");
    let huge = chat(&[("user", &"x".repeat(1_100_000))], false);
    let (status, text) = system.post_completion(huge.to_string()).await;
    assert_eq!(status, 413, "{text}");
    assert!(text.contains("body_too_large"), "{text}");
    // A long history (over the 64 KiB of the other routes) is fine.
    let long = "a long message ".repeat(8_000);
    let ok = system
        .complete(&[("user", &long), ("assistant", "no"), ("user", "2+4")])
        .await;
    assert_eq!(content(&ok), "2 + 4 = 6\n");
    let (status, error) = system.call("GET", "/v1/embeddings", Value::Null).await;
    assert_eq!(
        (status, error["error"]["type"].as_str()),
        (404, Some("invalid_request_error"))
    );
}
