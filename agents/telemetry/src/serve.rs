//! `GET /metrics` for a process: [`metrics()`] is the handler (the Chief mounts it on its
//! HTTP API), [`serve`] a listener of its own for a process without an HTTP API (every
//! other role, the MCP servers) on `telemetry.metrics_bind` / `--metrics-bind`.
//!
//! The listener serves `/metrics` and nothing else (any other path is 404), needs no
//! token and holds no task data: counters, gauges and histograms labelled by role,
//! topic, pool, tool and status only.

use std::future::Future;
use std::net::SocketAddr;

use axum::Router;
use axum::http::header::CONTENT_TYPE;
use axum::response::IntoResponse;
use axum::routing::get;

use crate::metrics;

/// Why the metrics listener could not start.
#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    /// The address could not be bound (taken, not local, malformed).
    #[error("metrics listener on {bind}: {source}")]
    Bind {
        /// The address asked for.
        bind: String,
        /// What the system said.
        #[source]
        source: std::io::Error,
    },
    /// The listener failed while serving.
    #[error("metrics listener on {addr}: {source}")]
    Serve {
        /// The bound address.
        addr: SocketAddr,
        /// What the system said.
        #[source]
        source: std::io::Error,
    },
}

/// `GET /metrics`: the process's metrics as OpenMetrics text.
pub async fn metrics() -> impl IntoResponse {
    ([(CONTENT_TYPE, metrics::CONTENT_TYPE)], metrics::render())
}

/// A router serving [`metrics()`] at `/metrics`.
pub fn router() -> Router {
    Router::new().route("/metrics", get(metrics))
}

/// Binds `bind` (e.g. `0.0.0.0:9464`; port 0 picks a free one) and serves `/metrics`
/// until `shutdown` resolves.
pub async fn serve(
    bind: &str,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> Result<(), ServeError> {
    let listener = tokio::net::TcpListener::bind(bind)
        .await
        .map_err(|source| ServeError::Bind {
            bind: bind.to_owned(),
            source,
        })?;
    serve_on(listener, shutdown).await
}

/// Serves `/metrics` on a bound `listener` until `shutdown` resolves; logs the address.
pub async fn serve_on(
    listener: tokio::net::TcpListener,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> Result<(), ServeError> {
    let addr = listener.local_addr().map_err(|source| ServeError::Bind {
        bind: "(bound listener)".to_owned(),
        source,
    })?;
    tracing::info!(%addr, "metrics listening at /metrics");
    axum::serve(listener, router())
        .with_graceful_shutdown(shutdown)
        .await
        .map_err(|source| ServeError::Serve { addr, source })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn the_listener_serves_openmetrics_text_at_metrics_only() {
        let probe = std::net::TcpListener::bind("127.0.0.1:0").expect("binds");
        let addr = probe.local_addr().expect("addr");
        drop(probe);
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let bind = addr.to_string();
        let server = tokio::spawn(async move {
            serve(&bind, async {
                let _ = stopped.await;
            })
            .await
        });
        crate::metrics::tasks::accepted(crate::metrics::tasks::Door::Publish);
        let (status, content_type, body) = get_http(addr, "/metrics").await;
        assert_eq!(status, 200);
        assert_eq!(content_type, metrics::CONTENT_TYPE);
        assert!(
            body.contains("chorus_tasks_accepted_total{door=\"publish\"}"),
            "{body}"
        );
        assert!(body.ends_with("# EOF\n"));
        assert_eq!(get_http(addr, "/tasks").await.0, 404);
        let _ = stop.send(());
        server.await.expect("joins").expect("serves");
    }

    /// A bare HTTP/1.0 GET: status, content type and body.
    async fn get_http(addr: SocketAddr, path: &str) -> (u16, String, String) {
        use tokio::io::{AsyncReadExt, AsyncWriteExt};
        let mut stream = loop {
            if let Ok(s) = tokio::net::TcpStream::connect(addr).await {
                break s;
            }
            tokio::time::sleep(std::time::Duration::from_millis(10)).await;
        };
        let request = format!("GET {path} HTTP/1.0\r\nHost: localhost\r\n\r\n");
        stream.write_all(request.as_bytes()).await.expect("writes");
        let mut raw = String::new();
        stream.read_to_string(&mut raw).await.expect("reads");
        let (head, body) = raw.split_once("\r\n\r\n").unwrap_or((&raw, ""));
        let status = head
            .split(' ')
            .nth(1)
            .and_then(|s| s.parse().ok())
            .unwrap_or(0);
        let content_type = head
            .lines()
            .find_map(|l| l.strip_prefix("content-type: "))
            .unwrap_or_default()
            .to_owned();
        (status, content_type, body.to_owned())
    }
}
