//! How the CLI shows messages: times and payload summaries, roles and hops, Mermaid
//! diagrams, and the progress and questions of `chorus ask`.

pub mod format;
pub mod mermaid;
pub mod progress;
pub mod question;
pub mod roles;
