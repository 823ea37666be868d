//! Shared MCP plumbing for Chorus.
//!
//! Tool servers (math, date) describe their tools with [`tool::ToolDef`], parse
//! arguments with [`args::Args`] and turn their answers into MCP results with
//! [`tool::into_call_result`]. This crate serves any `rmcp` server handler over
//! stdio ([`stdio`]) or Streamable HTTP ([`http`], with `GET /healthz` and a
//! configurable `Host` allow-list and an optional bearer
//! token, [`token`]), parses the shared command line ([`cli`]), serves HTTP with
//! limits for slow clients ([`timeouts`], which the Chief's doors use too), and
//! gives pool agents one client, [`client::McpClient`], for every transport.
//!
//! It knows nothing about any particular tool, and nothing about the bus.

pub mod args;
pub mod cli;
pub mod client;
pub mod http;
pub mod metrics;
pub mod server;
pub mod stdio;
#[cfg(feature = "testing")]
pub mod testing;
pub mod timeouts;
pub mod token;
pub mod tool;
pub mod trace_context;

pub use cli::{ServeArgs, ServerBinary, ServerIdentity, TransportKind, run_server, server_main};
pub use client::{McpClient, McpError, ToolOutput, ToolSpec};
pub use http::{HttpServerHandle, HttpSettings, spawn_http};
pub use token::BearerToken;
pub use tool::{ToolDef, ToolReply, into_call_result};
