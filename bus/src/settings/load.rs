//! Reading the settings: the `[bus]` section of an optional TOML file overlaid by the
//! `CHORUS__BUS__*` environment variables, with the key at fault named on an error.

use std::collections::HashMap;
use std::path::Path;

use serde::Deserialize;

use super::{BusSettings, ENV_PREFIX, ENV_SEPARATOR, SECTION, bad};
use crate::error::BusError;

impl BusSettings {
    /// Loads `[bus]` from `file` (when given; it must exist) and the `CHORUS__BUS__*`
    /// environment variables, which win over the file, then validates.
    pub fn load(file: Option<&Path>) -> Result<Self, BusError> {
        Self::load_with_env(file, None)
    }

    /// Like [`BusSettings::load`] with an explicit environment (for tests); `None` reads
    /// the process environment.
    pub fn load_with_env(
        file: Option<&Path>,
        env: Option<HashMap<String, String>>,
    ) -> Result<Self, BusError> {
        let mut builder = config::Config::builder();
        if let Some(path) = file {
            builder = builder.add_source(
                config::File::from(path)
                    .format(config::FileFormat::Toml)
                    .required(true),
            );
        }
        builder = builder.add_source(
            config::Environment::with_prefix(ENV_PREFIX)
                .separator(ENV_SEPARATOR)
                .source(env),
        );
        let cfg = builder.build().map_err(config_error)?;
        let table = match cfg.get::<config::Map<String, config::Value>>(SECTION) {
            Ok(t) => t,
            Err(config::ConfigError::NotFound(_)) => config::Map::new(),
            Err(e) => return Err(config_error(e)),
        };
        let settings = from_table(table)?;
        settings.validate()?;
        Ok(settings)
    }
}

/// A list of URLs, from a TOML array or one comma-separated string (the environment).
pub(super) fn url_list<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Vec<String>, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum List {
        One(String),
        Many(Vec<String>),
    }
    Ok(match List::deserialize(d)? {
        List::One(s) => s
            .split(',')
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(str::to_owned)
            .collect(),
        List::Many(v) => v,
    })
}

/// Deserializes the `[bus]` table; on failure, finds the key at fault by trying each
/// key alone (`config` reports only the section for nested tables).
fn from_table(table: config::Map<String, config::Value>) -> Result<BusSettings, BusError> {
    let whole = config::Value::new(None, config::ValueKind::Table(table.clone()));
    let err = match whole.try_deserialize::<BusSettings>() {
        Ok(s) => return Ok(s),
        Err(e) => e,
    };
    for (key, value) in table {
        let single = config::Map::from([(key.clone(), value)]);
        let probe = config::Value::new(None, config::ValueKind::Table(single));
        if let Err(e) = probe.try_deserialize::<BusSettings>() {
            return Err(bad(&key, e.to_string()));
        }
    }
    Err(config_error(err))
}

/// Turns a `config` error into [`BusError::Config`], naming the key when it is known.
fn config_error(e: config::ConfigError) -> BusError {
    let key = match &e {
        config::ConfigError::Type { key: Some(k), .. } => k.clone(),
        config::ConfigError::At { key: Some(k), .. } => k.clone(),
        config::ConfigError::NotFound(k) => k.clone(),
        config::ConfigError::FileParse { uri: Some(u), .. } => u.clone(),
        _ => SECTION.to_owned(),
    };
    BusError::Config {
        key,
        reason: e.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::settings::test_env as env;

    #[test]
    fn defaults_load_when_nothing_is_set() {
        let s = BusSettings::load_with_env(None, env(&[])).expect("defaults");
        assert_eq!(s, BusSettings::default());
    }

    #[test]
    fn environment_overrides_the_file() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("chorus.toml");
        std::fs::write(&path, "[bus]\nblock_ms = 250\nbatch_count = 8\n").expect("write");
        let s = BusSettings::load_with_env(
            Some(&path),
            env(&[
                ("CHORUS__BUS__BATCH_COUNT", "16"),
                ("CHORUS__BUS__REDIS_URL", "redis://10.0.0.1:7000"),
            ]),
        )
        .expect("load");
        assert_eq!(s.block_ms, 250);
        assert_eq!(s.batch_count, 16);
        assert_eq!(s.redis_url, "redis://10.0.0.1:7000");
    }

    #[test]
    fn a_bad_value_names_its_key() {
        let err = BusSettings::load_with_env(None, env(&[("CHORUS__BUS__MAX_DELIVERIES", "0")]))
            .expect_err("invalid");
        assert!(err.to_string().contains("bus.max_deliveries"), "{err}");
        let err = BusSettings::load_with_env(None, env(&[("CHORUS__BUS__FINISHED_TTL_SECS", "0")]))
            .expect_err("invalid");
        assert!(err.to_string().contains("bus.finished_ttl_secs"), "{err}");
        let err = BusSettings::load_with_env(None, env(&[("CHORUS__BUS__BLOCK_MS", "soon")]))
            .expect_err("invalid");
        assert!(err.to_string().contains("block_ms"), "{err}");
        let err = BusSettings::load_with_env(None, env(&[("CHORUS__BUS__REDIS_URL", "http://x")]))
            .expect_err("invalid");
        assert!(err.to_string().contains("bus.redis_url"), "{err}");
    }

    #[test]
    fn an_unknown_key_is_refused() {
        let err = BusSettings::load_with_env(None, env(&[("CHORUS__BUS__BLOK_MS", "5")]))
            .expect_err("unknown");
        assert!(err.to_string().contains("blok_ms"), "{err}");
    }
}
