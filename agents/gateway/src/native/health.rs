//! `GET /healthz`: `{"status":"ok"}` (200) when every role of the topology has a live
//! agent in the registry; otherwise `{"status":"degraded","missing":[…]}` with 503, so
//! compose healthchecks and load balancers see a system that cannot answer.

use axum::Json;
use axum::extract::State;
use axum::http::StatusCode;
use chorus_core::registry::{Registry, missing_roles};
use serde_json::{Value, json};

use crate::api::ApiState;

/// The health of the system behind this Chief.
pub async fn health(State(api): State<ApiState>) -> (StatusCode, Json<Value>) {
    match Registry::new(api.state.clone()).live().await {
        Ok(live) => {
            let missing: Vec<String> = missing_roles(&live, &api.topology)
                .iter()
                .map(|r| r.group())
                .collect();
            if missing.is_empty() {
                (StatusCode::OK, Json(json!({"status": "ok"})))
            } else {
                let body = json!({"status": "degraded", "missing": missing});
                (StatusCode::SERVICE_UNAVAILABLE, Json(body))
            }
        }
        Err(e) => (
            StatusCode::SERVICE_UNAVAILABLE,
            Json(json!({"status": "degraded", "error": e.to_string()})),
        ),
    }
}
