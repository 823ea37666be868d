//! A door's refusal on the bus: a client that sent its request on the bus listens on
//! `final_report`, so a request the door refuses ends as that task's one report, with
//! status `failed` and the reason in the user's language. A request reusing a task id
//! taken by another request cannot have a report of its own (the id's one report is the
//! other request's): it becomes a dead letter saying so.

use std::time::Duration;

use chorus_bus::dead_letter::{DeadLetterInfo, dead_letter_message};
use chorus_bus::{
    Bus, BusError, Message, Payload, PlanReady, PlannerKind, TaskId, TaskRequest, Topic,
};
use chorus_telemetry::metrics::roles::door_dead_letter;

use super::submit::SubmitError;
use crate::report;

/// Publishes, under `once` (key and lifetime), the final report refusing `request`
/// (task `task_id`) for `why`. Returns whether it was published now.
pub async fn refuse_on_bus(
    bus: &dyn Bus,
    task_id: &TaskId,
    request: &TaskRequest,
    why: &SubmitError,
    once: (String, Duration),
) -> Result<bool, BusError> {
    let language =
        chorus_heuristic::detect_language(&request.query, request.context.language.as_deref());
    let plan = PlanReady {
        query: request.query.clone(),
        context: request.context.clone(),
        unplanned: Some(why.message_in(language)),
        language,
        plan: Default::default(),
        planner: PlannerKind::Heuristic,
        reply: None,
        dispatched: false,
        iteration: 1,
        retried: Vec::new(),
    };
    let mut refusal = report::build(&plan, &Default::default());
    refusal.status = chorus_bus::ReportStatus::Failed;
    let msg = Message::new(
        task_id,
        Topic::final_report(),
        "door",
        Payload::FinalReport(refusal),
    );
    bus.publish_once(&once.0, once.1, &msg).await
}

/// Publishes, under `once`, the dead letter of a request the door cannot take as the
/// task it names (its id is taken by another request), written by `role`.
pub async fn dead_letter_refused(
    bus: &dyn Bus,
    role: &str,
    task_id: &TaskId,
    request: &TaskRequest,
    why: &SubmitError,
    once: (String, Duration),
) -> Result<bool, BusError> {
    let original =
        serde_json::json!({"task_id": task_id, "query": request.query, "context": request.context});
    let letter = dead_letter_message(&DeadLetterInfo {
        topic: Topic::TASK_AVAILABLE,
        entry_id: "",
        role,
        deliveries: 1,
        reason: &why.to_string(),
        original: &original.to_string(),
        task_id: Some(task_id),
    });
    publish_letter(bus, role, Topic::TASK_AVAILABLE, once, &letter).await
}

/// Publishes a door's dead letter `letter` (written by `role`, for a payload on `topic`)
/// under `once`, and counts it in `chorus_dead_letters_total` when it went out now.
pub(super) async fn publish_letter(
    bus: &dyn Bus,
    role: &str,
    topic: &str,
    once: (String, Duration),
    letter: &Message,
) -> Result<bool, BusError> {
    let sent = bus.publish_once(&once.0, once.1, letter).await?;
    if sent {
        door_dead_letter(role, topic);
    }
    Ok(sent)
}
