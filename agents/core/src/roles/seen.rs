//! The plans a replica of the Router or the Synthesizer has seen on `plan_ready`, by
//! task and attempt, so that what a result needs of its plan is known without a round
//! trip: for the Router, whether any step takes the result as an input; for the
//! Synthesizer, whether the plan is that one step. Only a hint: a replica that did not
//! see the plan (another replica read it, or this one restarted) reads the stored plan
//! as always. The first plan seen for a task's attempt is kept (a second one for the
//! same attempt is ignored, as the stored plan is the first one stored), and the oldest
//! is forgotten beyond [`SEEN_PLANS`] — or, in the Synthesizer, as soon as its task's
//! report is out ([`SeenPlans::forget`]), so that it holds about the tasks in flight.

use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex, PoisonError};

use chorus_bus::{Arg, PlanReady, StepResult, TaskId};

/// Most plans remembered (at 256 tasks in flight, four times as many).
pub const SEEN_PLANS: usize = 1024;

/// The plans seen, oldest first.
#[derive(Default)]
pub struct SeenPlans(Mutex<Seen>);

#[derive(Default)]
struct Seen {
    plans: HashMap<(TaskId, u32), Arc<PlanReady>>,
    order: VecDeque<(TaskId, u32)>,
}

impl SeenPlans {
    /// Remembers `plan` for `task`, unless a plan of its attempt was seen already.
    pub fn insert(&self, task: &TaskId, plan: &PlanReady) {
        let key = (task.clone(), plan.iteration);
        let mut seen = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        if seen.plans.contains_key(&key) {
            return;
        }
        if seen.order.len() >= SEEN_PLANS
            && let Some(oldest) = seen.order.pop_front()
        {
            seen.plans.remove(&oldest);
        }
        seen.plans.insert(key.clone(), Arc::new(plan.clone()));
        seen.order.push_back(key);
    }

    /// Forgets the plans of `task`'s attempts up to `iteration` (its report is out:
    /// nothing of it is needed here any more). Their places in the order are left to
    /// age out; only the plans, the memory, go now.
    pub fn forget(&self, task: &TaskId, iteration: u32) {
        let mut seen = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        if seen.plans.is_empty() {
            return;
        }
        let mut key = (task.clone(), 0);
        for attempt in 1..=iteration {
            key.1 = attempt;
            seen.plans.remove(&key);
        }
    }

    /// The plan of `result`'s task and attempt, when seen here.
    pub fn plan_of(&self, task: &TaskId, result: &StepResult) -> Option<Arc<PlanReady>> {
        let seen = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        seen.plans.get(&(task.clone(), result.iteration)).cloned()
    }

    /// Whether no step of `result`'s plan (its task's, its attempt's) takes it as an
    /// input; `None` when that plan was not seen here.
    pub fn releases_nothing(&self, task: &TaskId, result: &StepResult) -> Option<bool> {
        let plan = self.plan_of(task, result)?;
        let awaited = plan
            .plan
            .steps
            .iter()
            .flat_map(|s| s.arguments.values())
            .any(|arg| matches!(arg, Arg::Ref { step } if *step == result.step_id));
        Some(!awaited)
    }

    /// The plan of `result`'s task and attempt when it was seen here and is that one
    /// step alone (so the result is every result of its attempt).
    pub fn lone_step(&self, task: &TaskId, result: &StepResult) -> Option<Arc<PlanReady>> {
        let plan = self.plan_of(task, result)?;
        match plan.plan.steps.as_slice() {
            [step] if step.id == result.step_id => Some(plan),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn plan(iteration: u32, steps: serde_json::Value) -> PlanReady {
        serde_json::from_value(json!({
            "query": "q", "context": {}, "language": "en", "planner": "heuristic",
            "plan": {"steps": steps}, "iteration": iteration
        }))
        .expect("plan_ready")
    }

    fn result(step: &str, iteration: u32) -> StepResult {
        StepResult {
            step_id: step.into(),
            pool: "math".into(),
            tool: "sum".into(),
            arguments: Default::default(),
            outcome: chorus_bus::StepOutcome::Ok {
                value: json!("6"),
                text: "6".into(),
            },
            agent: "pool-math".into(),
            elapsed_us: 1,
            iteration,
        }
    }

    fn chain() -> serde_json::Value {
        json!([
            {"id": "s1", "pool": "math", "tool": "sum", "arguments": {"a": "2", "b": "4"}},
            {"id": "s2", "pool": "math", "tool": "multiply",
             "arguments": {"a": {"$ref": "s1"}, "b": "3"}}
        ])
    }

    #[test]
    fn a_forgotten_task_has_no_plan_and_the_others_keep_theirs() {
        let seen = SeenPlans::default();
        let (t1, t2) = (TaskId::from("t1"), TaskId::from("t2"));
        seen.insert(&t1, &plan(1, chain()));
        seen.insert(&t1, &plan(2, chain()));
        seen.insert(&t2, &plan(1, chain()));
        seen.forget(&t1, 2);
        assert!(seen.plan_of(&t1, &result("s1", 1)).is_none());
        assert!(seen.plan_of(&t1, &result("s1", 2)).is_none());
        assert!(seen.plan_of(&t2, &result("s1", 1)).is_some());
        // A plan seen again after its task was forgotten is kept again.
        seen.insert(&t1, &plan(1, chain()));
        assert!(seen.plan_of(&t1, &result("s1", 1)).is_some());
    }

    #[test]
    fn only_a_result_no_step_takes_as_input_releases_nothing() {
        let seen = SeenPlans::default();
        let task = TaskId::from("t1");
        seen.insert(&task, &plan(1, chain()));
        assert_eq!(seen.releases_nothing(&task, &result("s1", 1)), Some(false));
        assert_eq!(seen.releases_nothing(&task, &result("s2", 1)), Some(true));
    }

    #[test]
    fn a_plan_not_seen_here_or_of_another_attempt_is_unknown() {
        let seen = SeenPlans::default();
        let task = TaskId::from("t1");
        assert_eq!(seen.releases_nothing(&task, &result("s2", 1)), None);
        seen.insert(&task, &plan(1, chain()));
        assert_eq!(seen.releases_nothing(&task, &result("s2", 2)), None);
        assert_eq!(
            seen.releases_nothing(&TaskId::from("t2"), &result("s2", 1)),
            None
        );
    }

    #[test]
    fn the_first_plan_of_an_attempt_stays() {
        let seen = SeenPlans::default();
        let task = TaskId::from("t1");
        seen.insert(&task, &plan(1, chain()));
        let lone = json!([{"id": "s1", "pool": "math", "tool": "sum", "arguments": {"a": "1"}}]);
        seen.insert(&task, &plan(1, lone));
        assert_eq!(seen.releases_nothing(&task, &result("s1", 1)), Some(false));
    }

    #[test]
    fn a_lone_step_is_known_only_for_its_own_result() {
        let seen = SeenPlans::default();
        let task = TaskId::from("t1");
        let lone = json!([{"id": "s1", "pool": "math", "tool": "sum", "arguments": {"a": "1"}}]);
        seen.insert(&task, &plan(1, lone));
        assert!(seen.lone_step(&task, &result("s1", 1)).is_some());
        assert!(seen.lone_step(&task, &result("s2", 1)).is_none());
        assert!(seen.lone_step(&task, &result("s1", 2)).is_none());
        seen.insert(&TaskId::from("t2"), &plan(1, chain()));
        assert!(
            seen.lone_step(&TaskId::from("t2"), &result("s1", 1))
                .is_none()
        );
    }

    #[test]
    fn the_oldest_plan_is_forgotten_beyond_the_bound() {
        let seen = SeenPlans::default();
        for n in 0..=SEEN_PLANS {
            seen.insert(&TaskId::from(format!("t{n}")), &plan(1, chain()));
        }
        assert_eq!(
            seen.releases_nothing(&TaskId::from("t0"), &result("s2", 1)),
            None
        );
        let last = TaskId::from(format!("t{SEEN_PLANS}"));
        assert_eq!(seen.releases_nothing(&last, &result("s2", 1)), Some(true));
    }
}
