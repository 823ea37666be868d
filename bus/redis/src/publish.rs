//! Writing to streams: XADD with an approximate cap plus the PUBLISH mirror, pipelined
//! in one round trip, the `publish_once` script that does SET NX PX, XADD and PUBLISH
//! atomically, and the `publish_guarded` script that does the same for several messages
//! behind one guard key.

use redis::{Pipeline, Script};

/// The field of a stream entry holding the JSON envelope.
pub const DATA_FIELD: &str = "data";

/// Cap of the `agent_heartbeat` stream: one entry per process per `agents.heartbeat_ms`
/// (~3.7 KB each), read only to watch (the registry hash is the live view); at the
/// general cap it would hold ~370 MB.
pub(crate) const HEARTBEAT_MAXLEN: usize = 1_000;

/// Cap of the `dead_letter` stream: each letter keeps up to 16 KiB of its original, so
/// the general cap would allow ~1.6 GB of junk.
pub(crate) const DEAD_LETTER_MAXLEN: usize = 10_000;

/// The cap of `topic`'s stream: `maxlen` (`bus.stream_maxlen`), lower for heartbeats and
/// dead letters.
pub(crate) fn cap(topic: &str, maxlen: usize) -> usize {
    match topic {
        "agent_heartbeat" => maxlen.min(HEARTBEAT_MAXLEN),
        "dead_letter" => maxlen.min(DEAD_LETTER_MAXLEN),
        _ => maxlen,
    }
}

/// Adds XADD (returning the entry id) and PUBLISH (ignored) of `data` on `topic`.
pub(crate) fn add_publish(pipe: &mut Pipeline, topic: &str, data: &str, maxlen: usize) {
    pipe.cmd("XADD")
        .arg(topic)
        .arg("MAXLEN")
        .arg("~")
        .arg(cap(topic, maxlen))
        .arg("*")
        .arg(DATA_FIELD)
        .arg(data);
    pipe.cmd("PUBLISH").arg(topic).arg(data).ignore();
}

/// Adds XACK of `ids` on `topic` for `role` (ignored).
pub(crate) fn add_ack(pipe: &mut Pipeline, topic: &str, role: &str, ids: &[&str]) {
    if ids.is_empty() {
        return;
    }
    pipe.cmd("XACK").arg(topic).arg(role).arg(ids).ignore();
}

/// KEYS[1] = once-key, KEYS[2..] = streams (and channels); ARGV = ttl ms, maxlen, then
/// the data for each stream. Returns the first entry id, or nil when the key was
/// already set (nothing published).
const PUBLISH_ONCE_LUA: &str = r#"
if redis.call('SET', KEYS[1], '1', 'NX', 'PX', ARGV[1]) then
  local first
  for i = 2, #KEYS do
    local data = ARGV[i + 1]
    local id = redis.call('XADD', KEYS[i], 'MAXLEN', '~', ARGV[2], '*', 'data', data)
    redis.call('PUBLISH', KEYS[i], data)
    first = first or id
  end
  return first
end
return false
"#;

/// The `publish_once` (one stream) and `publish_all_once` (several) script.
pub(crate) fn publish_once_script() -> Script {
    Script::new(PUBLISH_ONCE_LUA)
}

/// KEYS[1] = guard, then per item its once-key and stream; ARGV = ttl ms, maxlen, guard
/// value, then per item its data. Returns false when the guard was set already (nothing
/// published), else per item 1 when it published and 0 when its once-key was set.
const PUBLISH_GUARDED_LUA: &str = r#"
if not redis.call('SET', KEYS[1], ARGV[3], 'NX', 'PX', ARGV[1]) then
  return false
end
local out = {}
for i = 1, (#KEYS - 1) / 2 do
  local stream, data = KEYS[2 * i + 1], ARGV[3 + i]
  if redis.call('SET', KEYS[2 * i], '1', 'NX', 'PX', ARGV[1]) then
    redis.call('XADD', stream, 'MAXLEN', '~', ARGV[2], '*', 'data', data)
    redis.call('PUBLISH', stream, data)
    out[i] = 1
  else
    out[i] = 0
  end
end
return out
"#;

/// The `publish_guarded` script.
pub(crate) fn publish_guarded_script() -> Script {
    Script::new(PUBLISH_GUARDED_LUA)
}

#[cfg(test)]
mod tests {
    use chorus_bus::Topic;

    use super::*;

    #[test]
    fn heartbeats_and_dead_letters_have_their_own_lower_caps() {
        let hb = Topic::agent_heartbeat();
        let dead = Topic::dead_letter();
        assert_eq!(cap(hb.as_str(), 100_000), HEARTBEAT_MAXLEN);
        assert_eq!(cap(dead.as_str(), 100_000), DEAD_LETTER_MAXLEN);
        assert_eq!(cap(dead.as_str(), 500), 500);
        assert_eq!(cap(Topic::final_report().as_str(), 100_000), 100_000);
    }
}
