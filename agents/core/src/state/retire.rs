//! Retiring a task whose report is out: its state shrinks to the report, the report's
//! once-key and the acceptance record, kept for `bus.finished_ttl_secs`; everything else
//! it wrote is deleted, in one round trip.

use std::time::Duration;

use chorus_bus::store::{KeepIf, Retirement};
use chorus_bus::{BusError, FinalReport, TaskId};

use super::{DEADLINES_KEY, TaskState, once, plan_key, report_key, request_key, results_key};

/// What [`TaskState::finish`] keeps, sets and deletes for a task whose report (`json`)
/// is out. Keys of every attempt the report counts and of every step it names are
/// deleted (a step's attempt keys exist only for attempts it ran in; deleting an absent
/// key costs nothing), and of every question up to `max_questions`.
fn retirement(
    task: &TaskId,
    report: &FinalReport,
    json: String,
    max_questions: u32,
    ttl: Duration,
) -> Retirement {
    let mut delete = vec![
        plan_key(task),
        request_key(task),
        once::planned(task),
        once::writing(task),
        once::published(&once::accepted(task)),
        once::published(&once::reported(task)),
    ];
    for n in 1..=report.iterations.max(1) {
        delete.push(results_key(task, n));
        delete.push(once::verdict(task, n));
        delete.push(once::renavigate(task, n));
        if n > 1 {
            delete.push(once::replanned(task, n));
        }
        for step in &report.steps {
            let step = &step.step_id;
            delete.push(once::dispatched(task, step, n));
            delete.push(once::response(task, step, n));
            let result = once::result(task, step, n);
            // The per-message once-keys of `Bus::publish_all_once` where a transport
            // keeps them (the memory bus, a Cluster's claim).
            delete.push(once::part(&result, 0));
            delete.push(once::part(&result, 1));
            delete.push(result);
        }
    }
    let (mut questions, asked) = crate::question::keys(task, max_questions);
    delete.extend(asked);
    let keep = vec![
        once::reported(task),
        once::accepted(task),
        format!("{}{task}", chorus_bus::tokens::TOKEN_STREAM_PREFIX),
    ];
    // A task's question records and its place in the waiting set exist only once it
    // asked, and its question record is written first: one look at that record decides
    // for all of them (most tasks ask nothing).
    let question = questions.remove(0);
    Retirement {
        set: vec![(report_key(task), json)],
        keep,
        delete,
        zrem: vec![(DEADLINES_KEY.to_owned(), task.to_string())],
        ttl,
        keep_if: Some(KeepIf {
            key: question,
            keep: questions,
            zrem: vec![(crate::question::WAITING_KEY.to_owned(), task.to_string())],
        }),
    }
}

impl TaskState {
    /// Stores the task's final report and shrinks its state to what is still needed,
    /// in one round trip: the report (for clients that poll), the report's once-key
    /// (what late deliveries, cancellations and answers read to find the task finished)
    /// and the acceptance record (the same task id is still the same task), each kept
    /// for the finished TTL; the task leaves the deadline and waiting sets; its plan,
    /// request, results, question records and every other once-key are deleted. A
    /// session's turns are the session's, and keep their own TTL.
    pub async fn finish(&self, task: &TaskId, report: &FinalReport) -> Result<(), BusError> {
        let json = serde_json::to_string(report).map_err(chorus_bus::DecodeError::from)?;
        self.store
            .retire(&retirement(
                task,
                report,
                json,
                self.max_questions,
                self.finished_ttl,
            ))
            .await
    }
}

#[cfg(test)]
mod tests {
    use chorus_bus::memory::MemoryBus;
    use chorus_bus::{Bus, BusSettings, Message, Payload, StepOutcome, Topic};
    use serde_json::json;

    use std::sync::Arc;

    use chorus_bus::{Deadline, PlanReady, StepResult, TaskRequest, keys};

    use super::*;
    use crate::door::{CancelError, CancelSubmission, Limits, Submission, cancel, submit};

    fn result(step: &str) -> StepResult {
        StepResult {
            step_id: step.into(),
            pool: "math".into(),
            tool: "sum".into(),
            arguments: Default::default(),
            outcome: StepOutcome::Ok {
                value: json!("6"),
                text: "6".into(),
            },
            agent: "pool-math".into(),
            elapsed_us: 10,
            iteration: 1,
        }
    }

    #[tokio::test]
    async fn a_finished_task_keeps_its_report_and_records_for_the_finished_ttl_only() {
        let bus = MemoryBus::new(BusSettings::default());
        let store = bus.store();
        let finished = Duration::from_secs(30);
        let state = TaskState::new(Arc::new(store.clone()), Duration::from_secs(86_400))
            .with_finished_ttl(finished);
        let mut s = Submission::new("2+4", "test");
        s.task_id = Some("t1".into());
        let limits = Limits {
            deadline: Some(Duration::from_secs(10)),
            ..Limits::default()
        };
        assert!(
            submit(&bus, Some(&state), &limits, s.clone())
                .await
                .expect("submit")
                .fresh
        );
        let plan: PlanReady = serde_json::from_value(json!({
            "query": "2+4", "context": {}, "language": "en", "planner": "heuristic",
            "plan": {"steps": [
                {"id": "s1", "pool": "math", "tool": "sum", "arguments": {"a": "2", "b": "4"},
                 "output": true}
            ]}
        }))
        .expect("plan");
        state
            .put_plan_once(&chorus_bus::TaskId::from("t1"), plan.clone())
            .await
            .expect("plan");
        let ttl = state.ttl();
        let step = Message::new(
            "t1",
            Topic::pool_task("math"),
            "test",
            Payload::PlanReady(plan.clone()),
        );
        for key in [
            once::planned(&"t1".into()),
            once::dispatched(&"t1".into(), &"s1".into(), 1),
            once::result(&"t1".into(), &"s1".into(), 1),
            once::verdict(&"t1".into(), 1),
        ] {
            assert!(bus.publish_once(&key, ttl, &step).await.expect("once"));
        }
        let recorded = state
            .record_result(&chorus_bus::TaskId::from("t1"), &result("s1"))
            .await
            .expect("record");
        assert!(!recorded.reported);
        let report = crate::report::build(&plan, &recorded.results);
        let out = Message::new(
            "t1",
            Topic::final_report(),
            "test",
            Payload::FinalReport(report.clone()),
        );
        assert!(
            bus.publish_once(&once::reported(&"t1".into()), ttl, &out)
                .await
                .expect("report")
        );
        let before = store.keys_with_ttl(&keys::task_prefix(&"t1".into()));
        assert!(before.len() >= 9, "{before:?}");

        state
            .finish(&chorus_bus::TaskId::from("t1"), &report)
            .await
            .expect("finish");

        let left = store.keys_with_ttl(&keys::task_prefix(&"t1".into()));
        let names: Vec<&str> = left.iter().map(|(k, _)| k.as_str()).collect();
        assert_eq!(
            names,
            [
                "chorus:{t1}:once:accepted",
                "chorus:{t1}:once:final",
                "chorus:{t1}:report"
            ]
        );
        assert!(
            left.iter().all(|(_, t)| t.is_some_and(|t| t <= finished)),
            "{left:?}"
        );
        assert!(state.due(u64::MAX, 10).await.expect("due").is_empty());
        assert_eq!(
            state
                .report(&chorus_bus::TaskId::from("t1"))
                .await
                .expect("read"),
            Some(report)
        );
        // The same id with the same request is still the same task, refused with another.
        assert!(
            !submit(&bus, Some(&state), &limits, s.clone())
                .await
                .expect("again")
                .fresh
        );
        let mut other = s.clone();
        other.query = "7*7".into();
        assert!(submit(&bus, Some(&state), &limits, other).await.is_err());
        // The request is still known, from the acceptance record.
        let request = TaskRequest {
            query: "2+4".into(),
            context: Default::default(),
        };
        assert_eq!(
            state
                .request(&chorus_bus::TaskId::from("t1"))
                .await
                .expect("read"),
            Some(request.clone())
        );
        // A late request opens nothing again; a late result sees the report out.
        state
            .open(
                &chorus_bus::TaskId::from("t1"),
                &request,
                Deadline::after(Duration::ZERO),
            )
            .await
            .expect("open");
        let keys_now: Vec<String> = store
            .keys_with_ttl(&keys::task_prefix(&"t1".into()))
            .into_iter()
            .map(|(k, _)| k)
            .collect();
        assert_eq!(keys_now, names, "no request key came back");
        assert!(state.due(u64::MAX, 10).await.expect("due").is_empty());
        assert!(
            state
                .record_result(&chorus_bus::TaskId::from("t1"), &result("s1"))
                .await
                .expect("late")
                .reported
        );
        let names_after: Vec<String> = store
            .keys_with_ttl(&keys::task_prefix(&"t1".into()))
            .into_iter()
            .map(|(k, _)| k)
            .collect();
        assert_eq!(names_after, names, "nothing came back");
        // A cancellation is refused as finished.
        let c = CancelSubmission {
            task_id: "t1".into(),
            reason: None,
            from: "test".into(),
        };
        assert!(matches!(
            cancel(&bus, &state, c).await,
            Err(CancelError::Finished(_))
        ));
    }
}
