//! Builds a task's final report from its stored plan and results. Shared by the
//! Synthesizer (every step final) and the Chief (deadline passed), so both write the
//! same report for the same state.

use std::collections::HashMap;

use chorus_bus::PoolName;
use chorus_bus::{
    Arg, FinalReport, Language, PlanReady, ReportStatus, Step, StepId, StepReport, StepResult,
    TaskRequest,
};

/// The report for `plan` given the results so far; steps without a result are shown as
/// unfinished (which only happens at the deadline).
pub fn build(plan: &PlanReady, results: &HashMap<StepId, StepResult>) -> FinalReport {
    build_stopped(plan, results, &[])
}

/// [`build`] for a task where Chorus stopped trying although some step failed for a
/// reason that can pass (`stopped`: why, from the verdict): the reasons go into
/// `retried` and the attempts line says so.
pub fn build_stopped(
    plan: &PlanReady,
    results: &HashMap<StepId, StepResult>,
    stopped: &[String],
) -> FinalReport {
    build_as(plan, results, stopped, None)
}

/// The report of a task canceled by a client: status `canceled`, what had finished by
/// then, the steps that had not shown as unfinished, and `reason` when the client gave
/// one.
pub fn build_canceled(
    plan: &PlanReady,
    results: &HashMap<StepId, StepResult>,
    reason: Option<&str>,
) -> FinalReport {
    let mut report = build_as(plan, results, &[], Some(ReportStatus::Canceled));
    if let Some(reason) = reason.filter(|r| !r.trim().is_empty()) {
        report.text.push('\n');
        report
            .text
            .push_str(&chorus_heuristic::messages::cancel_reason(
                reason.trim(),
                plan.language,
            ));
        report.text.push('\n');
    }
    report
}

/// A plan with no steps for a task that has none (yet): its report says `why`, worded
/// in the request's language (planning did not finish before the deadline, the task
/// was canceled first).
pub fn unplanned(request: TaskRequest, why: impl FnOnce(Language) -> String) -> PlanReady {
    let language =
        chorus_heuristic::detect_language(&request.query, request.context.language.as_deref());
    let why = why(language);
    PlanReady {
        query: request.query,
        context: request.context,
        language,
        plan: Default::default(),
        planner: chorus_bus::PlannerKind::Heuristic,
        unplanned: Some(why),
        reply: None,
        dispatched: false,
        iteration: 1,
        retried: Vec::new(),
    }
}

/// The report of a task whose plan cannot run (`problem`: what [`chorus_bus::Plan::validate`]
/// found): status `failed`, no steps, the problem named in the request's language.
/// Nothing of such a plan ran: the Router and the Synthesizer check every plan before
/// anything goes out.
pub fn invalid_plan(plan: &PlanReady, problem: &chorus_bus::PlanError) -> FinalReport {
    let text = match plan.language {
        Language::Vi => format!(
            "Không thể thực hiện kế hoạch cho yêu cầu này, nên không bước nào được chạy: {problem}.\n"
        ),
        _ => format!("The plan for this request cannot run, so no step was run: {problem}.\n"),
    };
    FinalReport {
        query: plan.query.clone(),
        status: ReportStatus::Failed,
        text,
        language: plan.language,
        steps: Vec::new(),
        written_by: "template".to_owned(),
        iterations: plan.iteration,
        retried: Vec::new(),
    }
}

/// [`build_stopped`], with the status `forced` when given instead of judged from the
/// steps.
fn build_as(
    plan: &PlanReady,
    results: &HashMap<StepId, StepResult>,
    stopped: &[String],
    forced: Option<ReportStatus>,
) -> FinalReport {
    if let (Some(reply), true, None) = (&plan.reply, plan.plan.steps.is_empty(), forced) {
        return FinalReport {
            query: plan.query.clone(),
            status: ReportStatus::Completed,
            text: reply.clone(),
            language: plan.language,
            steps: Vec::new(),
            written_by: "template".to_owned(),
            iterations: plan.iteration,
            retried: plan.retried.clone(),
        };
    }
    let steps: Vec<StepReport> = plan
        .plan
        .steps
        .iter()
        .map(|step| {
            let result = results.get(&step.id);
            let ran_with = result.map(|r| &r.arguments).filter(|a| !a.is_empty());
            StepReport {
                step_id: step.id.clone(),
                part: step.part.clone(),
                pool: step.pool.clone(),
                tool: step.tool.clone(),
                arguments: ran_with.cloned().unwrap_or_else(|| literal_arguments(step)),
                inputs: step
                    .arguments
                    .iter()
                    .filter_map(|(name, arg)| match arg {
                        Arg::Ref { step } => Some((name.clone(), step.clone())),
                        Arg::Value(_) => None,
                    })
                    .collect(),
                recalled: step.recalled.clone(),
                outcome: result.map(|r| r.outcome.clone()),
                output: step.output,
            }
        })
        .collect();
    let status = match (plan.unplanned.is_some(), steps.is_empty()) {
        (true, true) => ReportStatus::Unplannable,
        // Some parts were not understood: the understood ones ran, the rest is named.
        (true, false) => match chorus_heuristic::report_status(&steps) {
            ReportStatus::Completed => ReportStatus::Partial,
            other => other,
        },
        (false, _) => chorus_heuristic::report_status(&steps),
    };
    let status = forced.unwrap_or(status);
    let mut text = chorus_heuristic::render_report(
        &plan.query,
        plan.language,
        &steps,
        status,
        plan.unplanned.as_deref(),
    );
    if let Some(line) =
        chorus_heuristic::attempts_line(plan.language, plan.iteration, &plan.retried, stopped)
    {
        text.push('\n');
        text.push_str(&line);
        text.push('\n');
    }
    FinalReport {
        query: plan.query.clone(),
        status,
        text,
        language: plan.language,
        steps,
        written_by: "template".to_owned(),
        iterations: plan.iteration,
        retried: plan.retried.iter().chain(stopped).cloned().collect(),
    }
}

/// The literal arguments of a step that did not run (references left out), so the
/// report can still say what it was asked.
fn literal_arguments(step: &Step) -> serde_json::Map<String, serde_json::Value> {
    step.arguments
        .iter()
        .filter_map(|(name, arg)| match arg {
            Arg::Value(v) => Some((name.clone(), v.clone())),
            Arg::Ref { .. } => None,
        })
        .collect()
}

/// Failed results for the steps of `plan` whose pool no agent serves (a plan from a
/// client may name any pool). The Router and the Synthesizer both record them, with the
/// same content, so such steps are final from the start and the fan-in still fires.
pub fn unserved(plan: &PlanReady, pools: &[PoolName]) -> Vec<StepResult> {
    plan.plan
        .steps
        .iter()
        .filter(|s| !pools.iter().any(|p| *p == s.pool))
        .map(|s| StepResult {
            step_id: s.id.clone(),
            pool: s.pool.clone(),
            tool: s.tool.clone(),
            arguments: Default::default(),
            outcome: chorus_bus::StepOutcome::failed(format!(
                "no agent serves the {} pool",
                s.pool
            )),
            agent: "chorus".to_owned(),
            elapsed_us: 0,
            iteration: plan.iteration,
        })
        .collect()
}

/// Whether every step of the plan has a result.
pub fn complete(plan: &PlanReady, results: &HashMap<StepId, StepResult>) -> bool {
    plan.plan.steps.iter().all(|s| results.contains_key(&s.id))
}
