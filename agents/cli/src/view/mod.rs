//! How the CLI shows messages: Mermaid diagrams, and the progress and questions of
//! `chorus ask`. Times, payload summaries, roles and hops come from
//! [`chorus_agents::hops`], shared with the Chief's web view.

pub mod mermaid;
pub mod progress;
pub mod question;

pub use chorus_agents::hops::{format, roles};
