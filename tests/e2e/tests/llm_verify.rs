//! The model checking the work (`llm.verify`), with every role its own process and a
//! fake OpenAI-compatible server (the only fake: a model): a report the model judges
//! REITERATE goes back to the Planner with the plan its iteration advisor suggested, up
//! to `agents.max_iterations`; FINISHED lets the report go out at once; a failing check
//! or an advised plan that does not fit the live tools leaves the rule's verdict.

#[allow(dead_code)]
#[path = "llm/fake_model.rs"]
mod fake_model;

use chorus_bus::{Payload, PlannerKind, ReportStatus, Topic, Verdict};

use chorus_e2e::{ChannelLog, Cluster, ClusterOptions, answers, ask_for, of_task};
use fake_model::{FakeModel, Reply, Script};

/// The advisor's plan for "(2+4)*3": one step, 6 × 3.
const ADVISED: &str = r#"{"steps":[{"id":"s1","pool":"math","tool":"multiply","arguments":{"a":"6","b":"3"},"part":"(2+4)*3 as 6 times 3","output":true}]}"#;

/// A fake model answering plans with `plan`, and a cluster whose Synthesizer has it
/// check reports (the template writes them).
async fn cluster_with(plan: &str) -> (FakeModel, Cluster) {
    let model = FakeModel::start(Script {
        plan: Reply::Text(plan.into()),
        report: Reply::Status(500),
    })
    .await;
    let mut env = model.env();
    env.insert("CHORUS__LLM__VERIFY".into(), "true".into());
    env.insert("CHORUS__LLM__SYNTHESIZE".into(), "false".into());
    env.insert("CHORUS__AGENTS__DEADLINE_MS".into(), "15000".into());
    let cluster = Cluster::start(ClusterOptions {
        env,
        ..ClusterOptions::default()
    });
    (model, cluster)
}

/// The verdicts heard for `task`, as (iteration, verdict, carried a plan).
async fn verdicts(log: &ChannelLog, task: &str) -> Vec<(u32, Verdict, bool)> {
    log.verdicts(task)
        .await
        .iter()
        .map(|v| (v.iteration, v.verdict, v.plan.is_some()))
        .collect()
}

fn count(asked: &[(&str, bool)], kind: &str) -> usize {
    asked.iter().filter(|(k, _)| *k == kind).count()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_report_the_model_refuses_is_planned_again_with_its_advice_up_to_max_iterations() {
    let (model, cluster) = cluster_with(ADVISED).await;
    let bus = cluster.bus().await;
    let log = ChannelLog::start(&bus, Topic::verification_done()).await;

    // The model refuses every report: attempts 1 and 2 go back with the advised plan,
    // attempt 3 is the last one allowed (agents.max_iterations = 3) and is not checked.
    model.set_checks(vec![Reply::Text("REITERATE".into())]);
    let (task, r) = ask_for(&bus, "(2+4)*3").await;
    assert_eq!(r.status, ReportStatus::Completed, "{}", r.text);
    assert_eq!(answers(&r), ["18"]);
    assert_eq!(r.iterations, 3, "{r:?}");
    assert_eq!(
        r.retried.first().map(String::as_str),
        Some("attempt 1: the model judged that the report does not answer the request"),
        "{:?}",
        r.retried
    );
    assert_eq!(
        verdicts(&log, &task).await,
        [
            (1, Verdict::Reiterate, true),
            (2, Verdict::Reiterate, true),
            (3, Verdict::Finished, false)
        ]
    );
    let asks = of_task(&bus, &Topic::renavigate_request(), &task).await;
    assert_eq!(asks.len(), 2, "{asks:?}");
    assert!(asks.iter().all(|m| matches!(
        &m.payload,
        Payload::RenavigateRequest(a) if a.plan.as_ref().is_some_and(|p| p.steps.len() == 1)
    )));
    // Attempt 1 is the heuristic's two steps; attempts 2 and 3 the advisor's one step.
    let plans: Vec<(u32, PlannerKind, usize)> = of_task(&bus, &Topic::plan_ready(), &task)
        .await
        .iter()
        .filter_map(|m| match &m.payload {
            Payload::PlanReady(p) => Some((p.iteration, p.planner, p.plan.steps.len())),
            _ => None,
        })
        .collect();
    assert_eq!(
        plans,
        [
            (1, PlannerKind::Heuristic, 2),
            (2, PlannerKind::Llm, 1),
            (3, PlannerKind::Llm, 1)
        ]
    );
    let asked = model.asked();
    assert_eq!(
        (count(&asked, "verify"), count(&asked, "plan")),
        (2, 2),
        "{asked:?}"
    );

    // FINISHED from the model: the report goes out after one check.
    model.set_checks(vec![Reply::Text("FINISHED".into())]);
    let (task, r) = ask_for(&bus, "2+4").await;
    assert_eq!(answers(&r), ["6"]);
    assert_eq!(r.iterations, 1);
    assert_eq!(verdicts(&log, &task).await, [(1, Verdict::Finished, false)]);
    assert_eq!(count(&model.asked(), "verify"), 3);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_failing_check_or_an_unusable_advice_leaves_the_rules_verdict() {
    // The advisor names a tool no pool offers: its plan is refused.
    let unknown = r#"{"steps":[{"id":"s1","pool":"math","tool":"teleport","arguments":{},"part":"x","output":true}]}"#;
    let (model, cluster) = cluster_with(unknown).await;
    let bus = cluster.bus().await;
    let log = ChannelLog::start(&bus, Topic::verification_done()).await;

    // (async-openai itself retries an HTTP 5xx a few times inside the call's timeout,
    // so the failing check may be asked more than once.)
    for (check, query, value, checks) in [
        (Reply::Status(500), "2+4", "6", 1..=5),
        (Reply::Text("maybe".into()), "5+5", "10", 1..=1),
        (Reply::Text("REITERATE".into()), "7+1", "8", 1..=1),
    ] {
        model.set_checks(vec![check.clone()]);
        let before = count(&model.asked(), "verify");
        let (task, r) = ask_for(&bus, query).await;
        assert_eq!(r.status, ReportStatus::Completed, "{check:?}: {}", r.text);
        assert_eq!(answers(&r), [value], "{check:?}");
        assert_eq!(r.iterations, 1, "{check:?}");
        assert_eq!(
            verdicts(&log, &task).await,
            [(1, Verdict::Finished, false)],
            "{check:?}"
        );
        assert!(
            of_task(&bus, &Topic::renavigate_request(), &task)
                .await
                .is_empty()
        );
        let asked = count(&model.asked(), "verify") - before;
        assert!(checks.contains(&asked), "{check:?}: {asked} checks");
    }
    // Only the REITERATE asked the advisor, whose plan was refused.
    assert_eq!(count(&model.asked(), "plan"), 1, "{:?}", model.asked());
}
