//! The OpenAI-compatible endpoint in process (the harness: `support`): the
//! model list; a completion is the report; follow-ups find their session from the
//! history and a diverging branch does not see the other's turns; a question is
//! answered by the next user message, also when two identical conversations wait at
//! once; a retried answer gets the same task's report.

mod support;

use serde_json::{Value, json};
use support::openai::content;
use support::{System, settings};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_one_model_is_listed_and_a_completion_is_the_report() {
    let system = System::start().await;
    let (status, models) = system.call("GET", "/v1/models", Value::Null).await;
    assert_eq!(status, 200);
    assert_eq!(models["object"], "list");
    let ids: Vec<&str> = models["data"]
        .as_array()
        .expect("data")
        .iter()
        .filter_map(|m| m["id"].as_str())
        .collect();
    assert_eq!(ids, ["chorus"], "{models}");
    assert_eq!(models["data"][0]["owned_by"], "chorus");
    let (status, model) = system.call("GET", "/v1/models/chorus", Value::Null).await;
    assert_eq!((status, model["id"].as_str()), (200, Some("chorus")));
    let (status, missing) = system.call("GET", "/v1/models/gpt-4o", Value::Null).await;
    assert_eq!(
        (status, missing["error"]["code"].as_str()),
        (404, Some("model_not_found"))
    );

    let completion = system
        .complete(&[("system", "You are terse."), ("user", "tính 2+4")])
        .await;
    assert_eq!(content(&completion), "2 + 4 = 6\n", "{completion}");
    let task = completion["chorus"]["task_id"].as_str().expect("task id");
    assert_eq!(completion["id"], format!("chatcmpl-{task}"));
    assert_eq!(completion["object"], "chat.completion");
    assert_eq!(completion["model"], "chorus");
    assert_eq!(completion["choices"][0]["finish_reason"], "stop");
    assert_eq!(completion["chorus"]["status"], "completed");
    // Words: "You are terse." 3 + "tính 2+4" 2; "2 + 4 = 6" 5.
    assert_eq!(
        completion["usage"],
        json!({"prompt_tokens": 5, "completion_tokens": 5, "total_tokens": 10})
    );
    // The task is one like any other (its report may still be on its way to the store).
    let (status, polled) = system
        .call("GET", &format!("/tasks/{task}"), Value::Null)
        .await;
    assert_eq!(status, 200, "{polled}");
    assert_eq!(polled["task_id"], task, "{polled}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn follow_ups_find_their_session_and_diverging_branches_do_not_see_each_other() {
    let system = System::start().await;
    let first = content(&system.complete(&[("user", "2+4")]).await);
    assert_eq!(first, "2 + 4 = 6\n");
    let times = content(
        &system
            .complete(&[
                ("user", "2+4"),
                ("assistant", &first),
                ("user", "now multiply that by 3"),
            ])
            .await,
    );
    assert!(times.contains("= 18"), "{times}");
    // The same beginning, another way: the branch sees 6, not 18.
    let plus = content(
        &system
            .complete(&[
                ("user", "2+4"),
                ("assistant", &first),
                ("user", "now add 1 to that"),
            ])
            .await,
    );
    assert!(plus.contains("= 7"), "{plus}");
    // The first branch goes on from 18; a reply re-wrapped by the client still counts.
    let rewrapped = times.replace(' ', "  ").trim_end().to_owned();
    let later = content(
        &system
            .complete(&[
                ("user", "2+4"),
                ("assistant", &first),
                ("user", "now multiply that by 3"),
                ("assistant", &rewrapped),
                ("user", "now add 1 to that"),
            ])
            .await,
    );
    assert!(later.contains("= 19"), "{later}");
    // A history Chorus never wrote is no conversation: "that" is asked about.
    let unknown = system
        .complete(&[
            ("user", "2+4"),
            ("assistant", "it is 6"),
            ("user", "now add 1 to that"),
        ])
        .await;
    assert_eq!(unknown["chorus"]["status"], "input_required", "{unknown}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_question_is_answered_by_the_next_user_message_even_when_two_identical_ones_wait() {
    let system = System::start().await;
    let asked = system.complete(&[("user", "divide 10 by")]).await;
    assert_eq!(asked["chorus"]["status"], "input_required", "{asked}");
    assert_eq!(asked["choices"][0]["finish_reason"], "stop");
    let question = content(&asked);
    assert!(question.contains("which number"), "{question}");
    // Someone else has the very same conversation, waiting at the same time.
    let other = content(&system.complete(&[("user", "divide 10 by")]).await);
    assert_eq!(other, question);
    assert_ne!(
        system.complete(&[("user", "divide 10 by")]).await["chorus"]["task_id"],
        asked["chorus"]["task_id"]
    );

    let conversation = |answer: &'static str| {
        [
            ("user", "divide 10 by"),
            ("assistant", question.as_str()),
            ("user", answer),
        ]
    };
    let five = system.complete(&conversation("2")).await;
    assert_eq!(content(&five), "10 ÷ 2 = 5\n", "{five}");
    let quarter = system.complete(&conversation("4")).await;
    assert_eq!(content(&quarter), "10 ÷ 4 = 2.5\n", "{quarter}");
    assert_ne!(five["chorus"]["task_id"], quarter["chorus"]["task_id"]);
    // Sent again (a retry), the answer gets the same task's report; nothing runs twice.
    let again = system.complete(&conversation("2")).await;
    assert_eq!(again["chorus"]["task_id"], five["chorus"]["task_id"]);
    assert_eq!(content(&again), "10 ÷ 2 = 5\n");

    // Options are numbered, and the number picks one.
    let dates = system
        .complete(&[("user", "what weekday is 03/04/2026")])
        .await;
    let options = content(&dates);
    assert!(
        options.ends_with("\n\n1. 3 April 2026\n2. 4 March 2026"),
        "{options}"
    );
    let picked = system
        .complete(&[
            ("user", "what weekday is 03/04/2026"),
            ("assistant", &options),
            ("user", "1"),
        ])
        .await;
    assert!(content(&picked).contains("Friday"), "{picked}");
    assert_eq!(picked["chorus"]["task_id"], dates["chorus"]["task_id"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_edited_answer_is_a_new_request_that_does_not_see_the_other_answer() {
    let system = System::start().await;
    let question = content(&system.complete(&[("user", "divide 10 by")]).await);
    let answered = system
        .complete(&[
            ("user", "divide 10 by"),
            ("assistant", &question),
            ("user", "2"),
        ])
        .await;
    assert_eq!(content(&answered), "10 ÷ 2 = 5\n");
    // The user edits their answer: the question is settled, so this is a new request,
    // and the 5 of the other branch is not among its earlier answers.
    let edited = system
        .complete(&[
            ("user", "divide 10 by"),
            ("assistant", &question),
            ("user", "now add 1 to that"),
        ])
        .await;
    assert_ne!(edited["chorus"]["task_id"], answered["chorus"]["task_id"]);
    assert_eq!(edited["chorus"]["status"], "input_required", "{edited}");
    assert!(!content(&edited).contains('6'), "{edited}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_answer_after_the_timeout_gets_the_unanswered_report() {
    let system = System::start_with(settings(10_000, 300)).await;
    let asked = system.complete(&[("user", "divide 10 by")]).await;
    let task = asked["chorus"]["task_id"]
        .as_str()
        .expect("task")
        .to_owned();
    let done = system.poll(&task, |s| s["state"] == "done").await;
    assert_eq!(done["report"]["status"], "unanswered", "{done}");
    let late = system
        .complete(&[
            ("user", "divide 10 by"),
            ("assistant", &content(&asked)),
            ("user", "2"),
        ])
        .await;
    assert_eq!(late["chorus"]["task_id"], task.as_str());
    assert_eq!(late["chorus"]["status"], "unanswered", "{late}");
    assert_eq!(
        content(&late),
        done["report"]["text"].as_str().expect("text")
    );
}
