//! Settings for the language model: where the OpenAI-compatible server is, which model,
//! and the limits of one call. The API key itself is never a setting: only the NAME of
//! the environment variable that holds it, so a settings dump or a log line never shows
//! it.

use std::fmt;
use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::dialect::ResponseFormat;

/// Default environment variable holding the API key.
pub const DEFAULT_API_KEY_ENV: &str = "OPENAI_API_KEY";
/// Default time allowed for one model call, in milliseconds.
pub const DEFAULT_TIMEOUT_MS: u64 = 20_000;
/// Default most tokens the model may write in one answer.
pub const DEFAULT_MAX_TOKENS: u32 = 1024;
/// Default sampling temperature (0: as deterministic as the server allows).
pub const DEFAULT_TEMPERATURE: f32 = 0.0;

/// The `[llm]` settings section. The model is used only when [`LlmSettings::enabled`]
/// is true and both `base_url` and `model` are set (see [`LlmSettings::is_active`]).
#[derive(Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct LlmSettings {
    /// Whether the model may be used at all (a kill switch; on by default, but nothing
    /// happens until `base_url` and `model` are set).
    pub enabled: bool,
    /// Base URL of the OpenAI-compatible API, including `/v1`
    /// (`https://api.openai.com/v1`, `http://127.0.0.1:11434/v1` for Ollama).
    pub base_url: String,
    /// Model name as the server knows it (`gpt-4o-mini`, `qwen2.5:7b`, …).
    pub model: String,
    /// Name of the environment variable holding the API key (never the key itself).
    /// An unset or empty variable sends an empty key, which local servers accept.
    pub api_key_env: String,
    /// Time allowed for one call, in milliseconds: the whole answer for planning and
    /// non-streamed synthesis, the first token and every gap between tokens when
    /// streaming.
    pub timeout_ms: u64,
    /// Most tokens the model may write in one answer.
    pub max_tokens: u32,
    /// Sampling temperature.
    pub temperature: f32,
    /// Most steps accepted in a model-made plan.
    pub max_steps: usize,
    /// Whether `json_schema` may be asked for at all (the older switch): false sends a
    /// bare `json_object` when `response_format` is `auto`.
    pub json_schema: bool,
    /// The structured-output dialect: `auto` (`json_schema`, and on a refusal
    /// `json_object` with the schema, then a bare `json_object`), or one of those
    /// (see [`crate::dialect`]).
    pub response_format: ResponseFormat,
    /// Whether the Synthesizer may ask the model to write reports (the Planner may use
    /// the model while this is off).
    pub synthesize: bool,
    /// Whether the model checks each report before it goes out (one word, FINISHED or
    /// REITERATE) and, when it answers REITERATE, suggests a new plan for another
    /// attempt. Off by default: it costs a model call on every task.
    pub verify: bool,
    /// Directory holding `plan.md`, `synthesize.md`, `verify.md` and `advise.md`, read once at start; empty for the
    /// prompts built into the binary (`agents/llm/prompts/`).
    pub prompt_dir: String,
}

impl Default for LlmSettings {
    fn default() -> Self {
        LlmSettings {
            enabled: true,
            base_url: String::new(),
            model: String::new(),
            api_key_env: DEFAULT_API_KEY_ENV.to_owned(),
            timeout_ms: DEFAULT_TIMEOUT_MS,
            max_tokens: DEFAULT_MAX_TOKENS,
            temperature: DEFAULT_TEMPERATURE,
            max_steps: chorus_heuristic::MAX_STEPS,
            json_schema: true,
            response_format: ResponseFormat::Auto,
            synthesize: true,
            verify: false,
            prompt_dir: String::new(),
        }
    }
}

impl LlmSettings {
    /// Settings for `model` on the server at `base_url`, everything else default.
    pub fn new(base_url: impl Into<String>, model: impl Into<String>) -> Self {
        LlmSettings {
            base_url: base_url.into(),
            model: model.into(),
            ..LlmSettings::default()
        }
    }

    /// Whether the model is to be used: enabled, with a base URL and a model name.
    pub fn is_active(&self) -> bool {
        self.enabled && !self.base_url.trim().is_empty() && !self.model.trim().is_empty()
    }

    /// The time allowed for one call.
    pub fn timeout(&self) -> Duration {
        Duration::from_millis(self.timeout_ms.max(1))
    }

    /// The prompts: from `prompt_dir` when set, else the built-in ones.
    pub fn prompts(&self) -> std::io::Result<crate::prompt::Prompts> {
        if self.prompt_dir.trim().is_empty() {
            Ok(crate::prompt::Prompts::builtin())
        } else {
            crate::prompt::Prompts::load(std::path::Path::new(self.prompt_dir.trim()))
        }
    }

    /// The API key from the environment variable named by `api_key_env`; empty when
    /// the variable is unset.
    pub(crate) fn api_key(&self) -> String {
        if self.api_key_env.trim().is_empty() {
            return String::new();
        }
        std::env::var(self.api_key_env.trim()).unwrap_or_default()
    }
}

impl fmt::Debug for LlmSettings {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Written out by hand so a future field holding a secret is not printed by
        // accident: only names and limits appear here.
        f.debug_struct("LlmSettings")
            .field("enabled", &self.enabled)
            .field("base_url", &self.base_url)
            .field("model", &self.model)
            .field("api_key_env", &self.api_key_env)
            .field("timeout_ms", &self.timeout_ms)
            .field("max_tokens", &self.max_tokens)
            .field("temperature", &self.temperature)
            .field("max_steps", &self.max_steps)
            .field("json_schema", &self.json_schema)
            .field("response_format", &self.response_format)
            .field("synthesize", &self.synthesize)
            .field("verify", &self.verify)
            .field("prompt_dir", &self.prompt_dir)
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_model_is_used_only_with_a_base_url_and_a_model() {
        assert!(!LlmSettings::default().is_active());
        assert!(LlmSettings::new("http://127.0.0.1:11434/v1", "qwen2.5").is_active());
        assert!(!LlmSettings::new("http://127.0.0.1:11434/v1", " ").is_active());
        let off = LlmSettings {
            enabled: false,
            ..LlmSettings::new("http://x/v1", "m")
        };
        assert!(!off.is_active());
    }

    #[test]
    fn missing_fields_take_their_defaults() {
        let s: LlmSettings =
            serde_json::from_str(r#"{"base_url":"http://h/v1","model":"m","timeout_ms":500}"#)
                .expect("settings");
        assert_eq!(s.timeout(), Duration::from_millis(500));
        assert_eq!(s.api_key_env, "OPENAI_API_KEY");
        assert_eq!(s.max_steps, chorus_heuristic::MAX_STEPS);
        assert!(s.json_schema);
        assert_eq!(s.response_format, ResponseFormat::Auto);
        let fixed: LlmSettings =
            serde_json::from_str(r#"{"response_format":"json_object_schema"}"#).expect("settings");
        assert_eq!(fixed.response_format, ResponseFormat::JsonObjectSchema);
        assert!(serde_json::from_str::<LlmSettings>(r#"{"response_format":"xml"}"#).is_err());
    }
}
