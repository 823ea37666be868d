//! Place names → time zones: IANA names (any case), city names taken from the
//! bundled IANA database, and a short alias table for places the database lacks.
//!
//! Resolution order, after dropping a leading "the" and a trailing "time"
//! ("the Hanoi time"):
//! 1. a name with a `/` is an IANA name ("asia/tokyo", "America/New York");
//! 2. the alias table (`ALIASES`, in `zones/aliases.rs`) — only places the database
//!    has no city for;
//! 3. the database's cities: the last component of every zone name, underscores
//!    and hyphens as spaces, compared case- and accent-insensitively ("Tokyo",
//!    "new york", "São Paulo", "Sao Paulo");
//! 4. any other IANA name ("UTC", "GMT", "Japan", "CET");
//! 5. failing all of these for the whole phrase, its longest leading words that
//!    resolve ("Boston bắt đầu" → Boston).

use std::{collections::HashMap, sync::OnceLock};

use jiff::tz::{self, TimeZone};

use crate::DateError;

mod aliases;

use aliases::ALIASES;

/// A resolved place: its zone and the zone's IANA name.
#[derive(Debug, Clone)]
pub struct Place {
    /// The time zone.
    pub time_zone: TimeZone,
    /// Its IANA name ("Asia/Tokyo", "UTC").
    pub zone: String,
}

/// Resolves a place name to its time zone (see the module docs for the order). A
/// phrase no rule resolves whole is resolved by its longest leading words that do
/// (`Boston bắt đầu` → Boston, `Hàn Quốc, lúc đó` → Hàn Quốc): a client passes the
/// words after `in`/`ở` as typed, and the place comes first.
pub fn resolve(place: &str) -> Result<Place, DateError> {
    let whole = resolve_whole(place);
    if whole.is_ok() {
        return whole;
    }
    let words: Vec<&str> = place.split_whitespace().collect();
    (1..words.len())
        .rev()
        .find_map(|n| {
            let lead = words[..n].join(" ");
            resolve_whole(lead.trim_end_matches([',', '.', ';', ':', '?', '!'])).ok()
        })
        .ok_or_else(|| DateError::UnknownPlace(place.trim().to_owned()))
}

/// [`resolve`] of the whole phrase only.
fn resolve_whole(place: &str) -> Result<Place, DateError> {
    let unknown = || DateError::UnknownPlace(place.trim().to_owned());
    let core = strip_affixes(place);
    if core.is_empty() {
        return Err(unknown());
    }
    if core.contains('/') {
        return iana(&core).ok_or_else(unknown);
    }
    let key = normalize(&core);
    if let Some((_, zone)) = ALIASES.iter().find(|(name, _)| normalize(name) == key) {
        return iana(zone).ok_or_else(unknown);
    }
    if let Some(zone) = cities().get(&key) {
        return iana(zone).ok_or_else(unknown);
    }
    iana(&core).ok_or_else(unknown)
}

/// Drops a leading "the" and a trailing "time" ("the Hanoi time" → "Hanoi").
fn strip_affixes(place: &str) -> String {
    let mut words: Vec<&str> = place.split_whitespace().collect();
    if words.len() > 1 && words[0].eq_ignore_ascii_case("the") {
        words.remove(0);
    }
    if words.len() > 1 && words[words.len() - 1].eq_ignore_ascii_case("time") {
        words.pop();
    }
    words.join(" ")
}

/// The zone with IANA name `name` (any case; spaces read as underscores).
fn iana(name: &str) -> Option<Place> {
    let time_zone = tz::db().get(&name.replace(' ', "_")).ok()?;
    let zone = time_zone.iana_name().unwrap_or(name).to_owned();
    Some(Place { time_zone, zone })
}

/// Every city of the database: normalized last component → IANA name. When
/// several zones end alike (America/Argentina/Buenos_Aires and its old link
/// America/Buenos_Aires), the geographic area wins over legacy ones (then US/
/// over Canada/…: "Pacific" is US/Pacific), then the deeper name, then the
/// alphabetically first. `Etc/` is left out: its `GMT+5` means UTC−5.
fn cities() -> &'static HashMap<String, String> {
    static CITIES: OnceLock<HashMap<String, String>> = OnceLock::new();
    CITIES.get_or_init(|| {
        let mut best: HashMap<String, String> = HashMap::new();
        for name in tz::db().available() {
            let name = name.as_str();
            let Some((area, city)) = name.split_once('/') else {
                continue;
            };
            if area == "Etc" {
                continue;
            }
            let city = city.rsplit('/').next().unwrap_or(city);
            let key = normalize(city);
            let better = best
                .get(&key)
                .is_none_or(|held| preference(name) < preference(held));
            if better {
                best.insert(key, name.to_owned());
            }
        }
        best
    })
}

/// Sort key of a zone name among those sharing a city: smaller is preferred.
fn preference(name: &str) -> (u8, std::cmp::Reverse<usize>, &str) {
    const AREAS: [&str; 10] = [
        "Africa",
        "America",
        "Antarctica",
        "Arctic",
        "Asia",
        "Atlantic",
        "Australia",
        "Europe",
        "Indian",
        "Pacific",
    ];
    let area = name.split('/').next().unwrap_or(name);
    let legacy = match area {
        _ if AREAS.contains(&area) => 0,
        "US" => 1,
        _ => 2,
    };
    (legacy, std::cmp::Reverse(name.matches('/').count()), name)
}

/// Lowercase, accents folded ("São" → "sao", "Đà Nẵng" → "da nang"), `_` and `-`
/// as spaces, `.` `'` `,` dropped, spaces collapsed.
fn normalize(text: &str) -> String {
    let mut folded = String::with_capacity(text.len());
    for c in text.chars().flat_map(char::to_lowercase) {
        match c {
            '_' | '-' => folded.push(' '),
            '.' | '\'' | '\u{2019}' | ',' => {}
            // Combining marks of decomposed input ("o" + U+0302).
            '\u{0300}'..='\u{036f}' => {}
            c => folded.push(fold(c)),
        }
    }
    folded.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The base letter of an accented lowercase Latin letter (Vietnamese included).
fn fold(c: char) -> char {
    const GROUPS: [(&str, char); 15] = [
        ("àáảãạăằắẳẵặâầấẩẫậäåāą", 'a'),
        ("èéẻẽẹêềếểễệëēę", 'e'),
        ("ìíỉĩịîïī", 'i'),
        ("òóỏõọôồốổỗộơờớởỡợöøō", 'o'),
        ("ùúủũụưừứửữựûüū", 'u'),
        ("ỳýỷỹỵÿ", 'y'),
        ("đð", 'd'),
        ("çč", 'c'),
        ("ñń", 'n'),
        ("ł", 'l'),
        ("šś", 's'),
        ("žźż", 'z'),
        ("ř", 'r'),
        ("ğ", 'g'),
        ("ı", 'i'),
    ];
    if c.is_ascii() {
        return c;
    }
    GROUPS
        .iter()
        .find(|(accented, _)| accented.contains(c))
        .map_or(c, |&(_, base)| base)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn zone(place: &str) -> String {
        resolve(place)
            .unwrap_or_else(|e| panic!("{place}: {e}"))
            .zone
    }

    #[test]
    fn iana_names_in_any_case_and_utc() {
        assert_eq!(zone("asia/tokyo"), "Asia/Tokyo");
        assert_eq!(zone("America/New York"), "America/New_York");
        assert_eq!(zone("UTC"), "UTC");
        assert_eq!(zone("gmt"), "GMT");
    }

    #[test]
    fn cities_come_from_the_database() {
        assert_eq!(zone("Tokyo"), "Asia/Tokyo");
        assert_eq!(zone("new york"), "America/New_York");
        assert_eq!(zone("LA"), "America/Los_Angeles");
        assert_eq!(zone("NYC"), "America/New_York");
        assert_eq!(zone("London"), "Europe/London");
        assert_eq!(zone("Paris"), "Europe/Paris");
        assert_eq!(zone("Sao Paulo"), "America/Sao_Paulo");
        assert_eq!(zone("São Paulo"), "America/Sao_Paulo");
        assert_eq!(zone("Ho Chi Minh"), "Asia/Ho_Chi_Minh");
        assert_eq!(zone("Buenos Aires"), "America/Argentina/Buenos_Aires");
        assert_eq!(zone("Port-au-Prince"), "America/Port-au-Prince");
        assert_eq!(zone("Tôkyô"), "Asia/Tokyo");
        assert_eq!(zone("Pacific time"), "US/Pacific");
        assert!(resolve("GMT+5").is_err(), "Etc/GMT+5 is UTC−5; not a city");
    }

    #[test]
    fn large_cities_and_one_zone_countries_have_their_zone() {
        assert_eq!(zone("osaka"), "Asia/Tokyo");
        assert_eq!(zone("Shenzhen"), "Asia/Shanghai");
        assert_eq!(zone("Thâm Quyến"), "Asia/Shanghai");
        assert_eq!(zone("Nhat"), "Asia/Tokyo");
        assert_eq!(zone("Nhật Bản"), "Asia/Tokyo");
        assert_eq!(zone("Korea"), "Asia/Seoul");
        assert_eq!(zone("da nang"), "Asia/Ho_Chi_Minh");
        // A country with several zones is no place for one clock.
        assert!(resolve("Mỹ").is_err());
        // Countries and cities as people of the place, or Vietnamese, name them.
        assert_eq!(zone("Praha"), "Europe/Prague");
        assert_eq!(zone("phan lan"), "Europe/Helsinki");
        assert_eq!(zone("sec"), "Europe/Prague");
        assert_eq!(zone("Phú Quốc"), "Asia/Ho_Chi_Minh");
        // Every province, typed with or without marks.
        assert_eq!(zone("Cà Mau"), "Asia/Ho_Chi_Minh");
        assert_eq!(zone("ca mau"), "Asia/Ho_Chi_Minh");
        assert_eq!(zone("Đắk Lắk"), "Asia/Ho_Chi_Minh");
        assert_eq!(zone("năm ninh"), "Asia/Shanghai");
    }

    #[test]
    fn aliases_cover_places_the_database_lacks() {
        for place in [
            "Hanoi",
            "Hà Nội",
            "ha noi",
            "Saigon",
            "Sài Gòn",
            "Ho Chi Minh City",
            "TP. HCM",
            "Đà Nẵng",
        ] {
            assert_eq!(zone(place), "Asia/Ho_Chi_Minh", "{place}");
        }
        assert_eq!(zone("Beijing"), "Asia/Shanghai");
        assert_eq!(zone("Bắc Kinh"), "Asia/Shanghai");
        assert_eq!(zone("Đài Bắc, tức"), "Asia/Taipei");
        assert_eq!(zone("sapa"), "Asia/Ho_Chi_Minh");
        assert_eq!(zone("San Jose"), "America/Los_Angeles");
        assert_eq!(zone("San Francisco"), "America/Los_Angeles");
        assert_eq!(zone("Washington, D.C."), "America/New_York");
        assert_eq!(zone("New Delhi"), "Asia/Kolkata");
        assert_eq!(zone("Luân Đôn"), "Europe/London");
        assert_eq!(zone("Tô-ky-ô"), "Asia/Tokyo");
        assert_eq!(zone("Pa-ri"), "Europe/Paris");
        assert_eq!(zone("calgary"), "America/Edmonton");
        assert_eq!(zone("Wellington"), "Pacific/Auckland");
    }

    #[test]
    fn the_and_time_are_ignored() {
        assert_eq!(zone("Hanoi time"), "Asia/Ho_Chi_Minh");
        assert_eq!(zone("the London time"), "Europe/London");
        assert_eq!(zone("  Tokyo   TIME "), "Asia/Tokyo");
    }

    #[test]
    fn a_place_is_read_from_the_leading_words_that_name_one() {
        assert_eq!(zone("Boston bắt đầu"), "America/New_York");
        assert_eq!(zone("Hàn Quốc, lúc đó"), "Asia/Seoul");
        assert_eq!(zone("New York tomorrow morning"), "America/New_York");
        // The whole phrase first: `New York` is never York.
        assert_eq!(zone("New York"), "America/New_York");
        let err = resolve("Atlantis and beyond").unwrap_err();
        assert_eq!(err, DateError::UnknownPlace("Atlantis and beyond".into()));
    }

    #[test]
    fn unknown_places_are_named_in_the_error() {
        let err = resolve("Atlantis").unwrap_err();
        assert_eq!(err, DateError::UnknownPlace("Atlantis".into()));
        assert!(err.to_string().starts_with("unknown place 'Atlantis'"));
        assert!(resolve("   ").is_err());
        assert!(resolve("Mars/Olympus").is_err());
        assert!(resolve("time").is_err());
    }

    #[test]
    fn every_alias_is_a_zone_the_database_does_not_already_answer() {
        for (name, target) in ALIASES {
            assert!(iana(target).is_some(), "{name} → {target}");
            let from_db = cities().get(&normalize(name));
            assert_ne!(from_db.map(String::as_str), Some(*target), "{name}");
        }
    }
}
