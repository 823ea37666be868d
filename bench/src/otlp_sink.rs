//! A stand-in OTLP/HTTP collector for `chorus-bench --traces`: accepts every export
//! (`POST /v1/traces`, …) with 200 and an empty protobuf answer, and counts requests and
//! bytes, so the benchmark measures what exporting traces costs Chorus's processes and
//! not what a collector costs. What arrives is not decoded (the tests do that).

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use axum::Router;
use axum::body::Bytes;
use axum::extract::State;
use axum::http::{StatusCode, header};
use axum::response::IntoResponse;

use crate::BenchError;

/// Requests and bytes received.
#[derive(Default)]
struct Counts {
    requests: AtomicU64,
    bytes: AtomicU64,
}

/// A running sink; dropped, it stops.
pub struct OtlpSink {
    /// Its endpoint (`http://127.0.0.1:PORT`), for `OTEL_EXPORTER_OTLP_ENDPOINT`.
    pub endpoint: String,
    counts: Arc<Counts>,
    server: tokio::task::JoinHandle<()>,
}

impl OtlpSink {
    /// Starts a sink on a free loopback port.
    pub async fn start() -> Result<OtlpSink, BenchError> {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .map_err(|e| BenchError::Spawn {
                what: "the OTLP sink".into(),
                reason: e.to_string(),
            })?;
        let addr = listener.local_addr().map_err(|e| BenchError::Spawn {
            what: "the OTLP sink".into(),
            reason: e.to_string(),
        })?;
        let counts = Arc::new(Counts::default());
        let app = Router::new().fallback(take).with_state(counts.clone());
        let server = tokio::spawn(async move {
            let _ = axum::serve(listener, app).await;
        });
        Ok(OtlpSink {
            endpoint: format!("http://{addr}"),
            counts,
            server,
        })
    }

    /// Requests and bytes received so far.
    pub fn received(&self) -> (u64, u64) {
        (
            self.counts.requests.load(Ordering::Relaxed),
            self.counts.bytes.load(Ordering::Relaxed),
        )
    }
}

impl Drop for OtlpSink {
    fn drop(&mut self) {
        self.server.abort();
    }
}

/// Counts one export and answers it as accepted.
async fn take(State(counts): State<Arc<Counts>>, body: Bytes) -> impl IntoResponse {
    counts.requests.fetch_add(1, Ordering::Relaxed);
    counts.bytes.fetch_add(body.len() as u64, Ordering::Relaxed);
    (
        StatusCode::OK,
        [(header::CONTENT_TYPE, "application/x-protobuf")],
        Bytes::new(),
    )
}
