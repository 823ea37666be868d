//! Publish-once on a Redis Cluster, in two steps that each touch one slot.
//!
//! On a standalone Redis one script sets a once-key and appends to the stream. On a
//! Cluster the once-key lives in its task's slot (`chorus:{<task>}:once:…`) and the
//! stream in its own, and one script cannot touch both; nor can one script append to
//! the several streams a guarded publish writes (a plan and its first wave). So:
//!
//! 1. **Claim**, in the once-keys' slot: SET NX the guard and each once-key (to `1`, as
//!    on one server), and store the message each guards beside it (its outbox,
//!    `keys::outbox`). A claim that finds a once-key set returns the message in its
//!    outbox.
//! 2. **Append**, in each stream's slot: SET NX the stream's dedupe key
//!    (`chorus:sent:{<stream>}:<once-key>`) and XADD and PUBLISH, atomically.
//!
//! Whoever claims — the winner, or a later caller that lost the claim (a redelivery
//! after the winner died between the two steps) — appends every stored message; the
//! dedupe key makes the append happen once. So a message goes out exactly once, as on
//! a standalone Redis, as long as someone retries: the message that led to the publish
//! is acked only after it, and is redelivered otherwise. The cost is a second round
//! trip (the appends to different streams go at once). An outbox and a dedupe key live
//! only as long as a redelivery can come (`outbox_ms`: the claim time times the
//! deliveries a message gets, at least a minute): once the outbox is gone nothing can
//! append its message again.

use futures::future::try_join_all;
use redis::{RedisError, Script, Value};

use super::conn::{Connection, retry_writes};
use chorus_bus::keys;

/// KEYS = per item its once-key and its outbox; ARGV[1] = ttl ms, ARGV[2] = outbox ttl
/// ms, ARGV[2 + i] = item i's message. Per item: {1, message} when this call set its
/// once-key, {0, the message in its outbox, or false} when it was set already.
const CLAIM_LUA: &str = r#"
local out = {}
for i = 1, #KEYS / 2 do
  local key, box, data = KEYS[2 * i - 1], KEYS[2 * i], ARGV[i + 2]
  if redis.call('SET', key, '1', 'NX', 'PX', ARGV[1]) then
    redis.call('SET', box, data, 'PX', ARGV[2])
    out[i] = {1, data}
  else
    out[i] = {0, redis.call('GET', box)}
  end
end
return out
"#;

/// KEYS[1] = guard, then per item its once-key and its outbox; ARGV[1] = ttl ms,
/// ARGV[2] = outbox ttl ms, ARGV[3] = guard value, ARGV[3 + i] = item i's message.
/// Returns {guard set (1/0), per item as CLAIM_LUA}; when the guard was set already,
/// nothing is set and the messages in the outboxes are returned (to finish a claim
/// whose appends did not all happen).
const CLAIM_GUARDED_LUA: &str = r#"
local won = redis.call('SET', KEYS[1], ARGV[3], 'NX', 'PX', ARGV[1])
local out = {}
for i = 1, (#KEYS - 1) / 2 do
  local key, box, data = KEYS[2 * i], KEYS[2 * i + 1], ARGV[i + 3]
  if won and redis.call('SET', key, '1', 'NX', 'PX', ARGV[1]) then
    redis.call('SET', box, data, 'PX', ARGV[2])
    out[i] = {1, data}
  else
    out[i] = {0, redis.call('GET', box)}
  end
end
if won then return {1, out} end
return {0, out}
"#;

/// KEYS[1] = dedupe key, KEYS[2] = stream (and channel); ARGV = ttl ms, maxlen, data.
/// Returns the entry id, or false when the message went out already.
const APPEND_LUA: &str = r#"
if redis.call('SET', KEYS[1], '1', 'NX', 'PX', ARGV[1]) then
  local id = redis.call('XADD', KEYS[2], 'MAXLEN', '~', ARGV[2], '*', 'data', ARGV[3])
  redis.call('PUBLISH', KEYS[2], ARGV[3])
  return id
end
return false
"#;

/// The Cluster publish-once scripts.
pub(crate) struct ClaimScripts {
    claim: Script,
    claim_guarded: Script,
    append: Script,
}

impl Default for ClaimScripts {
    fn default() -> Self {
        ClaimScripts {
            claim: Script::new(CLAIM_LUA),
            claim_guarded: Script::new(CLAIM_GUARDED_LUA),
            append: Script::new(APPEND_LUA),
        }
    }
}

/// How long the keys of a Cluster publish-once live.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Ttl {
    /// The once-keys and the guard (the caller's TTL).
    pub(crate) once_ms: u64,
    /// The outboxes and the dedupe keys: as long as a redelivery can come.
    pub(crate) outbox_ms: u64,
}

impl Ttl {
    /// The caller's `once_ms`; outboxes live `claim_idle_ms` times (`max_deliveries` +
    /// 2), at least a minute, at most `once_ms`.
    pub(crate) fn new(once_ms: u64, settings: &chorus_bus::BusSettings) -> Self {
        let window = settings
            .claim_idle_ms
            .saturating_mul(settings.max_deliveries.saturating_add(2))
            .max(60_000);
        Ttl {
            once_ms,
            outbox_ms: window.min(once_ms).max(1),
        }
    }
}

/// One message to publish once: its once-key, its stream and its encoded envelope.
pub(crate) struct Item<'a> {
    /// The once-key.
    pub(crate) key: &'a str,
    /// The stream.
    pub(crate) stream: &'a str,
    /// The encoded envelope.
    pub(crate) data: &'a str,
}

/// Per item, whether this call set its once-key, and the message to append (stored or
/// this call's).
type Claimed = Vec<(bool, Option<String>)>;

/// Decodes a list of `{set, message}` pairs.
fn pairs(value: &Value) -> Claimed {
    let Value::Array(items) = value else {
        return Vec::new();
    };
    items
        .iter()
        .map(|pair| match pair {
            Value::Array(p) => {
                let set = matches!(p.first(), Some(Value::Int(1)));
                let data = match p.get(1) {
                    Some(Value::BulkString(b)) => Some(String::from_utf8_lossy(b).into_owned()),
                    _ => None,
                };
                (set, data)
            }
            _ => (false, None),
        })
        .collect()
}

impl ClaimScripts {
    /// Claims `items` (their once-keys share one slot) and appends what was claimed;
    /// returns per item whether this call set its once-key.
    pub(crate) async fn publish_once(
        &self,
        conn: &Connection,
        items: &[Item<'_>],
        ttl: Ttl,
        maxlen: usize,
    ) -> Result<Vec<bool>, RedisError> {
        let mut invocation = self.claim.prepare_invoke();
        invocation.arg(ttl.once_ms).arg(ttl.outbox_ms);
        for item in items {
            invocation
                .key(item.key)
                .key(keys::outbox(item.key))
                .arg(item.data);
        }
        let value: Value =
            retry_writes(|| async { invocation.invoke_async(&mut conn.clone()).await }).await?;
        let claimed = pairs(&value);
        self.append_all(conn, items, &claimed, ttl.outbox_ms, maxlen)
            .await?;
        Ok(claimed.iter().map(|(set, _)| *set).collect())
    }

    /// Sets `guard` to `value` and claims `items` (all in the guard's slot) unless the
    /// guard was set; appends what is stored either way. `None` when the guard was set.
    pub(crate) async fn publish_guarded(
        &self,
        conn: &Connection,
        guard: &str,
        value: &str,
        items: &[Item<'_>],
        ttl: Ttl,
        maxlen: usize,
    ) -> Result<Option<Vec<bool>>, RedisError> {
        let mut invocation = self.claim_guarded.key(guard);
        invocation.arg(ttl.once_ms).arg(ttl.outbox_ms).arg(value);
        for item in items {
            invocation
                .key(item.key)
                .key(keys::outbox(item.key))
                .arg(item.data);
        }
        let reply: Value =
            retry_writes(|| async { invocation.invoke_async(&mut conn.clone()).await }).await?;
        let (won, claimed) = match &reply {
            Value::Array(v) if v.len() == 2 => (matches!(v[0], Value::Int(1)), pairs(&v[1])),
            _ => (false, Vec::new()),
        };
        self.append_all(conn, items, &claimed, ttl.outbox_ms, maxlen)
            .await?;
        Ok(won.then(|| claimed.iter().map(|(set, _)| *set).collect()))
    }

    /// Appends every claimed message to its stream at most once, all streams at once.
    async fn append_all(
        &self,
        conn: &Connection,
        items: &[Item<'_>],
        claimed: &Claimed,
        ttl_ms: u64,
        maxlen: usize,
    ) -> Result<(), RedisError> {
        let appends = items
            .iter()
            .zip(claimed)
            // A stored message is an envelope; anything else (a marker another
            // writer set) is not appended.
            .filter_map(|(item, (_, data))| {
                data.as_deref()
                    .filter(|d| d.starts_with('{'))
                    .map(|d| (item, d))
            })
            .map(|(item, data)| {
                let mut invocation = self.append.key(keys::sent(item.stream, item.key));
                invocation
                    .key(item.stream)
                    .arg(ttl_ms)
                    .arg(super::publish::cap(item.stream, maxlen))
                    .arg(data);
                async move {
                    retry_writes(|| async {
                        invocation
                            .invoke_async::<Option<String>>(&mut conn.clone())
                            .await
                    })
                    .await
                }
            });
        try_join_all(appends).await.map(|_| ())
    }
}

/// The keys each Cluster script touches, for the slot test.
#[cfg(test)]
pub(crate) fn script_keys(items: &[Item<'_>], guard: Option<&str>) -> Vec<Vec<String>> {
    let mut claim: Vec<String> = guard.map(str::to_owned).into_iter().collect();
    for item in items {
        claim.push(item.key.to_owned());
        claim.push(keys::outbox(item.key));
    }
    let mut out = vec![claim];
    for item in items {
        out.push(vec![
            keys::sent(item.stream, item.key),
            item.stream.to_owned(),
        ]);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use chorus_bus::keys::once;

    fn one_slot(keys: &[String]) -> bool {
        keys.windows(2)
            .all(|w| keys::slot(&w[0]) == keys::slot(&w[1]))
    }

    #[test]
    fn every_cluster_publish_script_touches_one_slot() {
        let t = &chorus_bus::TaskId::from("0194e1c2-task");
        // The Planner: the plan's guard (the plan key), the plan and its first wave.
        let planned = once::planned(t);
        let s1 = once::dispatched(t, &"s1".into(), 1);
        let s2 = once::dispatched(t, &"s2".into(), 1);
        let plan_items = [
            Item {
                key: &planned,
                stream: "plan_ready",
                data: "{}",
            },
            Item {
                key: &s1,
                stream: "math_task",
                data: "{}",
            },
            Item {
                key: &s2,
                stream: "date_task",
                data: "{}",
            },
        ];
        let plan_guard = keys::plan(t);
        // The doors: acceptance, an answer, a cancellation, a timed-out question.
        let accepted = once::accepted(t);
        let accepted_item = once::published(&accepted);
        let answered = once::answered(t, 1);
        let answer_item = once::published(&answered);
        let reported = once::reported(t);
        let cancel_item = once::published(&reported);
        let raw = keys::ingress_raw("00ab");
        let raw_item = once::published(&raw);
        let cases: Vec<(Option<&str>, Vec<Item<'_>>)> = vec![
            (
                Some(&plan_guard),
                plan_items.iter().map(|i| Item { ..*i }).collect(),
            ),
            (
                Some(&accepted),
                vec![Item {
                    key: &accepted_item,
                    stream: "task_available",
                    data: "{}",
                }],
            ),
            (
                Some(&raw),
                vec![Item {
                    key: &raw_item,
                    stream: "task_available",
                    data: "{}",
                }],
            ),
            (
                Some(&answered),
                vec![Item {
                    key: &answer_item,
                    stream: "clarification_answer",
                    data: "{}",
                }],
            ),
            (
                Some(&answered),
                vec![Item {
                    key: &reported,
                    stream: "final_report",
                    data: "{}",
                }],
            ),
            (
                Some(&reported),
                vec![Item {
                    key: &cancel_item,
                    stream: "final_report",
                    data: "{}",
                }],
            ),
            (
                None,
                vec![Item {
                    key: &reported,
                    stream: "final_report",
                    data: "{}",
                }],
            ),
        ];
        for (guard, items) in &cases {
            for keys in script_keys(items, *guard) {
                assert!(one_slot(&keys), "{keys:?}");
            }
        }
    }
}
