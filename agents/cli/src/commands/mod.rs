//! One file per `chorus` subcommand.

pub mod acl;
pub mod agent;
pub mod ask;
pub mod cancel;
pub mod error;
pub mod preflight;
pub mod probe;
pub mod trace;
pub mod watch;
