//! The language a report, a plan or a question is written in: [`Language`], English or
//! Vietnamese. On the wire it is the plain JSON string it always was (`"en"`, `"vi"`);
//! a request's `context.language` stays a free BCP 47 tag (`en-GB`, `vi-VN`), read
//! with [`Language::from_tag`].

use std::borrow::Cow;
use std::fmt;
use std::str::FromStr;

use schemars::{JsonSchema, Schema, SchemaGenerator, json_schema};
use serde::{Deserialize, Serialize};

/// A language Chorus answers in.
#[derive(
    Debug, Clone, Copy, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize,
)]
#[serde(try_from = "String", into = "&'static str")]
pub enum Language {
    /// English (`en`), the default.
    #[default]
    En,
    /// Vietnamese (`vi`).
    Vi,
}

/// A language code Chorus does not answer in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownLanguage(pub String);

impl fmt::Display for UnknownLanguage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{:?} is not a language Chorus answers in (use one of: ",
            self.0
        )?;
        for (i, l) in Language::ALL.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            f.write_str(l.as_str())?;
        }
        f.write_str(")")
    }
}

impl std::error::Error for UnknownLanguage {}

impl Language {
    /// Every language, in the order they are listed to users.
    pub const ALL: [Language; 2] = [Language::En, Language::Vi];

    /// The code on the wire: `en`, `vi`.
    pub fn as_str(self) -> &'static str {
        match self {
            Language::En => "en",
            Language::Vi => "vi",
        }
    }

    /// Whether this is Vietnamese.
    pub fn is_vi(self) -> bool {
        self == Language::Vi
    }

    /// The language of a BCP 47 tag by its primary subtag, any case: `vi-VN` is
    /// Vietnamese, `en_GB` English, `fr` unknown.
    pub fn from_tag(tag: &str) -> Result<Language, UnknownLanguage> {
        let tag = tag.trim();
        let primary = tag.split(['-', '_']).next().unwrap_or(tag);
        Language::ALL
            .into_iter()
            .find(|l| primary.eq_ignore_ascii_case(l.as_str()))
            .ok_or_else(|| UnknownLanguage(tag.to_owned()))
    }
}

impl fmt::Display for Language {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for Language {
    type Err = UnknownLanguage;
    /// Exactly `en` or `vi` (the wire codes); see [`Language::from_tag`] for tags.
    fn from_str(s: &str) -> Result<Self, UnknownLanguage> {
        Language::ALL
            .into_iter()
            .find(|l| l.as_str() == s)
            .ok_or_else(|| UnknownLanguage(s.to_owned()))
    }
}

impl TryFrom<String> for Language {
    type Error = UnknownLanguage;
    fn try_from(s: String) -> Result<Self, UnknownLanguage> {
        s.parse()
    }
}

impl From<Language> for &'static str {
    fn from(l: Language) -> &'static str {
        l.as_str()
    }
}

impl AsRef<str> for Language {
    fn as_ref(&self) -> &str {
        self.as_str()
    }
}

impl PartialEq<str> for Language {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == other
    }
}

impl PartialEq<&str> for Language {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

impl PartialEq<String> for Language {
    fn eq(&self, other: &String) -> bool {
        self.as_str() == other
    }
}

impl JsonSchema for Language {
    fn inline_schema() -> bool {
        true
    }

    fn schema_name() -> Cow<'static, str> {
        "Language".into()
    }

    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({"type": "string", "enum": ["en", "vi"]})
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_language_is_its_code_on_the_wire_and_unknown_codes_are_refused() {
        assert_eq!(
            serde_json::to_string(&Language::Vi).expect("json"),
            "\"vi\""
        );
        let en: Language = serde_json::from_str("\"en\"").expect("json");
        assert_eq!(en, Language::En);
        assert!(serde_json::from_str::<Language>("\"fr\"").is_err());
        assert_eq!("vi".parse::<Language>(), Ok(Language::Vi));
        assert_eq!(
            "VI".parse::<Language>(),
            Err(UnknownLanguage("VI".to_owned()))
        );
        assert_eq!(Language::Vi.to_string(), "vi");
        assert_eq!(Language::default(), Language::En);
        assert_eq!(
            "fr".parse::<Language>().expect_err("fr").to_string(),
            "\"fr\" is not a language Chorus answers in (use one of: en, vi)"
        );
    }

    #[test]
    fn a_tag_is_read_by_its_primary_subtag() {
        assert_eq!(Language::from_tag("vi-VN"), Ok(Language::Vi));
        assert_eq!(Language::from_tag(" en_GB "), Ok(Language::En));
        assert_eq!(Language::from_tag("EN"), Ok(Language::En));
        assert!(Language::from_tag("fr").is_err());
        assert!(Language::from_tag("").is_err());
    }
}
