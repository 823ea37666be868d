//! The Chief's HTTP doors (axum), each in its own folder with the same anatomy (routes,
//! wire types, errors, OpenAPI path items): the native API (`native`: `POST
//! /chat/stream` as Server-Sent Events, `POST /tasks` and `GET /tasks/{id}` for clients
//! that poll, `POST /tasks/{id}/answer`, `DELETE /tasks/{id}`, `GET /healthz`), the A2A
//! server (`a2a`), the OpenAI-compatible chat endpoint (`openai`) and the web view
//! (`ui`). Beneath them, one of each: the state they share and the one way in
//! (`api`: [`ApiState`] and its `submit`), the follower of a task whose typed progress
//! every door renders in its own wire format (`follow`), the task's phase read from the
//! store (`phase`), the progress watcher (`hub`). [`app`] builds the router, so tests
//! can serve it on any listener; `openapi` puts the document together from each door's
//! path items. With `[http]` tokens set, every route but `/healthz` and the A2A agent
//! card needs `Authorization: Bearer <token>` (`auth`), and `[http] rate_per_sec`
//! limits each token's requests (`limit`). Browsers are kept out: the `Host` must be
//! loopback or `[http] allowed_hosts`, an `Origin` the host itself (`hosts`), a body
//! JSON (`json_only`); slow clients are cut off at the header, body and idle limits
//! (`serve`).

mod a2a;
mod api;
mod auth;
mod follow;
mod hosts;
pub mod hub;
mod json_only;
mod limit;
mod native;
mod openai;
mod openapi;
mod phase;
mod probe;
mod serve;
mod traceparent;
mod ui;

use axum::Router;
use axum::extract::DefaultBodyLimit;
use axum::routing::get;

pub use api::ApiState;
pub use auth::{Auth, AuthError};
pub use hosts::AllowedHosts;
pub use hub::Hub;
pub use limit::Limiter;
pub use native::{Accepted, AnswerAccepted, ApiError, CancelQuery, NewAnswer, NewTask};
pub use openapi::openapi;
pub use probe::probe;
pub use serve::{MAX_BODY_BYTES, serve, serve_on};

/// Builds the API's router.
pub fn app(state: ApiState) -> Router {
    let (auth, limiter) = (state.auth.clone(), state.limiter.clone());
    let (hosts, body_within) = (state.hosts.clone(), state.timeouts.body);
    native::routes()
        .merge(a2a::routes())
        .merge(openai::routes())
        .merge(ui::routes())
        .route_layer(axum::middleware::from_fn(json_only::require))
        .fallback(native::not_found)
        .layer(DefaultBodyLimit::max(MAX_BODY_BYTES))
        .layer(axum::middleware::from_fn_with_state(
            body_within,
            serve::read_body,
        ))
        .layer(axum::middleware::from_fn_with_state(limiter, limit::limit))
        .layer(axum::middleware::from_fn_with_state(auth, auth::require))
        .layer(axum::middleware::from_fn(traceparent::continue_trace))
        .layer(axum::middleware::from_fn_with_state(hosts, hosts::check))
        // Added after the host, token and rate-limit layers, so open like /healthz: it
        // holds no task data (docs/security.md).
        .route("/metrics", get(chorus_telemetry::serve::metrics))
        .with_state(state)
}
