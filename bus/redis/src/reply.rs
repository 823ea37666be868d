//! Parsing Redis stream replies (XREADGROUP, XREAD, XCLAIM, XRANGE, XPENDING, XINFO)
//! from raw values, accepting both RESP2 arrays and RESP3 maps, and keeping entries whose
//! `data` field is missing (they are dead-lettered, not silently lost).

use redis::Value;

/// One stream entry: its id and its `data` field, if present.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct StreamEntry {
    /// The entry id.
    pub id: String,
    /// The `data` field (lossy UTF-8), when the entry has one.
    pub data: Option<String>,
}

/// A value as text, for bulk and simple strings and integers.
pub(crate) fn text(v: &Value) -> Option<String> {
    match v {
        Value::BulkString(b) => Some(String::from_utf8_lossy(b).into_owned()),
        Value::SimpleString(s) => Some(s.clone()),
        Value::VerbatimString { text, .. } => Some(text.clone()),
        Value::Int(i) => Some(i.to_string()),
        Value::Okay => Some("OK".to_owned()),
        _ => None,
    }
}

/// A value as an integer, for integers and numeric strings.
pub(crate) fn int(v: &Value) -> Option<i64> {
    match v {
        Value::Int(i) => Some(*i),
        other => text(other)?.parse().ok(),
    }
}

/// The items of an array-like value (arrays, sets, and maps flattened to pairs).
fn items(v: &Value) -> Vec<Value> {
    match v {
        Value::Array(a) | Value::Set(a) => a.clone(),
        Value::Map(m) => m.iter().flat_map(|(k, v)| [k.clone(), v.clone()]).collect(),
        Value::Attribute { data, .. } => items(data),
        _ => Vec::new(),
    }
}

/// Key/value pairs of a map-like value (a RESP3 map or a flat RESP2 array).
pub(crate) fn pairs(v: &Value) -> Vec<(String, Value)> {
    match v {
        Value::Map(m) => m
            .iter()
            .filter_map(|(k, v)| Some((text(k)?, v.clone())))
            .collect(),
        other => items(other)
            .chunks(2)
            .filter_map(|c| match c {
                [k, v] => Some((text(k)?, v.clone())),
                _ => None,
            })
            .collect(),
    }
}

/// A stream entry id (`<ms>-<seq>`) as numbers, to order entries of several streams
/// (ids that do not parse sort first).
pub(crate) fn entry_order(id: &str) -> (u64, u64) {
    let (ms, seq) = id.split_once('-').unwrap_or((id, "0"));
    (ms.parse().unwrap_or(0), seq.parse().unwrap_or(0))
}

/// Entries of an entry list: `[[id, [field, value, …]], …]`. Deleted entries (a nil
/// field list) are skipped.
pub(crate) fn entries(v: &Value) -> Vec<StreamEntry> {
    items(v)
        .iter()
        .filter_map(|e| {
            let parts = items(e);
            let id = text(parts.first()?)?;
            let fields = parts.get(1)?;
            if matches!(fields, Value::Nil) {
                return None;
            }
            let data = pairs(fields)
                .into_iter()
                .find(|(k, _)| k == "data")
                .and_then(|(_, v)| text(&v));
            Some(StreamEntry { id, data })
        })
        .collect()
}

/// Per-stream entries of an XREAD/XREADGROUP reply (nil when the block timed out).
pub(crate) fn read_reply(v: &Value) -> Vec<(String, Vec<StreamEntry>)> {
    pairs_or_arrays(v)
        .into_iter()
        .map(|(stream, list)| (stream, entries(&list)))
        .collect()
}

/// The field lists of the entries of an XREAD reply, over every stream in it (nil
/// when the block timed out), each with its entry id; deleted entries are skipped.
pub(crate) fn read_fields(v: &Value) -> Vec<(String, Vec<(String, String)>)> {
    pairs_or_arrays(v)
        .iter()
        .flat_map(|(_, list)| items(list))
        .filter_map(|e| {
            let parts = items(&e);
            let id = text(parts.first()?)?;
            let fields = parts.get(1)?;
            if matches!(fields, Value::Nil) {
                return None;
            }
            let fields = pairs(fields)
                .into_iter()
                .filter_map(|(k, v)| Some((k, text(&v)?)))
                .collect();
            Some((id, fields))
        })
        .collect()
}

/// `[[stream, entries], …]` (RESP2) or `{stream: entries}` (RESP3).
fn pairs_or_arrays(v: &Value) -> Vec<(String, Value)> {
    match v {
        Value::Map(_) => pairs(v),
        Value::Nil => Vec::new(),
        other => items(other)
            .iter()
            .filter_map(|s| {
                let parts = items(s);
                Some((text(parts.first()?)?, parts.get(1)?.clone()))
            })
            .collect(),
    }
}

/// One row of `XPENDING key group IDLE ms - + count`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct PendingRow {
    /// The entry id.
    pub id: String,
    /// Times delivered so far.
    pub deliveries: u64,
}

/// Rows of an extended XPENDING reply.
pub(crate) fn pending_rows(v: &Value) -> Vec<PendingRow> {
    items(v)
        .iter()
        .filter_map(|row| {
            let parts = items(row);
            Some(PendingRow {
                id: text(parts.first()?)?,
                deliveries: u64::try_from(int(parts.get(3)?)?).ok()?,
            })
        })
        .collect()
}

/// One consumer of an `XINFO CONSUMERS` reply.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct ConsumerInfo {
    /// Its name.
    pub name: String,
    /// Entries pending for it.
    pub pending: i64,
    /// Milliseconds since its last attempted interaction (`inactive` when the server
    /// reports it, else `idle`).
    pub idle_ms: i64,
}

/// The consumers of an `XINFO CONSUMERS` reply.
pub(crate) fn consumers(v: &Value) -> Vec<ConsumerInfo> {
    items(v)
        .iter()
        .filter_map(|c| {
            let fields = pairs(c);
            let get = |name: &str| fields.iter().find(|(k, _)| k == name).map(|(_, v)| v);
            let idle = get("inactive")
                .and_then(int)
                .filter(|i| *i >= 0)
                .or_else(|| get("idle").and_then(int))?;
            Some(ConsumerInfo {
                name: text(get("name")?)?,
                pending: int(get("pending")?)?,
                idle_ms: idle,
            })
        })
        .collect()
}

/// The groups of an `XINFO GROUPS` reply: name and pending count.
pub(crate) fn groups(v: &Value) -> Vec<(String, i64)> {
    items(v)
        .iter()
        .filter_map(|g| {
            let fields = pairs(g);
            let get = |name: &str| fields.iter().find(|(k, _)| k == name).map(|(_, v)| v);
            Some((text(get("name")?)?, int(get("pending")?)?))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bulk(s: &str) -> Value {
        Value::BulkString(s.as_bytes().to_vec())
    }

    #[test]
    fn a_read_reply_keeps_entries_without_data_and_skips_deleted_ones() {
        let reply = Value::Array(vec![Value::Array(vec![
            bulk("math_task"),
            Value::Array(vec![
                Value::Array(vec![
                    bulk("1-0"),
                    Value::Array(vec![bulk("data"), bulk("{}")]),
                ]),
                Value::Array(vec![
                    bulk("2-0"),
                    Value::Array(vec![bulk("other"), bulk("x")]),
                ]),
                Value::Array(vec![bulk("3-0"), Value::Nil]),
            ]),
        ])]);
        let streams = read_reply(&reply);
        assert_eq!(streams.len(), 1);
        assert_eq!(streams[0].0, "math_task");
        assert_eq!(
            streams[0].1,
            vec![
                StreamEntry {
                    id: "1-0".into(),
                    data: Some("{}".into())
                },
                StreamEntry {
                    id: "2-0".into(),
                    data: None
                },
            ]
        );
        assert!(read_reply(&Value::Nil).is_empty());
    }

    #[test]
    fn a_read_reply_gives_every_field_of_each_entry() {
        let reply = Value::Array(vec![Value::Array(vec![
            bulk("report_tokens:t1"),
            Value::Array(vec![
                Value::Array(vec![
                    bulk("1-0"),
                    Value::Array(vec![bulk("text"), bulk("2+4 is ")]),
                ]),
                Value::Array(vec![bulk("2-0"), Value::Nil]),
                Value::Array(vec![
                    bulk("3-0"),
                    Value::Array(vec![bulk("done"), bulk("true"), bulk("text"), bulk("6")]),
                ]),
            ]),
        ])]);
        let pair = |k: &str, v: &str| (k.to_owned(), v.to_owned());
        assert_eq!(
            read_fields(&reply),
            vec![
                ("1-0".to_owned(), vec![pair("text", "2+4 is ")]),
                (
                    "3-0".to_owned(),
                    vec![pair("done", "true"), pair("text", "6")]
                ),
            ]
        );
        assert!(read_fields(&Value::Nil).is_empty());
    }

    #[test]
    fn pending_rows_carry_delivery_counts() {
        let reply = Value::Array(vec![Value::Array(vec![
            bulk("5-1"),
            bulk("c1"),
            Value::Int(9000),
            Value::Int(3),
        ])]);
        assert_eq!(
            pending_rows(&reply),
            vec![PendingRow {
                id: "5-1".into(),
                deliveries: 3
            }]
        );
    }
}
