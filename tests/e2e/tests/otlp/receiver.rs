//! An OTLP/HTTP trace receiver for tests: an axum server on a free port accepting
//! `POST /v1/traces`, decoding each `ExportTraceServiceRequest` with the official
//! OpenTelemetry protobuf definitions (`opentelemetry-proto`) into flat [`Got`] spans.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::body::Bytes;
use axum::extract::State;
use axum::routing::post;
use opentelemetry_proto::tonic::collector::trace::v1::ExportTraceServiceRequest;
use opentelemetry_proto::tonic::common::v1::{AnyValue, KeyValue, any_value};
use prost::Message as _;

/// One received span, flattened.
#[derive(Debug, Clone)]
pub struct Got {
    pub service: String,
    pub trace: String,
    pub id: String,
    pub parent: String,
    pub name: String,
    pub kind: i32,
    /// The status code (0 unset, 1 ok, 2 error).
    pub status: i32,
    pub attrs: BTreeMap<String, String>,
    pub links: Vec<(String, String)>,
}

/// What the receiver has been sent: every span, and how many export requests came.
#[derive(Default)]
pub struct Received {
    pub spans: Vec<Got>,
    pub requests: usize,
}

fn text(value: &Option<AnyValue>) -> String {
    match value.as_ref().and_then(|v| v.value.as_ref()) {
        Some(any_value::Value::StringValue(s)) => s.clone(),
        Some(any_value::Value::IntValue(i)) => i.to_string(),
        Some(any_value::Value::BoolValue(b)) => b.to_string(),
        Some(any_value::Value::DoubleValue(d)) => d.to_string(),
        other => format!("{other:?}"),
    }
}

fn attrs(kvs: &[KeyValue]) -> BTreeMap<String, String> {
    kvs.iter()
        .map(|kv| (kv.key.clone(), text(&kv.value)))
        .collect()
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// POST /v1/traces: decodes an `ExportTraceServiceRequest` (OTLP/HTTP protobuf).
async fn export(State(got): State<Arc<Mutex<Received>>>, body: Bytes) -> Vec<u8> {
    let request = ExportTraceServiceRequest::decode(body).expect("an OTLP protobuf body");
    let mut got = got.lock().expect("receiver lock");
    got.requests += 1;
    for resource_spans in request.resource_spans {
        let resource = resource_spans.resource.map(|r| attrs(&r.attributes));
        let service = resource
            .and_then(|r| r.get("service.name").cloned())
            .unwrap_or_default();
        for scope in resource_spans.scope_spans {
            for span in scope.spans {
                got.spans.push(Got {
                    service: service.clone(),
                    trace: hex(&span.trace_id),
                    id: hex(&span.span_id),
                    parent: hex(&span.parent_span_id),
                    name: span.name.clone(),
                    kind: span.kind,
                    status: span.status.as_ref().map_or(0, |s| s.code),
                    attrs: attrs(&span.attributes),
                    links: span
                        .links
                        .iter()
                        .map(|l| (hex(&l.trace_id), hex(&l.span_id)))
                        .collect(),
                });
            }
        }
    }
    Vec::new() // an empty ExportTraceServiceResponse
}

/// Starts the receiver on a free port; returns its base URL and what it receives.
pub async fn receiver() -> (String, Arc<Mutex<Received>>) {
    let got = Arc::new(Mutex::new(Received::default()));
    let app = axum::Router::new()
        .route("/v1/traces", post(export))
        .with_state(got.clone());
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind the receiver");
    let addr = listener.local_addr().expect("receiver address");
    tokio::spawn(async move { axum::serve(listener, app).await });
    (format!("http://{addr}"), got)
}

/// The spans of `trace` received so far, once `done` says they are all in (spans come
/// in batches every 500 ms), or after 30 s.
pub async fn spans_of(
    got: &Mutex<Received>,
    trace: &str,
    done: impl Fn(&[Got]) -> bool,
) -> Vec<Got> {
    let start = Instant::now();
    loop {
        let spans: Vec<Got> = got
            .lock()
            .expect("receiver lock")
            .spans
            .iter()
            .filter(|s| s.trace == trace)
            .cloned()
            .collect();
        if done(&spans) || start.elapsed() > Duration::from_secs(30) {
            return spans;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}
