//! How the CLI shows messages: Mermaid diagrams, and the progress and questions of
//! `chorus ask`. Times, payload summaries, roles and hops come from
//! [`chorus_core::hops`], shared with the Chief's web view; whatever is printed goes
//! through [`safe`] first, so text from outside cannot drive the terminal.

pub mod mermaid;
pub mod progress;
pub mod question;

/// Every text printed goes through it: control characters shown escaped.
pub use chorus_cli::safe;
pub use chorus_core::hops::{format, roles};
