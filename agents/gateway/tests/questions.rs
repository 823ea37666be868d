//! The HTTP doors of a task's question, in process: the gateway's router in front of
//! every role (the heuristic Planner, the Chief with its answer timeout, the math and
//! date pools on in-process MCP servers) on the in-memory bus. `POST /chat/stream`
//! shows the question and goes on after the answer; `GET /tasks/{id}` says
//! `input_required` with the question; `POST /tasks/{id}/answer` answers, or refuses
//! with the door's status and code.

use std::sync::Arc;
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
struct System {
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

/// Settings for these tests: a short answer timeout unless a test needs another.
fn settings(deadline_ms: u64, answer_timeout_ms: u64) -> Settings {
    let mut s = Settings::default();
    s.agents.deadline_ms = deadline_ms;
    s.agents.answer_timeout_ms = answer_timeout_ms;
    s.agents.deadline_tick_ms = 20;
    s.agents.http_bind.clear();
    s.bus.block_ms = 200;
    s
}

impl System {
    /// Every role and the gateway.
    async fn start(settings: Settings) -> System {
        System::with_roles(settings, true).await
    }

    /// The gateway alone: tasks are accepted and nobody plans them.
    async fn bare(settings: Settings) -> System {
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

    /// A JSON request; the status and the JSON body.
    async fn call(&self, method: &str, uri: &str, body: Option<Value>) -> (u16, Value) {
        let body = body.map(|b| b.to_string());
        self.raw(method, uri, "application/json", body.unwrap_or_default())
            .await
    }

    /// A request with any body and content type; the status and the JSON body.
    async fn raw(&self, method: &str, uri: &str, content_type: &str, body: String) -> (u16, Value) {
        let request = Request::builder()
            .method(method)
            .uri(uri)
            .header("content-type", content_type)
            .body(Body::from(body))
            .expect("request");
        let response = self.app.clone().oneshot(request).await.expect("response");
        let status = response.status().as_u16();
        let bytes = axum::body::to_bytes(response.into_body(), 1 << 20)
            .await
            .expect("body");
        let json = serde_json::from_slice(&bytes)
            .unwrap_or_else(|e| panic!("{method} {uri}: not JSON ({e}): {bytes:?}"));
        (status, json)
    }

    /// `POST /tasks/{task}/answer`.
    async fn answer(&self, task: &str, body: Value) -> (u16, Value) {
        self.call("POST", &format!("/tasks/{task}/answer"), Some(body))
            .await
    }

    /// `POST /tasks`: the new task's id.
    async fn submit(&self, body: Value) -> String {
        let (status, accepted) = self.call("POST", "/tasks", Some(body)).await;
        assert_eq!(status, 202, "{accepted}");
        accepted["task_id"].as_str().expect("task id").to_owned()
    }

    /// Polls `GET /tasks/{task}` until `done` holds for it (or 10 s passed); returns the
    /// last state seen.
    async fn poll(&self, task: &str, done: impl Fn(&Value) -> bool) -> Value {
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

    /// `POST /chat/stream`: its events, as they come.
    async fn stream(&self, body: Value) -> Events {
        let request = Request::builder()
            .method("POST")
            .uri("/chat/stream")
            .header("content-type", "application/json")
            .body(Body::from(body.to_string()))
            .expect("request");
        let response = self.app.clone().oneshot(request).await.expect("response");
        assert_eq!(response.status(), 200);
        Events {
            body: response.into_body().into_data_stream(),
            buffer: String::new(),
        }
    }
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

/// A Server-Sent Events body, read event by event.
struct Events {
    body: BodyDataStream,
    buffer: String,
}

impl Events {
    /// The next event (name, data as JSON) within `within`; `None` when the stream
    /// ended or nothing came in time.
    async fn next(&mut self, within: Duration) -> Option<(String, Value)> {
        let until = tokio::time::Instant::now() + within;
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
                    let data = serde_json::from_str(&data).expect("json data");
                    return Some((name, data));
                }
            }
            match tokio::time::timeout_at(until, self.body.next()).await {
                Ok(Some(Ok(chunk))) => self.buffer.push_str(&String::from_utf8_lossy(&chunk)),
                _ => return None,
            }
        }
    }

    /// The next event, which must be named `name`; its data.
    async fn expect(&mut self, name: &str) -> Value {
        match self.next(Duration::from_secs(10)).await {
            Some((n, data)) if n == name => data,
            other => panic!("expected a {name:?} event, got {other:?}"),
        }
    }

    /// Every event up to the end of the stream (or 10 s).
    async fn rest(&mut self) -> Vec<(String, Value)> {
        let mut events = Vec::new();
        while let Some(e) = self.next(Duration::from_secs(10)).await {
            events.push(e);
        }
        events
    }
}

fn names(events: &[(String, Value)]) -> Vec<&str> {
    events.iter().map(|(n, _)| n.as_str()).collect()
}

/// The report's output values as a person reads them.
fn answers(report: &Value) -> Vec<String> {
    let report: chorus_bus::FinalReport =
        serde_json::from_value(report.clone()).expect("a final report");
    report.answers()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_streamed_question_is_answered_over_http_and_the_same_stream_ends_with_the_report() {
    let system = System::start(settings(10_000, 60_000)).await;
    let mut events = system.stream(json!({"query": "divide 10 by"})).await;
    let accepted = events.expect("accepted").await;
    let task = accepted["task_id"].as_str().expect("task id").to_owned();

    let question = events.expect("question").await;
    assert_eq!(question["task_id"], task.as_str());
    assert_eq!(question["number"], 1);
    assert_eq!(question["part"], "divide 10 by");
    assert_eq!(question["language"], "en");
    assert!(question["question"].as_str().is_some_and(|q| !q.is_empty()));
    assert!(
        question.get("options").is_none(),
        "a free answer: {question}"
    );

    let (status, answered) = system.answer(&task, json!({"answer": "4"})).await;
    assert_eq!(status, 202, "{answered}");
    assert_eq!(answered, json!({"task_id": task, "question": 1}));

    let rest = events.rest().await;
    assert_eq!(names(&rest), ["plan", "step", "report"], "{rest:?}");
    let report = &rest[2].1;
    assert_eq!(report["status"], "completed", "{report}");
    assert_eq!(answers(report), ["2.5"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn polling_shows_input_required_with_the_options_then_done_after_the_answer() {
    let system = System::start(settings(10_000, 60_000)).await;
    let task = system
        .submit(json!({"query": "what weekday is 03/04/2026"}))
        .await;
    let waiting = system.poll(&task, |s| s["state"] != "pending").await;
    assert_eq!(waiting["state"], "input_required", "{waiting}");
    assert!(waiting["report"].is_null());
    let question = &waiting["question"];
    assert_eq!(question["number"], 1, "{waiting}");
    let values: Vec<&str> = question["options"]
        .as_array()
        .expect("options")
        .iter()
        .map(|o| o["value"].as_str().expect("value"))
        .collect();
    assert_eq!(values, ["2026-04-03", "2026-03-04"], "{question}");

    // A question the task has not asked is refused, and changes nothing.
    let (status, err) = system
        .answer(&task, json!({"answer": "April", "question": 2}))
        .await;
    assert_eq!(status, 409, "{err}");
    assert_eq!(err["error"]["code"], "no_such_question");
    let still = system.poll(&task, |_| true).await;
    assert_eq!(still["state"], "input_required", "{still}");

    let (status, answered) = system.answer(&task, json!({"answer": "April"})).await;
    assert_eq!(status, 202, "{answered}");
    assert_eq!(answered["question"], 1);

    let done = system.poll(&task, |s| s["state"] == "done").await;
    assert_eq!(done["state"], "done", "{done}");
    assert!(done.get("question").is_none(), "{done}");
    assert_eq!(done["report"]["status"], "completed", "{done}");
    assert_eq!(answers(&done["report"]), ["Friday"]);

    // Its report is out: any later answer is too late.
    let (status, err) = system.answer(&task, json!({"answer": "March"})).await;
    assert_eq!(status, 409, "{err}");
    assert_eq!(err["error"]["code"], "task_finished");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_session_in_the_request_body_makes_a_follow_up_use_the_last_answer() {
    let system = System::start(settings(10_000, 60_000)).await;
    let session = json!({"session_id": "http-s1"});
    let first = system
        .submit(json!({"query": "2+4", "context": session}))
        .await;
    let done = system.poll(&first, |s| s["state"] == "done").await;
    assert_eq!(answers(&done["report"]), ["6"]);
    let follow = system
        .submit(json!({"query": "now multiply that by 3", "context": session}))
        .await;
    let done = system.poll(&follow, |s| s["state"] == "done").await;
    assert_eq!(answers(&done["report"]), ["18"], "{done}");
    let text = done["report"]["text"].as_str().expect("text");
    assert!(text.contains("6 (your last answer) × 3 = 18"), "{text}");
    // Another session has no earlier answer: it asks which number "that" is.
    let other = system
        .submit(json!({"query": "now multiply that by 3", "context": {"session_id": "http-s2"}}))
        .await;
    let waiting = system.poll(&other, |s| s["state"] != "pending").await;
    assert_eq!(waiting["state"], "input_required", "{waiting}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_answer_that_does_not_settle_it_is_asked_again_and_the_first_question_is_closed() {
    let system = System::start(settings(10_000, 60_000)).await;
    let mut events = system.stream(json!({"query": "divide 10 by"})).await;
    let task = events.expect("accepted").await["task_id"]
        .as_str()
        .expect("task id")
        .to_owned();
    assert_eq!(events.expect("question").await["number"], 1);

    let (status, answered) = system.answer(&task, json!({"answer": "banana"})).await;
    assert_eq!(status, 202, "{answered}");
    let again = events.expect("question").await;
    assert_eq!(again["number"], 2, "{again}");
    assert_eq!(again["task_id"], task.as_str());
    let polled = system.poll(&task, |_| true).await;
    assert_eq!(polled["state"], "input_required");
    assert_eq!(polled["question"]["number"], 2, "{polled}");

    // Question 1 is settled; question 3 is not asked; neither moves the task.
    let (status, err) = system
        .answer(&task, json!({"answer": "5", "question": 1}))
        .await;
    assert_eq!(status, 409, "{err}");
    assert_eq!(err["error"]["code"], "already_answered");
    let (status, err) = system
        .answer(&task, json!({"answer": "5", "question": 3}))
        .await;
    assert_eq!(status, 409, "{err}");
    assert_eq!(err["error"]["code"], "no_such_question");

    let (status, answered) = system
        .answer(&task, json!({"answer": "5", "question": 2}))
        .await;
    assert_eq!(status, 202, "{answered}");
    assert_eq!(answered["question"], 2);
    let (status, err) = system.answer(&task, json!({"answer": "5"})).await;
    assert_eq!(status, 409, "{err}");
    assert!(
        ["already_answered", "task_finished"]
            .contains(&err["error"]["code"].as_str().unwrap_or("")),
        "{err}"
    );
    let rest = events.rest().await;
    assert_eq!(names(&rest), ["plan", "step", "report"], "{rest:?}");
    assert_eq!(answers(&rest[2].1), ["2"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_stream_waits_past_the_task_deadline_for_the_answer() {
    // A 1 s deadline: without the question, the stream would give up after 3 s.
    let system = System::start(settings(1_000, 60_000)).await;
    let started = Instant::now();
    let mut events = system.stream(json!({"query": "divide 10 by"})).await;
    let task = events.expect("accepted").await["task_id"]
        .as_str()
        .expect("task id")
        .to_owned();
    events.expect("question").await;
    // Nothing, not even an `error`, until well past deadline and grace.
    let quiet = Duration::from_millis(3_500).saturating_sub(started.elapsed());
    let early = events.next(quiet).await;
    assert!(early.is_none(), "the stream said {early:?} while waiting");
    let polled = system.poll(&task, |_| true).await;
    assert_eq!(
        polled["state"], "input_required",
        "deadline paused: {polled}"
    );

    let (status, answered) = system.answer(&task, json!({"answer": "4"})).await;
    assert_eq!(status, 202, "{answered}");
    let rest = events.rest().await;
    assert_eq!(names(&rest), ["plan", "step", "report"], "{rest:?}");
    assert_eq!(answers(&rest[2].1), ["2.5"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_question_left_unanswered_ends_the_stream_with_the_unanswered_report() {
    let system = System::start(settings(10_000, 300)).await;
    let mut events = system.stream(json!({"query": "divide 10 by"})).await;
    let task = events.expect("accepted").await["task_id"]
        .as_str()
        .expect("task id")
        .to_owned();
    events.expect("question").await;
    let rest = events.rest().await;
    assert_eq!(names(&rest), ["report"], "{rest:?}");
    assert_eq!(rest[0].1["status"], "unanswered", "{rest:?}");

    let done = system.poll(&task, |s| s["state"] == "done").await;
    assert_eq!(done["report"]["status"], "unanswered", "{done}");
    let (status, err) = system.answer(&task, json!({"answer": "4"})).await;
    assert_eq!(status, 409, "{err}");
    assert_eq!(err["error"]["code"], "task_finished");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_same_task_streamed_again_while_it_waits_shows_its_question_at_once() {
    let system = System::start(settings(10_000, 60_000)).await;
    let body = json!({"query": "divide 10 by", "task_id": "asks-again-1"});
    let task = system.submit(body.clone()).await;
    assert_eq!(task, "asks-again-1");
    let waiting = system.poll(&task, |s| s["state"] == "input_required").await;
    assert_eq!(waiting["state"], "input_required", "{waiting}");

    let mut events = system.stream(body).await;
    assert_eq!(events.expect("accepted").await["task_id"], task.as_str());
    let question = events.expect("question").await;
    assert_eq!(question["number"], 1);
    assert_eq!(question["task_id"], task.as_str());
    let (status, _) = system.answer(&task, json!({"answer": "4"})).await;
    assert_eq!(status, 202);
    let rest = events.rest().await;
    assert_eq!(names(&rest), ["plan", "step", "report"], "{rest:?}");
    assert_eq!(answers(&rest[2].1), ["2.5"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_refused_answer_gets_the_doors_status_and_code() {
    let system = System::start(settings(10_000, 60_000)).await;
    let task = system.submit(json!({"query": "divide 10 by"})).await;
    let waiting = system.poll(&task, |s| s["state"] == "input_required").await;
    assert_eq!(waiting["state"], "input_required", "{waiting}");
    let answer_uri = format!("/tasks/{task}/answer");

    let long = "9".repeat(1001);
    let cases = [
        (json!({"answer": "   "}), 422, "empty_answer"),
        (json!({"answer": long}), 422, "answer_too_long"),
        (json!({"question": 1}), 422, "invalid_body"),
        (json!({"answer": 4}), 422, "invalid_body"),
    ];
    for (body, status, code) in cases {
        let (got, err) = system.call("POST", &answer_uri, Some(body.clone())).await;
        assert_eq!(
            (got, err["error"]["code"].as_str()),
            (status, Some(code)),
            "{body}: {err}"
        );
        assert!(
            err["error"]["message"]
                .as_str()
                .is_some_and(|m| !m.is_empty())
        );
    }
    let raw = [
        ("application/json", "{not json", 400, "malformed_json"),
        ("text/plain", r#"{"answer": "4"}"#, 415, "not_json"),
    ];
    for (content_type, body, status, code) in raw {
        let (got, err) = system
            .raw("POST", &answer_uri, content_type, body.to_owned())
            .await;
        assert_eq!(
            (got, err["error"]["code"].as_str()),
            (status, Some(code)),
            "{body}: {err}"
        );
    }
    for unknown in ["no-such-task", "has spaces"] {
        let (got, err) = system
            .answer(&unknown.replace(' ', "%20"), json!({"answer": "4"}))
            .await;
        assert_eq!(
            (got, err["error"]["code"].as_str()),
            (404, Some("unknown_task")),
            "{err}"
        );
    }
    // None of that moved the task; a good answer still settles it.
    let still = system.poll(&task, |_| true).await;
    assert_eq!(still["state"], "input_required", "{still}");
    let (status, _) = system.answer(&task, json!({"answer": "4"})).await;
    assert_eq!(status, 202);
    let done = system.poll(&task, |s| s["state"] == "done").await;
    assert_eq!(answers(&done["report"]), ["2.5"]);

    // A task that never asked: 409 once its report is out.
    let plain = system.submit(json!({"query": "2+4"})).await;
    let done = system.poll(&plain, |s| s["state"] == "done").await;
    assert_eq!(answers(&done["report"]), ["6"]);
    let (status, err) = system.answer(&plain, json!({"answer": "4"})).await;
    assert_eq!(
        (status, err["error"]["code"].as_str()),
        (409, Some("task_finished"))
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_task_still_running_that_asked_nothing_refuses_an_answer() {
    // No Planner: the task is accepted and stays pending, having asked nothing.
    let system = System::bare(settings(10_000, 60_000)).await;
    let task = system.submit(json!({"query": "2+4"})).await;
    let (status, state) = system.call("GET", &format!("/tasks/{task}"), None).await;
    assert_eq!((status, state["state"].as_str()), (200, Some("pending")));
    let (status, err) = system.answer(&task, json!({"answer": "4"})).await;
    assert_eq!(status, 409, "{err}");
    assert_eq!(err["error"]["code"], "nothing_asked");
}

#[test]
fn the_openapi_document_has_the_answer_route_and_the_question() {
    let doc = chorus_gateway::openapi();
    let answer = &doc["paths"]["/tasks/{id}/answer"]["post"];
    for status in ["202", "400", "404", "409", "422", "503"] {
        assert!(
            answer["responses"].get(status).is_some(),
            "{status} missing"
        );
    }
    let conflicts = answer["responses"]["409"]["description"]
        .as_str()
        .unwrap_or("");
    for code in [
        "task_finished",
        "nothing_asked",
        "already_answered",
        "no_such_question",
    ] {
        assert!(conflicts.contains(code), "{code} missing");
    }
    let schemas = &doc["components"]["schemas"];
    assert!(
        schemas["TaskStatus"]["properties"]
            .get("question")
            .is_some()
    );
    assert!(schemas.get("ClarificationNeeded").is_some());
    assert!(
        schemas["QuestionEvent"]["properties"]
            .get("task_id")
            .is_some()
    );
    let stream = doc["paths"]["/chat/stream"]["post"]["responses"]["200"]["description"]
        .as_str()
        .unwrap_or("");
    assert!(stream.contains("`question`"), "{stream}");
}
