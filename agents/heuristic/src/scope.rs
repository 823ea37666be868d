//! Requests outside every tool: what they ask for, so the refusal can name it ("I have
//! no tool for the weather") instead of saying it could not understand.

use chorus_bus::Language;

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
            "sunny",
            "cloudy",
            "windy",
            "umbrella",
            "trời nắng",
            "có nắng",
            "có mưa",
            "trời có mưa",
            "trời lạnh",
            "trời nóng",
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
            "how do you say",
            "in german",
            "in french",
            "in spanish",
            "in japanese",
            "dịch",
        ],
        "translation",
        "dịch thuật",
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
            "haiku",
            "limerick",
            "câu chuyện",
            "chuyện cười",
            "kể chuyện",
            "viết thơ",
        ],
        "writing poems, stories, essays or jokes",
        "viết thơ, truyện hay chuyện cười",
    ),
    (
        &[
            "caption",
            "captions",
            "slogan",
            "instagram post",
            "bài đăng",
        ],
        "writing captions or posts",
        "viết caption hay bài đăng",
    ),
    (
        &[
            "recipe for",
            "how to cook",
            "how do i cook",
            "công thức nấu",
            "cách nấu",
            "nấu",
        ],
        "recipes and cooking",
        "công thức nấu ăn",
    ),
    (
        &[
            "remind me",
            "reminder",
            "set an alarm",
            "alarm",
            "set a timer",
            "nhắc mình",
            "nhắc tôi",
            "nhắc em",
            "nhắc",
            "báo thức",
            "hẹn giờ",
        ],
        "reminders and alarms",
        "nhắc việc và báo thức",
    ),
    (
        &[
            "stock price",
            "stock prices",
            "share price",
            "share prices",
            "stock market",
            "giá cổ phiếu",
            "chứng khoán",
        ],
        "prices of stocks and shares",
        "giá cổ phiếu và chứng khoán",
    ),
    (
        &[
            "stock",
            "stocks",
            "bitcoin",
            "exchange rate",
            "tỷ giá",
            "giá vàng",
            "chứng khoán",
            "cổ phiếu",
            "barrel of oil",
            "oil price",
            "gas price",
            "price of",
            "how much does",
            "giá xăng",
            "giá dầu",
            "giá của",
            "currency",
            "currencies",
            "in euros",
            "in dollars",
            "in usd",
            "to euros",
            "to dollars",
            "to usd",
            "in yen",
            "ngoại tệ",
            "đổi tiền",
            "giá vàng hôm nay",
            "usd in",
            "usd to",
            "in vnd",
            "to vnd",
            "sang tiền việt",
            "ra tiền việt",
            "tiền việt",
        ],
        "prices, stocks, currency exchange rates and markets",
        "giá cả (giá xăng, giá vàng), tỷ giá ngoại tệ và thị trường",
    ),
    (
        &[
            "music",
            "song",
            "play a",
            "jazz",
            "playlist",
            "put on some",
            "bài hát",
            "nghe nhạc",
            "mở nhạc",
            "bật nhạc",
        ],
        "music and songs",
        "âm nhạc và bài hát",
    ),
    (
        &[
            "email",
            "e-mail",
            "send a message",
            "gửi thư",
            "gửi tin nhắn",
            "text my",
            "message my",
            "nhắn tin",
            // (Not `call` or `phone` alone: `phone bill`, `a video call at 9pm`.)
            "call my",
            "call mom",
            "call him",
            "call her",
            "call them",
            "phone my",
            "gọi điện",
            "gọi cho",
        ],
        "sending messages and emails",
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
    (
        &[
            "capital of",
            "who won",
            "who is",
            "who was",
            "tell me about",
            "history of",
            "population of",
            "thủ đô",
            "ai là",
            "là ai",
            "dân số",
            "lịch sử",
        ],
        "general knowledge",
        "kiến thức chung",
    ),
    (
        &[
            "book a",
            "book me",
            "book us",
            "reserve",
            "reservation",
            "recommend",
            "restaurant",
            "hotel",
            "flight",
            "đặt vé",
            "đặt phòng",
            "nhà hàng",
            "khách sạn",
            "gợi ý",
            "vé xe",
            "mua vé",
            "đặt giúp",
        ],
        BOOKINGS,
        "đặt chỗ, đặt vé, đặt phòng, đặt hàng và gợi ý",
    ),
    (
        &[
            "miles",
            "kilometers",
            "kilometres",
            "pounds",
            "kilograms",
            "fahrenheit",
            "celsius",
            "inches",
            "feet",
            "liters",
            "gallons",
            "dặm",
            "độ f",
        ],
        "unit conversion",
        "đổi đơn vị đo",
    ),
];

/// The kind of request a booking or a recommendation is (in English).
pub const BOOKINGS: &str =
    "bookings of flights, tickets, rooms or tables, orders, and recommendations";

/// What `text` asks for that no tool serves, in `language` (`en` or `vi`); `None` when
/// it names none of those kinds.
pub fn outside_tools(text: &str, language: Language) -> Option<&'static str> {
    outside_tools_named(text, language).map(|(kind, _)| kind)
}

/// The words of `text`, lowercase, separated by single spaces and padded by one on each
/// side, so phrases match on word boundaries (`" weather in hanoi "`).
pub(crate) fn padded_words(text: &str) -> String {
    let lower = text.to_lowercase();
    let words: Vec<&str> = lower
        .split(|c: char| !(c.is_alphanumeric() || c == '-' || c == '\''))
        .filter(|w| !w.is_empty())
        .collect();
    format!(" {} ", words.join(" "))
}

/// [`outside_tools`], with the word or phrase of `text` that named the kind.
pub fn outside_tools_named(text: &str, language: Language) -> Option<(&'static str, &'static str)> {
    let padded = padded_words(text);
    // A key matches where it stands between two spaces (no allocation per key).
    let has = |k: &str| {
        padded
            .match_indices(k)
            .any(|(at, _)| padded[..at].ends_with(' ') && padded[at + k.len()..].starts_with(' '))
    };
    OUTSIDE.iter().find_map(|(keys, en, vi)| {
        let name = if language.is_vi() { *vi } else { *en };
        let mut found = keys.iter().copied().filter(|k| has(k));
        let first = found.next()?;
        // The word the kind's name holds, when one matched (`flight` over `book me`).
        let named = std::iter::once(first)
            .chain(found)
            .find(|k| name.contains(k))
            .unwrap_or(first);
        Some((name, named))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_of_request_outside_the_tools_are_named() {
        for (q, lang, kind) in [
            (
                "remind me to call mom at 6",
                Language::En,
                "reminders and alarms",
            ),
            (
                "nhắc tôi uống thuốc lúc 9h",
                Language::Vi,
                "nhắc việc và báo thức",
            ),
            (
                "write a caption for my cafe photo",
                Language::En,
                "writing captions or posts",
            ),
            ("how to cook pad thai", Language::En, "recipes and cooking"),
            (
                "what's the share price of Tesla",
                Language::En,
                "prices of stocks and shares",
            ),
            (
                "200 usd to vnd",
                Language::En,
                "prices, stocks, currency exchange rates and markets",
            ),
        ] {
            assert_eq!(outside_tools(q, lang), Some(kind), "{q}");
        }
        assert_eq!(
            outside_tools("What's the weather in Hanoi?", Language::En),
            Some("the weather")
        );
        assert_eq!(
            outside_tools("thời tiết Hà Nội thế nào", Language::Vi),
            Some("thời tiết")
        );
        assert_eq!(
            outside_tools("write me a poem about the sea", Language::En),
            Some("writing poems, stories, essays or jokes")
        );
        assert_eq!(
            outside_tools("translate hello to French", Language::En),
            Some("translation")
        );
        assert_eq!(
            outside_tools("tỷ giá đô la hôm nay", Language::Vi),
            Some("giá cả (giá xăng, giá vàng), tỷ giá ngoại tệ và thị trường")
        );
        // Whole words only: "rainbow" is not rain, "storyline"… neither.
        assert_eq!(
            outside_tools("is it going to be sunny this weekend", Language::En),
            Some("the weather")
        );
        assert_eq!(
            outside_tools("what's the capital of France", Language::En),
            Some("general knowledge")
        );
        assert_eq!(
            outside_tools("convert 10 miles to kilometers", Language::En),
            Some("unit conversion")
        );
        assert_eq!(
            outside_tools("đặt vé máy bay đi Đà Nẵng", Language::Vi),
            Some("đặt chỗ, đặt vé, đặt phòng, đặt hàng và gợi ý")
        );
        assert_eq!(outside_tools("draw a rainbow", Language::En), None);
        assert_eq!(outside_tools("2+4", Language::En), None);
    }
}
