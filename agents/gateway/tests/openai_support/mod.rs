//! The harness of the OpenAI endpoint's in-process tests: the gateway's router in
//! front of every role (the heuristic Planner, the Chief, the math and date pools on
//! in-process MCP servers) on the in-memory bus, and helpers to call it.

#![allow(dead_code)] // each test file uses a part

use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::Router;
use axum::body::Body;
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
use serde_json::{Value, json};
use tower::ServiceExt;

/// The gateway and every role on one in-memory bus.
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

impl System {
    pub async fn start() -> System {
        System::with_answer_timeout(60_000).await
    }

    /// Every role and the gateway, a question waiting `answer_timeout_ms` for its answer.
    pub async fn with_answer_timeout(answer_timeout_ms: u64) -> System {
        let mut settings = Settings::default();
        settings.agents.deadline_ms = 10_000;
        settings.agents.answer_timeout_ms = answer_timeout_ms;
        settings.agents.deadline_tick_ms = 20;
        settings.agents.http_bind.clear();
        settings.bus.block_ms = 200;
        let bus = MemoryBus::new(settings.bus.clone());
        let store = Arc::new(bus.store());
        let infra = Infra {
            bus: Arc::new(bus),
            store,
        };
        let (trigger, shutdown) = Shutdown::new();
        let mut roles = tokio::task::JoinSet::new();
        for role in Topology::new(&settings.pool_names()).roles() {
            let connector = match &role {
                Role::Pool(p) => in_process(p),
                _ => None,
            };
            let (infra, settings, shutdown) = (infra.clone(), settings.clone(), shutdown.clone());
            roles.spawn(async move {
                if let Err(e) = run_role(role.clone(), infra, &settings, connector, shutdown).await
                {
                    panic!("{role:?} stopped: {e}");
                }
            });
        }
        let state = TaskState::for_settings(infra.store.clone(), &settings);
        wait_for_pools(&state, &settings).await;
        System {
            app: app(ApiState::new(infra, state, &settings)),
            trigger,
            roles,
        }
    }

    /// A request; the status and the body as text.
    pub async fn raw(&self, method: &str, uri: &str, body: String) -> (u16, String) {
        let request = Request::builder()
            .method(method)
            .uri(uri)
            .header("content-type", "application/json")
            .body(Body::from(body))
            .expect("request");
        let response = self.app.clone().oneshot(request).await.expect("response");
        let status = response.status().as_u16();
        let bytes = axum::body::to_bytes(response.into_body(), 1 << 20)
            .await
            .expect("body");
        (status, String::from_utf8_lossy(&bytes).into_owned())
    }

    /// A JSON request; the status and the JSON body.
    pub async fn call(&self, method: &str, uri: &str, body: Value) -> (u16, Value) {
        let (status, text) = self.raw(method, uri, body.to_string()).await;
        let json = serde_json::from_str(&text)
            .unwrap_or_else(|e| panic!("{method} {uri}: not JSON ({e}): {text}"));
        (status, json)
    }

    /// A non-streaming completion of `messages`, which must succeed.
    pub async fn complete(&self, messages: &[(&str, &str)]) -> Value {
        let (status, completion) = self
            .call("POST", "/v1/chat/completions", chat(messages, false))
            .await;
        assert_eq!(status, 200, "{completion}");
        completion
    }

    /// A streamed completion of `body`: every `data:` payload, in order.
    pub async fn stream(&self, body: Value) -> Vec<String> {
        let (status, text) = self
            .raw("POST", "/v1/chat/completions", body.to_string())
            .await;
        assert_eq!(status, 200, "{text}");
        text.split("\n\n")
            .filter_map(|block| block.lines().find_map(|l| l.strip_prefix("data: ")))
            .map(str::to_owned)
            .collect()
    }
}

impl System {
    /// Polls `GET /tasks/{task}` until its state is `state` (or 10 s passed); the last
    /// state seen.
    pub async fn poll(&self, task: &str, state: &str) -> Value {
        let start = Instant::now();
        loop {
            let (status, seen) = self
                .call("GET", &format!("/tasks/{task}"), Value::Null)
                .await;
            assert_eq!(status, 200, "{seen}");
            if seen["state"] == state || start.elapsed() > Duration::from_secs(10) {
                return seen;
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    }
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

/// A chat completion request of `(role, content)` messages.
pub fn chat(messages: &[(&str, &str)], stream: bool) -> Value {
    let messages: Vec<Value> = messages
        .iter()
        .map(|(role, content)| json!({"role": role, "content": content}))
        .collect();
    json!({"model": "chorus", "messages": messages, "stream": stream, "temperature": 0.7})
}

/// The completion's text.
pub fn content(completion: &Value) -> String {
    completion["choices"][0]["message"]["content"]
        .as_str()
        .unwrap_or_else(|| panic!("no content: {completion}"))
        .to_owned()
}
