//! The HTTP doors continue their caller's trace: a request with a W3C `traceparent`
//! header gets a SERVER span `<method> <route>` whose parent is the caller's span, and
//! the task it submits is published inside it, so the whole task joins the caller's
//! trace. Without traces on, the request passes untouched.

use axum::extract::{MatchedPath, Request};
use axum::middleware::Next;
use axum::response::Response;
use chorus_telemetry::traces;
use tracing::Instrument as _;

/// The middleware: see the module's documentation.
pub(crate) async fn continue_trace(request: Request, next: Next) -> Response {
    if !traces::enabled() {
        return next.run(request).await;
    }
    let route = request
        .extensions()
        .get::<MatchedPath>()
        .map_or("unmatched", MatchedPath::as_str)
        .to_owned();
    let caller = request
        .headers()
        .get("traceparent")
        .and_then(|v| v.to_str().ok())
        .map(str::to_owned);
    let span = traces::spans::http_server(request.method().as_str(), &route, caller.as_deref());
    let response = next.run(request).instrument(span.clone()).await;
    let status = response.status();
    span.record("http.response.status_code", status.as_u16());
    if status.is_server_error() {
        traces::spans::failed(&span, status.as_str());
    }
    response
}
