//! Bearer tokens between pool agents and MCP servers over Streamable HTTP.
//!
//! A server started with `--token-env NAME` (or `CHORUS_MCP_TOKEN_ENV=NAME`) answers
//! 401 (`WWW-Authenticate: Bearer`) to any request on its MCP endpoint without
//! `Authorization: Bearer <the token in $NAME>`; `GET /healthz` stays open. A client
//! sends a token given to [`crate::McpClient::connect_http_with_token`], or one
//! registered for the server's URL with [`use_token_for`] (what a pool agent does with
//! its pool's `mcp_token_env`). A [`BearerToken`] never shows in `Debug` output, logs
//! or error messages.

use std::collections::HashMap;
use std::sync::{Arc, LazyLock, RwLock};

use axum::extract::{Request, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use subtle::ConstantTimeEq;

/// A bearer token; its `Debug` shows nothing of it.
#[derive(Clone)]
pub struct BearerToken(Arc<str>);

impl std::fmt::Debug for BearerToken {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("BearerToken(<redacted>)")
    }
}

/// Equal tokens (compared in constant time for tokens of one length).
impl PartialEq for BearerToken {
    fn eq(&self, other: &Self) -> bool {
        self.matches(&other.0)
    }
}

impl Eq for BearerToken {}

/// The variable naming a token is not set, or empty.
#[derive(Debug, thiserror::Error)]
#[error("the token variable {0} is not set (or empty)")]
pub struct MissingToken(pub String);

impl BearerToken {
    /// A token from its text (trimmed); `None` when empty.
    pub fn new(text: &str) -> Option<BearerToken> {
        let text = text.trim();
        (!text.is_empty()).then(|| BearerToken(text.into()))
    }

    /// The token in the environment variable `name`.
    pub fn from_env(name: &str) -> Result<BearerToken, MissingToken> {
        std::env::var(name)
            .ok()
            .and_then(|v| BearerToken::new(&v))
            .ok_or_else(|| MissingToken(name.to_owned()))
    }

    /// The token's text, to send it.
    pub fn expose(&self) -> &str {
        &self.0
    }

    /// True when `presented` is this token (constant time in the token's content).
    pub fn matches(&self, presented: &str) -> bool {
        bool::from(self.0.as_bytes().ct_eq(presented.as_bytes()))
    }
}

static BY_URL: LazyLock<RwLock<HashMap<String, BearerToken>>> = LazyLock::new(Default::default);

/// Registers `token` for the MCP server at `url`: every later session this process
/// opens to `url` without a token of its own sends it.
pub fn use_token_for(url: &str, token: BearerToken) {
    BY_URL
        .write()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
        .insert(url.to_owned(), token);
}

/// The token registered for `url`.
pub(crate) fn token_for(url: &str) -> Option<BearerToken> {
    BY_URL
        .read()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
        .get(url)
        .cloned()
}

/// The server's middleware: a request without the token gets 401.
pub(crate) async fn require(
    State(token): State<BearerToken>,
    request: Request,
    next: Next,
) -> Response {
    let presented = request
        .headers()
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().split_once(' '))
        .filter(|(scheme, _)| scheme.eq_ignore_ascii_case("bearer"))
        .map(|(_, t)| t.trim());
    if presented.is_some_and(|t| token.matches(t)) {
        return next.run(request).await;
    }
    let body = serde_json::json!({"error": {"code": "unauthorized",
        "message": "a valid bearer token is required (Authorization: Bearer <token>)"}});
    let mut response = (StatusCode::UNAUTHORIZED, axum::Json(body)).into_response();
    response
        .headers_mut()
        .insert(header::WWW_AUTHENTICATE, HeaderValue::from_static("Bearer"));
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn debug_hides_the_token_and_matching_is_exact() {
        let t = BearerToken::new("  hush-4711 ").unwrap();
        assert!(!format!("{t:?}").contains("hush"));
        assert!(t.matches("hush-4711"));
        assert!(!t.matches("hush-471"));
        assert!(!t.matches("hush-4712"));
        assert!(BearerToken::new("  ").is_none());
        assert!(BearerToken::from_env("CHORUS_TEST_SURELY_UNSET_TOKEN_VAR").is_err());
    }
}
