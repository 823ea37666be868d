//! The HTTP doors of a task's question, in process: the gateway's router in front of
//! every role (the heuristic Planner, the Chief with its answer timeout, the math and
//! date pools on in-process MCP servers) on the in-memory bus. `POST /chat/stream`
//! shows the question and goes on after the answer; `GET /tasks/{id}` says
//! `input_required` with the question; `POST /tasks/{id}/answer` answers, or refuses
//! with the door's status and code.

mod support;

use std::time::{Duration, Instant};

use axum::body::Body;
use axum::http::Request;
use serde_json::{Value, json};
use support::{Events, System, settings};

/// The native door's helpers.
impl System {
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

    /// `POST /chat/stream`: its events, as they come.
    async fn stream(&self, body: Value) -> Events {
        let request = Request::builder()
            .method("POST")
            .uri("/chat/stream")
            .header("content-type", "application/json")
            .body(Body::from(body.to_string()))
            .expect("request");
        self.events(request).await
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
    let system = System::start().await;
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
    let system = System::start().await;
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
    let system = System::start().await;
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
    let system = System::start().await;
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
    let system = System::start_with(settings(1_000, 60_000)).await;
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
    let system = System::start_with(settings(10_000, 300)).await;
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
    let system = System::start().await;
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
    let system = System::start().await;
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
    let system = System::bare().await;
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
