//! Bearer tokens on the HTTP doors (`[http] tokens_file` / `tokens_env`): an axum
//! middleware in front of every route but `GET /healthz` and the A2A agent card
//! (public metadata, as A2A expects). A request without `Authorization: Bearer <token>`
//! naming a known token gets 401 with `WWW-Authenticate: Bearer` and a JSON error in
//! its door's own shape. Tokens are kept as SHA-256 digests and compared in constant
//! time; no token is ever logged, printed by `Debug` or put in an answer.

use std::sync::Arc;

use axum::extract::{Request, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use chorus_core::settings::HttpSettings;
use sha2::{Digest, Sha256};
use subtle::ConstantTimeEq;

/// Who the caller is, once its token was accepted: the token's place in the list
/// (never the token), or `Anonymous` with tokens off. The rate limit keys on it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Caller {
    /// Tokens are off: every client.
    Anonymous,
    /// The token at this index of the configured list.
    Token(usize),
}

/// A bearer token's SHA-256 digest; its `Debug` shows nothing of it.
#[derive(Clone)]
struct Digested([u8; 32]);

impl std::fmt::Debug for Digested {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Token(<redacted>)")
    }
}

fn digest(token: &[u8]) -> Digested {
    Digested(Sha256::digest(token).into())
}

/// The doors' token check: off, on with a list of tokens, or broken (the tokens
/// could not be read: every request is refused with 503 rather than let in).
#[derive(Debug, Clone, Default)]
pub struct Auth(Inner);

#[derive(Debug, Clone, Default)]
enum Inner {
    /// No token asked (neither `http.tokens_file` nor `http.tokens_env` set).
    #[default]
    Off,
    /// These tokens are accepted.
    Tokens(Arc<[Digested]>),
    /// Tokens were asked for but could not be read.
    Broken,
}

/// Why the tokens could not be read; names the file or variable, never a token.
#[derive(Debug, thiserror::Error)]
pub enum AuthError {
    /// The tokens file could not be read.
    #[error("cannot read http.tokens_file {path}: {reason}")]
    File {
        /// The file.
        path: String,
        /// Why.
        reason: String,
    },
    /// The variable `http.tokens_env` names is not set (or not Unicode).
    #[error("http.tokens_env names {name}, which is not set")]
    Env {
        /// The variable's name.
        name: String,
    },
    /// The file and variable hold no token.
    #[error("http.tokens_file / http.tokens_env hold no token")]
    Empty,
}

impl Auth {
    /// The tokens `settings` name (file lines, `#` comments and blank lines skipped;
    /// the variable's tokens separated by commas or white space), or `Off`.
    pub fn from_settings(settings: &HttpSettings) -> Result<Auth, AuthError> {
        if !settings.auth_on() {
            return Ok(Auth(Inner::Off));
        }
        let mut tokens = Vec::new();
        if let Some(path) = &settings.tokens_file {
            let text = std::fs::read_to_string(path).map_err(|e| AuthError::File {
                path: path.clone(),
                reason: e.kind().to_string(),
            })?;
            tokens.extend(
                text.lines()
                    .map(str::trim)
                    .filter(|l| !l.is_empty() && !l.starts_with('#'))
                    .map(|l| digest(l.as_bytes())),
            );
        }
        if let Some(name) = &settings.tokens_env {
            let value = std::env::var(name).map_err(|_| AuthError::Env { name: name.clone() })?;
            tokens.extend(
                value
                    .split(|c: char| c == ',' || c.is_whitespace())
                    .filter(|t| !t.is_empty())
                    .map(|t| digest(t.as_bytes())),
            );
        }
        if tokens.is_empty() {
            return Err(AuthError::Empty);
        }
        Ok(Auth(Inner::Tokens(tokens.into())))
    }

    /// `from_settings`, or `Broken` (logged) when the tokens cannot be read.
    pub fn or_broken(settings: &HttpSettings) -> Auth {
        Auth::from_settings(settings).unwrap_or_else(|e| {
            tracing::error!(error = %e, "HTTP tokens unreadable: every request is refused");
            Auth(Inner::Broken)
        })
    }

    /// True unless tokens are off.
    pub fn is_on(&self) -> bool {
        !matches!(self.0, Inner::Off)
    }

    /// Who sent `headers`, or `None` without a known token. Every known token is
    /// compared (in constant time, on digests), whichever matches.
    fn caller(&self, headers: &HeaderMap) -> Option<Caller> {
        let tokens = match &self.0 {
            Inner::Off => return Some(Caller::Anonymous),
            Inner::Broken => return None,
            Inner::Tokens(tokens) => tokens,
        };
        let presented = bearer(headers)?;
        let presented = digest(presented.as_bytes());
        let mut found = None;
        for (i, known) in tokens.iter().enumerate() {
            if bool::from(known.0.ct_eq(&presented.0)) && found.is_none() {
                found = Some(Caller::Token(i));
            }
        }
        found
    }
}

/// The token of an `Authorization: Bearer …` header.
fn bearer(headers: &HeaderMap) -> Option<&str> {
    let value = headers.get(header::AUTHORIZATION)?.to_str().ok()?;
    let (scheme, token) = value.trim().split_once(' ')?;
    scheme
        .eq_ignore_ascii_case("bearer")
        .then(|| token.trim())
        .filter(|t| !t.is_empty())
}

/// Routes open without a token: the health check, the A2A agent card, and the web
/// view's page and assets (they hold no data; the page asks for a token).
fn is_open(path: &str) -> bool {
    path == "/healthz" || path == crate::a2a::CARD_PATH || crate::ui::is_asset(path)
}

/// The middleware: open routes pass; others need a known token, and carry its
/// [`Caller`] on to the rate limit.
pub async fn require(State(auth): State<Auth>, mut request: Request, next: Next) -> Response {
    if is_open(request.uri().path()) {
        return next.run(request).await;
    }
    match auth.caller(request.headers()) {
        Some(caller) => {
            request.extensions_mut().insert(caller);
            next.run(request).await
        }
        None if matches!(auth.0, Inner::Broken) => refusal(
            request.uri().path(),
            StatusCode::SERVICE_UNAVAILABLE,
            "auth_unavailable",
            "the server's tokens could not be read; see its log",
        ),
        None => {
            let mut response = refusal(
                request.uri().path(),
                StatusCode::UNAUTHORIZED,
                "unauthorized",
                "a valid bearer token is required (Authorization: Bearer <token>)",
            );
            response
                .headers_mut()
                .insert(header::WWW_AUTHENTICATE, HeaderValue::from_static("Bearer"));
            response
        }
    }
}

/// An error in the shape of the door `path` belongs to: OpenAI's for `/v1/…`, a
/// JSON-RPC error (id null; -32600 for a body refused, -32001 otherwise) for `/a2a`,
/// the native `{"error":{"code","message"}}` otherwise.
pub(crate) fn refusal(path: &str, status: StatusCode, code: &str, message: &str) -> Response {
    let body = if path == "/v1" || path.starts_with("/v1/") {
        let kind = match status {
            StatusCode::TOO_MANY_REQUESTS => "rate_limit_exceeded",
            StatusCode::UNAUTHORIZED => "authentication_error",
            StatusCode::FORBIDDEN => "permission_error",
            s if s.is_client_error() => "invalid_request_error",
            _ => "server_error",
        };
        let code = if status == StatusCode::UNAUTHORIZED {
            "invalid_api_key"
        } else {
            code
        };
        serde_json::json!({"error": {"message": message, "type": kind, "param": null, "code": code}})
    } else if path == crate::a2a::RPC_PATH {
        // A body the server would not read is an invalid request (-32600); any other
        // refusal keeps the code clients already see for it.
        let rpc_code = match status {
            StatusCode::UNSUPPORTED_MEDIA_TYPE
            | StatusCode::BAD_REQUEST
            | StatusCode::PAYLOAD_TOO_LARGE
            | StatusCode::REQUEST_TIMEOUT => -32600,
            _ => -32001,
        };
        serde_json::json!({"jsonrpc": "2.0", "id": null, "error": {
            "code": rpc_code, "message": message, "data": {"code": code}}})
    } else {
        serde_json::json!({"error": {"code": code, "message": message}})
    };
    (status, axum::Json(body)).into_response()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(value: &str) -> HeaderMap {
        let mut h = HeaderMap::new();
        h.insert(header::AUTHORIZATION, HeaderValue::from_str(value).unwrap());
        h
    }

    #[test]
    fn a_known_token_is_its_place_in_the_list_and_debug_hides_it() {
        let auth = Auth(Inner::Tokens(
            vec![digest(b"one"), digest(b"two-secret")].into(),
        ));
        assert_eq!(
            auth.caller(&headers("Bearer two-secret")),
            Some(Caller::Token(1))
        );
        assert_eq!(
            auth.caller(&headers("bearer  one ")),
            Some(Caller::Token(0))
        );
        assert_eq!(auth.caller(&headers("Bearer three")), None);
        assert_eq!(auth.caller(&headers("Basic one")), None);
        assert_eq!(auth.caller(&HeaderMap::new()), None);
        assert!(!format!("{auth:?}").contains("two-secret"));
        assert_eq!(
            Auth(Inner::Off).caller(&HeaderMap::new()),
            Some(Caller::Anonymous)
        );
        assert_eq!(Auth(Inner::Broken).caller(&headers("Bearer one")), None);
    }

    #[test]
    fn tokens_come_from_a_file_with_comments() {
        let path = std::env::temp_dir().join(format!("chorus-auth-{}", std::process::id()));
        std::fs::write(&path, "# ops\n  alpha  \n\nbeta # not a comment\n").unwrap();
        let settings = HttpSettings {
            tokens_file: Some(path.display().to_string()),
            ..Default::default()
        };
        let auth = Auth::from_settings(&settings).unwrap();
        std::fs::remove_file(&path).ok();
        assert_eq!(
            auth.caller(&headers("Bearer alpha")),
            Some(Caller::Token(0))
        );
        assert_eq!(
            auth.caller(&headers("Bearer beta # not a comment")),
            Some(Caller::Token(1))
        );
        let missing = HttpSettings {
            tokens_file: Some("/nonexistent/chorus-tokens".into()),
            ..Default::default()
        };
        assert!(matches!(Auth::or_broken(&missing).0, Inner::Broken));
    }
}
