//! The Synthesizer with a model, on the in-memory bus against the end-to-end tests' fake
//! model server: one streaming call per report, its pieces on the task's token stream as
//! they come, and the published report's text exactly what that stream shows.

#[allow(dead_code)]
#[path = "../../../tests/e2e/tests/llm/fake_model.rs"]
mod fake_model;

use std::sync::Arc;
use std::time::Duration;

use chorus_bus::*;
use chorus_core::llm::Limits;
use chorus_core::roles::Ctx;
use chorus_core::roles::synthesizer::Synthesizer;
use chorus_core::runtime::{HandleError, Handler};
use chorus_core::state::TaskState;
use chorus_llm::{LlmSettings, LlmSynthesizer, Prompts};
use fake_model::{FakeModel, Reply, Script};
use serde_json::json;

const TASK: &str = "synth-1";

fn plan() -> Message {
    let plan: Plan = serde_json::from_value(json!({"steps": [
        {"id": "s1", "pool": "math", "tool": "sum", "arguments": {"a": "2", "b": "4"},
         "part": "2+4", "output": true}
    ]}))
    .expect("plan");
    Message::new(
        TASK,
        Topic::plan_ready(),
        "planner",
        Payload::PlanReady(PlanReady {
            query: "2+4".into(),
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
    )
}

fn result() -> Message {
    let args = json!({"a": "2", "b": "4"})
        .as_object()
        .cloned()
        .unwrap_or_default();
    Message::new(
        TASK,
        Topic::pool_result("math"),
        "math-1",
        Payload::StepResult(StepResult {
            step_id: "s1".into(),
            pool: "math".into(),
            tool: "sum".into(),
            arguments: args,
            outcome: StepOutcome::Ok {
                value: json!("6"),
                text: "6".into(),
            },
            agent: "math-1".into(),
            elapsed_us: 10,
            iteration: 1,
        }),
    )
}

fn delivery(message: Message) -> Delivery {
    Delivery {
        topic: message.topic.clone(),
        entry_id: "1-0".into(),
        partition: 0,
        deliveries: 1,
        message,
        bare: false,
    }
}

/// A Synthesizer replica on `bus` writing with `model`.
fn synthesizer(bus: &MemoryBus, model: &FakeModel) -> Synthesizer {
    let state = TaskState::new(Arc::new(bus.store()), Duration::from_secs(60));
    let ctx = Ctx::new(Arc::new(bus.clone()), state, "synthesizer");
    let settings = LlmSettings {
        timeout_ms: 5_000,
        api_key_env: "CHORUS_TEST_NO_SUCH_KEY_VAR".into(),
        ..LlmSettings::new(&model.base_url, "fake-model")
    };
    let writer = LlmSynthesizer::new(&settings, Prompts::builtin()).expect("writer");
    let limits = Limits {
        deadline: Duration::from_secs(10),
        claim_idle: Duration::from_secs(30),
    };
    Synthesizer::new(ctx, vec!["math".into()]).with_llm(Some(writer), limits)
}

/// The task's one published report.
async fn report(bus: &MemoryBus) -> FinalReport {
    let reports = bus
        .recent(&Topic::final_report(), 10)
        .await
        .expect("recent");
    assert_eq!(reports.len(), 1, "{reports:?}");
    match &reports[0].payload {
        Payload::FinalReport(r) => r.clone(),
        other => panic!("not a report: {other:?}"),
    }
}

/// The token stream read as a client would: the pieces shown (replaced at the end when
/// it says so), and its last entry.
async fn shown(bus: &MemoryBus) -> (Vec<String>, String, TokensDone) {
    let mut reader = bus.read_tokens(&TaskId::from(TASK)).await.expect("reader");
    let mut pieces = Vec::new();
    loop {
        let batch = reader.next(Duration::from_secs(2)).await.expect("read");
        assert!(!batch.is_empty(), "the stream ended without its done entry");
        for entry in batch {
            match entry {
                ReportToken::Text(t) => pieces.push(t),
                ReportToken::Done(done) => {
                    let text = if done.replace {
                        done.text.clone()
                    } else {
                        pieces.concat()
                    };
                    return (pieces, text, done);
                }
            }
        }
    }
}

/// A fake model that plans nothing (500) and writes `answer`, and an empty memory bus.
async fn model_answering(answer: &str) -> (FakeModel, MemoryBus) {
    let model = FakeModel::start(Script {
        plan: Reply::Status(500),
        report: Reply::Text(answer.into()),
    })
    .await;
    (model, MemoryBus::default())
}

/// `synth` handles the plan, then its one result.
async fn plan_and_result(synth: &Synthesizer) {
    synth.handle(&delivery(plan())).await.expect("plan");
    synth.handle(&delivery(result())).await.expect("result");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_report_is_written_once_streaming_and_says_what_its_tokens_showed() {
    let answer = "Adding 2 and 4 gives 6.";
    let (model, bus) = model_answering(answer).await;
    let synth = synthesizer(&bus, &model);
    plan_and_result(&synth).await;

    let report = report(&bus).await;
    let (pieces, text, done) = shown(&bus).await;
    assert!(pieces.len() >= 2, "the answer came in pieces: {pieces:?}");
    assert_eq!(text, answer);
    assert_eq!(report.text, text);
    assert_eq!(report.written_by, "llm");
    assert_eq!((done.written_by.as_str(), done.replace), ("llm", false));
    assert_eq!(done.text, report.text);
    assert_eq!(model.asked(), vec![("report", true)], "one streaming call");

    // The same result again: the report is out, no second call, no second stream.
    synth.handle(&delivery(result())).await.expect("again");
    assert_eq!(model.asked().len(), 1);
    let mut reader = bus.read_tokens(&TaskId::from(TASK)).await.expect("reader");
    let entries = reader.next(Duration::ZERO).await.expect("read");
    assert_eq!(entries.len(), pieces.len() + 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_answer_refused_midway_ends_with_replace_and_the_report_is_the_template() {
    let (model, bus) = model_answering("Adding 2 and 4 gives 6, or maybe 99.").await;
    let synth = synthesizer(&bus, &model);
    plan_and_result(&synth).await;

    let report = report(&bus).await;
    let (pieces, text, done) = shown(&bus).await;
    let before = pieces.concat();
    assert!(before.contains('6') && !before.contains("99"), "{before:?}");
    assert!(done.replace);
    assert_eq!(done.reason.as_deref(), Some("ungrounded"));
    assert_eq!(done.written_by, "template");
    assert_eq!(report.written_by, "template");
    assert_eq!(report.text, text);
    assert!(report.text.contains('6') && !report.text.contains("99"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_replicas_finishing_at_once_make_one_call_and_one_stream() {
    let answer = "Adding 2 and 4 gives 6.";
    let (model, bus) = model_answering(answer).await;
    let (a, b) = (synthesizer(&bus, &model), synthesizer(&bus, &model));
    a.handle(&delivery(plan())).await.expect("plan");
    let (da, db) = (delivery(result()), delivery(result()));
    let (ra, rb) = tokio::join!(a.handle(&da), b.handle(&db));
    // One writes; the other leaves its message pending for later.
    let outcomes = [&ra, &rb];
    assert_eq!(
        outcomes.iter().filter(|r| r.is_ok()).count(),
        1,
        "{ra:?} {rb:?}"
    );
    assert!(
        outcomes
            .iter()
            .any(|r| matches!(r, Err(HandleError::Transient(_))))
    );
    assert_eq!(model.asked(), vec![("report", true)]);
    let report = report(&bus).await;
    let (_, text, done) = shown(&bus).await;
    assert_eq!(report.text, text);
    assert_eq!(text, answer);
    assert!(!done.replace);
    // Delivered again, the waiting message finds the report out.
    b.handle(&delivery(result())).await.expect("redelivered");
    assert_eq!(model.asked().len(), 1);
}
