//! The library half of `chorus-pool`: what starting one role process takes, shared by
//! `chorus agent ROLE` (agents/cli) and the pool agent's own binary, `chorus-pool`.
//! Nothing here names a role other than through [`chorus_core::topology::Role`], so a
//! binary built on it links only the roles it runs (docs/performance.md, "A smaller
//! binary for the pool agent").

pub mod connector;
pub mod logs;
pub mod metrics;
pub mod redis;
pub mod runtime;
pub mod start;
