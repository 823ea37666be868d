//! The commands each kind of user may run: a role, a pool agent, the client and the
//! watcher at their root, and the appends in a selector of their own. Key patterns
//! (`users`) limit what each may touch.

/// Commands of every role's process apart from its appends ([`APPEND_COMMANDS`]): its
/// consumer groups, the mirrors, the state scripts (EVAL/EVALSHA/SCRIPT LOAD), the
/// atomic dead-letter pipeline (MULTI/EXEC), the state store and the PUBLISH ingress
/// (SUBSCRIBE). Key patterns limit what each command may touch.
pub(super) const ROLE_COMMANDS: &[&str] = &[
    "ping",
    // Sentinel mode: redis-rs checks the primary the sentinels name with ROLE;
    // `bus.replica_acks` sends WAIT.
    "role",
    "wait",
    // Cluster mode: redis-rs learns the slots with CLUSTER SLOTS and follows an ASK
    // redirection with ASKING.
    "cluster|slots",
    "asking",
    "publish",
    "subscribe",
    "unsubscribe",
    "xreadgroup",
    "xack",
    "xclaim",
    "xpending",
    "xgroup|create",
    "xgroup|delconsumer",
    "xinfo|consumers",
    "xinfo|groups",
    "xread",
    "xrange",
    "xrevrange",
    "xlen",
    "eval",
    "evalsha",
    "script|load",
    "multi",
    "exec",
    "discard",
    "get",
    "mget",
    "exists",
    "set",
    "del",
    "hset",
    "hsetnx",
    "hdel",
    "hgetall",
    "pexpire",
    "zadd",
    "zrangebyscore",
    "zrem",
];

/// Commands of a pool agent apart from its appends ([`APPEND_COMMANDS`]): its group,
/// the mirrors, the dead-letter pipeline, its heartbeat in the registry, and the length
/// of its stream (`XLEN`, sampled for `chorus_stream_length`).
pub(super) const POOL_COMMANDS: &[&str] = &[
    "ping",
    // Sentinel mode: redis-rs checks the primary the sentinels name with ROLE;
    // `bus.replica_acks` sends WAIT.
    "role",
    "wait",
    // Cluster mode: redis-rs learns the slots with CLUSTER SLOTS and follows an ASK
    // redirection with ASKING.
    "cluster|slots",
    "asking",
    "publish",
    "xreadgroup",
    "xack",
    "xclaim",
    "xpending",
    "xgroup|create",
    "xgroup|delconsumer",
    "xinfo|consumers",
    "xinfo|groups",
    "xlen",
    "script|load",
    "multi",
    "exec",
    "discard",
    "get",
    "set",
    "hset",
    "hdel",
    "hgetall",
    "pexpire",
];

/// Commands of the client apart from its appends ([`APPEND_COMMANDS`]): read what the
/// task says (its once-keys and the registry).
pub(super) const CLIENT_COMMANDS: &[&str] = &[
    "ping",
    // Sentinel mode: redis-rs checks the primary the sentinels name with ROLE;
    // `bus.replica_acks` sends WAIT.
    "role",
    "wait",
    // Cluster mode: redis-rs learns the slots with CLUSTER SLOTS and follows an ASK
    // redirection with ASKING.
    "cluster|slots",
    "asking",
    "publish",
    "script|load",
    "zrangebyscore",
    "get",
    "set",
    "hgetall",
    "xread",
    "xrange",
    "xrevrange",
    "subscribe",
    "unsubscribe",
];

/// Commands of the append selector: append to a stream (plain, or through a
/// once-script, whose declared keys need `~`), add a group to the registry's index.
/// None of them reads a stream.
pub(super) const APPEND_COMMANDS: &[&str] = &["xadd", "zadd", "eval", "evalsha"];

/// Commands of the watcher: reading only, and `MONITOR` (every command live, as
/// `redis-cli MONITOR` shows it; Redis leaves `AUTH` and `HELLO … AUTH` out of it).
pub(super) const WATCHER_COMMANDS: &[&str] = &[
    "ping",
    // Sentinel mode: redis-rs checks the primary the sentinels name with ROLE.
    "role",
    // Cluster mode: redis-rs learns the slots with CLUSTER SLOTS and follows an ASK
    // redirection with ASKING.
    "cluster|slots",
    "asking",
    "monitor",
    "xread",
    "xrange",
    "xrevrange",
    "xlen",
    "xinfo|stream",
    "xinfo|groups",
    "xinfo|consumers",
    "xpending",
    "subscribe",
    "unsubscribe",
    "get",
    "mget",
    "hgetall",
    "zrangebyscore",
];
