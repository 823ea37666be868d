//! Builds a task's final report from its stored plan and results. Shared by the
//! Synthesizer (every step final) and the Chief (deadline passed), so both write the
//! same report for the same state.

use std::collections::HashMap;

use chorus_bus::{FinalReport, PlanReady, ReportStatus, StepId, StepReport, StepResult};

/// The report for `plan` given the results so far; steps without a result are shown as
/// unfinished (which only happens at the deadline).
pub fn build(plan: &PlanReady, results: &HashMap<StepId, StepResult>) -> FinalReport {
    if let (Some(reply), true) = (&plan.reply, plan.plan.steps.is_empty()) {
        return FinalReport {
            query: plan.query.clone(),
            status: ReportStatus::Completed,
            text: reply.clone(),
            language: plan.language.clone(),
            steps: Vec::new(),
            written_by: "template".to_owned(),
        };
    }
    let steps: Vec<StepReport> = plan
        .plan
        .steps
        .iter()
        .map(|step| {
            let result = results.get(&step.id);
            StepReport {
                step_id: step.id.clone(),
                part: step.part.clone(),
                pool: step.pool.clone(),
                tool: step.tool.clone(),
                arguments: result.map(|r| r.arguments.clone()).unwrap_or_default(),
                outcome: result.map(|r| r.outcome.clone()),
                output: step.output,
            }
        })
        .collect();
    let status = if plan.unplanned.is_some() && steps.is_empty() {
        ReportStatus::Unplannable
    } else {
        chorus_heuristic::report_status(&steps)
    };
    let text = chorus_heuristic::render_report(
        &plan.query,
        &plan.language,
        &steps,
        status,
        plan.unplanned.as_deref(),
    );
    FinalReport {
        query: plan.query.clone(),
        status,
        text,
        language: plan.language.clone(),
        steps,
        written_by: "template".to_owned(),
    }
}

/// Failed results for the steps of `plan` whose pool no agent serves (a plan from a
/// client may name any pool). The Router and the Synthesizer both record them, with the
/// same content, so such steps are final from the start and the fan-in still fires.
pub fn unserved(plan: &PlanReady, pools: &[String]) -> Vec<StepResult> {
    plan.plan
        .steps
        .iter()
        .filter(|s| !pools.contains(&s.pool))
        .map(|s| StepResult {
            step_id: s.id.clone(),
            pool: s.pool.clone(),
            tool: s.tool.clone(),
            arguments: Default::default(),
            outcome: chorus_bus::StepOutcome::Failed {
                error: format!("no agent serves the {} pool", s.pool),
            },
            agent: "chorus".to_owned(),
            elapsed_us: 0,
        })
        .collect()
}

/// Whether every step of the plan has a result.
pub fn complete(plan: &PlanReady, results: &HashMap<StepId, StepResult>) -> bool {
    plan.plan.steps.iter().all(|s| results.contains_key(&s.id))
}
