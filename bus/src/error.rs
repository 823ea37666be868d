//! Errors of the bus: decoding (a message that does not fit its topic) and transport.

/// A message could not be decoded; the text says which field or topic is wrong.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DecodeError {
    /// Not JSON, or JSON that does not fit the envelope or the topic's payload.
    #[error("invalid message JSON: {0}")]
    Json(String),
    /// The topic is not one Chorus knows.
    #[error("unknown topic {0:?}")]
    UnknownTopic(String),
    /// The envelope names another topic than the stream it arrived on.
    #[error("message says topic {claimed:?} but arrived on {actual:?}")]
    TopicMismatch {
        /// The envelope's topic.
        claimed: String,
        /// The stream's topic.
        actual: String,
    },
    /// The message is larger than the configured limit.
    #[error("message is {size} bytes, over the limit of {limit} bytes")]
    TooLarge {
        /// Its size in bytes.
        size: usize,
        /// The limit in bytes.
        limit: usize,
    },
    /// A field has a value outside what is accepted.
    #[error("invalid field {field}: {reason}")]
    InvalidField {
        /// The field's name.
        field: &'static str,
        /// What is wrong with it.
        reason: String,
    },
}

impl From<serde_json::Error> for DecodeError {
    fn from(e: serde_json::Error) -> Self {
        DecodeError::Json(e.to_string())
    }
}

/// A bus operation failed.
#[derive(Debug, thiserror::Error)]
pub enum BusError {
    /// The message could not be encoded or decoded.
    #[error(transparent)]
    Decode(#[from] DecodeError),
    /// The transport (the Redis server, a connection) failed; the source says how.
    /// Transports convert their own errors into this, so no shared error names one.
    #[error("transport: {0}")]
    Transport(#[source] Box<dyn std::error::Error + Send + Sync + 'static>),
    /// The bus has been shut down.
    #[error("the bus is closed")]
    Closed,
    /// A store key holds another kind of value than the operation expects.
    #[error("store key {key:?} holds another type of value")]
    WrongType {
        /// The key.
        key: String,
    },
    /// A setting is invalid; the text names the key.
    #[error("invalid setting {key}: {reason}")]
    Config {
        /// The setting's key, as written in the file or environment.
        key: String,
        /// What is wrong with it.
        reason: String,
    },
}
