//! OpenTelemetry traces across processes: every role its own process, the math MCP
//! server over Streamable HTTP, a real Redis, and an OTLP/HTTP receiver in the test that
//! decodes what Chorus sends with the official OpenTelemetry protobuf definitions
//! (`opentelemetry-proto`). A task submitted with a `traceparent` is one trace, in the
//! caller's trace, across the Chief, Planner, Router, pool agent, MCP server and
//! Synthesizer, with producer/consumer parents and links as the messaging conventions
//! have them; a model call is a `chat` span with its token counts (the fake
//! OpenAI-compatible server of `llm.rs`); without an endpoint nothing is sent and no
//! envelope carries a context.

#[allow(dead_code)]
#[path = "llm/fake_model.rs"]
mod fake_model;
#[allow(dead_code)]
#[path = "otlp/receiver.rs"]
mod receiver;

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use chorus_bus::Topic;
use chorus_e2e::{Cluster, ClusterOptions};
use opentelemetry_proto::tonic::trace::v1::span::SpanKind;
use receiver::{Got, Received, receiver};
use serde_json::{Value, json};

/// The caller's trace and span: the task must join this trace.
const CALLER_TRACE: &str = "4bf92f3577b34da6a3ce929d0e0e4736";
const CALLER_SPAN: &str = "00f067aa0ba902b7";

/// Submits `query` with the caller's `traceparent` and waits for its report.
async fn run_task(cluster: &Cluster, task_id: &str, query: &str) -> Value {
    chorus_e2e::wait_for_port(cluster.http_port, Duration::from_secs(10));
    let url = format!("http://127.0.0.1:{}", cluster.http_port);
    let http = reqwest::Client::new();
    let accepted = http
        .post(format!("{url}/tasks"))
        .header("traceparent", format!("00-{CALLER_TRACE}-{CALLER_SPAN}-01"))
        .json(&json!({"query": query, "task_id": task_id}))
        .send()
        .await
        .expect("post");
    assert_eq!(accepted.status(), 202);
    let last = chorus_e2e::poll_task(&http, &url, task_id, |s| s["state"] == "done").await;
    assert_eq!(last["state"], "done", "{last}");
    assert_eq!(last["report"]["status"], "completed", "{last}");
    last
}

/// The spans of the caller's trace, once `done` says they are all in (see
/// [`receiver::spans_of`]).
async fn caller_spans(got: &Mutex<Received>, done: impl Fn(&[Got]) -> bool) -> Vec<Got> {
    receiver::spans_of(got, CALLER_TRACE, done).await
}

/// The services a task's trace must span.
const SERVICES: [&str; 6] = [
    "chorus-chief",
    "chorus-planner",
    "chorus-router",
    "chorus-pool-math",
    "chorus-mcp-math",
    "chorus-synthesizer",
];

/// The topics whose `process` spans a `(2+4)*3` trace must hold.
const PROCESSED: [&str; 5] = [
    "task_available",
    "plan_ready",
    "math_task",
    "math_result",
    "final_report",
];

/// Whether the task's spans are all in (each process sends its own batches, and a parent
/// ends, so is sent, after its children): every service and processed topic seen, both
/// MCP calls, and every `process`, `tools/call` and `chat` span's parent received.
fn complete(spans: &[Got]) -> bool {
    let ids: BTreeSet<&str> = spans.iter().map(|s| s.id.as_str()).collect();
    let services: BTreeSet<&str> = spans.iter().map(|s| s.service.as_str()).collect();
    let names: BTreeSet<&str> = spans.iter().map(|s| s.name.as_str()).collect();
    SERVICES.iter().all(|s| services.contains(s))
        && PROCESSED
            .iter()
            .all(|t| names.contains(format!("process {t}").as_str()))
        && spans
            .iter()
            .filter(|s| s.name.starts_with("tools/call "))
            .count()
            == 2
        && parents_in(spans, &ids)
}

/// Whether every `process`, `tools/call` and `chat` span's parent is among `ids`.
fn parents_in(spans: &[Got], ids: &BTreeSet<&str>) -> bool {
    spans
        .iter()
        .filter(|s| {
            ["process ", "tools/call ", "chat "]
                .iter()
                .any(|p| s.name.starts_with(p))
        })
        .all(|s| ids.contains(s.parent.as_str()))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_task_is_one_trace_from_the_callers_span_through_every_process() {
    let (endpoint, got) = receiver().await;
    let otlp = BTreeMap::from([("OTEL_EXPORTER_OTLP_ENDPOINT".to_owned(), endpoint)]);
    let cluster = Cluster::start(ClusterOptions {
        env: otlp.clone(),
        mcp_env: otlp,
        ..ClusterOptions::default()
    });
    let task_id = "traced-1";
    run_task(&cluster, task_id, "(2+4)*3").await;

    let spans = caller_spans(&got, complete).await;
    let by_id: HashMap<&str, &Got> = spans.iter().map(|s| (s.id.as_str(), s)).collect();
    let services: BTreeSet<&str> = spans.iter().map(|s| s.service.as_str()).collect();
    for service in SERVICES {
        assert!(
            services.contains(service),
            "no span from {service}: {services:?}"
        );
    }

    // The HTTP door's SERVER span continues the caller's span.
    let door = spans
        .iter()
        .find(|s| s.name == "POST /tasks")
        .expect("the Chief's POST /tasks span");
    assert_eq!(door.service, "chorus-chief");
    assert_eq!(door.kind, SpanKind::Server as i32);
    assert_eq!(door.parent, CALLER_SPAN);

    // Each `process X` is a CONSUMER whose parent is the PRODUCER `publish X`, linked.
    let processed: Vec<&Got> = spans
        .iter()
        .filter(|s| s.name.starts_with("process "))
        .collect();
    let topics: BTreeSet<&str> = processed
        .iter()
        .map(|s| s.name.trim_start_matches("process "))
        .collect();
    for topic in PROCESSED {
        assert!(
            topics.contains(topic),
            "no process span for {topic}: {topics:?}"
        );
    }
    for span in &processed {
        let topic = span.name.trim_start_matches("process ");
        assert_eq!(span.kind, SpanKind::Consumer as i32, "{span:?}");
        let parent = by_id
            .get(span.parent.as_str())
            .unwrap_or_else(|| panic!("the parent of {span:?} was not received"));
        assert_eq!(parent.name, format!("publish {topic}"), "{span:?}");
        assert_eq!(parent.kind, SpanKind::Producer as i32, "{parent:?}");
        assert!(
            span.links
                .contains(&(parent.trace.clone(), parent.id.clone())),
            "{span:?} does not link to its producer"
        );
        assert_eq!(
            span.attrs.get("chorus.task_id").map(String::as_str),
            Some(task_id)
        );
        assert_eq!(
            span.attrs
                .get("messaging.destination.name")
                .map(String::as_str),
            Some(topic)
        );
        assert_eq!(
            span.attrs
                .get("messaging.operation.type")
                .map(String::as_str),
            Some("process")
        );
        assert!(
            span.attrs.contains_key("messaging.consumer.group.name"),
            "{span:?}"
        );
        assert!(span.attrs.contains_key("messaging.message.id"), "{span:?}");
    }

    // The MCP server's SERVER span is a child of the pool agent's execute_tool span.
    let calls: Vec<&Got> = spans
        .iter()
        .filter(|s| s.name.starts_with("tools/call "))
        .collect();
    assert_eq!(calls.len(), 2, "one MCP call per step: {calls:?}");
    for call in calls {
        assert_eq!(call.service, "chorus-mcp-math");
        assert_eq!(call.kind, SpanKind::Server as i32);
        assert_eq!(
            call.attrs.get("mcp.method.name").map(String::as_str),
            Some("tools/call")
        );
        let tool = call
            .attrs
            .get("gen_ai.tool.name")
            .expect("gen_ai.tool.name");
        assert_eq!(call.name, format!("tools/call {tool}"));
        let parent = by_id
            .get(call.parent.as_str())
            .expect("execute_tool received");
        assert_eq!(parent.service, "chorus-pool-math");
        assert_eq!(parent.name, format!("execute_tool {tool}"));
        assert_eq!(
            parent
                .attrs
                .get("gen_ai.operation.name")
                .map(String::as_str),
            Some("execute_tool")
        );
        assert_eq!(parent.attrs.get("gen_ai.tool.name"), Some(tool));
        assert_eq!(
            parent.attrs.get("chorus.task_id").map(String::as_str),
            Some(task_id)
        );
        assert!(parent.attrs.contains_key("chorus.step_id"), "{parent:?}");
    }

    // The envelopes on the bus carry the task's trace.
    let bus = cluster.bus().await;
    let planned = chorus_e2e::of_task(&bus, &Topic::plan_ready(), task_id).await;
    let carried = planned
        .first()
        .and_then(|m| m.trace.as_ref())
        .map(|t| t.traceparent.clone())
        .expect("plan_ready carries a traceparent");
    assert!(
        carried.starts_with(&format!("00-{CALLER_TRACE}-")),
        "{carried}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn without_an_endpoint_nothing_is_sent_and_no_envelope_carries_a_context() {
    let (_endpoint, got) = receiver().await;
    let mut cluster = Cluster::start(ClusterOptions::default());
    let task_id = "untraced-1";
    run_task(&cluster, task_id, "(2+4)*3").await;

    let bus = cluster.bus().await;
    for topic in [
        Topic::task_available(),
        Topic::plan_ready(),
        Topic::pool_task("math"),
    ] {
        for m in chorus_e2e::of_task(&bus, &topic, task_id).await {
            assert_eq!(m.trace, None, "{topic}: {m:?}");
        }
    }
    // Every process stops (SIGTERM: a traced one would send its last spans now).
    let by = Instant::now() + Duration::from_secs(5);
    for proc in cluster.procs.values_mut() {
        proc.terminate_by(by);
    }
    let got = got.lock().expect("receiver lock");
    assert_eq!((got.requests, got.spans.len()), (0, 0));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_model_call_is_a_chat_span_with_its_token_counts() {
    use fake_model::{COMPLETION_TOKENS, FakeModel, PROMPT_TOKENS, Reply, Script};
    let model = FakeModel::start(Script {
        plan: Reply::Text(
            r#"{"steps":[{"id":"s1","pool":"math","tool":"sum","arguments":{"a":"2","b":"3"},"part":"the first two primes, 2 and 3, summed","output":true}]}"#.into(),
        ),
        report: Reply::Text("The first two primes are 2 and 3; their sum is 5.".into()),
    })
    .await;
    let (endpoint, got) = receiver().await;
    let mut env = model.env();
    env.insert("OTEL_EXPORTER_OTLP_ENDPOINT".into(), endpoint);
    let cluster = Cluster::start(ClusterOptions {
        env,
        ..ClusterOptions::default()
    });
    let task_id = "traced-model-1";
    run_task(&cluster, task_id, "what is the sum of the first two primes").await;

    let chats = |spans: &[Got]| -> Vec<Got> {
        spans
            .iter()
            .filter(|s| s.name.starts_with("chat "))
            .cloned()
            .collect()
    };
    let spans = caller_spans(&got, |spans| {
        let ids: BTreeSet<&str> = spans.iter().map(|s| s.id.as_str()).collect();
        let services: BTreeSet<String> = chats(spans).into_iter().map(|s| s.service).collect();
        services.contains("chorus-planner")
            && services.contains("chorus-synthesizer")
            && parents_in(spans, &ids)
    })
    .await;
    let by_id: HashMap<&str, &Got> = spans.iter().map(|s| (s.id.as_str(), s)).collect();
    let chats = chats(&spans);
    for service in ["chorus-planner", "chorus-synthesizer"] {
        let chat = chats
            .iter()
            .find(|s| s.service == service)
            .unwrap_or_else(|| panic!("no chat span from {service}: {chats:?}"));
        assert_eq!(chat.name, "chat fake-model");
        assert_eq!(chat.kind, SpanKind::Client as i32);
        let attr = |k: &str| chat.attrs.get(k).map(String::as_str);
        assert_eq!(attr("gen_ai.operation.name"), Some("chat"));
        assert_eq!(attr("gen_ai.provider.name"), Some("openai"));
        assert_eq!(attr("gen_ai.request.model"), Some("fake-model"));
        assert_eq!(attr("gen_ai.response.model"), Some("fake-model"));
        let input = PROMPT_TOKENS.to_string();
        let output = COMPLETION_TOKENS.to_string();
        assert_eq!(attr("gen_ai.usage.input_tokens"), Some(input.as_str()));
        assert_eq!(attr("gen_ai.usage.output_tokens"), Some(output.as_str()));
        // Inside the role's handling of the task, in the same process.
        let parent = by_id
            .get(chat.parent.as_str())
            .expect("the chat span's parent");
        assert_eq!(parent.service, service);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn spans_still_unsent_go_out_when_a_process_is_stopped() {
    let (endpoint, got) = receiver().await;
    // No timed send within the test: what arrives was sent at the stop.
    let otlp = BTreeMap::from([
        ("OTEL_EXPORTER_OTLP_ENDPOINT".to_owned(), endpoint),
        ("OTEL_BSP_SCHEDULE_DELAY".to_owned(), "600000".to_owned()),
    ]);
    let mut cluster = Cluster::start(ClusterOptions {
        env: otlp.clone(),
        mcp_env: otlp,
        ..ClusterOptions::default()
    });
    run_task(&cluster, "traced-stop-1", "(2+4)*3").await;
    assert_eq!(got.lock().expect("receiver lock").requests, 0);

    let by = Instant::now() + Duration::from_secs(10);
    for proc in cluster.procs.values_mut() {
        proc.terminate_by(by); // SIGTERM, as docker stop and Kubernetes do
    }
    let spans = caller_spans(&got, |_| true).await;
    let services: BTreeSet<&str> = spans.iter().map(|s| s.service.as_str()).collect();
    for service in SERVICES {
        assert!(
            services.contains(service),
            "nothing from {service}: {services:?}"
        );
    }
}
