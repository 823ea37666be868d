//! The model client: one chat completion, whole or streamed, through async-openai's
//! "bring your own types" calls with our lenient response types (see [`crate::wire`]).
//!
//! async-openai sets no request timeout, so every call is bounded here: a whole answer
//! by `timeout_ms`, a stream by `timeout_ms` to the first chunk and between chunks. The
//! reqwest client also gets connect and read timeouts as a second fence. async-openai
//! 0.43 retries nothing unless its middleware is enabled, which it is not: a failed call
//! falls back at once instead of eating the task's deadline.

use std::fmt;
use std::pin::Pin;

use async_openai::Client;
use async_openai::config::OpenAIConfig;
use async_openai::error::OpenAIError;
use chorus_telemetry::metrics::model::ModelCall;
use futures::{Stream, StreamExt};
use serde_json::Value;
use tracing::{Instrument as _, Span};

use crate::error::LlmError;
use crate::settings::LlmSettings;
use crate::wire::{ChatChunk, ChatMessage, ChatRequest, ChatResponse, Usage, content_text};

/// Streamed text chunks of one answer, in order; an `Err` ends the stream.
pub type TokenStream = Pin<Box<dyn Stream<Item = Result<String, LlmError>> + Send>>;

/// Longest server error message kept in an [`LlmError`].
const MAX_MESSAGE_CHARS: usize = 300;

/// A client for one model on one OpenAI-compatible server.
#[derive(Clone)]
pub struct LlmClient {
    client: Client<OpenAIConfig>,
    settings: LlmSettings,
    /// The role calling (`planner`, `synthesizer`, `verifier`), for the metrics.
    role: &'static str,
}

impl fmt::Debug for LlmClient {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Never prints the client's config: it holds the API key.
        f.debug_struct("LlmClient")
            .field("settings", &self.settings)
            .finish_non_exhaustive()
    }
}

impl LlmClient {
    /// A client for the model in `settings`, with the API key read from the environment
    /// variable the settings name. Fails when the model is not configured or the
    /// settings cannot make a client.
    pub fn new(settings: &LlmSettings) -> Result<Self, LlmError> {
        if !settings.is_active() {
            return Err(LlmError::NotConfigured);
        }
        let base = settings.base_url.trim().trim_end_matches('/').to_owned();
        reqwest::Url::parse(&base)
            .map_err(|e| LlmError::Config(format!("base_url {base:?}: {e}")))?;
        let key = settings.api_key();
        // async-openai builds the Authorization header with `parse().unwrap()`; check the
        // key first so a stray newline in it is a settings error, not a panic.
        if reqwest::header::HeaderValue::from_str(&format!("Bearer {key}")).is_err() {
            return Err(LlmError::Config(format!(
                "the API key in ${} is not a valid HTTP header value",
                settings.api_key_env
            )));
        }
        let config = OpenAIConfig::new()
            .with_api_base(base)
            .with_api_key(key)
            .with_org_id("")
            .with_project_id("");
        // The fence is wider than the per-call timeout so the call's own timeout, which
        // reports itself as `Timeout`, always fires first.
        let fence = settings.timeout().saturating_mul(2);
        let http = reqwest::Client::builder()
            .connect_timeout(settings.timeout())
            .read_timeout(fence)
            .build()
            .map_err(|e| LlmError::Config(format!("http client: {e}")))?;
        Ok(LlmClient {
            client: Client::build(http, config),
            settings: settings.clone(),
            role: "model",
        })
    }

    /// The same client, its calls counted in the metrics as made by `role`.
    pub fn for_role(mut self, role: &'static str) -> Self {
        self.role = role;
        self
    }

    /// The settings this client was made with.
    pub fn settings(&self) -> &LlmSettings {
        &self.settings
    }

    fn request<'a>(
        &'a self,
        messages: &'a [ChatMessage],
        response_format: Option<&'a Value>,
        stream: bool,
    ) -> ChatRequest<'a> {
        ChatRequest {
            model: self.settings.model.trim(),
            messages,
            max_tokens: self.settings.max_tokens,
            temperature: self.settings.temperature,
            response_format,
            stream,
        }
    }

    /// The CLIENT span `chat <model>` of one call (GenAI conventions); `Span::none()`
    /// when traces are off.
    fn chat_span(&self) -> Span {
        if !chorus_telemetry::traces::enabled() {
            return Span::none();
        }
        let host = reqwest::Url::parse(self.settings.base_url.trim())
            .ok()
            .and_then(|u| u.host_str().map(str::to_owned))
            .unwrap_or_default();
        chorus_telemetry::traces::spans::chat("openai", self.settings.model.trim(), &host)
    }

    /// The model's whole answer to `messages`, optionally constrained by a
    /// `response_format` object, within the timeout.
    pub async fn complete(
        &self,
        messages: &[ChatMessage],
        response_format: Option<&Value>,
    ) -> Result<String, LlmError> {
        let mut counted = ModelCall::start(self.role, "complete");
        let timeout = self.settings.timeout();
        let request = self.request(messages, response_format, false);
        let chat = self.client.chat();
        let call = chat.create_byot::<_, ChatResponse>(request);
        let span = self.chat_span();
        let response = tokio::time::timeout(timeout, call)
            .instrument(span.clone())
            .await
            .map_err(|_| LlmError::Timeout(self.settings.timeout_ms))
            .and_then(|r| r.map_err(|e| map_error(e, self.settings.timeout_ms)))
            .inspect_err(|e| chorus_telemetry::traces::spans::failed(&span, error_type(e)))?;
        if let Some(u) = &response.usage {
            counted.used(u.prompt_tokens, u.completion_tokens);
        }
        record_answer(&span, response.model.as_deref(), response.usage);
        if let Some(error) = response.error {
            return Err(LlmError::BadResponse(shorten(&error.to_string())));
        }
        let choice = response.choices.into_iter().next().ok_or(LlmError::Empty)?;
        let message = choice.message.unwrap_or_default();
        if let Some(refusal) = message.refusal.filter(|r| !r.trim().is_empty()) {
            return Err(LlmError::Refused(shorten(&refusal)));
        }
        let text = message
            .content
            .as_ref()
            .and_then(content_text)
            .unwrap_or_default();
        if text.trim().is_empty() {
            return Err(LlmError::Empty);
        }
        if choice.finish_reason.as_deref() == Some("length") {
            tracing::debug!("model answer cut at max_tokens");
        }
        counted.succeeded();
        Ok(text)
    }

    /// The model's answer to `messages` as a stream of text chunks. The first chunk and
    /// every next one must come within the timeout, or the stream ends with
    /// [`LlmError::Timeout`].
    pub async fn stream(&self, messages: &[ChatMessage]) -> Result<TokenStream, LlmError> {
        let counted = ModelCall::start(self.role, "stream");
        let timeout = self.settings.timeout();
        let ms = self.settings.timeout_ms;
        let request = self.request(messages, None, true);
        let chat = self.client.chat();
        let call = chat.create_stream_byot::<_, ChatChunk>(request);
        // The span lasts until the stream ends.
        let span = self.chat_span();
        let chunks = tokio::time::timeout(timeout, call)
            .instrument(span.clone())
            .await
            .map_err(|_| LlmError::Timeout(ms))
            .and_then(|r| r.map_err(|e| map_error(e, ms)))
            .inspect_err(|e| chorus_telemetry::traces::spans::failed(&span, error_type(e)))?;
        // The call is counted when the stream ends (`ok` only at its natural end).
        let state = Some((chunks, span, counted));
        let texts = futures::stream::unfold(state, move |state| async move {
            let (mut chunks, span, mut counted) = state?;
            loop {
                let next = match tokio::time::timeout(timeout, chunks.next()).await {
                    Err(_) => return Some((Err(LlmError::Timeout(ms)), None)),
                    Ok(None) => {
                        counted.succeeded();
                        return None;
                    }
                    Ok(Some(Err(e))) => return Some((Err(map_error(e, ms)), None)),
                    Ok(Some(Ok(chunk))) => chunk,
                };
                if let Some(u) = &next.usage {
                    counted.used(u.prompt_tokens, u.completion_tokens);
                }
                record_answer(&span, next.model.as_deref(), next.usage);
                if let Some(error) = next.error {
                    let e = LlmError::BadResponse(shorten(&error.to_string()));
                    return Some((Err(e), None));
                }
                let text: String = next
                    .choices
                    .iter()
                    .filter_map(|c| c.delta.as_ref()?.content.as_ref())
                    .filter_map(content_text)
                    .collect();
                if !text.is_empty() {
                    return Some((Ok(text), Some((chunks, span, counted))));
                }
            }
        });
        Ok(Box::pin(texts))
    }
}

/// The `error.type` of a failed model call on its `chat` span.
fn error_type(e: &LlmError) -> &'static str {
    match e {
        LlmError::Timeout(_) => "timeout",
        LlmError::Status { .. } => "http_status",
        LlmError::Transport(_) => "transport",
        _ => "bad_response",
    }
}

/// Records the answering model and the token counts on a `chat` span, when known.
fn record_answer(span: &Span, model: Option<&str>, usage: Option<Usage>) {
    if span.is_none() {
        return;
    }
    if let Some(model) = model {
        span.record("gen_ai.response.model", model);
    }
    if let Some(usage) = usage {
        if let Some(n) = usage.prompt_tokens {
            span.record("gen_ai.usage.input_tokens", n);
        }
        if let Some(n) = usage.completion_tokens {
            span.record("gen_ai.usage.output_tokens", n);
        }
    }
}

/// The [`LlmError`] for an async-openai error.
fn map_error(error: OpenAIError, timeout_ms: u64) -> LlmError {
    match error {
        OpenAIError::ApiError(r) => LlmError::Status {
            status: r.status_code.as_u16(),
            message: shorten(&r.api_error.message),
        },
        OpenAIError::Reqwest(e) if e.is_timeout() => LlmError::Timeout(timeout_ms),
        OpenAIError::Reqwest(e) => LlmError::Transport(shorten(&error_chain(&e))),
        OpenAIError::JSONDeserialize(e, _) => LlmError::BadResponse(shorten(&e.to_string())),
        OpenAIError::InvalidArgument(m) => LlmError::Config(shorten(&m)),
        other => LlmError::Transport(shorten(&other.to_string())),
    }
}

/// An error with its sources, `a: b: c` (reqwest's own message is terse).
fn error_chain(e: &dyn std::error::Error) -> String {
    let mut text = e.to_string();
    let mut source = e.source();
    while let Some(s) = source {
        text.push_str(": ");
        text.push_str(&s.to_string());
        source = s.source();
    }
    text
}

/// `text` cut to [`MAX_MESSAGE_CHARS`] characters.
fn shorten(text: &str) -> String {
    let text = text.trim();
    if text.chars().count() <= MAX_MESSAGE_CHARS {
        return text.to_owned();
    }
    let mut cut: String = text.chars().take(MAX_MESSAGE_CHARS).collect();
    cut.push('…');
    cut
}
