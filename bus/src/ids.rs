//! The identifiers and times every message carries, as types rather than bare strings
//! and integers: [`TaskId`] (correlation id, validated once), [`StepId`] (a step of a
//! plan) and [`Deadline`] (an absolute time, so "now + deadline" and "time left" are
//! written here once). On the wire they are the plain JSON string or number they
//! always were: the schemas do not change.

use std::borrow::Borrow;
use std::fmt;
use std::ops::Deref;
use std::str::FromStr;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use serde::{Deserialize, Serialize};

use crate::error::DecodeError;

/// Longest task id accepted from a client.
pub const MAX_TASK_ID_LEN: usize = 128;

/// Declares an id newtype over `String` (a plain JSON string on the wire, inlined in
/// the schemas) with its string-like traits.
macro_rules! string_id {
    ($(#[$meta:meta])* $name:ident) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[derive(Serialize, Deserialize, schemars::JsonSchema)]
        #[serde(transparent)]
        #[schemars(inline)]
        pub struct $name(String);

        impl $name {
            /// The id as text.
            pub fn as_str(&self) -> &str {
                &self.0
            }
        }

        impl Deref for $name {
            type Target = str;
            fn deref(&self) -> &str {
                &self.0
            }
        }

        impl AsRef<str> for $name {
            fn as_ref(&self) -> &str {
                &self.0
            }
        }

        impl Borrow<str> for $name {
            fn borrow(&self) -> &str {
                &self.0
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(&self.0)
            }
        }

        impl PartialEq<str> for $name {
            fn eq(&self, other: &str) -> bool {
                self.0 == other
            }
        }

        impl PartialEq<&str> for $name {
            fn eq(&self, other: &&str) -> bool {
                self.0 == *other
            }
        }

        impl PartialEq<String> for $name {
            fn eq(&self, other: &String) -> bool {
                &self.0 == other
            }
        }

        impl PartialEq<$name> for String {
            fn eq(&self, other: &$name) -> bool {
                *self == other.0
            }
        }

        impl PartialEq<$name> for &str {
            fn eq(&self, other: &$name) -> bool {
                *self == other.0
            }
        }

        impl From<$name> for String {
            fn from(id: $name) -> String {
                id.0
            }
        }

        impl From<&str> for $name {
            fn from(id: &str) -> Self {
                $name(id.to_owned())
            }
        }

        impl From<String> for $name {
            fn from(id: String) -> Self {
                $name(id)
            }
        }

        impl From<&String> for $name {
            fn from(id: &String) -> Self {
                $name(id.clone())
            }
        }

        impl From<&$name> for $name {
            fn from(id: &$name) -> Self {
                id.clone()
            }
        }
    };
}

string_id!(
    /// A task's id: the correlation id of every message of the task, and the key of its
    /// state. 1..=128 letters, digits, `-`, `_`, `.`, `:` when a client chooses it; a
    /// UUID v7 when Chorus does. Ids from outside go through [`TaskId::parse`] (or
    /// [`FromStr`]); ids Chorus builds itself convert with `From`.
    TaskId
);

impl TaskId {
    /// A fresh id (UUID v7, so ids sort by creation time).
    pub fn generate() -> Self {
        TaskId(uuid::Uuid::now_v7().to_string())
    }

    /// Checks a client-chosen id: 1..=128 letters, digits, `-`, `_`, `.`, `:`.
    pub fn parse(id: &str) -> Result<Self, DecodeError> {
        let ok = !id.is_empty()
            && id.len() <= MAX_TASK_ID_LEN
            && id
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.' | b':'));
        if ok {
            Ok(TaskId(id.to_owned()))
        } else {
            Err(DecodeError::InvalidField {
                field: "task_id",
                reason: format!(
                    "must be 1..={MAX_TASK_ID_LEN} characters of letters, digits, '-', '_', '.', ':'"
                ),
            })
        }
    }

    /// Whether the id is one a client may choose (see [`TaskId::parse`]).
    pub fn is_valid(&self) -> bool {
        TaskId::parse(&self.0).is_ok()
    }
}

impl From<uuid::Uuid> for TaskId {
    fn from(id: uuid::Uuid) -> Self {
        TaskId(id.to_string())
    }
}

impl FromStr for TaskId {
    type Err = DecodeError;
    fn from_str(s: &str) -> Result<Self, DecodeError> {
        TaskId::parse(s)
    }
}

string_id!(
    /// A step's id within its plan (`s1`, `s2`, …).
    StepId
);

impl FromStr for StepId {
    type Err = std::convert::Infallible;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Ok(StepId(s.to_owned()))
    }
}

string_id!(
    /// A pool's name (`math`, `date`, or any pool configured under `[pools.<name>]`):
    /// what names its topics (`<pool>_task`, `<pool>_result`), its consumer group
    /// (`pool-<pool>`) and its agents' registry entries. Names come from the settings,
    /// the topology and the live registry (checked by the settings'
    /// validation, [`crate::topic::is_pool_name`]); the plain JSON string on the wire.
    PoolName
);

impl FromStr for PoolName {
    type Err = std::convert::Infallible;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Ok(PoolName(s.to_owned()))
    }
}

/// When a task must be done: milliseconds since the Unix epoch (the envelope's
/// `deadline_ms`).
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    PartialOrd,
    Ord,
    Serialize,
    Deserialize,
    schemars::JsonSchema,
)]
#[serde(transparent)]
#[schemars(inline)]
pub struct Deadline(u64);

impl Deadline {
    /// The deadline `ms` milliseconds after the Unix epoch.
    pub fn from_millis(ms: u64) -> Self {
        Deadline(ms)
    }

    /// The deadline `budget` from now.
    pub fn after(budget: Duration) -> Self {
        Deadline::after_from(now_ms(), budget)
    }

    /// The deadline `budget` after `start_ms` (milliseconds since the epoch).
    pub fn after_from(start_ms: u64, budget: Duration) -> Self {
        let budget = u64::try_from(budget.as_millis()).unwrap_or(u64::MAX);
        Deadline(start_ms.saturating_add(budget))
    }

    /// Milliseconds since the Unix epoch.
    pub fn as_millis(self) -> u64 {
        self.0
    }

    /// Time left until the deadline (zero once it passed).
    pub fn remaining(self) -> Duration {
        Duration::from_millis(self.0.saturating_sub(now_ms()))
    }

    /// Whether the deadline has passed.
    pub fn passed(self) -> bool {
        now_ms() >= self.0
    }

    /// The deadline as a sorted-set score.
    pub fn score(self) -> i64 {
        i64::try_from(self.0).unwrap_or(i64::MAX)
    }
}

impl PartialEq<u64> for Deadline {
    fn eq(&self, other: &u64) -> bool {
        self.0 == *other
    }
}

impl PartialOrd<u64> for Deadline {
    fn partial_cmp(&self, other: &u64) -> Option<std::cmp::Ordering> {
        self.0.partial_cmp(other)
    }
}

impl fmt::Display for Deadline {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

impl FromStr for Deadline {
    type Err = DecodeError;
    fn from_str(s: &str) -> Result<Self, DecodeError> {
        s.trim()
            .parse()
            .map(Deadline)
            .map_err(|e| DecodeError::InvalidField {
                field: "deadline_ms",
                reason: format!("{s:?} is not milliseconds since the epoch: {e}"),
            })
    }
}

/// Microseconds since the Unix epoch.
pub fn now_us() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_micros() as u64)
        .unwrap_or(0)
}

/// Milliseconds since the Unix epoch.
pub fn now_ms() -> u64 {
    now_us() / 1000
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_plain_strings_on_the_wire_and_client_ids_are_checked() {
        let id: TaskId = "h-1".parse().expect("valid");
        assert_eq!(serde_json::to_string(&id).expect("json"), "\"h-1\"");
        assert_eq!(id, "h-1");
        assert!("has space".parse::<TaskId>().is_err());
        assert!(TaskId::parse(&"x".repeat(129)).is_err());
        let step: StepId = serde_json::from_str("\"s1\"").expect("json");
        assert_eq!(step.as_str(), "s1");
    }

    #[test]
    fn a_deadline_is_an_absolute_time_in_milliseconds() {
        let d = Deadline::after_from(1_000, Duration::from_secs(2));
        assert_eq!(d.as_millis(), 3_000);
        assert_eq!(serde_json::to_string(&d).expect("json"), "3000");
        assert!(d.passed());
        assert_eq!(d.remaining(), Duration::ZERO);
        let later = Deadline::after(Duration::from_secs(60));
        assert!(!later.passed());
        assert!(later.remaining() > Duration::from_secs(59));
        assert_eq!("3000".parse::<Deadline>().expect("parse"), d);
        assert!("soon".parse::<Deadline>().is_err());
    }
}
