//! A2A tasks end to end in process, every role on the in-memory bus: a blocking
//! `SendMessage` returns the completed task with its report artifact; `returnImmediately`
//! returns it submitted; `SendStreamingMessage` streams the task, the working updates,
//! the artifact and the final status in order; a question is `TASK_STATE_INPUT_REQUIRED`
//! and a message on its taskId answers it; a contextId is a conversation; `GetTask`
//! follows the history length rules; `CancelTask` cancels a waiting task once;
//! `SubscribeToTask` follows a waiting task through its answer to the report.

mod support;

use std::time::{Duration, Instant};

use serde_json::{Value, json};
use support::System;
use support::a2a::{kinds, message, report_text};

/// A message answering `task` (in `context`).
fn reply(text: &str, task: &str, context: &str) -> Value {
    let mut m = message(text);
    m["taskId"] = json!(task);
    m["contextId"] = json!(context);
    m
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_blocking_send_returns_the_completed_task_with_its_report() {
    let system = System::start().await;
    let result = system
        .result("SendMessage", json!({"message": message("tính 2+4")}))
        .await;
    let task = &result["task"];
    assert_eq!(task["status"]["state"], "TASK_STATE_COMPLETED", "{task}");
    assert!(task["status"].get("message").is_none(), "{task}");
    assert!(task["status"]["timestamp"].as_str().unwrap().ends_with('Z'));
    let context = task["contextId"].as_str().expect("a generated contextId");
    assert_eq!(context.len(), 36, "a UUID: {context}");
    assert_eq!(task["metadata"]["chorusStatus"], "completed");
    let artifact = &task["artifacts"][0];
    assert_eq!(artifact["artifactId"], "report");
    assert!(report_text(task).contains("= 6"), "{task}");
    let data = &artifact["parts"][1];
    assert_eq!(data["mediaType"], "application/json");
    assert_eq!(data["data"]["status"], "completed");
    assert_eq!(data["data"]["steps"][0]["tool"], "sum");
    let history = task["history"].as_array().unwrap();
    assert_eq!(history.len(), 1);
    assert_eq!(history[0]["role"], "ROLE_USER");
    assert_eq!(history[0]["parts"][0]["text"], "tính 2+4");

    let id = task["id"].as_str().unwrap();
    let got = system.result("GetTask", json!({"id": id})).await;
    assert_eq!(got["status"]["state"], "TASK_STATE_COMPLETED");
    assert_eq!(got["artifacts"], task["artifacts"]);
    let got = system
        .result("GetTask", json!({"id": id, "historyLength": 0}))
        .await;
    assert!(got.get("history").is_none(), "{got}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn return_immediately_answers_submitted_and_get_task_sees_it_finish() {
    let system = System::start().await;
    let params = json!({
        "message": message("what weekday is 2026-12-25"),
        "configuration": {"returnImmediately": true, "acceptedOutputModes": ["text/plain"]}
    });
    let task = system.result("SendMessage", params).await["task"].clone();
    assert_eq!(task["status"]["state"], "TASK_STATE_SUBMITTED", "{task}");
    let id = task["id"].as_str().unwrap().to_owned();
    let start = Instant::now();
    let done = loop {
        let got = system.result("GetTask", json!({"id": id})).await;
        let state = got["status"]["state"].as_str().unwrap().to_owned();
        assert!(
            [
                "TASK_STATE_SUBMITTED",
                "TASK_STATE_WORKING",
                "TASK_STATE_COMPLETED"
            ]
            .contains(&state.as_str()),
            "{got}"
        );
        if state == "TASK_STATE_COMPLETED" || start.elapsed() > Duration::from_secs(10) {
            break got;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    };
    assert_eq!(done["status"]["state"], "TASK_STATE_COMPLETED", "{done}");
    assert!(report_text(&done).contains("Friday"), "{done}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_streamed_multi_step_task_shows_each_update_in_order_then_the_report() {
    let system = System::start().await;
    let query = "compute (2+4)*3 and tell me the weekday of 2026-12-25";
    let mut events = system
        .rpc_stream("SendStreamingMessage", json!({"message": message(query)}))
        .await;
    let results = events.results().await;
    let kinds = kinds(&results);
    assert_eq!(
        kinds.first().map(String::as_str),
        Some("task:TASK_STATE_SUBMITTED")
    );
    let n = kinds.len();
    assert_eq!(
        kinds[n - 2..],
        ["artifact", "status:TASK_STATE_COMPLETED"],
        "{kinds:?}"
    );
    // The plan, then one update per step (three steps).
    assert_eq!(
        kinds[1..n - 2],
        ["status:TASK_STATE_WORKING"; 4],
        "{results:#?}"
    );
    let progress: Vec<&str> = results[1..n - 2]
        .iter()
        .map(|r| {
            r["statusUpdate"]["status"]["message"]["parts"][0]["text"]
                .as_str()
                .unwrap()
        })
        .collect();
    assert_eq!(progress[0], "planned 3 step(s)");
    assert!(progress.contains(&"s2 multiply = 18"), "{progress:?}");
    let artifact = &results[n - 2]["artifactUpdate"];
    assert_eq!(artifact["lastChunk"], true);
    let text = artifact["artifact"]["parts"][0]["text"].as_str().unwrap();
    assert!(text.contains("18") && text.contains("Friday"), "{text}");
    let id = results[0]["task"]["id"].as_str().unwrap();
    for r in &results[1..] {
        let event = r.get("statusUpdate").or(r.get("artifactUpdate")).unwrap();
        assert_eq!(event["taskId"], id);
        assert_eq!(event["contextId"], results[0]["task"]["contextId"]);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_question_is_input_required_and_a_message_on_its_task_answers_it() {
    let system = System::start().await;
    let result = system
        .result("SendMessage", json!({"message": message("divide 10 by")}))
        .await;
    let task = &result["task"];
    assert_eq!(
        task["status"]["state"], "TASK_STATE_INPUT_REQUIRED",
        "{task}"
    );
    let asked = &task["status"]["message"];
    assert_eq!(asked["role"], "ROLE_AGENT");
    assert!(
        asked["parts"][0]["text"]
            .as_str()
            .unwrap()
            .contains("which number")
    );
    assert_eq!(asked["parts"][1]["data"]["number"], 1);
    assert_eq!(asked["parts"][1]["data"]["part"], "divide 10 by");
    assert_eq!(task["history"][1], *asked, "the question is in the history");
    let (id, context) = (
        task["id"].as_str().unwrap(),
        task["contextId"].as_str().unwrap(),
    );

    let got = system
        .result("GetTask", json!({"id": id, "historyLength": 1}))
        .await;
    assert_eq!(got["status"]["state"], "TASK_STATE_INPUT_REQUIRED");
    assert_eq!(got["history"].as_array().unwrap().len(), 1);
    assert_eq!(got["history"][0]["role"], "ROLE_AGENT");

    let wrong = system
        .error(
            "SendMessage",
            json!({"message": reply("2", id, "another-context")}),
        )
        .await;
    assert_eq!(wrong["code"], -32602, "{wrong}");

    let answered = system
        .result("SendMessage", json!({"message": reply("2", id, context)}))
        .await;
    let answered = &answered["task"];
    assert_eq!(answered["id"], id);
    assert_eq!(
        answered["status"]["state"], "TASK_STATE_COMPLETED",
        "{answered}"
    );
    assert!(report_text(answered).contains("= 5"), "{answered}");

    let late = system
        .error("SendMessage", json!({"message": reply("3", id, context)}))
        .await;
    assert_eq!(
        late["code"], -32004,
        "a terminal task takes no message: {late}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_streamed_question_ends_its_stream_and_the_streamed_answer_goes_on_to_the_report() {
    let system = System::start().await;
    let mut events = system
        .rpc_stream(
            "SendStreamingMessage",
            json!({"message": message("divide 10 by")}),
        )
        .await;
    let results = events.results().await;
    assert_eq!(
        kinds(&results),
        [
            "task:TASK_STATE_SUBMITTED",
            "status:TASK_STATE_INPUT_REQUIRED"
        ]
    );
    let task = &results[0]["task"];
    let (id, context) = (
        task["id"].as_str().unwrap(),
        task["contextId"].as_str().unwrap(),
    );

    let mut events = system
        .rpc_stream(
            "SendStreamingMessage",
            json!({"message": reply("ten", id, context)}),
        )
        .await;
    let results = events.results().await;
    let kinds = kinds(&results);
    // The task as the answer left it (working; done already when the pipeline was
    // quicker than the read), then its updates to the report.
    let text = match kinds[0].as_str() {
        "task:TASK_STATE_WORKING" => {
            assert_eq!(
                kinds[kinds.len() - 1],
                "status:TASK_STATE_COMPLETED",
                "{kinds:?}"
            );
            results[kinds.len() - 2]["artifactUpdate"]["artifact"]["parts"][0]["text"].clone()
        }
        "task:TASK_STATE_COMPLETED" => {
            assert_eq!(kinds.len(), 1, "{kinds:?}");
            json!(report_text(&results[0]["task"]))
        }
        other => panic!("the answered task is {other}: {kinds:?}"),
    };
    assert!(text.as_str().unwrap().contains("= 1"), "{text}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_context_id_is_a_conversation_that_a_follow_up_uses() {
    let system = System::start().await;
    let mut first = message("2+4");
    first["contextId"] = json!("alice-1");
    let task = system
        .result("SendMessage", json!({"message": first}))
        .await;
    assert_eq!(task["task"]["contextId"], "alice-1");
    let mut follow_up = message("now multiply that by 3");
    follow_up["contextId"] = json!("alice-1");
    let task = system
        .result("SendMessage", json!({"message": follow_up}))
        .await;
    assert_eq!(
        task["task"]["status"]["state"], "TASK_STATE_COMPLETED",
        "{task}"
    );
    assert!(report_text(&task["task"]).contains("= 18"), "{task}");

    let alone = system
        .result(
            "SendMessage",
            json!({"message": message("now multiply that by 3")}),
        )
        .await;
    assert_eq!(
        alone["task"]["status"]["state"], "TASK_STATE_INPUT_REQUIRED",
        "{alone}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_waiting_task_is_canceled_once_and_a_finished_one_is_not_cancelable() {
    let system = System::start().await;
    let waiting = system
        .result("SendMessage", json!({"message": message("divide 10 by")}))
        .await;
    let id = waiting["task"]["id"].as_str().unwrap();
    let canceled = system
        .result(
            "CancelTask",
            json!({"id": id, "metadata": {"reason": "changed my mind"}}),
        )
        .await;
    assert_eq!(
        canceled["status"]["state"], "TASK_STATE_CANCELED",
        "{canceled}"
    );
    assert_eq!(canceled["metadata"]["chorusStatus"], "canceled");
    assert!(
        canceled["status"]["message"]["parts"][0]["text"]
            .as_str()
            .is_some()
    );
    let got = system.result("GetTask", json!({"id": id})).await;
    assert_eq!(got["status"]["state"], "TASK_STATE_CANCELED");

    let again = system.error("CancelTask", json!({"id": id})).await;
    assert_eq!(again["code"], -32002, "{again}");
    assert_eq!(
        again["data"][0]["metadata"]["chorusCode"],
        "already_canceled"
    );

    let done = system
        .result("SendMessage", json!({"message": message("2+4")}))
        .await;
    let done_id = done["task"]["id"].as_str().unwrap();
    let finished = system.error("CancelTask", json!({"id": done_id})).await;
    assert_eq!(finished["code"], -32002, "{finished}");
    assert_eq!(finished["data"][0]["reason"], "TASK_NOT_CANCELABLE");
    assert_eq!(finished["data"][0]["metadata"]["chorusCode"], "finished");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_subscription_follows_a_waiting_task_through_its_answer_to_the_report() {
    let system = System::start().await;
    let waiting = system
        .result("SendMessage", json!({"message": message("divide 10 by")}))
        .await;
    let task = &waiting["task"];
    let (id, context) = (
        task["id"].as_str().unwrap(),
        task["contextId"].as_str().unwrap(),
    );
    let mut events = system
        .rpc_stream("SubscribeToTask", json!({"id": id}))
        .await;
    let (_, first) = events.next_event().await.expect("the task first");
    assert_eq!(
        first["result"]["task"]["status"]["state"],
        "TASK_STATE_INPUT_REQUIRED"
    );

    let answered = system
        .result("SendMessage", json!({"message": reply("4", id, context), "configuration": {"returnImmediately": true}}))
        .await;
    let state = answered["task"]["status"]["state"].as_str().unwrap();
    assert!(
        ["TASK_STATE_WORKING", "TASK_STATE_COMPLETED"].contains(&state),
        "{answered}"
    );
    let rest = events.results().await;
    let kinds = kinds(&rest);
    assert_eq!(
        kinds[kinds.len() - 2..],
        ["artifact", "status:TASK_STATE_COMPLETED"],
        "{kinds:?}"
    );
    assert!(
        rest[kinds.len() - 2]["artifactUpdate"]["artifact"]["parts"][0]["text"]
            .as_str()
            .unwrap()
            .contains("2.5")
    );

    let error = system.error("SubscribeToTask", json!({"id": id})).await;
    assert_eq!(error["code"], -32004, "a terminal task: {error}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_request_chorus_cannot_plan_is_rejected_saying_why() {
    let system = System::start().await;
    let result = system
        .result(
            "SendMessage",
            json!({"message": message("what's the weather in Hanoi")}),
        )
        .await;
    let task = &result["task"];
    assert_eq!(task["status"]["state"], "TASK_STATE_REJECTED", "{task}");
    assert_eq!(task["metadata"]["chorusStatus"], "unplannable");
    let why = task["status"]["message"]["parts"][0]["text"]
        .as_str()
        .unwrap();
    assert!(why.contains("weather"), "{why}");
}
