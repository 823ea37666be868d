//! The page and its script and style sheet, embedded at build time (no CDN, no build
//! step): served by the Chief itself with their content types.

use axum::http::header;
use axum::response::IntoResponse;

const PAGE: &str = include_str!("../../ui/index.html");
const SCRIPT: &str = include_str!("../../ui/app.js");
const STYLE: &str = include_str!("../../ui/app.css");

/// Headers every asset carries: its type, no caching across Chief upgrades, and a
/// policy that lets the page load only what this Chief serves.
fn asset(kind: &'static str, body: &'static str) -> impl IntoResponse {
    (
        [
            (header::CONTENT_TYPE, kind),
            (header::CACHE_CONTROL, "no-cache"),
            (
                header::CONTENT_SECURITY_POLICY,
                "default-src 'self'; img-src 'self' data:; style-src 'self'; \
                 script-src 'self'; connect-src 'self'; frame-ancestors 'none'",
            ),
            (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
        ],
        body,
    )
}

/// `GET /ui`: the page.
pub async fn page() -> impl IntoResponse {
    asset("text/html; charset=utf-8", PAGE)
}

/// `GET /ui/app.js`: the page's script.
pub async fn script() -> impl IntoResponse {
    asset("text/javascript; charset=utf-8", SCRIPT)
}

/// `GET /ui/app.css`: the page's style sheet.
pub async fn style() -> impl IntoResponse {
    asset("text/css; charset=utf-8", STYLE)
}
