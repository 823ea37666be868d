//! Model calls in the metrics: each call of the client counted by role, kind and
//! outcome, with the tokens the model reported, against a local fake OpenAI server.

mod common;

use chorus_llm::LlmClient;
use chorus_llm::wire::ChatMessage;
use common::{FakeOpenAi, Reply};
use futures::StreamExt;

/// The value of the sample line starting with `series` (labels included).
fn value(series: &str) -> Option<f64> {
    let text = chorus_telemetry::metrics::render();
    text.lines()
        .find_map(|l| l.strip_prefix(series)?.strip_prefix(' ')?.parse().ok())
}

#[tokio::test]
async fn calls_are_counted_by_role_kind_and_outcome_with_the_reported_tokens() {
    let answer = r#"{"choices":[{"index":0,"message":{"role":"assistant","content":"6"},
        "finish_reason":"stop"}],"usage":{"prompt_tokens":41,"completion_tokens":3}}"#;
    let server = FakeOpenAi::start(Reply::Status(200, answer.into())).await;
    let client = LlmClient::new(&server.settings(5_000))
        .expect("client")
        .for_role("verifier");
    let text = client.complete(&[ChatMessage::user("2+4")], None).await;
    assert_eq!(text.as_deref(), Ok("6"));

    let failing = FakeOpenAi::start(Reply::Status(500, "{}".into())).await;
    let client = LlmClient::new(&failing.settings(5_000))
        .expect("client")
        .for_role("verifier");
    assert!(
        client
            .complete(&[ChatMessage::user("2+4")], None)
            .await
            .is_err()
    );

    let streamed = FakeOpenAi::start(Reply::Stream(vec!["2 + 4".into(), " = 6".into()])).await;
    let client = LlmClient::new(&streamed.settings(5_000))
        .expect("client")
        .for_role("synthesizer");
    let mut chunks = client
        .stream(&[ChatMessage::user("2+4")])
        .await
        .expect("stream");
    while let Some(chunk) = chunks.next().await {
        chunk.expect("chunk");
    }

    let calls = r#"chorus_model_calls_total{role="verifier",kind="complete",outcome="#;
    assert_eq!(value(&format!(r#"{calls}"ok"}}"#)), Some(1.0));
    assert_eq!(value(&format!(r#"{calls}"error"}}"#)), Some(1.0));
    let tokens = r#"chorus_model_tokens_total{role="verifier",kind="complete",direction="#;
    assert_eq!(value(&format!(r#"{tokens}"input"}}"#)), Some(41.0));
    assert_eq!(value(&format!(r#"{tokens}"output"}}"#)), Some(3.0));
    let stream = r#"chorus_model_calls_total{role="synthesizer",kind="stream",outcome="ok"}"#;
    assert_eq!(value(stream), Some(1.0));
    let took = r#"chorus_model_call_duration_seconds_count{role="synthesizer",kind="stream"}"#;
    assert_eq!(value(took), Some(1.0));
}
