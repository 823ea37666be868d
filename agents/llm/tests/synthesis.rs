//! The LLM report writer against a local fake OpenAI server: a grounded report is used,
//! a report with a number the tools never produced is replaced by the template, whole
//! or streamed.

mod common;

use chorus_bus::{Language, ReportStatus, StepReport};
use chorus_heuristic::render_report;
use chorus_llm::{
    LlmError, LlmSynthesizer, Prompts, SynthEvent, SynthFallback, WRITTEN_BY_LLM,
    WRITTEN_BY_TEMPLATE, stream_or_template, write_or_template,
};
use common::{FakeOpenAi, Reply};
use futures::StreamExt;
use serde_json::json;

const QUERY: &str = "tính (2+4)*3";

/// `(2+4)*3`: an intermediate sum (6) and the product shown to the user (18).
fn steps() -> Vec<StepReport> {
    serde_json::from_value(json!([
        {"step_id":"s1","part":"2+4","pool":"math","tool":"sum","arguments":{"a":"2","b":"4"},
         "outcome":{"status":"ok","value":"6","text":"6"},"output":false},
        {"step_id":"s2","part":"(2+4)*3","pool":"math","tool":"multiply","arguments":{"a":"6","b":"3"},
         "outcome":{"status":"ok","value":"18","text":"18"},"output":true}
    ]))
    .expect("steps fixture")
}

fn template() -> String {
    render_report(QUERY, Language::Vi, &steps(), ReportStatus::Completed, None)
}

async fn synthesizer(reply: Reply) -> (FakeOpenAi, LlmSynthesizer) {
    let server = FakeOpenAi::start(reply).await;
    let synth = LlmSynthesizer::new(&server.settings(5_000), Prompts::builtin()).expect("synth");
    (server, synth)
}

async fn write(reply: Reply) -> (String, &'static str, Option<SynthFallback>) {
    let (_server, synth) = synthesizer(reply).await;
    let steps = steps();
    write_or_template(
        Some(&synth),
        QUERY,
        Language::Vi,
        &steps,
        ReportStatus::Completed,
        None,
    )
    .await
}

/// The tokens and the final event of a checked stream.
async fn collect(reply: Reply) -> (Vec<String>, SynthEvent) {
    collect_with_timeout(reply, 5_000).await
}

async fn collect_with_timeout(reply: Reply, timeout_ms: u64) -> (Vec<String>, SynthEvent) {
    let server = FakeOpenAi::start(reply).await;
    let synth =
        LlmSynthesizer::new(&server.settings(timeout_ms), Prompts::builtin()).expect("synth");
    let mut events = stream_or_template(
        Some(synth),
        QUERY.into(),
        Language::Vi,
        steps(),
        ReportStatus::Completed,
        None,
    );
    let mut tokens = Vec::new();
    while let Some(event) = events.next().await {
        match event {
            SynthEvent::Token(t) => tokens.push(t),
            done @ SynthEvent::Done { .. } => return (tokens, done),
        }
    }
    panic!("the stream ended without Done");
}

#[tokio::test]
async fn a_grounded_report_is_written_by_the_model_in_the_users_language() {
    let text = "Kết quả của (2+4)*3 là **18**.";
    let (server, synth) = synthesizer(Reply::Content(text.into())).await;
    let steps = steps();
    let written = write_or_template(
        Some(&synth),
        QUERY,
        Language::Vi,
        &steps,
        ReportStatus::Completed,
        None,
    )
    .await;
    assert_eq!(written, (format!("{text}\n"), WRITTEN_BY_LLM, None));
    let user = server.received()[0].body["messages"][1]["content"]
        .as_str()
        .expect("user message")
        .to_owned();
    assert!(user.contains("Vietnamese"), "language missing: {user}");
    assert!(user.contains("\"18\""), "results missing: {user}");
}

#[tokio::test]
async fn a_report_with_a_number_not_in_the_results_is_replaced_by_the_template() {
    let written = write(Reply::Content("Kết quả của (2+4)*3 là 19.".into())).await;
    assert_eq!(
        written,
        (
            template(),
            WRITTEN_BY_TEMPLATE,
            Some(SynthFallback::Ungrounded(
                "the number 19 is not in the results, the arguments or the query".into()
            ))
        )
    );
}

#[tokio::test]
async fn a_failed_model_call_gives_the_template_with_the_reason() {
    let written = write(Reply::Status(500, "out of memory".into())).await;
    assert_eq!(
        written,
        (
            template(),
            WRITTEN_BY_TEMPLATE,
            Some(SynthFallback::Call(LlmError::Status {
                status: 500,
                message: "out of memory".into()
            }))
        )
    );
}

#[tokio::test]
async fn without_a_model_the_template_writes_the_report() {
    let steps = steps();
    let written = write_or_template(
        None,
        QUERY,
        Language::Vi,
        &steps,
        ReportStatus::Completed,
        None,
    )
    .await;
    assert_eq!(written, (template(), WRITTEN_BY_TEMPLATE, None));
}

#[tokio::test]
async fn a_streamed_report_holds_each_number_back_until_it_is_whole_and_checked() {
    let chunks = ["Kết quả", " là 1", "8."].map(String::from).to_vec();
    let (tokens, done) = collect(Reply::Stream(chunks)).await;
    assert_eq!(tokens, vec!["Kết quả", " là ", "18."]);
    assert_eq!(
        done,
        SynthEvent::Done {
            text: "Kết quả là 18.".into(),
            written_by: WRITTEN_BY_LLM,
            fallback: None,
            replace: false
        }
    );
}

#[tokio::test]
async fn a_streamed_report_with_an_invented_number_ends_replaced_by_the_template() {
    let chunks = ["Kết quả", " là 1", "9."].map(String::from).to_vec();
    let (tokens, done) = collect(Reply::Stream(chunks)).await;
    assert_eq!(tokens, vec!["Kết quả", " là "], "19 must never be shown");
    assert_eq!(
        done,
        SynthEvent::Done {
            text: template(),
            written_by: WRITTEN_BY_TEMPLATE,
            fallback: Some(SynthFallback::Ungrounded(
                "the number 19 is not in the results, the arguments or the query".into()
            )),
            replace: true
        }
    );
}

#[tokio::test]
async fn a_stream_that_fails_before_any_token_gives_the_template_as_its_text() {
    let (tokens, done) = collect(Reply::Status(503, "loading model".into())).await;
    assert_eq!(tokens, vec![template()]);
    assert!(matches!(
        done,
        SynthEvent::Done {
            written_by: WRITTEN_BY_TEMPLATE,
            replace: false,
            fallback: Some(SynthFallback::Call(LlmError::Status { status: 503, .. })),
            ..
        }
    ));
}

#[tokio::test]
async fn a_stream_that_stalls_midway_ends_replaced_by_the_template_as_timeout() {
    let chunks = ["Kết quả", " là 18"].map(String::from).to_vec();
    let (tokens, done) = collect_with_timeout(Reply::StreamThenStall(chunks), 300).await;
    assert_eq!(tokens, vec!["Kết quả", " là "]);
    assert_eq!(
        done,
        SynthEvent::Done {
            text: template(),
            written_by: WRITTEN_BY_TEMPLATE,
            fallback: Some(SynthFallback::Call(LlmError::Timeout(300))),
            replace: true
        }
    );
}
