//! The library half of `chorus-cli`: what tests and other crates use of the binary,
//! chiefly the one-process system ([`local::LocalSystem`]) every role and both MCP
//! servers run in on the in-memory bus, and [`safe`], which every text the binary
//! prints goes through.

pub mod local;
pub mod safe;
