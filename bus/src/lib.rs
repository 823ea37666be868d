//! The Chorus bus: the one contract every Chorus process shares.
//!
//! It holds the message envelope ([`Message`]), one typed payload per topic
//! ([`Payload`]), plans ([`Plan`]), the [`Bus`] and [`Store`] traits, and the
//! in-memory transport. The Redis Streams transport is its own crate (`chorus-bus-redis`,
//! in `bus/redis`), so this one compiles without `redis`: the planners and the model
//! crate, which need only plans and reports, never build a transport. It knows nothing
//! of what agents do with messages; agent logic lives in `chorus-core`.

pub mod bus;
pub mod counts;
pub mod dead_letter;
pub mod envelope;
pub mod error;
pub mod ids;
pub mod intake;
pub mod keys;
pub mod language;
pub mod memory;
pub mod payload;
pub mod plan;
pub mod schema;
pub mod settings;
pub mod store;
pub mod tokens;
pub mod topic;

pub use bus::{
    AckToken, Bus, Delivery, GroupStats, IngressFeed, StreamStats, Subscriber, Subscription,
    Watcher,
};
pub use envelope::{CONTRACT_VERSION, Decoded, Message, TraceContext};
pub use error::{BusError, DecodeError};
pub use ids::{Deadline, PoolName, StepId, TaskId, now_ms, now_us};
pub use language::{Language, UnknownLanguage};
pub use memory::{MemoryBus, MemoryStore};
pub use payload::*;
pub use plan::{Arg, Plan, PlanError, Step};
pub use settings::{BusSettings, RedisMode};
pub use store::{HashAndValue, Store};
pub use tokens::{ReportToken, TokenReader, TokensDone, token_stream_key};
pub use topic::{Topic, TopicKind};
