//! Why `chorus watch` or `chorus trace` could not do its job.

use chorus_bus::{BusError, DecodeError};

/// `chorus watch` or `chorus trace` could not do its job.
#[derive(Debug, thiserror::Error)]
pub enum CliError {
    /// The bus failed.
    #[error(transparent)]
    Bus(#[from] BusError),
    /// A `--topic` is not a topic name.
    #[error("unknown topic {name:?}: {source}")]
    Topic {
        /// What the user typed.
        name: String,
        /// Why it is not a topic.
        source: DecodeError,
    },
    /// No stream holds a message of the task.
    #[error(
        "no messages for task {task_id} in the last {scanned} entries of any topic (wrong id, or the streams were trimmed)"
    )]
    NoMessages {
        /// The task asked for.
        task_id: String,
        /// How many recent entries of each topic were read.
        scanned: usize,
    },
    /// Writing the output failed (e.g. a closed pipe).
    #[error("writing output: {0}")]
    Io(#[from] std::io::Error),
}
