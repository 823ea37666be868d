//! Checks a request's context at the door, so a bad field is named at once instead of
//! being ignored or failing later inside a tool: `timezone` must be an IANA zone (or
//! `UTC`), `now` an RFC 3339 / RFC 9557 date-time or a plain ISO date, `language` one
//! Chorus answers in, and `session_id` an id like a task id (it names Redis keys).

use std::str::FromStr;

use chorus_bus::{Language, TaskContext};
use jiff::civil::{Date, DateTime};
use jiff::tz::TimeZone;
use jiff::{Timestamp, Zoned};

/// A context field that cannot be used: which, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BadField {
    /// `context.timezone`, `context.now` or `context.language`.
    pub field: &'static str,
    /// What is wrong with it.
    pub reason: String,
}

/// The first field of `context` that cannot be used, if any.
pub fn check(context: &TaskContext) -> Result<(), BadField> {
    if let Some(zone) = context.timezone.as_deref().map(str::trim) {
        let known = zone.eq_ignore_ascii_case("utc") || zone == "Z" || TimeZone::get(zone).is_ok();
        if !known {
            return Err(BadField {
                field: "context.timezone",
                reason: format!(
                    "{zone:?} is not a time zone (use an IANA name such as Asia/Ho_Chi_Minh, or UTC)"
                ),
            });
        }
    }
    if let Some(now) = context.now.as_deref().map(str::trim) {
        let readable = Zoned::from_str(now).is_ok()
            || Timestamp::from_str(now).is_ok()
            || DateTime::from_str(now).is_ok()
            || Date::from_str(now).is_ok();
        if !readable {
            return Err(BadField {
                field: "context.now",
                reason: format!(
                    "{now:?} is not a date-time (use RFC 3339, e.g. 2026-11-22T09:00:00Z, or a date such as 2026-11-22)"
                ),
            });
        }
    }
    if let Some(tag) = context.language.as_deref()
        && let Err(unknown) = Language::from_tag(tag)
    {
        return Err(BadField {
            field: "context.language",
            reason: unknown.to_string(),
        });
    }
    if let Some(session) = context.session_id.as_deref()
        && chorus_bus::TaskId::parse(session).is_err()
    {
        return Err(BadField {
            field: "context.session_id",
            reason: format!(
                "{:?} is not a session id (1..={} letters, digits, '-', '_', '.', ':')",
                chorus_bus::dead_letter::truncate_utf8(session, 80),
                chorus_bus::ids::MAX_TASK_ID_LEN
            ),
        });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ctx(now: Option<&str>, timezone: Option<&str>, language: Option<&str>) -> TaskContext {
        TaskContext {
            now: now.map(str::to_owned),
            timezone: timezone.map(str::to_owned),
            language: language.map(str::to_owned),
            ..TaskContext::default()
        }
    }

    #[test]
    fn good_contexts_pass() {
        for c in [
            ctx(None, None, None),
            ctx(
                Some("2026-11-22T09:00:00Z"),
                Some("Asia/Ho_Chi_Minh"),
                Some("vi"),
            ),
            ctx(Some("2026-11-22"), Some("UTC"), Some("en-US")),
            TaskContext {
                session_id: Some("conv-42:alice".into()),
                ..TaskContext::default()
            },
            ctx(
                Some("2026-11-22T09:00:00+07:00[Asia/Ho_Chi_Minh]"),
                None,
                None,
            ),
        ] {
            assert_eq!(check(&c), Ok(()), "{c:?}");
        }
    }

    #[test]
    fn each_bad_field_is_named() {
        let cases = [
            (ctx(None, Some("Mars/Olympus"), None), "context.timezone"),
            (ctx(Some("yesterday-ish"), None, None), "context.now"),
            (ctx(Some("2026-02-30"), None, None), "context.now"),
            (ctx(None, None, Some("fr")), "context.language"),
            (
                TaskContext {
                    session_id: Some("two words".into()),
                    ..TaskContext::default()
                },
                "context.session_id",
            ),
        ];
        for (c, field) in cases {
            let bad = check(&c).expect_err("bad");
            assert_eq!(bad.field, field, "{c:?}");
            assert!(!bad.reason.is_empty());
        }
    }
}
