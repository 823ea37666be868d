//! Every request's body read in full before a route sees it: at most
//! [`MAX_BODY_BYTES`], within the body limit ([`crate::timeouts::Timeouts::body`]). A
//! body that stalls gets 408 with `Connection: close`, one too large 413, each a
//! JSON-RPC error without an id (the MCP specification's shape for a refused request).

use std::time::Duration;

use axum::extract::{Request, State};
use axum::http::{HeaderValue, header};
use axum::middleware::Next;
use axum::response::Response;

use crate::timeouts::{BodyError, read_body};

/// The largest body accepted: rmcp's own limit (4 MiB).
pub const MAX_BODY_BYTES: usize = 4 * 1024 * 1024;

/// The middleware: reads the body within `within`, then runs the routes.
pub(crate) async fn read_within(
    State(within): State<Duration>,
    request: Request,
    next: Next,
) -> Response {
    match read_body(request, MAX_BODY_BYTES, within).await {
        Ok(request) => next.run(request).await,
        Err(e) => {
            let mut response = super::jsonrpc::error_response(
                e.status(),
                super::jsonrpc::INVALID_REQUEST,
                &e.to_string(),
            );
            if matches!(e, BodyError::TooSlow(_)) {
                response
                    .headers_mut()
                    .insert(header::CONNECTION, HeaderValue::from_static("close"));
            }
            response
        }
    }
}
