//! The one way in. Every door — `chorus ask`, the HTTP API, a bare `XADD` on
//! `task_available` (normalised by the Chief), a bare `PUBLISH` (the ingress), and the
//! doors still to come — hands its request to [`submit`], the one place for
//! validation, limits, task ids, deadlines and exactly-once acceptance, an answer to
//! a task's question to [`answer`], and a cancellation to [`cancel`]. Each door then answers in its own way (a 202, an SSE
//! stream, a wait for the report, a refusal report or a dead letter on the bus).

mod answer;
mod cancel;
mod context;
mod ingress;
mod refusal;
mod submit;

pub use answer::{
    AnswerError, AnswerSubmission, Answered, FromBus, Letter, answer, answer_from_bus,
};
pub use cancel::{
    CANCELED, CancelError, CancelSubmission, Canceled, MAX_REASON_CHARS, cancel, cancel_from_bus,
};
pub use context::BadField;
pub use ingress::{Ingested, ingest, run_publish_ingress};
pub use refusal::{dead_letter_refused, refuse_on_bus};
pub use submit::{Accepted, Limits, Submission, SubmitError, submit};
