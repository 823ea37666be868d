//! Requests outside every tool: what they ask for, so the refusal can name it ("I have
//! no tool for the weather") instead of saying it could not understand.

/// Kinds of request no Chorus tool serves: (words or phrases that name them, the
/// English name, the Vietnamese name).
const OUTSIDE: &[(&[&str], &str, &str)] = &[
    (
        &[
            "weather",
            "forecast",
            "temperature",
            "raining",
            "rain",
            "snow",
            "thời tiết",
            "nhiệt độ",
            "trời mưa",
            "dự báo",
        ],
        "the weather",
        "thời tiết",
    ),
    (
        &["news", "headlines", "tin tức", "thời sự"],
        "the news",
        "tin tức",
    ),
    (
        &[
            "translate",
            "translation",
            "dịch sang",
            "dịch câu",
            "phiên dịch",
        ],
        "translation",
        "dịch thuật",
    ),
    (
        &[
            "stock",
            "stocks",
            "share price",
            "bitcoin",
            "exchange rate",
            "tỷ giá",
            "giá vàng",
            "chứng khoán",
            "cổ phiếu",
        ],
        "prices and markets",
        "giá cả và thị trường",
    ),
    (
        &[
            "poem",
            "story",
            "essay",
            "joke",
            "song lyrics",
            "bài thơ",
            "làm thơ",
            "truyện",
            "bài văn",
            "truyện cười",
        ],
        "writing poems, stories or jokes",
        "viết thơ, truyện hay chuyện cười",
    ),
    (
        &["music", "song", "play a", "bài hát", "nghe nhạc", "mở nhạc"],
        "music",
        "âm nhạc",
    ),
    (
        &[
            "email",
            "e-mail",
            "send a message",
            "gửi thư",
            "gửi tin nhắn",
        ],
        "sending messages",
        "gửi thư hay tin nhắn",
    ),
    (
        &[
            "directions",
            "route to",
            "map of",
            "how do i get to",
            "chỉ đường",
            "bản đồ",
            "đường đi",
        ],
        "maps and directions",
        "bản đồ và chỉ đường",
    ),
    (
        &[
            "search the web",
            "google",
            "look up",
            "website",
            "tìm kiếm trên mạng",
            "tra cứu",
        ],
        "web search",
        "tìm kiếm trên mạng",
    ),
];

/// What `text` asks for that no tool serves, in `language` (`en` or `vi`); `None` when
/// it names none of those kinds.
pub fn outside_tools(text: &str, language: &str) -> Option<&'static str> {
    let lower = text.to_lowercase();
    // Words separated by single spaces, padded, so phrases match on word boundaries.
    let words: Vec<&str> = lower
        .split(|c: char| !(c.is_alphanumeric() || c == '-' || c == '\''))
        .filter(|w| !w.is_empty())
        .collect();
    let padded = format!(" {} ", words.join(" "));
    OUTSIDE
        .iter()
        .find(|(keys, _, _)| keys.iter().any(|k| padded.contains(&format!(" {k} "))))
        .map(|(_, en, vi)| if language == "vi" { *vi } else { *en })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_of_request_outside_the_tools_are_named() {
        assert_eq!(
            outside_tools("What's the weather in Hanoi?", "en"),
            Some("the weather")
        );
        assert_eq!(
            outside_tools("thời tiết Hà Nội thế nào", "vi"),
            Some("thời tiết")
        );
        assert_eq!(
            outside_tools("write me a poem about the sea", "en"),
            Some("writing poems, stories or jokes")
        );
        assert_eq!(
            outside_tools("translate hello to French", "en"),
            Some("translation")
        );
        assert_eq!(
            outside_tools("tỷ giá đô la hôm nay", "vi"),
            Some("giá cả và thị trường")
        );
        // Whole words only: "rainbow" is not rain, "storyline"… neither.
        assert_eq!(outside_tools("draw a rainbow", "en"), None);
        assert_eq!(outside_tools("2+4", "en"), None);
    }
}
