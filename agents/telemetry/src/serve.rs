//! The `/metrics` listener of a process without an HTTP API (to be built).
