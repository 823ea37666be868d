//! A task's question over the Chief's HTTP API, against the real system: every role its
//! own process, real Redis, real MCP servers, a real HTTP client. `POST /chat/stream`
//! shows the `question` event and the same stream ends with the report once the answer
//! comes (over HTTP, or a bare `XADD clarification_answer`); `GET /tasks/{id}` says
//! `input_required` with the question; `POST /tasks/{id}/answer` answers, or refuses
//! with the door's status and code.

use std::pin::Pin;
use std::time::Duration;

use chorus_e2e::{Cluster, ClusterOptions, poll_task};
use chorus_testkit::sse::SseReader;
use futures::{Stream, StreamExt};
use serde_json::{Value, json};

fn base(cluster: &Cluster) -> String {
    chorus_e2e::wait_for_port(cluster.http_port, Duration::from_secs(10));
    format!("http://127.0.0.1:{}", cluster.http_port)
}

type Body = Pin<Box<dyn Stream<Item = reqwest::Result<Vec<u8>>> + Send>>;

/// A Server-Sent Events response, read event by event.
struct Sse {
    body: Body,
    reader: SseReader,
}

impl Sse {
    async fn open(http: &reqwest::Client, url: &str, body: Value) -> Sse {
        let response = http
            .post(format!("{url}/chat/stream"))
            .json(&body)
            .send()
            .await
            .expect("request");
        assert_eq!(response.status(), 200);
        Sse {
            body: Box::pin(response.bytes_stream().map(|c| c.map(|b| b.to_vec()))),
            reader: SseReader::new(),
        }
    }

    /// The next event (name, data) within `within`; `None` at the stream's end or when
    /// nothing came in time.
    async fn next(&mut self, within: Duration) -> Option<(String, Value)> {
        let until = tokio::time::Instant::now() + within;
        loop {
            if let Some(event) = self.reader.next_event() {
                let data = serde_json::from_str(&event.data).expect("json data");
                return Some((event.name, data));
            }
            match tokio::time::timeout_at(until, self.body.next()).await {
                Ok(Some(Ok(chunk))) => self.reader.push(&chunk),
                _ => return None,
            }
        }
    }

    /// The next event, which must be `name`; its data.
    async fn expect(&mut self, name: &str) -> Value {
        match self.next(Duration::from_secs(20)).await {
            Some((n, data)) if n == name => data,
            other => panic!("expected a {name:?} event, got {other:?}"),
        }
    }

    /// Every event up to the stream's end (or 20 s).
    async fn rest(&mut self) -> Vec<(String, Value)> {
        let mut events = Vec::new();
        while let Some(e) = self.next(Duration::from_secs(20)).await {
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
    chorus_e2e::answers(&report)
}

/// `POST /tasks/{task}/answer`: the status and the JSON body.
async fn answer(http: &reqwest::Client, url: &str, task: &str, body: Value) -> (u16, Value) {
    let r = http
        .post(format!("{url}/tasks/{task}/answer"))
        .json(&body)
        .send()
        .await
        .expect("post answer");
    let status = r.status().as_u16();
    (status, r.json().await.expect("json"))
}

/// `POST /tasks`: the new task's id.
async fn submit(http: &reqwest::Client, url: &str, query: &str) -> String {
    let r = http
        .post(format!("{url}/tasks"))
        .json(&json!({"query": query}))
        .send()
        .await
        .expect("post task");
    assert_eq!(r.status(), 202);
    let accepted: Value = r.json().await.expect("json");
    accepted["task_id"].as_str().expect("task id").to_owned()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_streamed_question_answered_through_any_door_ends_the_same_stream_with_the_report() {
    let cluster = Cluster::start(ClusterOptions::default());
    let url = base(&cluster);
    let http = reqwest::Client::new();

    // Answered over HTTP.
    let mut events = Sse::open(&http, &url, json!({"query": "divide 10 by"})).await;
    let task = events.expect("accepted").await["task_id"]
        .as_str()
        .expect("task id")
        .to_owned();
    let question = events.expect("question").await;
    assert_eq!(question["task_id"], task.as_str(), "{question}");
    assert_eq!(question["number"], 1, "{question}");
    assert_eq!(question["part"], "divide 10 by", "{question}");
    assert!(question["question"].as_str().is_some_and(|q| !q.is_empty()));
    let (status, answered) = answer(&http, &url, &task, json!({"answer": "4"})).await;
    assert_eq!(status, 202, "{answered}");
    assert_eq!(answered, json!({"task_id": task, "question": 1}));
    let rest = events.rest().await;
    assert_eq!(names(&rest), ["plan", "step", "report"], "{rest:?}");
    assert_eq!(rest[2].1["status"], "completed", "{rest:?}");
    assert_eq!(answers(&rest[2].1), ["2.5"]);

    // Answered by a client with no SDK: a bare XADD on clarification_answer.
    let mut events = Sse::open(&http, &url, json!({"query": "what weekday is 03/04/2026"})).await;
    let task = events.expect("accepted").await["task_id"]
        .as_str()
        .expect("task id")
        .to_owned();
    let question = events.expect("question").await;
    assert_eq!(
        question["options"].as_array().map(Vec::len),
        Some(2),
        "{question}"
    );
    let bare = json!({"task_id": task, "answer": "1"}).to_string();
    cluster
        .redis
        .cli(&["XADD", "clarification_answer", "*", "data", &bare]);
    let rest = events.rest().await;
    assert_eq!(names(&rest), ["plan", "step", "report"], "{rest:?}");
    assert_eq!(answers(&rest[2].1), ["Friday"], "3 April 2026");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn polling_shows_input_required_with_two_options_then_done_after_the_answer() {
    let cluster = Cluster::start(ClusterOptions::default());
    let url = base(&cluster);
    let http = reqwest::Client::new();

    let task = submit(&http, &url, "what weekday is 03/04/2026").await;
    let waiting = poll_task(&http, &url, &task, |s| s["state"] != "pending").await;
    assert_eq!(waiting["state"], "input_required", "{waiting}");
    let options = waiting["question"]["options"].as_array().expect("options");
    let values: Vec<&str> = options.iter().filter_map(|o| o["value"].as_str()).collect();
    assert_eq!(values, ["2026-04-03", "2026-03-04"], "{waiting}");
    assert!(options.iter().all(|o| o["label"].is_string()));

    let (status, answered) = answer(&http, &url, &task, json!({"answer": "April"})).await;
    assert_eq!(status, 202, "{answered}");
    assert_eq!(answered["question"], 1);
    let done = poll_task(&http, &url, &task, |s| s["state"] == "done").await;
    assert_eq!(done["state"], "done", "{done}");
    assert_eq!(done["report"]["status"], "completed", "{done}");
    assert_eq!(answers(&done["report"]), ["Friday"], "{done}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn refused_answers_get_their_status_and_code() {
    let cluster = Cluster::start(ClusterOptions::default());
    let url = base(&cluster);
    let http = reqwest::Client::new();
    let code = |v: &Value| v["error"]["code"].as_str().unwrap_or("").to_owned();

    // An unknown task.
    let (status, err) = answer(&http, &url, "no-such-task", json!({"answer": "4"})).await;
    assert_eq!(
        (status, code(&err).as_str()),
        (404, "unknown_task"),
        "{err}"
    );

    // A task that asked nothing and has its report.
    let plain = submit(&http, &url, "2+4").await;
    let done = poll_task(&http, &url, &plain, |s| s["state"] == "done").await;
    assert_eq!(answers(&done["report"]), ["6"], "{done}");
    let (status, err) = answer(&http, &url, &plain, json!({"answer": "4"})).await;
    assert_eq!(
        (status, code(&err).as_str()),
        (409, "task_finished"),
        "{err}"
    );

    // A task that asks; bad answers leave it waiting.
    let task = submit(&http, &url, "divide 10 by").await;
    let waiting = poll_task(&http, &url, &task, |s| s["state"] != "pending").await;
    assert_eq!(waiting["state"], "input_required", "{waiting}");
    let (status, err) = answer(&http, &url, &task, json!({"answer": ""})).await;
    assert_eq!(
        (status, code(&err).as_str()),
        (422, "empty_answer"),
        "{err}"
    );
    let long = "4".repeat(1001);
    let (status, err) = answer(&http, &url, &task, json!({"answer": long})).await;
    assert_eq!(
        (status, code(&err).as_str()),
        (422, "answer_too_long"),
        "{err}"
    );
    let (status, err) = answer(&http, &url, &task, json!({"reply": "4"})).await;
    assert_eq!(
        (status, code(&err).as_str()),
        (422, "invalid_body"),
        "{err}"
    );
    let still = poll_task(&http, &url, &task, |_| true).await;
    assert_eq!(still["state"], "input_required", "{still}");

    // With the Planner frozen, the task cannot move on after its answer: a second
    // answer finds the question settled, and a task accepted meanwhile has asked nothing.
    cluster.signal("planner", "-STOP");
    let (status, answered) = answer(&http, &url, &task, json!({"answer": "4"})).await;
    let (again, err) = answer(&http, &url, &task, json!({"answer": "5"})).await;
    let running = submit(&http, &url, "3+4").await;
    let (asked_nothing, err_nothing) = answer(&http, &url, &running, json!({"answer": "4"})).await;
    cluster.signal("planner", "-CONT");
    assert_eq!(status, 202, "{answered}");
    assert_eq!(
        (again, code(&err).as_str()),
        (409, "already_answered"),
        "{err}"
    );
    assert_eq!(
        (asked_nothing, code(&err_nothing).as_str()),
        (409, "nothing_asked"),
        "{err_nothing}"
    );

    // Thawed, both finish: the first answer counted, the second did not.
    let done = poll_task(&http, &url, &task, |s| s["state"] == "done").await;
    assert_eq!(answers(&done["report"]), ["2.5"], "{done}");
    let done = poll_task(&http, &url, &running, |s| s["state"] == "done").await;
    assert_eq!(answers(&done["report"]), ["7"], "{done}");
}
