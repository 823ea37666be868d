//! Where a task is, read from the task state in the store — the one reading every door
//! shows: `GET /tasks/{id}` and the web view's list (`pending`, `input_required`,
//! `done`), A2A's `GetTask` (submitted, working, input required, a terminal state), and
//! the follower catching up on what it missed ([`crate::follow`]).
//!
//! The report decides first (a task with a report is done, whatever else is left), then
//! the question record (paused on an open question, or its answer taken and the task
//! planned again), then the request (planned or not). A task none of them knows is
//! unknown, or expired.

use chorus_bus::{BusError, ClarificationNeeded, FinalReport, TaskId};
use chorus_core::state::TaskState;

/// Where a task is.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Phase {
    /// Accepted; not yet planned.
    Pending,
    /// Planned, or its answer taken and being planned again.
    Working,
    /// Paused on this question, waiting for its answer (its deadline paused).
    InputRequired(ClarificationNeeded),
    /// Its report is out.
    Done(FinalReport),
}

impl Phase {
    /// Whether the task is finished (its report is out).
    pub(crate) fn is_done(&self) -> bool {
        matches!(self, Phase::Done(_))
    }
}

/// Task `id`'s phase; `None` for a task the store does not know (unknown, or expired).
/// A report published but not yet stored by the Chief reads as working.
pub(crate) async fn read(state: &TaskState, id: &TaskId) -> Result<Option<Phase>, BusError> {
    if let Some(report) = state.report(id).await? {
        return Ok(Some(Phase::Done(report)));
    }
    if let Some(waiting) = state.waiting(id).await? {
        // The record read above, not read again: is its question still open?
        return Ok(Some(match state.still_open(id, waiting).await? {
            Some(question) => Phase::InputRequired(question),
            None => Phase::Working,
        }));
    }
    if state.request(id).await?.is_none() {
        return Ok(None);
    }
    Ok(Some(match state.plan(id).await?.is_some() {
        true => Phase::Working,
        false => Phase::Pending,
    }))
}
