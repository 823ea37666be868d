//! What the A2A tests share: the gateway's router in front of every role (the heuristic
//! Planner, the Chief, the math and date pools on in-process MCP servers) on one
//! in-memory bus, and a JSON-RPC client for it that reads plain responses and
//! Server-Sent Events streams.

#![allow(dead_code, reason = "each test binary uses part of it")]

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use axum::Router;
use axum::body::{Body, BodyDataStream};
use axum::http::Request;
use chorus_agents::registry::Registry;
use chorus_agents::roles::pool::Connector;
use chorus_agents::runtime::{Shutdown, ShutdownTrigger};
use chorus_agents::settings::Settings;
use chorus_agents::state::TaskState;
use chorus_agents::system::{Infra, run_role};
use chorus_agents::topology::{Role, Topology};
use chorus_bus::memory::MemoryBus;
use chorus_gateway::{ApiState, app};
use chorus_mcp_common::client::McpClient;
use futures::StreamExt;
use serde_json::{Value, json};
use tower::ServiceExt;

/// The gateway, and (unless started bare) every role, on one in-memory bus.
pub struct System {
    pub app: Router,
    trigger: ShutdownTrigger,
    roles: tokio::task::JoinSet<()>,
}

impl Drop for System {
    fn drop(&mut self) {
        self.trigger.trigger();
        self.roles.abort_all();
    }
}

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

/// Settings for these tests: a long answer timeout, a quick deadline scan.
pub fn settings() -> Settings {
    let mut s = Settings::default();
    s.agents.deadline_ms = 10_000;
    s.agents.answer_timeout_ms = 60_000;
    s.agents.deadline_tick_ms = 20;
    s.agents.http_bind.clear();
    s.bus.block_ms = 200;
    s
}

impl System {
    /// Every role and the gateway; returns once the pools announced their tools.
    pub async fn start() -> System {
        System::with_roles(settings(), true).await
    }

    /// The gateway alone: tasks are accepted and nobody plans them.
    pub async fn bare() -> System {
        System::with_roles(settings(), false).await
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

    /// Any request: the status, the headers and the body.
    pub async fn send(&self, request: Request<Body>) -> (u16, axum::http::HeaderMap, Vec<u8>) {
        let response = self.app.clone().oneshot(request).await.expect("response");
        let status = response.status().as_u16();
        let headers = response.headers().clone();
        let bytes = axum::body::to_bytes(response.into_body(), 1 << 20)
            .await
            .expect("body");
        (status, headers, bytes.to_vec())
    }

    /// `POST /a2a` with `body` and the header `A2A-Version: 1.0`: the JSON response.
    pub async fn post(&self, body: &str) -> Value {
        let (status, _, bytes) = self.send(post(body, Some("1.0"))).await;
        assert_eq!(status, 200, "{}", String::from_utf8_lossy(&bytes));
        serde_json::from_slice(&bytes).expect("a JSON-RPC response")
    }

    /// Calls `method` with `params`: the whole JSON-RPC response.
    pub async fn call(&self, method: &str, params: Value) -> Value {
        let body = json!({"jsonrpc": "2.0", "id": 7, "method": method, "params": params});
        self.post(&body.to_string()).await
    }

    /// Calls `method`, which must succeed: its result.
    pub async fn result(&self, method: &str, params: Value) -> Value {
        let response = self.call(method, params).await;
        assert_eq!(response["id"], 7, "{response}");
        assert!(response.get("error").is_none(), "{response}");
        response["result"].clone()
    }

    /// Calls `method`, which must fail: its error object.
    pub async fn error(&self, method: &str, params: Value) -> Value {
        let response = self.call(method, params).await;
        assert!(response.get("result").is_none(), "{response}");
        response["error"].clone()
    }

    /// A streaming method: its events as they come.
    pub async fn stream(&self, method: &str, params: Value) -> Events {
        let body = json!({"jsonrpc": "2.0", "id": "s-1", "method": method, "params": params});
        let response = self
            .app
            .clone()
            .oneshot(post(&body.to_string(), Some("1.0")))
            .await
            .expect("response");
        assert_eq!(response.status(), 200);
        let kind = response.headers()["content-type"].to_str().unwrap_or("");
        assert!(
            kind.starts_with("text/event-stream"),
            "not a stream: {kind}"
        );
        Events {
            body: response.into_body().into_data_stream(),
            buffer: String::new(),
        }
    }
}

/// `POST /a2a` with `body`, and `A2A-Version` when given.
pub fn post(body: &str, version: Option<&str>) -> Request<Body> {
    let mut request = Request::builder()
        .method("POST")
        .uri("/a2a")
        .header("content-type", "application/json");
    if let Some(v) = version {
        request = request.header("A2A-Version", v);
    }
    request.body(Body::from(body.to_owned())).expect("request")
}

/// A user's message with one text part.
pub fn message(text: &str) -> Value {
    static NEXT: AtomicU64 = AtomicU64::new(1);
    let id = NEXT.fetch_add(1, Ordering::Relaxed);
    json!({"messageId": format!("m-{id}"), "role": "ROLE_USER", "parts": [{"text": text}]})
}

/// The text of the first text part of the task's `report` artifact.
pub fn report_text(task: &Value) -> String {
    task["artifacts"][0]["parts"][0]["text"]
        .as_str()
        .unwrap_or_default()
        .to_owned()
}

/// Waits until every pool has a live agent offering tools.
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

/// A Server-Sent Events body, read event by event.
pub struct Events {
    body: BodyDataStream,
    buffer: String,
}

impl Events {
    /// The next event (name, data as JSON) within 10 s; `None` at the stream's end.
    pub async fn next(&mut self) -> Option<(String, Value)> {
        let until = tokio::time::Instant::now() + Duration::from_secs(10);
        loop {
            while let Some(end) = self.buffer.find("\n\n") {
                let block: String = self.buffer.drain(..end + 2).collect();
                let mut name = String::from("message");
                let mut data = String::new();
                for line in block.lines() {
                    if let Some(v) = line.strip_prefix("event:") {
                        name = v.trim().to_owned();
                    } else if let Some(v) = line.strip_prefix("data:") {
                        data.push_str(v.trim_start());
                    }
                }
                if !data.is_empty() {
                    return Some((name, serde_json::from_str(&data).expect("JSON data")));
                }
            }
            match tokio::time::timeout_at(until, self.body.next()).await {
                Ok(Some(Ok(chunk))) => self.buffer.push_str(&String::from_utf8_lossy(&chunk)),
                Ok(_) => return None,
                Err(_) => panic!("no event within 10 s; so far: {:?}", self.buffer),
            }
        }
    }

    /// The results (`StreamResponse`s) up to the end of the stream; every event must be
    /// a `message` event answering call `s-1`.
    pub async fn results(&mut self) -> Vec<Value> {
        let mut results = Vec::new();
        while let Some((name, data)) = self.next().await {
            assert_eq!(name, "message", "{data}");
            assert_eq!(data["jsonrpc"], "2.0");
            assert_eq!(data["id"], "s-1", "{data}");
            results.push(data["result"].clone());
        }
        results
    }
}

/// What each stream response is: `task`, `statusUpdate` or `artifactUpdate`, with the
/// state for tasks and status updates (`task:TASK_STATE_SUBMITTED`, …).
pub fn kinds(results: &[Value]) -> Vec<String> {
    results
        .iter()
        .map(|r| {
            if let Some(t) = r.get("task") {
                format!("task:{}", t["status"]["state"].as_str().unwrap_or("?"))
            } else if let Some(s) = r.get("statusUpdate") {
                format!("status:{}", s["status"]["state"].as_str().unwrap_or("?"))
            } else if r.get("artifactUpdate").is_some() {
                "artifact".to_owned()
            } else {
                format!("unknown:{r}")
            }
        })
        .collect()
}
