//! A task's hops: the messages it made across every topic, read from the bounded tail
//! of each stream, and how a person reads them (time of day, roles, one-line
//! summaries, time since the previous and the first message). `chorus trace`, `chorus
//! watch` and the Chief's web view (`GET /tasks/{id}/hops`, `GET /events`) all show
//! messages through this one module, so a terminal and a browser say the same thing.

pub mod collect;
pub mod format;
pub mod roles;
pub mod timeline;

pub use collect::{collect, topics};
pub use timeline::{Row, rows};
