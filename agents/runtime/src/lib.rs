//! Chorus agents: the Chief, Planner, Router, pool agents and Synthesizer, each a
//! handler over the [`chorus_bus::Bus`], plus what runs them (one role per process, or
//! every role in one process on the in-memory bus).
//!
//! Agents hold no task only in memory: plans, results and once-flags live in the
//! [`chorus_bus::Store`], so any replica carries on any task.

pub mod bench;
pub mod cli;
pub mod client;
pub mod http;
pub mod llm;
pub mod local;
pub mod registry;
pub mod report;
pub mod roles;
pub mod runtime;
pub mod settings;
pub mod state;
pub mod system;
