//! The page, its script modules and its style sheet, embedded at build time (no CDN, no
//! build step) and served by the Chief itself with their content types.

use axum::Router;
use axum::http::header;
use axum::response::IntoResponse;
use axum::routing::get;

use crate::api::ApiState;

/// Every asset: its path, content type and body.
pub const ASSETS: [(&str, &str, &str); 6] = [
    ("/ui", HTML, include_str!("../../ui/index.html")),
    ("/ui/", HTML, include_str!("../../ui/index.html")),
    ("/ui/app.js", JS, include_str!("../../ui/app.js")),
    ("/ui/common.js", JS, include_str!("../../ui/common.js")),
    ("/ui/graph.js", JS, include_str!("../../ui/graph.js")),
    ("/ui/app.css", CSS, include_str!("../../ui/app.css")),
];

const HTML: &str = "text/html; charset=utf-8";
const JS: &str = "text/javascript; charset=utf-8";
const CSS: &str = "text/css; charset=utf-8";

/// Lets the page load only what this Chief serves: no inline script or style, no
/// framing.
const POLICY: &str = "default-src 'self'; img-src 'self' data:; style-src 'self'; \
                      script-src 'self'; connect-src 'self'; frame-ancestors 'none'";

/// One asset with its type, no caching across Chief upgrades, and the policy.
fn asset(kind: &'static str, body: &'static str) -> impl IntoResponse {
    (
        [
            (header::CONTENT_TYPE, kind),
            (header::CACHE_CONTROL, "no-cache"),
            (header::CONTENT_SECURITY_POLICY, POLICY),
            (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
        ],
        body,
    )
}

/// The routes of every asset.
pub fn routes() -> Router<ApiState> {
    ASSETS
        .iter()
        .fold(Router::new(), |router, &(path, kind, body)| {
            router.route(path, get(move || async move { asset(kind, body) }))
        })
}

/// Whether `path` is one of the assets.
pub fn is_asset(path: &str) -> bool {
    ASSETS.iter().any(|(p, _, _)| *p == path)
}
