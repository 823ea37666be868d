//! The words a report writes values with, per language: dates (`2026-12-25` in English,
//! `25/12/2026` in Vietnamese), times, weekday names (`Friday`, `Thứ Sáu`), units and
//! the tools' common errors. Values are re-written, never re-computed: a text that is not
//! a date or a weekday the tools produce is shown as received.

use chorus_bus::Language;

/// Whether `language` is Vietnamese.
pub fn is_vi(language: Language) -> bool {
    language.is_vi()
}

const WEEKDAYS: [(&str, &str); 7] = [
    ("Monday", "Thứ Hai"),
    ("Tuesday", "Thứ Ba"),
    ("Wednesday", "Thứ Tư"),
    ("Thursday", "Thứ Năm"),
    ("Friday", "Thứ Sáu"),
    ("Saturday", "Thứ Bảy"),
    ("Sunday", "Chủ Nhật"),
];

/// Month names in English, January first.
pub(crate) const MONTHS: [&str; 12] = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
];

/// A weekday name as the tools write it (`Friday`, any case) in `language`.
pub fn weekday(name: &str, language: Language) -> String {
    let found = WEEKDAYS
        .iter()
        .find(|(en, _)| en.eq_ignore_ascii_case(name.trim()));
    match (found, is_vi(language)) {
        (Some((_, vi)), true) => (*vi).to_owned(),
        (Some((en, _)), false) => (*en).to_owned(),
        (None, _) => name.to_owned(),
    }
}

/// `YYYY-MM-DD` split into its numbers, when `s` is exactly such a date.
fn ymd(s: &str) -> Option<(&str, &str, &str)> {
    let b = s.as_bytes();
    let shaped = b.len() == 10
        && b[4] == b'-'
        && b[7] == b'-'
        && b.iter()
            .enumerate()
            .all(|(i, c)| i == 4 || i == 7 || c.is_ascii_digit());
    shaped.then(|| (&s[0..4], &s[5..7], &s[8..10]))
}

/// An ISO date (`2026-12-25`) as `language` writes it: unchanged in English,
/// `25/12/2026` in Vietnamese. Other text is returned as it is.
pub fn date(s: &str, language: Language) -> String {
    match ymd(s) {
        Some((y, m, d)) if is_vi(language) => format!("{d}/{m}/{y}"),
        _ => s.to_owned(),
    }
}

/// A date with its weekday: `Friday, 2026-12-25`, `Thứ Sáu, 25/12/2026`.
pub fn dated_weekday(d: &str, weekday_name: &str, language: Language) -> String {
    format!("{}, {}", weekday(weekday_name, language), date(d, language))
}

/// An RFC 3339 date-time (`2026-11-23T14:30:00+07:00`) as `14:30 on 2026-11-23
/// (UTC+07:00)` or `14:30 ngày 23/11/2026 (UTC+07:00)`; a plain date as [`date`].
pub fn date_time(s: &str, language: Language) -> String {
    let Some((d, rest)) = s.split_once('T') else {
        return date(s, language);
    };
    if ymd(d).is_none() || rest.len() < 5 {
        return s.to_owned();
    }
    let hm = &rest[..5];
    let offset = rest[5..]
        .trim_start_matches(|c: char| c.is_ascii_digit() || c == ':' || c == '.')
        .split('[')
        .next()
        .unwrap_or_default();
    let zone = match offset {
        "" => String::new(),
        "Z" | "+00:00" => " (UTC)".to_owned(),
        o => format!(" (UTC{o})"),
    };
    let on = if is_vi(language) { "ngày" } else { "on" };
    format!("{hm} {on} {}{zone}", date(d, language))
}

/// A month and day: `December 25`, `ngày 25 tháng 12`.
pub fn month_day(month: &str, day: &str, language: Language) -> String {
    let m: Option<usize> = month.parse().ok().filter(|m| (1..=12).contains(m));
    match (m, is_vi(language)) {
        (_, true) => format!("ngày {day} tháng {month}"),
        (Some(m), false) => format!("{} {day}", MONTHS[m - 1]),
        (None, false) => format!("{month}-{day}"),
    }
}

/// `amount unit` with the unit in `language`, singular for one in English:
/// `1 day`, `10 days`, `3 tuần`.
pub fn amount(amount: &str, unit: &str, language: Language) -> String {
    let vi = match unit {
        "days" => "ngày",
        "weeks" => "tuần",
        "months" => "tháng",
        "years" => "năm",
        "hours" => "giờ",
        "minutes" => "phút",
        other => other,
    };
    if is_vi(language) {
        return format!("{amount} {vi}");
    }
    let one = amount.trim_start_matches('-') == "1";
    let unit = if one {
        unit.strip_suffix('s').unwrap_or(unit)
    } else {
        unit
    };
    format!("{amount} {unit}")
}

/// The tools' common errors in Vietnamese (the tools answer in English); others, and
/// every error in English, as received.
pub fn error(e: &str, language: Language) -> String {
    if !is_vi(language) {
        return e.to_owned();
    }
    const KNOWN: &[(&str, &str)] = &[
        ("division by zero", "không thể chia cho 0"),
        ("modulo by zero", "không thể chia lấy dư cho 0"),
        (
            "square root of a negative",
            "không có căn bậc hai của số âm",
        ),
        ("is not a valid date", "ngày không hợp lệ"),
        ("timed out", "hết thời gian chờ"),
        ("result would be too large", "kết quả quá lớn"),
        ("unknown place", "không biết địa điểm này"),
    ];
    KNOWN
        .iter()
        .find(|(en, _)| e.contains(en))
        .map(|(_, vi)| (*vi).to_owned())
        .unwrap_or_else(|| e.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_and_weekdays_in_each_language() {
        assert_eq!(date("2026-12-25", Language::Vi), "25/12/2026");
        assert_eq!(date("2026-12-25", Language::En), "2026-12-25");
        assert_eq!(date("soon", Language::Vi), "soon");
        assert_eq!(weekday("Friday", Language::Vi), "Thứ Sáu");
        assert_eq!(weekday("sunday", Language::Vi), "Chủ Nhật");
        assert_eq!(weekday("Friday", Language::En), "Friday");
        assert_eq!(
            dated_weekday("2026-12-25", "Friday", Language::Vi),
            "Thứ Sáu, 25/12/2026"
        );
        assert_eq!(month_day("12", "25", Language::En), "December 25");
        assert_eq!(month_day("12", "25", Language::Vi), "ngày 25 tháng 12");
    }

    #[test]
    fn date_times_keep_their_offset() {
        assert_eq!(
            date_time("2026-11-23T14:30:00+07:00", Language::En),
            "14:30 on 2026-11-23 (UTC+07:00)"
        );
        assert_eq!(
            date_time("2026-11-23T14:30:05Z", Language::Vi),
            "14:30 ngày 23/11/2026 (UTC)"
        );
        assert_eq!(date_time("2026-11-23", Language::Vi), "23/11/2026");
    }

    #[test]
    fn amounts_and_errors() {
        assert_eq!(amount("1", "days", Language::En), "1 day");
        assert_eq!(amount("10", "weeks", Language::En), "10 weeks");
        assert_eq!(amount("3", "weeks", Language::Vi), "3 tuần");
        assert_eq!(
            error("division by zero", Language::Vi),
            "không thể chia cho 0"
        );
        assert_eq!(error("division by zero", Language::En), "division by zero");
    }
}
