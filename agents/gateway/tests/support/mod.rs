//! What the gateway's in-process tests share: the gateway's router in front of every
//! role (the heuristic Planner, the Chief, the math and date pools on in-process MCP
//! servers) on one in-memory bus, requests to it, and a Server-Sent Events body read
//! event by event.
//! The A2A and OpenAI-compatible doors' own helpers are in [`a2a`] and [`openai`].

#![allow(dead_code, reason = "each test binary uses part of it")]

pub mod a2a;
pub mod openai;

use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::Router;
use axum::body::{Body, BodyDataStream};
use axum::http::{HeaderMap, Request};
use chorus_bus::memory::MemoryBus;
use chorus_core::registry::Registry;
use chorus_core::roles::pool::Connector;
use chorus_core::runtime::{Shutdown, ShutdownTrigger};
use chorus_core::settings::Settings;
use chorus_core::state::TaskState;
use chorus_core::system::{Infra, run_role};
use chorus_core::topology::{Role, Topology};
use chorus_gateway::{ApiState, app};
use chorus_mcp_common::client::McpClient;
use chorus_testkit::sse::SseReader;
use futures::StreamExt;
use serde_json::Value;
use tower::ServiceExt;

/// The gateway, and (unless started bare) every role, on one in-memory bus.
pub struct System {
    app: Router,
    trigger: ShutdownTrigger,
    roles: tokio::task::JoinSet<()>,
}

impl Drop for System {
    fn drop(&mut self) {
        self.trigger.trigger();
        self.roles.abort_all();
    }
}

/// A connector serving the pool's tools in this process (as `chorus_cli::local` does;
/// that one is private to a crate this one cannot depend on).
fn in_process(pool: &str) -> Option<Connector> {
    match pool {
        "math" => Some(Arc::new(|| {
            Box::pin(async { McpClient::in_process(chorus_mcp_math::MathServer::new()).await })
        })),
        "date" => Some(Arc::new(|| {
            Box::pin(async { McpClient::in_process(chorus_mcp_date::DateServer::new()).await })
        })),
        _ => None,
    }
}

/// Settings for these tests: the task deadline and the answer timeout given, a quick
/// deadline scan, no HTTP port of the agents' own.
pub fn settings(deadline_ms: u64, answer_timeout_ms: u64) -> Settings {
    let mut s = Settings::default();
    s.agents.deadline_ms = deadline_ms;
    s.agents.answer_timeout_ms = answer_timeout_ms;
    s.agents.deadline_tick_ms = 20;
    s.agents.http_bind.clear();
    s.bus.block_ms = 200;
    s
}

/// The usual settings: a 10 s deadline, a long (60 s) answer timeout.
pub fn defaults() -> Settings {
    settings(10_000, 60_000)
}

impl System {
    /// Every role and the gateway with [`defaults`]; returns once the pools announced
    /// their tools.
    pub async fn start() -> System {
        System::start_with(defaults()).await
    }

    /// Every role and the gateway with `settings`.
    pub async fn start_with(settings: Settings) -> System {
        System::with_roles(settings, true).await
    }

    /// The gateway alone: tasks are accepted and nobody plans them.
    pub async fn bare() -> System {
        System::with_roles(defaults(), false).await
    }

    /// The gateway alone, with `settings`.
    pub async fn bare_with(settings: Settings) -> System {
        System::with_roles(settings, false).await
    }

    async fn with_roles(settings: Settings, roles: bool) -> System {
        let bus = MemoryBus::new(settings.bus.clone());
        let store = Arc::new(bus.store());
        let infra = Infra {
            bus: Arc::new(bus),
            store,
        };
        let (trigger, shutdown) = Shutdown::new();
        let mut tasks = tokio::task::JoinSet::new();
        if roles {
            for role in Topology::new(&settings.pool_names()).roles() {
                let connector = match &role {
                    Role::Pool(p) => in_process(p),
                    _ => None,
                };
                let (infra, settings, shutdown) =
                    (infra.clone(), settings.clone(), shutdown.clone());
                tasks.spawn(async move {
                    if let Err(e) =
                        run_role(role.clone(), infra, &settings, connector, shutdown).await
                    {
                        panic!("{role:?} stopped: {e}");
                    }
                });
            }
        }
        let state = TaskState::for_settings(infra.store.clone(), &settings);
        if roles {
            wait_for_pools(&state, &settings).await;
        }
        let api = ApiState::new(infra, state, &settings);
        System {
            app: app(api),
            trigger,
            roles: tasks,
        }
    }

    /// Any request: the status, the headers and the body. A request without a `Host`
    /// header is sent to `localhost` (as any HTTP/1.1 client does).
    pub async fn send(&self, request: Request<Body>) -> (u16, HeaderMap, Vec<u8>) {
        let response = self
            .app
            .clone()
            .oneshot(with_host(request))
            .await
            .expect("response");
        let status = response.status().as_u16();
        let headers = response.headers().clone();
        let bytes = axum::body::to_bytes(response.into_body(), 1 << 20)
            .await
            .expect("body");
        (status, headers, bytes.to_vec())
    }

    /// A request with any body and content type; the status and the body as text.
    pub async fn text(
        &self,
        method: &str,
        uri: &str,
        content_type: &str,
        body: String,
    ) -> (u16, String) {
        let request = Request::builder()
            .method(method)
            .uri(uri)
            .header("content-type", content_type)
            .body(Body::from(body))
            .expect("request");
        let (status, _, bytes) = self.send(request).await;
        (status, String::from_utf8_lossy(&bytes).into_owned())
    }

    /// A request with any body and content type; the status and the JSON body.
    pub async fn raw(
        &self,
        method: &str,
        uri: &str,
        content_type: &str,
        body: String,
    ) -> (u16, Value) {
        let (status, text) = self.text(method, uri, content_type, body).await;
        let json = serde_json::from_str(&text)
            .unwrap_or_else(|e| panic!("{method} {uri}: not JSON ({e}): {text}"));
        (status, json)
    }

    /// A JSON request (`None`: an empty body); the status and the JSON body.
    pub async fn call(
        &self,
        method: &str,
        uri: &str,
        body: impl Into<Option<Value>>,
    ) -> (u16, Value) {
        let body = body.into().map(|b| b.to_string());
        self.raw(method, uri, "application/json", body.unwrap_or_default())
            .await
    }

    /// Polls `GET /tasks/{task}` until `done` holds for it (or 10 s passed); returns the
    /// last state seen.
    pub async fn poll(&self, task: &str, done: impl Fn(&Value) -> bool) -> Value {
        let start = Instant::now();
        loop {
            let (status, state) = self.call("GET", &format!("/tasks/{task}"), None).await;
            assert_eq!(status, 200, "{state}");
            if done(&state) || start.elapsed() > Duration::from_secs(10) {
                return state;
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    }

    /// A request answered by a stream (status 200): its events as they come.
    pub async fn events(&self, request: Request<Body>) -> Events {
        let response = self
            .app
            .clone()
            .oneshot(with_host(request))
            .await
            .expect("response");
        assert_eq!(response.status(), 200);
        Events {
            headers: response.headers().clone(),
            body: response.into_body().into_data_stream(),
            reader: SseReader::new(),
        }
    }
}

/// `request`, with `Host: localhost` unless it names a host.
fn with_host(mut request: Request<Body>) -> Request<Body> {
    if !request.headers().contains_key("host") {
        let localhost = axum::http::HeaderValue::from_static("localhost");
        request.headers_mut().insert("host", localhost);
    }
    request
}

/// Waits until every pool has a live agent offering tools (the Planner plans only with
/// live tools).
async fn wait_for_pools(state: &TaskState, settings: &Settings) {
    let registry = Registry::new(state.clone());
    let start = Instant::now();
    while start.elapsed() < Duration::from_secs(10) {
        if let Ok(caps) = registry.capabilities().await
            && settings
                .pools
                .keys()
                .all(|p| caps.pool_names().contains(&p.as_str()))
        {
            return;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    panic!("the pools did not announce their tools in time");
}

/// A Server-Sent Events body, read event by event (by the tests' one reader,
/// `chorus_testkit::sse`).
pub struct Events {
    /// The response's headers.
    pub headers: HeaderMap,
    body: BodyDataStream,
    reader: SseReader,
}

/// Nothing came in time; what was read of an unfinished event so far.
#[derive(Debug)]
pub struct TimedOut(pub String);

impl Events {
    /// The next event (name, data as JSON) within `within`: `Ok(None)` when the stream
    /// ended, `Err` when nothing came in time.
    pub async fn try_next(
        &mut self,
        within: Duration,
    ) -> Result<Option<(String, Value)>, TimedOut> {
        let until = tokio::time::Instant::now() + within;
        loop {
            if let Some(event) = self.reader.next_event() {
                let data = serde_json::from_str(&event.data).expect("JSON data");
                return Ok(Some((event.name, data)));
            }
            match tokio::time::timeout_at(until, self.body.next()).await {
                Ok(Some(Ok(chunk))) => self.reader.push(&chunk),
                Ok(_) => return Ok(None),
                Err(_) => return Err(TimedOut(self.reader.pending().to_owned())),
            }
        }
    }

    /// The next event within `within`; `None` when the stream ended or nothing came in
    /// time.
    pub async fn next(&mut self, within: Duration) -> Option<(String, Value)> {
        self.try_next(within).await.unwrap_or(None)
    }

    /// The next event, which must be named `name`; its data.
    pub async fn expect(&mut self, name: &str) -> Value {
        match self.next(Duration::from_secs(10)).await {
            Some((n, data)) if n == name => data,
            other => panic!("expected a {name:?} event, got {other:?}"),
        }
    }

    /// Every event up to the end of the stream (or 10 s).
    pub async fn rest(&mut self) -> Vec<(String, Value)> {
        let mut events = Vec::new();
        while let Some(e) = self.next(Duration::from_secs(10)).await {
            events.push(e);
        }
        events
    }
}
