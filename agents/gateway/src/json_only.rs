//! The doors that take a body take JSON only: a `POST` (and a `DELETE`, `PUT` or
//! `PATCH` that carries a body) must say `Content-Type: application/json` (or
//! `application/<something>+json`, parameters such as `charset` allowed). Otherwise 415
//! in the door's error shape (`not_json`). This keeps out what a web page may send to
//! any site without a CORS preflight — `text/plain`, form bodies — and gives every door
//! the same rule (`/a2a` read any body before). Applied to the routes, after the token
//! check, so an unknown route stays 404 and a client without a token 401.

use axum::extract::Request;
use axum::http::{HeaderMap, Method, StatusCode, header};
use axum::middleware::Next;
use axum::response::Response;

use crate::auth::refusal;

/// Whether `headers` name a JSON content type.
pub(crate) fn is_json(headers: &HeaderMap) -> bool {
    let Some(value) = headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
    else {
        return false;
    };
    let essence = value
        .split(';')
        .next()
        .unwrap_or("")
        .trim()
        .to_ascii_lowercase();
    match essence.split_once('/') {
        Some(("application", "json")) => true,
        Some(("application", subtype)) => subtype.ends_with("+json"),
        _ => false,
    }
}

/// Whether a request with `method` and `headers` carries (or says it carries) a body.
fn has_body(method: &Method, headers: &HeaderMap) -> bool {
    if *method == Method::POST {
        return true;
    }
    let declared = headers
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|n| n.trim() != "0");
    declared
        || headers.contains_key(header::TRANSFER_ENCODING)
        || headers.contains_key(header::CONTENT_TYPE)
}

/// The middleware: a body must be JSON.
pub async fn require(request: Request, next: Next) -> Response {
    let method = request.method();
    let writes = matches!(
        *method,
        Method::POST | Method::PUT | Method::PATCH | Method::DELETE
    );
    if !writes || !has_body(method, request.headers()) || is_json(request.headers()) {
        return next.run(request).await;
    }
    refusal(
        request.uri().path(),
        StatusCode::UNSUPPORTED_MEDIA_TYPE,
        "not_json",
        "the body must be JSON, sent with Content-Type: application/json",
    )
}

#[cfg(test)]
mod tests {
    use axum::http::HeaderValue;

    use super::*;

    fn typed(value: &str) -> HeaderMap {
        let mut headers = HeaderMap::new();
        headers.insert(
            header::CONTENT_TYPE,
            HeaderValue::from_str(value).expect("value"),
        );
        headers
    }

    #[test]
    fn json_and_json_suffixes_are_json_and_nothing_else_is() {
        for yes in [
            "application/json",
            "Application/JSON; charset=utf-8",
            "application/problem+json",
        ] {
            assert!(is_json(&typed(yes)), "{yes}");
        }
        for no in [
            "text/plain",
            "application/x-www-form-urlencoded",
            "multipart/form-data; boundary=x",
            "text/json",
            "application/jsonx",
        ] {
            assert!(!is_json(&typed(no)), "{no}");
        }
        assert!(!is_json(&HeaderMap::new()));
    }

    #[test]
    fn a_delete_without_a_body_needs_no_content_type() {
        assert!(!has_body(&Method::DELETE, &HeaderMap::new()));
        assert!(has_body(&Method::DELETE, &typed("text/plain")));
        assert!(has_body(&Method::POST, &HeaderMap::new()));
    }
}
