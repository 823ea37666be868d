//! The roles. Each is a [`crate::runtime::Handler`]: it takes typed messages from the bus
//! and writes its effects (state, then messages published once) before returning.

pub mod chief;
pub mod dispatch;
pub mod planner;
pub mod pool;
pub mod router;
mod seen;
pub mod synthesizer;
pub mod verifier;

use std::sync::Arc;

use chorus_bus::Bus;

use crate::state::TaskState;

/// What every role holds: the bus, the task state, and its instance name.
#[derive(Clone)]
pub struct Ctx {
    /// The message bus.
    pub bus: Arc<dyn Bus>,
    /// Per-task state.
    pub state: TaskState,
    /// This process's instance name (`<role>-<uuid>`), used as `from_agent`.
    pub instance: String,
}

impl Ctx {
    /// A context for `role` with a fresh instance name.
    pub fn new(bus: Arc<dyn Bus>, state: TaskState, role: &str) -> Self {
        Ctx {
            bus,
            state,
            instance: format!("{role}-{}", uuid::Uuid::now_v7().simple()),
        }
    }
}
