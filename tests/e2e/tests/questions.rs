//! Ask back (issue 13) end to end, with a real Redis and every role its own process: a
//! request missing something gets a question on `clarification_needed` and waits (its
//! deadline paused); a client with no SDK answers with a bare `{"task_id", "answer"}` by
//! `XADD` or `PUBLISH` on `clarification_answer`; the task is planned with the answer and
//! gets one report. Follow-ups of a conversation use the last answer; bad answers are
//! dead letters with the reason; no answer in time is one `unanswered` report; a role
//! killed while a task waits loses nothing.

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use chorus_bus::{
    Bus, ClarificationNeeded, DeadLetter, FinalReport, Payload, ReportStatus, StepReport, Topic,
};
use chorus_e2e::{Cluster, ClusterOptions, answers, dead_letters, of_task};
use serde_json::{Value, json};

/// How long a question, a report or a dead letter may take to show up.
const WITHIN: Duration = Duration::from_secs(30);

/// A fixed Monday (2026-11-23, 09:00 UTC) for the questions about weekdays.
const MONDAY: &str = "2026-11-23T09:00:00Z";

fn cluster_with(env: &[(&str, &str)]) -> Cluster {
    let env: BTreeMap<String, String> = env
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    Cluster::start(ClusterOptions {
        env,
        ..Default::default()
    })
}

/// How a client with no SDK sends a bare payload.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Via {
    Xadd,
    Publish,
}

impl Via {
    fn name(self) -> &'static str {
        match self {
            Via::Xadd => "xadd",
            Via::Publish => "publish",
        }
    }

    /// Sends `json` on `topic`; the stream entry id for `XADD`, `None` for `PUBLISH`.
    fn send(self, cluster: &Cluster, topic: &str, json: &str) -> Option<String> {
        match self {
            Via::Xadd => Some(cluster.xadd_bare(topic, json)),
            Via::Publish => {
                cluster.publish_bare(topic, json);
                None
            }
        }
    }
}

/// A bare request with a task id and, when given, a context.
fn request(task: &str, query: &str, context: Option<Value>) -> String {
    let mut r = json!({ "task_id": task, "query": query });
    if let Some(c) = context {
        r["context"] = c;
    }
    r.to_string()
}

/// A bare answer.
fn answer(task: &str, text: &str) -> String {
    json!({ "task_id": task, "answer": text }).to_string()
}

/// Sends a bare request by `via`.
fn ask(cluster: &Cluster, via: Via, task: &str, query: &str, context: Option<Value>) {
    via.send(cluster, "task_available", &request(task, query, context));
}

/// Sends a bare answer by `via`; returns what [`Via::send`] does.
fn reply(cluster: &Cluster, via: Via, task: &str, text: &str) -> Option<String> {
    via.send(cluster, "clarification_answer", &answer(task, text))
}

/// The questions `task` asked so far, in the order they went out.
async fn questions(bus: &dyn Bus, task: &str) -> Vec<ClarificationNeeded> {
    of_task(bus, &Topic::clarification_needed(), task)
        .await
        .into_iter()
        .filter_map(|m| match m.payload {
            Payload::ClarificationNeeded(q) => Some(q),
            _ => None,
        })
        .collect()
}

/// The reports of `task` so far.
async fn reports(bus: &dyn Bus, task: &str) -> Vec<FinalReport> {
    of_task(bus, &Topic::final_report(), task)
        .await
        .into_iter()
        .filter_map(|m| match m.payload {
            Payload::FinalReport(r) => Some(r),
            _ => None,
        })
        .collect()
}

/// Polls `get` until `done` holds or [`WITHIN`] passed; returns the last value.
async fn poll<T, F, Fut>(get: F, done: impl Fn(&T) -> bool) -> T
where
    F: Fn() -> Fut,
    Fut: std::future::Future<Output = T>,
{
    let start = Instant::now();
    loop {
        let got = get().await;
        if done(&got) || start.elapsed() > WITHIN {
            return got;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// Waits for question `number` of `task` and returns it.
async fn question(bus: &dyn Bus, task: &str, number: u32) -> ClarificationNeeded {
    let asked = poll(
        || questions(bus, task),
        |q| q.iter().any(|q| q.number == number),
    )
    .await;
    asked
        .into_iter()
        .find(|q| q.number == number)
        .unwrap_or_else(|| panic!("{task}: no question {number} within {WITHIN:?}"))
}

/// Waits for the report of `task` and returns the first one.
async fn report(bus: &dyn Bus, task: &str) -> FinalReport {
    poll(|| reports(bus, task), |r| !r.is_empty())
        .await
        .into_iter()
        .next()
        .unwrap_or_else(|| panic!("{task}: no report within {WITHIN:?}"))
}

/// A bad answer sent: its stream entry id (`XADD`) or its payload (`PUBLISH`).
#[derive(Debug, Clone)]
enum Sent {
    Entry(String),
    Published(String),
}

impl Sent {
    /// Whether `d` is a dead letter of this answer.
    fn letter(&self, d: &DeadLetter) -> bool {
        d.topic == "clarification_answer"
            && match self {
                Sent::Entry(entry) => d.entry_id == *entry,
                Sent::Published(raw) => d.entry_id.is_empty() && d.original == *raw,
            }
    }
}

/// Sends a bad answer payload `raw` by `via`, waits for its dead letter and checks its
/// reason contains `why`; returns what was sent (for the count at the end).
async fn refuse(
    cluster: &Cluster,
    bus: &dyn Bus,
    via: Via,
    what: &str,
    raw: &str,
    why: &str,
) -> Sent {
    let sent = match via.send(cluster, "clarification_answer", raw) {
        Some(entry) => Sent::Entry(entry),
        None => Sent::Published(raw.to_owned()),
    };
    let letters = poll(
        || dead_letters(bus),
        |all| all.iter().any(|d| sent.letter(d)),
    )
    .await;
    let d = letters
        .iter()
        .find(|d| sent.letter(d))
        .unwrap_or_else(|| panic!("{what} by {}: no dead letter", via.name()));
    assert!(
        d.reason.contains(why),
        "{what} by {}: {}",
        via.name(),
        d.reason
    );
    sent
}

/// The dead letters written for `task` on `clarification_answer`.
async fn answer_letters(bus: &dyn Bus, task: &str) -> Vec<DeadLetter> {
    of_task(bus, &Topic::dead_letter(), task)
        .await
        .into_iter()
        .filter_map(|m| match m.payload {
            Payload::DeadLetter(d) if d.topic == "clarification_answer" => Some(d),
            _ => None,
        })
        .collect()
}

/// The `date` argument of a report's first step.
fn date_argument(r: &FinalReport) -> Option<String> {
    r.steps
        .first()
        .and_then(|s: &StepReport| s.arguments.get("date"))
        .and_then(Value::as_str)
        .map(str::to_owned)
}

/// Waits a little, then checks `task` has exactly one report (nothing came late).
async fn exactly_one_report(bus: &dyn Bus, task: &str) -> FinalReport {
    let all = reports(bus, task).await;
    assert_eq!(all.len(), 1, "{task}: {} reports: {all:?}", all.len());
    all.into_iter().next().expect("one")
}

fn assert_alive(cluster: &mut Cluster) {
    for (name, p) in cluster.procs.iter_mut() {
        assert!(p.is_running(), "{name} exited");
    }
}

/// One question and its answer: the request, the answer, and the values of the report.
struct Case {
    name: &'static str,
    query: &'static str,
    context: Option<Value>,
    answer: &'static str,
    answers: &'static [&'static str],
    /// The `date` argument the answer settled, when it is about a date.
    date: Option<&'static str>,
}

fn cases() -> Vec<Case> {
    let monday = || Some(json!({ "now": MONDAY, "timezone": "UTC" }));
    vec![
        Case {
            name: "operand",
            query: "divide 10 by",
            context: None,
            answer: "4",
            answers: &["2.5"],
            date: None,
        },
        Case {
            name: "compound",
            query: "what is 9-4 and divide 10 by",
            context: None,
            answer: "5",
            answers: &["5", "2"],
            date: None,
        },
        Case {
            name: "vi-operand",
            query: "tính 10 chia",
            context: None,
            answer: "4",
            answers: &["2.5"],
            date: None,
        },
        Case {
            name: "date-april",
            query: "what weekday is 03/04/2026",
            context: None,
            answer: "April",
            answers: &["Friday"],
            date: Some("2026-04-03"),
        },
        Case {
            name: "date-second",
            query: "what weekday is 03/04/2026",
            context: None,
            answer: "2",
            answers: &["Wednesday"],
            date: Some("2026-03-04"),
        },
        Case {
            name: "reference",
            query: "now multiply that by 3",
            context: None,
            answer: "6",
            answers: &["18"],
            date: None,
        },
        Case {
            name: "weekday",
            query: "what date is friday",
            context: monday(),
            answer: "the coming one",
            answers: &["2026-11-27"],
            date: None,
        },
    ]
}

/// Checks what was asked for each case.
fn check_question(case: &Case, q: &ClarificationNeeded) {
    let what = case.name;
    assert_eq!(q.number, 1, "{what}");
    let language = if what.starts_with("vi-") { "vi" } else { "en" };
    assert_eq!(q.language, language, "{what}");
    assert_eq!(q.query, case.query, "{what}");
    match case.name {
        "operand" => {
            assert_eq!(q.part, "divide 10 by");
            assert!(q.options.is_empty(), "{q:?}");
        }
        "compound" => {
            assert_eq!(q.part, "divide 10 by");
            assert!(q.options.is_empty(), "{q:?}");
        }
        "vi-operand" => {
            assert_eq!(q.part, "tính 10 chia");
            assert!(q.question.contains("còn thiếu một số"), "{}", q.question);
        }
        "date-april" | "date-second" => {
            assert_eq!(
                q.question,
                "Does \"03/04/2026\" mean 3 April 2026 or 4 March 2026?"
            );
            assert_eq!(q.options.len(), 2, "{q:?}");
        }
        "reference" => assert!(q.question.contains("\"that\""), "{}", q.question),
        "weekday" => {
            let values: Vec<&str> = q.options.iter().map(|o| o.value.as_str()).collect();
            assert_eq!(values, ["next Friday", "last Friday"]);
        }
        other => panic!("unknown case {other}"),
    }
}

/// A conversation of two turns: the session, the first request and its answers, the
/// follow-up and its answers.
struct Talk(
    &'static str,
    &'static str,
    &'static [&'static str],
    &'static str,
    &'static [&'static str],
);

/// A role killed while its task waits: the role, the task, its request and context, the
/// answer sent after the restart, and the report's values.
struct Kill(
    &'static str,
    &'static str,
    &'static str,
    Option<Value>,
    &'static str,
    &'static [&'static str],
);

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn each_question_is_answered_by_xadd_and_by_publish_after_the_deadline_would_have_passed() {
    // A 2 s deadline, and every answer sent 3 s after its question: the deadline is
    // paused while the task waits, so each still completes.
    let mut cluster = cluster_with(&[("CHORUS__AGENTS__DEADLINE_MS", "2000")]);
    let bus = cluster.bus().await;
    let cases = cases();
    let id = |via: Via, case: &Case| format!("{}-{}", via.name(), case.name);
    for via in [Via::Xadd, Via::Publish] {
        for case in &cases {
            ask(
                &cluster,
                via,
                &id(via, case),
                case.query,
                case.context.clone(),
            );
        }
    }
    for via in [Via::Xadd, Via::Publish] {
        for case in &cases {
            let q = question(&bus, &id(via, case), 1).await;
            check_question(case, &q);
        }
    }
    let asked = Instant::now();
    tokio::time::sleep(Duration::from_secs(3)).await;
    for via in [Via::Xadd, Via::Publish] {
        for case in &cases {
            let task = id(via, case);
            assert!(
                reports(&bus, &task).await.is_empty(),
                "{task}: a report while it waits for the answer"
            );
            assert!(
                of_task(&bus, &Topic::plan_ready(), &task).await.is_empty(),
                "{task}: planned before the answer"
            );
        }
    }
    assert!(asked.elapsed() > Duration::from_millis(2_500));
    for via in [Via::Xadd, Via::Publish] {
        for case in &cases {
            reply(&cluster, via, &id(via, case), case.answer);
        }
    }
    for via in [Via::Xadd, Via::Publish] {
        for case in &cases {
            let task = id(via, case);
            let r = report(&bus, &task).await;
            assert_eq!(r.status, ReportStatus::Completed, "{task}: {}", r.text);
            assert_eq!(answers(&r), case.answers, "{task}: {}", r.text);
            if let Some(date) = case.date {
                assert_eq!(date_argument(&r).as_deref(), Some(date), "{task}");
            }
            if case.name.starts_with("vi-") {
                assert_eq!(r.language, "vi", "{task}: {}", r.text);
            }
        }
    }
    tokio::time::sleep(Duration::from_millis(1_500)).await;
    for via in [Via::Xadd, Via::Publish] {
        for case in &cases {
            let task = id(via, case);
            exactly_one_report(&bus, &task).await;
            assert_eq!(questions(&bus, &task).await.len(), 1, "{task}: asked twice");
            assert!(
                answer_letters(&bus, &task).await.is_empty(),
                "{task}: its answer was refused"
            );
        }
    }
    assert_alive(&mut cluster);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn follow_ups_use_the_last_answer_of_their_session_and_compound_requests_answer_part_by_part()
{
    let mut cluster = cluster_with(&[]);
    let bus = cluster.bus().await;
    let session = |s: &str| Some(json!({ "session_id": s }));
    // (session, first request, its answers, follow-up, its answers)
    let conversations: [Talk; 3] = [
        Talk("talk-en", "2+4", &["6"], "now multiply that by 3", &["18"]),
        Talk(
            "talk-vi",
            "tính 2+4",
            &["6"],
            "nhân kết quả đó với 3",
            &["18"],
        ),
        Talk(
            "talk-date",
            "what is 2026-12-25 plus 3 days",
            &["2026-12-28"],
            "and what weekday is it?",
            &["Monday"],
        ),
    ];
    for Talk(s, first, _, _, _) in &conversations {
        ask(&cluster, Via::Xadd, &format!("{s}-1"), first, session(s));
    }
    // A conversation whose first turn needed a question.
    ask(
        &cluster,
        Via::Xadd,
        "talk-asked-1",
        "divide 10 by",
        session("talk-asked"),
    );
    // Compound requests, alongside.
    let compound: [(&str, &str, ReportStatus, &[&str]); 3] = [
        (
            "both-parts",
            "what is 9-4; also, what weekday is 2027-03-01",
            ReportStatus::Completed,
            &["5", "Monday"],
        ),
        (
            "flight",
            "2+4 and book me a flight",
            ReportStatus::Partial,
            &["6"],
        ),
        (
            "middle",
            "2+4 and book me a flight and what weekday is 2026-12-25",
            ReportStatus::Partial,
            &["6", "Friday"],
        ),
    ];
    for (task, query, _, _) in &compound {
        ask(&cluster, Via::Xadd, task, query, None);
    }
    for Talk(s, _, first, _, _) in &conversations {
        let r = report(&bus, &format!("{s}-1")).await;
        assert_eq!(answers(&r), *first, "{s}: {}", r.text);
    }
    // The turns are written before the reports: the follow-ups find them.
    for Talk(s, _, _, then, _) in &conversations {
        ask(&cluster, Via::Xadd, &format!("{s}-2"), then, session(s));
    }
    // Another session has no last answer: the same follow-up asks what "that" is.
    ask(
        &cluster,
        Via::Xadd,
        "talk-other-1",
        "now multiply that by 3",
        session("talk-other"),
    );
    for Talk(s, _, _, _, then) in &conversations {
        let task = format!("{s}-2");
        let r = report(&bus, &task).await;
        assert_eq!(r.status, ReportStatus::Completed, "{task}: {}", r.text);
        assert_eq!(answers(&r), *then, "{task}: {}", r.text);
        assert!(
            questions(&bus, &task).await.is_empty(),
            "{task}: asked although its session has an answer"
        );
        if *s == "talk-en" {
            assert!(r.text.contains("(your last answer)"), "{}", r.text);
        }
        if *s == "talk-vi" {
            assert_eq!(r.language, "vi", "{}", r.text);
        }
    }
    let q = question(&bus, "talk-asked-1", 1).await;
    assert_eq!(q.session_id.as_deref(), Some("talk-asked"));
    reply(&cluster, Via::Publish, "talk-asked-1", "4");
    let r = report(&bus, "talk-asked-1").await;
    assert_eq!(answers(&r), ["2.5"], "{}", r.text);
    ask(
        &cluster,
        Via::Xadd,
        "talk-asked-2",
        "now multiply that by 3",
        session("talk-asked"),
    );
    let r = report(&bus, "talk-asked-2").await;
    assert_eq!(answers(&r), ["7.5"], "{}", r.text);
    assert!(r.text.contains("(your last answer)"), "{}", r.text);
    let q = question(&bus, "talk-other-1", 1).await;
    assert!(q.question.contains("\"that\""), "{}", q.question);
    assert_eq!(q.session_id.as_deref(), Some("talk-other"));

    for (task, query, status, values) in &compound {
        let r = report(&bus, task).await;
        assert_eq!(r.status, *status, "{query}: {}", r.text);
        assert_eq!(answers(&r), *values, "{query}: {}", r.text);
        if *status == ReportStatus::Partial {
            assert!(r.text.contains("book me a flight"), "{query}: {}", r.text);
        }
        assert!(questions(&bus, task).await.is_empty(), "{query}: asked");
    }
    for Talk(s, ..) in &conversations {
        exactly_one_report(&bus, &format!("{s}-1")).await;
        exactly_one_report(&bus, &format!("{s}-2")).await;
    }
    assert_alive(&mut cluster);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_role_killed_and_restarted_while_tasks_wait_loses_no_answer() {
    let mut cluster = cluster_with(&[("CHORUS__AGENTS__DEADLINE_MS", "30000")]);
    let bus = cluster.bus().await;
    let monday = Some(json!({ "now": MONDAY, "timezone": "UTC" }));
    // (role killed, task, request, context, answer, values)
    let kills: [Kill; 4] = [
        Kill("chief", "kill-chief", "divide 10 by", None, "4", &["2.5"]),
        Kill(
            "planner",
            "kill-planner",
            "what weekday is 03/04/2026",
            None,
            "April",
            &["Friday"],
        ),
        Kill(
            "router",
            "kill-router",
            "now multiply that by 3",
            None,
            "6",
            &["18"],
        ),
        Kill(
            "synthesizer",
            "kill-synthesizer",
            "what date is friday",
            monday,
            "last",
            &["2026-11-20"],
        ),
    ];
    for Kill(_, task, query, context, _, _) in &kills {
        ask(&cluster, Via::Xadd, task, query, context.clone());
    }
    ask(&cluster, Via::Xadd, "kill-holding", "divide 9 by", None);
    ask(
        &cluster,
        Via::Xadd,
        "kill-holding-chief",
        "what is 7 times?",
        None,
    );
    for Kill(_, task, ..) in &kills {
        question(&bus, task, 1).await;
    }
    question(&bus, "kill-holding", 1).await;
    question(&bus, "kill-holding-chief", 1).await;
    // One role at a time, every task still waiting while the earlier roles die.
    for Kill(role, task, _, _, text, values) in &kills {
        cluster.kill(role);
        cluster.start_role(role, role, None);
        reply(&cluster, Via::Xadd, task, text);
        let r = report(&bus, task).await;
        assert_eq!(r.status, ReportStatus::Completed, "{role}: {}", r.text);
        assert_eq!(answers(&r), *values, "{role}: {}", r.text);
    }
    // The Planner killed while the answer is on its way to it (frozen, then killed):
    // its successor takes the answer up (claimed from the dead one, or read anew).
    cluster.signal("planner", "-STOP");
    reply(&cluster, Via::Xadd, "kill-holding", "2");
    let passed_on = Topic::clarification_answer();
    poll(
        || of_task(&bus, &passed_on, "kill-holding"),
        |m| {
            m.iter().any(
                |m| matches!(&m.payload, Payload::ClarificationAnswer(a) if a.question == Some(1)),
            )
        },
    )
    .await;
    tokio::time::sleep(Duration::from_millis(200)).await;
    cluster.kill("planner");
    cluster.start_role("planner", "planner", None);
    let r = report(&bus, "kill-holding").await;
    assert_eq!(r.status, ReportStatus::Completed, "{}", r.text);
    assert_eq!(answers(&r), ["4.5"], "{}", r.text);
    // The Chief killed with the client's answer read but not handled (frozen while it
    // waited on the stream, then killed): its successor claims the entry and passes the
    // answer on.
    cluster.signal("chief", "-STOP");
    let entry = reply(&cluster, Via::Xadd, "kill-holding-chief", "three");
    tokio::time::sleep(Duration::from_millis(300)).await;
    cluster.kill("chief");
    cluster.start_role("chief", "chief", None);
    let r = report(&bus, "kill-holding-chief").await;
    assert_eq!(r.status, ReportStatus::Completed, "{}", r.text);
    assert_eq!(answers(&r), ["21"], "{}", r.text);
    let letters = dead_letters(&bus).await;
    let entry = Sent::Entry(entry.expect("an entry id"));
    assert!(!letters.iter().any(|d| entry.letter(d)), "{letters:?}");
    // Past the claim time (1.5 s): nothing a dead role held comes out twice.
    tokio::time::sleep(Duration::from_millis(2_500)).await;
    exactly_one_report(&bus, "kill-holding").await;
    exactly_one_report(&bus, "kill-holding-chief").await;
    for Kill(role, task, ..) in &kills {
        exactly_one_report(&bus, task).await;
        assert_eq!(questions(&bus, task).await.len(), 1, "{role}: asked again");
        assert!(answer_letters(&bus, task).await.is_empty(), "{role}");
    }
    assert_alive(&mut cluster);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_question_nobody_answers_ends_unanswered_once_and_a_late_answer_is_a_dead_letter() {
    let mut cluster = cluster_with(&[("CHORUS__AGENTS__ANSWER_TIMEOUT_MS", "1500")]);
    let bus = cluster.bus().await;
    let sent = Instant::now();
    ask(&cluster, Via::Xadd, "late-operand", "divide 10 by", None);
    ask(
        &cluster,
        Via::Publish,
        "late-date",
        "what weekday is 03/04/2026",
        None,
    );
    let operand = question(&bus, "late-operand", 1).await;
    let date = question(&bus, "late-date", 1).await;
    for (task, q) in [("late-operand", &operand), ("late-date", &date)] {
        let r = report(&bus, task).await;
        assert!(
            sent.elapsed() >= Duration::from_millis(1_500),
            "{task}: reported before the answer timeout"
        );
        assert_eq!(r.status, ReportStatus::Unanswered, "{task}: {}", r.text);
        assert!(r.text.contains(&q.question), "{task}: {}", r.text);
        for o in &q.options {
            assert!(r.text.contains(&o.label), "{task}: {}", r.text);
        }
        assert!(r.steps.is_empty(), "{task}");
    }
    // Answers after the report: the task is finished.
    refuse(
        &cluster,
        &bus,
        Via::Xadd,
        "late answer",
        &answer("late-operand", "4"),
        "task_finished",
    )
    .await;
    refuse(
        &cluster,
        &bus,
        Via::Publish,
        "late answer",
        &answer("late-date", "April"),
        "task_finished",
    )
    .await;
    tokio::time::sleep(Duration::from_millis(1_500)).await;
    for task in ["late-operand", "late-date"] {
        exactly_one_report(&bus, task).await;
        assert!(
            of_task(&bus, &Topic::plan_ready(), task).await.is_empty(),
            "{task}: planned after the timeout"
        );
        assert_eq!(answer_letters(&bus, task).await.len(), 1, "{task}");
    }
    assert_alive(&mut cluster);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_answers_are_dead_letters_with_the_reason_and_an_unsettling_one_is_asked_again() {
    let mut cluster = cluster_with(&[
        ("CHORUS__AGENTS__DEADLINE_MS", "30000"),
        ("CHORUS__AGENTS__MAX_QUESTIONS", "2"),
    ]);
    let bus = cluster.bus().await;
    ask(&cluster, Via::Xadd, "bad-wait", "divide 10 by", None);
    ask(&cluster, Via::Xadd, "unsettled", "divide 10 by", None);
    question(&bus, "bad-wait", 1).await;
    let first = question(&bus, "unsettled", 1).await;
    // Every bad answer sent: each makes exactly one dead letter, whether the door
    // refused it or it could not be read at all (only the door's group dead-letters an
    // unreadable client entry).
    let mut sent: Vec<(String, Sent)> = Vec::new();

    // Answers nothing can take, each way in, while "bad-wait" waits for its answer.
    let refused = [
        ("unknown task", answer("nobody", "4"), "unknown_task"),
        ("empty answer", answer("bad-wait", ""), "empty_answer"),
        ("blank answer", answer("bad-wait", "  \t "), "empty_answer"),
        (
            "1001 characters",
            answer("bad-wait", &"7".repeat(1001)),
            "answer_too_long",
        ),
    ];
    let unreadable = [
        (
            "malformed JSON",
            r#"{"task_id": "bad-wait", "answer": "4""#.to_owned(),
        ),
        (
            "no answer field",
            json!({ "task_id": "bad-wait", "text": "4" }).to_string(),
        ),
        (
            "a number for an answer",
            json!({ "task_id": "bad-wait", "answer": 4 }).to_string(),
        ),
    ];
    for via in [Via::Xadd, Via::Publish] {
        for (what, raw, code) in &refused {
            let s = refuse(&cluster, &bus, via, what, raw, code).await;
            sent.push((what.to_string(), s));
        }
        for (what, raw) in &unreadable {
            let why = match via {
                Via::Xadd => "undecodable entry",
                Via::Publish => "invalid answer",
            };
            let s = refuse(&cluster, &bus, via, what, raw, why).await;
            sent.push((format!("unreadable: {what}"), s));
        }
    }

    // A task that asked nothing, held before its report (the Synthesizer frozen).
    cluster.signal("synthesizer", "-STOP");
    ask(&cluster, Via::Xadd, "bad-nothing", "2+4", None);
    let results = Topic::pool_result("math");
    poll(|| of_task(&bus, &results, "bad-nothing"), |r| !r.is_empty()).await;
    for via in [Via::Xadd, Via::Publish] {
        let raw = answer("bad-nothing", "4");
        let s = refuse(&cluster, &bus, via, "nothing asked", &raw, "nothing_asked").await;
        sent.push(("nothing asked".into(), s));
    }
    cluster.signal("synthesizer", "-CONT");
    let r = report(&bus, "bad-nothing").await;
    assert_eq!(r.status, ReportStatus::Completed, "{}", r.text);
    assert_eq!(answers(&r), ["6"], "{}", r.text);

    // A second, different answer to the same question while the first is with the
    // (frozen) Planner: refused; the same answer again is a repeat, not an error.
    cluster.signal("planner", "-STOP");
    let good = reply(&cluster, Via::Xadd, "bad-wait", "4");
    let passed_on = Topic::clarification_answer();
    poll(
        || of_task(&bus, &passed_on, "bad-wait"),
        |m| {
            m.iter().any(
                |m| matches!(&m.payload, Payload::ClarificationAnswer(a) if a.question == Some(1)),
            )
        },
    )
    .await;
    for (via, text) in [(Via::Xadd, "5"), (Via::Publish, "8")] {
        let raw = answer("bad-wait", text);
        let s = refuse(
            &cluster,
            &bus,
            via,
            "second answer",
            &raw,
            "already_answered",
        )
        .await;
        sent.push(("second answer".into(), s));
    }
    let again = reply(&cluster, Via::Xadd, "bad-wait", "4");
    cluster.signal("planner", "-CONT");
    let r = report(&bus, "bad-wait").await;
    assert_eq!(r.status, ReportStatus::Completed, "{}", r.text);
    assert_eq!(answers(&r), ["2.5"], "the first answer counts: {}", r.text);
    // Answers to the finished task.
    for (via, text) in [(Via::Xadd, "6"), (Via::Publish, "7")] {
        let raw = answer("bad-wait", text);
        let s = refuse(&cluster, &bus, via, "finished task", &raw, "task_finished").await;
        sent.push(("finished task".into(), s));
    }

    // An answer that does not settle it: question 2, then (agents.max_questions = 2) a
    // refusal report.
    assert!(first.options.is_empty(), "{first:?}");
    reply(&cluster, Via::Xadd, "unsettled", "banana");
    let second = question(&bus, "unsettled", 2).await;
    assert!(
        second
            .question
            .starts_with("The answer \"banana\" does not settle it."),
        "{}",
        second.question
    );
    assert!(
        second.question.contains(&first.question),
        "{}",
        second.question
    );
    assert!(
        reports(&bus, "unsettled").await.is_empty(),
        "a report after question 2"
    );
    // Answers naming a question: the first is settled, a third was not asked.
    for (number, why) in [(1, "already_answered"), (3, "no_such_question")] {
        let raw = json!({ "task_id": "unsettled", "answer": "4", "question": number }).to_string();
        for via in [Via::Xadd, Via::Publish] {
            let s = refuse(&cluster, &bus, via, "a question named", &raw, why).await;
            sent.push((format!("question {number}"), s));
        }
    }
    reply(&cluster, Via::Publish, "unsettled", "apple");
    let r = report(&bus, "unsettled").await;
    assert_eq!(r.status, ReportStatus::Unplannable, "{}", r.text);
    assert!(r.text.contains("After 2 questions"), "{}", r.text);
    assert!(r.steps.is_empty());

    tokio::time::sleep(Duration::from_millis(2_000)).await;
    for task in ["bad-wait", "bad-nothing", "unsettled"] {
        exactly_one_report(&bus, task).await;
    }
    assert_eq!(
        questions(&bus, "unsettled").await.len(),
        2,
        "a third question"
    );
    assert_eq!(questions(&bus, "bad-wait").await.len(), 1);
    let letters = dead_letters(&bus).await;
    for (what, s) in &sent {
        let of: Vec<&DeadLetter> = letters.iter().filter(|d| s.letter(d)).collect();
        assert_eq!(of.len(), 1, "{what}: {of:?}");
    }
    // Neither the answer that counted nor its repeat is a dead letter.
    for entry in [good, again].into_iter().flatten() {
        let e = Sent::Entry(entry);
        assert!(
            !letters.iter().any(|d| e.letter(d)),
            "a good answer was dead-lettered"
        );
    }
    assert_eq!(answer_letters(&bus, "unsettled").await.len(), 4);
    assert_alive(&mut cluster);
}
