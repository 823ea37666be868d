//! Chorus agents: the Chief, Planner, Router, pool agents, Synthesizer and Verifier, each a
//! handler over the [`chorus_bus::Bus`], plus what runs them (the loop, task state, the
//! live registry, settings). A library: it names no transport, serves no HTTP and
//! parses no command line; the `chorus` binary (agents/cli) composes it with the Redis
//! transport and the HTTP gateway (agents/gateway).
//!
//! Agents hold no task only in memory: plans, results and once-flags live in the
//! [`chorus_bus::Store`], so any replica carries on any task.

pub mod acl;
pub mod client;
pub mod door;
pub mod hops;
pub mod llm;
pub mod question;
pub mod registry;
pub mod report;
pub mod roles;
pub mod runtime;
pub mod session;
pub mod settings;
pub mod state;
pub mod system;
pub mod token_stream;
pub mod topology;
pub mod verdict;
