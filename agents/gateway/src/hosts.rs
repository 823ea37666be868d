//! Browsers kept out of the Chief: the `Host` header must name this server — a
//! loopback name or address (`localhost`, `127.0.0.1`, `[::1]`, any port) or one of
//! `[http] allowed_hosts` — so a page on a DNS-rebound name cannot read tasks; and a
//! request that carries an `Origin` (what a browser sends with a cross-site or a
//! same-origin POST, a `fetch`…) must come from the host it is sent to, so a page on
//! another site cannot drive the doors. The web view, served by the Chief itself, is
//! same-origin and passes. A missing or malformed `Host` is 400, a foreign `Host` or
//! `Origin` 403, each a JSON error in its door's shape. `GET /healthz` and the A2A
//! agent card are not checked (probes reach the one by address, A2A clients fetch the
//! other by whatever name they know; both are public and hold no task data), nor is
//! `/metrics` (served outside these checks, like the token check).

use std::sync::Arc;

use axum::extract::{Request, State};
use axum::http::uri::Authority;
use axum::http::{HeaderMap, StatusCode, Uri, header};
use axum::middleware::Next;
use axum::response::Response;
use chorus_core::settings::HttpSettings;
use chorus_mcp_common::http::default_allowed_hosts;

use crate::auth::refusal;

/// A host name and, when given, its port.
#[derive(Debug, Clone, PartialEq, Eq)]
struct HostPort {
    /// Lower case, without IPv6 brackets.
    host: String,
    port: Option<u16>,
}

impl HostPort {
    fn parse(text: &str) -> Option<HostPort> {
        let authority: Authority = text.trim().parse().ok()?;
        if authority.as_str().contains('@') {
            return None;
        }
        Some(HostPort {
            host: authority
                .host()
                .trim_matches(|c| c == '[' || c == ']')
                .to_ascii_lowercase(),
            port: authority.port_u16(),
        })
    }
}

/// The hosts the doors answer to.
#[derive(Debug, Clone)]
pub struct AllowedHosts(Option<Arc<[HostPort]>>);

impl Default for AllowedHosts {
    /// Loopback only.
    fn default() -> Self {
        AllowedHosts::new(&[])
    }
}

impl AllowedHosts {
    /// Loopback and `names` (`name` for any port, `name:port` for that one); `*`
    /// among them accepts any host. A name that does not parse is skipped (logged).
    pub fn new(names: &[String]) -> AllowedHosts {
        if names.iter().any(|n| n.trim() == "*") {
            return AllowedHosts(None);
        }
        let extra = names.iter().filter_map(|name| {
            let parsed = HostPort::parse(name);
            if parsed.is_none() {
                tracing::warn!(name = %name, "http.allowed_hosts: not a host name, skipped");
            }
            parsed
        });
        // Always accepted: the loopback names the MCP servers accept by default too.
        let loopback = default_allowed_hosts()
            .into_iter()
            .map(|host| HostPort { host, port: None });
        AllowedHosts(Some(loopback.chain(extra).collect()))
    }

    /// The hosts `settings` name (`http.allowed_hosts`) and loopback.
    pub fn from_settings(settings: &HttpSettings) -> AllowedHosts {
        AllowedHosts::new(&settings.allowed_hosts)
    }

    fn allows(&self, host: &HostPort) -> bool {
        let Some(list) = &self.0 else {
            return true;
        };
        list.iter()
            .any(|a| a.host == host.host && a.port.is_none_or(|port| host.port == Some(port)))
    }
}

/// Why a request was refused: its status, code and message.
type Refused = (StatusCode, &'static str, String);

/// The host a request is sent to: its `Host` header, else its URI's authority.
fn host_of(headers: &HeaderMap, uri: &Uri) -> Result<HostPort, Refused> {
    let bad = |why: &str| {
        Err((
            StatusCode::BAD_REQUEST,
            "bad_host",
            format!("{why}: a request names the host it is sent to in its Host header"),
        ))
    };
    match headers.get(header::HOST) {
        Some(value) => match value.to_str().ok().and_then(HostPort::parse) {
            Some(host) => Ok(host),
            None => bad("the Host header is not a host name"),
        },
        None => match uri.authority().and_then(|a| HostPort::parse(a.as_str())) {
            Some(host) => Ok(host),
            None => bad("no Host header"),
        },
    }
}

/// The `Origin` a request carries, if any, checked against the host it is sent to:
/// same host and same port (the scheme's default port when one leaves it out).
fn check_origin(headers: &HeaderMap, host: &HostPort) -> Result<(), Refused> {
    let Some(origin) = headers.get(header::ORIGIN) else {
        return Ok(());
    };
    let refused = |shown: &str| {
        Err((
            StatusCode::FORBIDDEN,
            "foreign_origin",
            format!(
                "requests from the web page at {shown:?} are refused: only pages this server \
                 serves (same host) may call it"
            ),
        ))
    };
    let text = origin.to_str().unwrap_or("");
    let Some((scheme, rest)) = text.split_once("://") else {
        return refused(text);
    };
    let default_port = match scheme.to_ascii_lowercase().as_str() {
        "http" => 80,
        "https" => 443,
        _ => return refused(text),
    };
    let Some(from) = HostPort::parse(rest) else {
        return refused(text);
    };
    let same_port = from.port.unwrap_or(default_port) == host.port.unwrap_or(default_port);
    if from.host == host.host && same_port {
        Ok(())
    } else {
        refused(text)
    }
}

/// The middleware: `Host` in the allowed list and `Origin` (when sent) the same host.
pub async fn check(State(allowed): State<AllowedHosts>, request: Request, next: Next) -> Response {
    let path = request.uri().path();
    if path == "/healthz" || path == crate::a2a::CARD_PATH {
        return next.run(request).await;
    }
    let verdict = host_of(request.headers(), request.uri()).and_then(|host| {
        if !allowed.allows(&host) {
            return Err((
                StatusCode::FORBIDDEN,
                "host_not_allowed",
                format!(
                    "this server does not answer to the host {:?}; add it to http.allowed_hosts",
                    host.host
                ),
            ));
        }
        check_origin(request.headers(), &host)
    });
    match verdict {
        Ok(()) => next.run(request).await,
        Err((status, code, message)) => {
            tracing::debug!(%status, code, "HTTP request refused");
            refusal(path, status, code, &message)
        }
    }
}

#[cfg(test)]
mod tests {
    use axum::http::HeaderValue;

    use super::*;

    fn host(text: &str) -> HostPort {
        HostPort::parse(text).expect(text)
    }

    #[test]
    fn loopback_at_any_port_and_configured_names_are_allowed() {
        let allowed = AllowedHosts::new(&["chief".into(), "api.example:8443".into()]);
        for ok in [
            "localhost",
            "localhost:8080",
            "127.0.0.1:1",
            "[::1]:8080",
            "CHIEF:8080",
        ] {
            assert!(allowed.allows(&host(ok)), "{ok}");
        }
        for no in [
            "evil.example",
            "api.example",
            "api.example:443",
            "127.0.0.2",
            "chief.evil",
        ] {
            assert!(!allowed.allows(&host(no)), "{no}");
        }
        assert!(AllowedHosts::new(&["*".into()]).allows(&host("evil.example")));
        assert!(!AllowedHosts::default().allows(&host("chief:8080")));
    }

    fn origin(value: &str) -> HeaderMap {
        let mut headers = HeaderMap::new();
        headers.insert(header::ORIGIN, HeaderValue::from_str(value).expect("value"));
        headers
    }

    #[test]
    fn an_origin_must_be_the_host_it_is_sent_to() {
        let to = host("localhost:8080");
        assert!(check_origin(&HeaderMap::new(), &to).is_ok());
        assert!(check_origin(&origin("http://localhost:8080"), &to).is_ok());
        assert!(check_origin(&origin("http://LOCALHOST:8080"), &to).is_ok());
        for foreign in [
            "http://evil.example",
            "http://localhost:8081",
            "http://localhost",
            "null",
            "file://",
            "http://user@localhost:8080",
        ] {
            let refused = check_origin(&origin(foreign), &to).expect_err(foreign);
            assert_eq!(refused.0, StatusCode::FORBIDDEN, "{foreign}");
        }
        let behind_tls = host("chorus.example");
        assert!(check_origin(&origin("https://chorus.example"), &behind_tls).is_ok());
        assert!(check_origin(&origin("https://chorus.example:443"), &behind_tls).is_ok());
        assert!(check_origin(&origin("http://chorus.example:8443"), &behind_tls).is_err());
    }

    #[test]
    fn a_missing_or_broken_host_is_a_bad_request() {
        let no_host = host_of(&HeaderMap::new(), &Uri::from_static("/tasks"));
        assert_eq!(no_host.expect_err("none").0, StatusCode::BAD_REQUEST);
        let mut headers = HeaderMap::new();
        headers.insert(header::HOST, HeaderValue::from_static("a b"));
        let broken = host_of(&headers, &Uri::from_static("/tasks"));
        assert_eq!(broken.expect_err("broken").1, "bad_host");
        let absolute = host_of(&HeaderMap::new(), &Uri::from_static("http://localhost:9/x"));
        assert_eq!(absolute.expect("from the URI"), host("localhost:9"));
    }
}
