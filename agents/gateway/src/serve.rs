//! Serving the doors with limits for slow clients (`[http] header_timeout_ms`,
//! `body_timeout_ms`, `idle_timeout_ms`; docs/security.md): the connection limits are
//! `chorus_mcp_common::timeouts`' (the MCP servers' too), and [`read_body`] reads every
//! request's body within the body limit before a door sees it — a body that stalls is
//! answered 408 (`body_timeout`) with `Connection: close` in the door's error shape.

use std::time::Duration;

use axum::extract::{Request, State};
use axum::http::{HeaderValue, header};
use axum::middleware::Next;
use axum::response::Response;
use chorus_core::settings::HttpSettings;
use chorus_mcp_common::timeouts::{self, BodyError, Timeouts};
use tokio::net::TcpListener;

use crate::api::ApiState;
use crate::auth::refusal;

/// Largest request body accepted, in bytes (the OpenAI-compatible chat endpoint takes
/// more: `openai::MAX_CHAT_BODY_BYTES`).
pub const MAX_BODY_BYTES: usize = 64 * 1024;

/// The largest body read before a door sees it: the largest any door takes (each door
/// then applies its own limit).
const MAX_READ_BYTES: usize = {
    let (a, b) = (MAX_BODY_BYTES, crate::openai::MAX_CHAT_BODY_BYTES);
    if a > b { a } else { b }
};

/// The limits `settings` give slow clients.
pub fn timeouts(settings: &HttpSettings) -> Timeouts {
    Timeouts::from_millis(
        settings.header_timeout_ms,
        settings.body_timeout_ms,
        settings.idle_timeout_ms,
    )
}

/// Serves the API on `bind` until `shutdown` resolves.
pub async fn serve(
    bind: &str,
    state: ApiState,
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let listener = TcpListener::bind(bind).await?;
    serve_on(listener, state, shutdown).await
}

/// Serves the API on `listener` until `shutdown` resolves, then lets open requests
/// finish.
pub async fn serve_on(
    listener: TcpListener,
    state: ApiState,
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let addr = listener.local_addr()?;
    let limits = state.timeouts;
    tracing::info!(%addr, auth = state.auth.is_on(), header_ms = limits.header.as_millis(),
        body_ms = limits.body.as_millis(), idle_ms = limits.idle.as_millis(), "HTTP API listening");
    if !state.auth.is_on() && !addr.ip().is_loopback() {
        tracing::warn!(
            %addr,
            "HTTP API on a non-loopback address without tokens: anyone who reaches it \
             may use it (set http.tokens_file or http.tokens_env)"
        );
    }
    timeouts::serve(listener, crate::app(state), limits, shutdown).await
}

/// The middleware: the request's body, read in full within `within`.
pub async fn read_body(State(within): State<Duration>, request: Request, next: Next) -> Response {
    let path = request.uri().path().to_owned();
    match timeouts::read_body(request, MAX_READ_BYTES, within).await {
        Ok(request) => next.run(request).await,
        Err(e) => {
            let code = match e {
                BodyError::TooSlow(_) => "body_timeout",
                BodyError::TooLarge(_) => "body_too_large",
                BodyError::Failed(_) => "unreadable_body",
            };
            let mut response = refusal(&path, e.status(), code, &e.to_string());
            if matches!(e, BodyError::TooSlow(_)) {
                response
                    .headers_mut()
                    .insert(header::CONNECTION, HeaderValue::from_static("close"));
            }
            response
        }
    }
}
