//! What the planner may plan with: the pools and tools live agents offer. A plan that
//! needs a missing tool is refused with a message naming it, never sent to a pool that
//! cannot run it.

use std::collections::{BTreeMap, BTreeSet};

use chorus_bus::Language;

use crate::dates::DATE_POOL;
use crate::expr::MATH_POOL;

/// The math pool's tools, per the tool contract.
pub const MATH_TOOLS: &[&str] = &[
    "sum", "subtract", "multiply", "divide", "power", "sqrt", "root", "modulo", "abs", "round",
    "percent", "min", "max",
];

/// The date pool's tools, per the tool contract.
pub const DATE_TOOLS: &[&str] = &[
    "today",
    "now",
    "add_duration",
    "subtract_duration",
    "difference",
    "weekday",
    "days_until",
    "next_date",
    "find_weekday",
    "end_of_month",
    "age",
    "day_of_year",
    "iso_week",
    "time_in",
    "convert_time",
    "time_difference",
];

/// An example request shown in the capabilities list, when its tools are available.
struct Example {
    pool: &'static str,
    vi: bool,
    needs: &'static [&'static str],
    text: &'static str,
}

const fn ex(
    pool: &'static str,
    vi: bool,
    needs: &'static [&'static str],
    text: &'static str,
) -> Example {
    Example {
        pool,
        vi,
        needs,
        text,
    }
}

const EXAMPLES: &[Example] = &[
    ex(MATH_POOL, false, &["sum", "multiply"], "\"(2+4)*3\""),
    ex(MATH_POOL, false, &["subtract"], "\"ten minus three\""),
    ex(MATH_POOL, false, &["percent"], "\"15% of 200\""),
    ex(MATH_POOL, false, &["sqrt"], "\"sqrt(16)\""),
    ex(MATH_POOL, true, &["sum"], "\"tính 2+4\""),
    ex(MATH_POOL, true, &["sum", "multiply"], "\"2 cộng 4 nhân 3\""),
    ex(MATH_POOL, true, &["sqrt"], "\"căn bậc hai của 16\""),
    ex(DATE_POOL, false, &["today"], "\"what's today's date\""),
    ex(
        DATE_POOL,
        false,
        &["add_duration", "weekday"],
        "\"what day is it in 10 days\"",
    ),
    ex(
        DATE_POOL,
        false,
        &["difference"],
        "\"days between 2026-01-01 and 2026-03-01\"",
    ),
    ex(DATE_POOL, false, &["weekday"], "\"weekday of 2026-12-25\""),
    ex(
        DATE_POOL,
        false,
        &["time_in"],
        "\"what time is it in Tokyo\"",
    ),
    ex(DATE_POOL, true, &["today"], "\"hôm nay là ngày mấy\""),
    ex(
        DATE_POOL,
        true,
        &["add_duration", "weekday"],
        "\"10 ngày nữa là ngày gì\"",
    ),
    ex(DATE_POOL, true, &["weekday"], "\"2026-12-25 là thứ mấy\""),
    ex(DATE_POOL, true, &["time_in"], "\"mấy giờ rồi ở New York\""),
];

/// What each tool of the math and date pools does, as a person would say it, in English
/// and Vietnamese: the capability text names these, never the tool identifiers (those
/// are for the capabilities route and `--json`).
const TOOL_WORDS: &[(&str, &str, &str)] = &[
    ("sum", "adding", "cộng"),
    ("subtract", "subtracting", "trừ"),
    ("multiply", "multiplying", "nhân"),
    ("divide", "dividing", "chia"),
    ("power", "powers", "lũy thừa"),
    ("sqrt", "square roots", "căn bậc hai"),
    ("root", "cube and other roots", "căn bậc ba và các bậc khác"),
    ("modulo", "remainders", "chia lấy dư"),
    ("abs", "absolute values", "giá trị tuyệt đối"),
    ("round", "rounding", "làm tròn"),
    ("percent", "percentages", "phần trăm"),
    ("min", "the smallest of numbers", "số nhỏ nhất"),
    ("max", "the largest of numbers", "số lớn nhất"),
    ("today", "today's date", "ngày hôm nay"),
    ("now", "the time now", "giờ hiện tại"),
    (
        "add_duration",
        "the date some days, working days, weeks, months or years from now or from a date",
        "ngày sau một số ngày, ngày làm việc, tuần, tháng hay năm",
    ),
    (
        "subtract_duration",
        "the date some time ago or before a date",
        "ngày trước đó một khoảng thời gian",
    ),
    (
        "difference",
        "the days between two dates",
        "số ngày giữa hai ngày",
    ),
    ("weekday", "the weekday of a date", "thứ của một ngày"),
    (
        "days_until",
        "the days left until a date",
        "số ngày còn lại đến một ngày",
    ),
    (
        "next_date",
        "when a holiday comes next (Christmas, New Year)",
        "ngày lễ sắp tới (Giáng sinh, Tết Dương lịch)",
    ),
    (
        "find_weekday",
        "the date of next or last Friday",
        "ngày của thứ Sáu tới hay tuần trước",
    ),
    ("end_of_month", "the end of the month", "ngày cuối tháng"),
    (
        "age",
        "someone's age from a birth date",
        "tuổi theo ngày sinh",
    ),
    (
        "day_of_year",
        "the day of the year",
        "ngày thứ mấy trong năm",
    ),
    ("iso_week", "the week number", "tuần thứ mấy trong năm"),
    ("time_in", "the time in a city", "giờ ở một thành phố"),
    (
        "time_difference",
        "how many hours one city is ahead of another",
        "hai thành phố lệch nhau mấy tiếng",
    ),
    (
        "convert_time",
        "a time in one city in another's time",
        "đổi giờ giữa hai thành phố",
    ),
];

/// `tools` of `pool` in words: for the math and date pools what each does, in the
/// contract's order; for any other pool (a third-party server Chorus has no words for)
/// the tools' own names.
fn in_words(pool: &str, tools: &[&str], vi: bool) -> String {
    if pool != MATH_POOL && pool != DATE_POOL {
        return tools.join(", ");
    }
    let words: Vec<&str> = TOOL_WORDS
        .iter()
        .filter(|(tool, _, _)| tools.contains(tool))
        .map(|(_, en, vi_words)| if vi { *vi_words } else { *en })
        .chain(
            tools
                .iter()
                .filter(|t| TOOL_WORDS.iter().all(|(tool, _, _)| tool != *t))
                .copied(),
        )
        .collect();
    words.join(", ")
}

/// The tools available for planning, by pool.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Capabilities {
    pools: BTreeMap<String, BTreeSet<String>>,
}

/// What is missing for a plan.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Missing {
    /// No agent of the pool is available at all.
    Pool(String),
    /// The pool is up but does not offer the tool.
    Tool {
        /// The pool.
        pool: String,
        /// The tool.
        tool: String,
    },
}

impl Capabilities {
    /// Every tool of the contract: the math and date pools in full.
    pub fn default_tools() -> Self {
        let pairs = MATH_TOOLS
            .iter()
            .map(|t| (MATH_POOL, *t))
            .chain(DATE_TOOLS.iter().map(|t| (DATE_POOL, *t)));
        Self::from_tools(pairs)
    }

    /// The given `(pool, tool)` pairs.
    pub fn from_tools<I, P, T>(tools: I) -> Self
    where
        I: IntoIterator<Item = (P, T)>,
        P: Into<String>,
        T: Into<String>,
    {
        let mut pools: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
        for (p, t) in tools {
            pools.entry(p.into()).or_default().insert(t.into());
        }
        Capabilities { pools }
    }

    /// Whether `pool` offers `tool`.
    pub fn has(&self, pool: &str, tool: &str) -> bool {
        self.pools.get(pool).is_some_and(|t| t.contains(tool))
    }

    /// What is missing to run `tool` on `pool`, if anything.
    pub fn missing(&self, pool: &str, tool: &str) -> Option<Missing> {
        match self.pools.get(pool) {
            None => Some(Missing::Pool(pool.to_owned())),
            Some(t) if t.is_empty() => Some(Missing::Pool(pool.to_owned())),
            Some(t) if !t.contains(tool) => Some(Missing::Tool {
                pool: pool.to_owned(),
                tool: tool.to_owned(),
            }),
            Some(_) => None,
        }
    }

    /// The pools and their tools, sorted by name.
    pub fn pools(&self) -> impl Iterator<Item = (&str, Vec<&str>)> {
        self.pools
            .iter()
            .filter(|(_, t)| !t.is_empty())
            .map(|(p, t)| (p.as_str(), t.iter().map(String::as_str).collect()))
    }

    /// Whether no tool at all is available.
    pub fn is_empty(&self) -> bool {
        self.pools().next().is_none()
    }

    /// The pool names, sorted.
    pub fn pool_names(&self) -> Vec<&str> {
        self.pools().map(|(p, _)| p).collect()
    }

    /// The list of what Chorus can do with these tools, in `language` (`en`, `vi`), as
    /// markdown bullet lines. A pool Chorus has no words of its own for (one configured
    /// over a third-party MCP server) is listed as `use the <pool> tools (…)` with its
    /// tools by the names its server gives and no examples: the heuristic planner never
    /// plans with them; a model or a plan published by a client does.
    pub fn describe(&self, language: Language) -> String {
        let vi = language.is_vi();
        if self.is_empty() {
            return if vi {
                "Hiện không có công cụ nào sẵn sàng.".to_owned()
            } else {
                "No tools are available right now.".to_owned()
            };
        }
        let mut out = String::from(if vi {
            "Chorus có thể:"
        } else {
            "Chorus can:"
        });
        for (pool, tools) in self.pools() {
            let list = in_words(pool, &tools, vi);
            let examples: Vec<&str> = EXAMPLES
                .iter()
                .filter(|e| {
                    e.pool == pool && e.vi == vi && e.needs.iter().all(|t| tools.contains(t))
                })
                .map(|e| e.text)
                .collect();
            let mut line = match (pool, vi) {
                (MATH_POOL, false) => format!("compute with the math tools ({list})"),
                (MATH_POOL, true) => format!("tính toán ({list})"),
                (DATE_POOL, false) => format!("answer date questions with the date tools ({list})"),
                (DATE_POOL, true) => {
                    format!("trả lời câu hỏi về ngày giờ ({list})")
                }
                (other, false) => format!("use the {other} tools ({list})"),
                (other, true) => format!("dùng các công cụ {other} ({list})"),
            };
            if !examples.is_empty() {
                line.push_str(if vi { ", ví dụ " } else { ", e.g. " });
                line.push_str(&examples.join(", "));
            }
            out.push_str("\n- ");
            out.push_str(&line);
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_tools_cover_the_contract() {
        let c = Capabilities::default_tools();
        assert!(c.has("math", "percent"));
        assert!(c.has("date", "days_until"));
        assert!(!c.has("math", "today"));
        assert_eq!(c.pool_names(), vec!["date", "math"]);
    }

    #[test]
    fn a_missing_pool_and_a_missing_tool_are_told_apart() {
        let c = Capabilities::from_tools(vec![("math", "sum")]);
        assert_eq!(c.missing("math", "sum"), None);
        assert_eq!(
            c.missing("math", "divide"),
            Some(Missing::Tool {
                pool: "math".into(),
                tool: "divide".into()
            })
        );
        assert_eq!(
            c.missing("date", "today"),
            Some(Missing::Pool("date".into()))
        );
    }

    #[test]
    fn a_configured_third_pool_is_listed_by_its_name_and_tools_in_each_language() {
        let c = Capabilities::from_tools(vec![
            ("math", "sum"),
            ("time", "get_current_time"),
            ("time", "convert_time"),
        ]);
        assert_eq!(
            c.describe(Language::En),
            "Chorus can:\n- compute with the math tools (adding)\n\
             - use the time tools (convert_time, get_current_time)"
        );
        assert_eq!(
            c.describe(Language::Vi),
            "Chorus có thể:\n- tính toán (cộng), ví dụ \"tính 2+4\"\n\
             - dùng các công cụ time (convert_time, get_current_time)"
        );
        // Its tools are planned on its own pool: the date pool's `convert_time` is not it.
        assert!(c.has("time", "convert_time"));
        assert_eq!(
            c.missing("date", "convert_time"),
            Some(Missing::Pool("date".into()))
        );
    }

    #[test]
    fn the_description_lists_only_available_pools_and_tools() {
        let c = Capabilities::from_tools(vec![("math", "sum"), ("math", "multiply")]);
        assert_eq!(
            c.describe(Language::En),
            "Chorus can:\n- compute with the math tools (adding, multiplying), e.g. \"(2+4)*3\""
        );
        assert_eq!(
            Capabilities::default().describe(Language::Vi),
            "Hiện không có công cụ nào sẵn sàng."
        );
    }
}
