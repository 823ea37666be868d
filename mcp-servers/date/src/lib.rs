//! Chorus date MCP server: calendar and duration tools built on jiff.
//!
//! Every tool takes optional `now` and `timezone` arguments so an answer can be
//! reproduced (and tested) regardless of the machine's clock; without them "now"
//! is the system clock in UTC. Dates are ISO 8601 `YYYY-MM-DD` (`dd/mm/yyyy` when
//! `day_first` is true). The IANA time-zone database is bundled, so the server
//! also works in a container without `/usr/share/zoneinfo`.
//!
//! One file per tool under [`tools`]; [`DateServer`] lists and dispatches them.

pub mod context;
pub mod error;
pub mod parse;
pub mod server;
pub mod tools;
pub mod zones;

pub use error::DateError;
pub use server::DateServer;

/// Default HTTP port of the date server.
pub const DEFAULT_PORT: u16 = 7302;

/// Server name reported in `initialize` and `/healthz`.
pub const SERVER_NAME: &str = "chorus-mcp-date";
