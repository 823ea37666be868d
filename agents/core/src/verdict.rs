//! The verdict on an attempt at a task, reached where the fan-in already happens (the
//! Synthesizer, when every step of the current plan is final), so a task whose steps
//! all succeeded pays no hop for it: FINISHED, or REITERATE when some step failed for a
//! reason that can pass (unreachable server, timeout, no live agent) and there is an
//! attempt and time left. Also what a re-plan re-runs: the steps that failed for such a
//! reason and everything that depends on them; every other result is kept.

use std::collections::{HashMap, HashSet};

use chorus_bus::{
    FailedStep, Plan, PlanReady, PlannerKind, StepId, StepOutcome, StepResult, Verdict,
    VerificationDone,
};

/// What decides a verdict besides the results.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Bounds {
    /// `agents.max_iterations`: attempts in all, the first included.
    pub max_iterations: u32,
    /// Whether the task's deadline leaves time for another attempt.
    pub time_left: bool,
}

/// The steps of `plan` whose failure can pass and is their own (not inherited from a
/// step they reference), in plan order.
pub fn failed_for_now(plan: &PlanReady, results: &HashMap<StepId, StepResult>) -> Vec<FailedStep> {
    let transient = |id: &str| results.get(id).is_some_and(|r| r.outcome.is_transient());
    plan.plan
        .steps
        .iter()
        .filter(|s| transient(&s.id) && !s.dependencies().into_iter().any(transient))
        .filter_map(|s| {
            let r = results.get(&s.id)?;
            let StepOutcome::Failed { error, .. } = &r.outcome else {
                return None;
            };
            Some(FailedStep {
                step_id: s.id.clone(),
                pool: s.pool.clone(),
                tool: s.tool.clone(),
                reason: error.clone(),
            })
        })
        .collect()
}

/// The verdict on `plan`'s attempt, every step of which has a result in `results`.
pub fn judge(
    plan: &PlanReady,
    results: &HashMap<StepId, StepResult>,
    bounds: Bounds,
) -> VerificationDone {
    let failed = failed_for_now(plan, results);
    let mut reasons: Vec<String> = failed.iter().map(FailedStep::line).collect();
    let verdict = if failed.is_empty() {
        Verdict::Finished
    } else if plan.iteration >= bounds.max_iterations {
        reasons.push(format!(
            "stopped after {} attempt(s): agents.max_iterations is {}",
            plan.iteration, bounds.max_iterations
        ));
        Verdict::Finished
    } else if !bounds.time_left {
        reasons.push(format!(
            "stopped after {} attempt(s): no time left before the deadline",
            plan.iteration
        ));
        Verdict::Finished
    } else {
        Verdict::Reiterate
    };
    VerificationDone {
        iteration: plan.iteration,
        verdict,
        reasons,
        failed_steps: failed,
        plan: None,
    }
}

/// The steps a re-plan runs again: `failed` and every step that references one of them,
/// directly or not.
pub fn rerun(plan: &PlanReady, failed: &[FailedStep]) -> HashSet<StepId> {
    let mut out: HashSet<StepId> = failed.iter().map(|f| f.step_id.clone()).collect();
    // References point only to earlier steps, so one pass in plan order is enough.
    for step in &plan.plan.steps {
        if step
            .dependencies()
            .into_iter()
            .any(|d| out.contains(&StepId::from(d)))
        {
            out.insert(step.id.clone());
        }
    }
    out
}

/// The plan of the next attempt: `plan` with its iteration counted up and the failures
/// of this attempt added to its history.
pub fn next_attempt(plan: &PlanReady, failed: &[FailedStep]) -> PlanReady {
    let mut next = plan.clone();
    next.iteration = plan.iteration + 1;
    next.retried.extend(
        failed
            .iter()
            .map(|f| format!("attempt {}: {}", plan.iteration, f.line())),
    );
    next.dispatched = true;
    next
}

/// The plan of the attempt after `plan`'s when the model's iteration advisor suggested
/// `advised` because of `reason`: every step runs (nothing is carried over), made by the
/// model.
pub fn advised_attempt(plan: &PlanReady, advised: Plan, reason: &str) -> PlanReady {
    let mut next = plan.clone();
    next.iteration = plan.iteration + 1;
    next.plan = advised;
    next.planner = PlannerKind::Llm;
    next.unplanned = None;
    next.retried
        .push(format!("attempt {}: {reason}", plan.iteration));
    next.dispatched = true;
    next
}

/// The results the next attempt starts with: every result of this attempt outside
/// `rerun`, marked as the next attempt's.
pub fn kept(
    results: &HashMap<StepId, StepResult>,
    rerun: &HashSet<StepId>,
    next_iteration: u32,
) -> Vec<StepResult> {
    let mut kept: Vec<StepResult> = results
        .iter()
        .filter(|(id, _)| !rerun.contains(*id))
        .map(|(_, r)| StepResult {
            iteration: next_iteration,
            ..r.clone()
        })
        .collect();
    kept.sort_by(|a, b| a.step_id.cmp(&b.step_id));
    kept
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn plan(iteration: u32) -> PlanReady {
        let mut p: PlanReady = serde_json::from_value(json!({
            "query": "(2+4)*3 and 10/0", "language": "en", "planner": "heuristic",
            "plan": {"steps": [
                {"id": "s1", "pool": "math", "tool": "sum", "arguments": {"a": "2", "b": "4"}},
                {"id": "s2", "pool": "math", "tool": "multiply", "arguments": {"a": {"$ref": "s1"}, "b": "3"}},
                {"id": "s3", "pool": "math", "tool": "divide", "arguments": {"a": "10", "b": "0"}}
            ]}
        }))
        .expect("plan");
        p.iteration = iteration;
        p
    }

    fn result(id: &str, outcome: StepOutcome) -> (StepId, StepResult) {
        (
            id.into(),
            StepResult {
                step_id: id.into(),
                pool: "math".into(),
                tool: "t".into(),
                arguments: Default::default(),
                outcome,
                agent: "a".into(),
                elapsed_us: 0,
                iteration: 1,
            },
        )
    }

    fn ok() -> StepOutcome {
        StepOutcome::Ok {
            value: json!("6"),
            text: "6".into(),
        }
    }

    const ROOM: Bounds = Bounds {
        max_iterations: 3,
        time_left: true,
    };

    #[test]
    fn a_failure_that_cannot_pass_is_finished_at_once() {
        let results = HashMap::from([
            result("s1", ok()),
            result("s2", ok()),
            result("s3", StepOutcome::failed("division by zero")),
        ]);
        let v = judge(&plan(1), &results, ROOM);
        assert_eq!(v.verdict, Verdict::Finished);
        assert!(v.failed_steps.is_empty() && v.reasons.is_empty());
    }

    #[test]
    fn a_timeout_reiterates_naming_the_root_step_not_its_dependents() {
        let results = HashMap::from([
            result(
                "s1",
                StepOutcome::failed_transient("sum timed out after 1000 ms"),
            ),
            result(
                "s2",
                StepOutcome::failed_transient("step s1 failed: sum timed out after 1000 ms"),
            ),
            result("s3", StepOutcome::failed("division by zero")),
        ]);
        let v = judge(&plan(1), &results, ROOM);
        assert_eq!(v.verdict, Verdict::Reiterate);
        assert_eq!(v.reasons, ["s1 sum: sum timed out after 1000 ms"]);
        let again = rerun(&plan(1), &v.failed_steps);
        assert_eq!(again, HashSet::from(["s1".into(), "s2".into()]));
        let kept = kept(&results, &again, 2);
        assert_eq!(kept.len(), 1);
        assert_eq!((kept[0].step_id.as_str(), kept[0].iteration), ("s3", 2));
        let next = next_attempt(&plan(1), &v.failed_steps);
        assert_eq!(next.iteration, 2);
        assert_eq!(
            next.retried,
            ["attempt 1: s1 sum: sum timed out after 1000 ms"]
        );
    }

    #[test]
    fn the_last_attempt_and_the_deadline_stop_the_loop_and_say_why() {
        let results = HashMap::from([
            result("s1", StepOutcome::failed_transient("unreachable")),
            result("s2", StepOutcome::failed_transient("step s1 failed")),
            result("s3", ok()),
        ]);
        let v = judge(&plan(3), &results, ROOM);
        assert_eq!(v.verdict, Verdict::Finished);
        assert_eq!(
            v.reasons.last().map(String::as_str),
            Some("stopped after 3 attempt(s): agents.max_iterations is 3")
        );
        let late = Bounds {
            time_left: false,
            ..ROOM
        };
        let v = judge(&plan(1), &results, late);
        assert_eq!(v.verdict, Verdict::Finished);
        assert!(v.reasons[1].contains("no time left"), "{:?}", v.reasons);
    }

    #[test]
    fn an_advised_attempt_runs_the_advisors_plan_whole_and_says_why() {
        let advised: Plan = serde_json::from_value(json!({"steps": [
            {"id": "s1", "pool": "math", "tool": "multiply", "arguments": {"a": "6", "b": "3"},
             "output": true}
        ]}))
        .expect("plan");
        let next = advised_attempt(&plan(1), advised.clone(), "refused");
        assert_eq!(next.iteration, 2);
        assert_eq!(next.plan, advised);
        assert_eq!(next.planner, PlannerKind::Llm);
        assert!(next.dispatched);
        assert_eq!(next.retried, ["attempt 1: refused"]);
    }
}
