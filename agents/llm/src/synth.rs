//! Writing the report with the model, behind the template.
//!
//! The model writes the answer in the user's language from the structured results; its
//! answer is used only when every number in it comes from the results (checked in code,
//! see [`crate::grounding`]). Otherwise, and whenever the model fails, the report is the
//! template's ([`chorus_heuristic::render_report`]).
//!
//! Streaming holds back any number until it is complete and checked, so an ungrounded
//! number never reaches the user: the stream stops and its last event says to replace
//! what was shown with the template.

use std::pin::Pin;
use std::sync::Arc;

use chorus_bus::{Language, ReportStatus, StepReport};
use chorus_heuristic::render_report;
use futures::{Stream, StreamExt};
use tracing::warn;

use crate::client::{LlmClient, TokenStream};
use crate::error::{LlmError, SynthFallback};
use crate::grounding::{check_against, grounded_numbers, numbers_grounded, open_number_tail};
use crate::prompt::{Prompts, synthesize_messages};
use crate::settings::LlmSettings;

/// `written_by` of a report the model wrote.
pub const WRITTEN_BY_LLM: &str = "llm";
/// `written_by` of a report from the template.
pub const WRITTEN_BY_TEMPLATE: &str = "template";

/// Asks the model to write reports.
#[derive(Clone)]
pub struct LlmSynthesizer {
    client: LlmClient,
    prompts: Arc<Prompts>,
}

/// One event of a streamed report.
#[derive(Debug, Clone, PartialEq)]
pub enum SynthEvent {
    /// More text, to append to what is shown.
    Token(String),
    /// The end: the whole report. When `replace` is true, the tokens shown so far are
    /// to be replaced by `text` (the model's stream was refused midway).
    Done {
        /// The complete report text.
        text: String,
        /// [`WRITTEN_BY_LLM`] or [`WRITTEN_BY_TEMPLATE`].
        written_by: &'static str,
        /// Why the template was used, when it was because the model failed.
        fallback: Option<SynthFallback>,
        /// Whether the shown tokens are to be replaced by `text`.
        replace: bool,
    },
}

/// A stream of report events, ending with one [`SynthEvent::Done`].
pub type SynthStream = Pin<Box<dyn Stream<Item = SynthEvent> + Send>>;

impl LlmSynthesizer {
    /// A report writer for the model in `settings`, with `prompts`.
    pub fn new(settings: &LlmSettings, prompts: Prompts) -> Result<Self, LlmError> {
        Ok(LlmSynthesizer {
            client: LlmClient::new(settings)?.for_role("synthesizer"),
            prompts: Arc::new(prompts),
        })
    }

    /// The settings in use.
    pub fn settings(&self) -> &LlmSettings {
        self.client.settings()
    }

    /// Whether report writing by the model is switched on.
    fn writes(&self) -> bool {
        self.client.settings().synthesize
    }

    /// The model's report for `steps`, in `language`; refused when a number in it does
    /// not come from the results, the arguments or the query.
    pub async fn write(
        &self,
        query: &str,
        language: Language,
        steps: &[StepReport],
    ) -> Result<String, SynthFallback> {
        if !self.client.settings().synthesize {
            return Err(SynthFallback::Disabled);
        }
        let status = chorus_heuristic::report_status(steps);
        let messages = synthesize_messages(&self.prompts, query, language, status, steps);
        let text = self.client.complete(&messages, None).await?;
        numbers_grounded(&text, query, steps).map_err(SynthFallback::Ungrounded)?;
        Ok(text.trim().to_owned())
    }

    /// The model's report as raw text chunks, unchecked (see [`stream_or_template`] for
    /// the checked stream).
    pub async fn stream(
        &self,
        query: &str,
        language: Language,
        steps: &[StepReport],
    ) -> Result<TokenStream, SynthFallback> {
        if !self.client.settings().synthesize {
            return Err(SynthFallback::Disabled);
        }
        let status = chorus_heuristic::report_status(steps);
        let messages = synthesize_messages(&self.prompts, query, language, status, steps);
        Ok(self.client.stream(&messages).await?)
    }
}

/// The report for `steps`: the model's when `synth` is given and its answer is grounded,
/// else the template's. Returns the text, who wrote it, and why the model's answer was
/// not used (when it was asked). With no steps, or with `synthesize` off, the template
/// is used without asking.
pub async fn write_or_template(
    synth: Option<&LlmSynthesizer>,
    query: &str,
    language: Language,
    steps: &[StepReport],
    status: ReportStatus,
    unplanned: Option<&str>,
) -> (String, &'static str, Option<SynthFallback>) {
    let template = || render_report(query, language, steps, status, unplanned);
    let Some(synth) = synth.filter(|s| s.writes() && !steps.is_empty()) else {
        return (template(), WRITTEN_BY_TEMPLATE, None);
    };
    match synth.write(query, language, steps).await {
        Ok(mut text) => {
            text.push('\n');
            (text, WRITTEN_BY_LLM, None)
        }
        Err(reason) => {
            warn!(reason = %reason, code = %reason.code(), "model report refused; template used");
            (template(), WRITTEN_BY_TEMPLATE, Some(reason))
        }
    }
}

/// The report for `steps` as a stream: the model's tokens as they come, each number
/// held back until it is complete and found in the results; on any failure the stream
/// ends with the template (see [`SynthEvent::Done`]). Without `synth`, or with no steps,
/// the template is one token.
pub fn stream_or_template(
    synth: Option<LlmSynthesizer>,
    query: String,
    language: Language,
    steps: Vec<StepReport>,
    status: ReportStatus,
    unplanned: Option<String>,
) -> SynthStream {
    let template = render_report(&query, language, &steps, status, unplanned.as_deref());
    let Some(synth) = synth.filter(|s| s.writes() && !steps.is_empty()) else {
        return template_only(template, None);
    };
    let grounded = grounded_numbers(&query, &steps);
    let list_len = steps.len();
    let events = async_stream(move |tx| async move {
        let mut tokens = match synth.stream(&query, language, &steps).await {
            Ok(t) => t,
            Err(reason) => return finish(&tx, template, Some(reason), false),
        };
        let mut text = String::new();
        let mut shown = 0;
        while let Some(chunk) = tokens.next().await {
            match chunk {
                Ok(chunk) => text.push_str(&chunk),
                Err(e) => return finish(&tx, template, Some(e.into()), shown > 0),
            }
            let safe = text.len() - open_number_tail(&text);
            if let Err(why) = check_against(&text[..safe], &grounded, list_len) {
                return finish(
                    &tx,
                    template,
                    Some(SynthFallback::Ungrounded(why)),
                    shown > 0,
                );
            }
            if safe > shown
                && tx
                    .unbounded_send(SynthEvent::Token(text[shown..safe].to_owned()))
                    .is_err()
            {
                return;
            }
            shown = shown.max(safe);
        }
        if let Err(why) = check_against(&text, &grounded, list_len) {
            return finish(
                &tx,
                template,
                Some(SynthFallback::Ungrounded(why)),
                shown > 0,
            );
        }
        if text.trim().is_empty() {
            return finish(&tx, template, Some(LlmError::Empty.into()), shown > 0);
        }
        if text.len() > shown {
            let _ = tx.unbounded_send(SynthEvent::Token(text[shown..].to_owned()));
        }
        let _ = tx.unbounded_send(SynthEvent::Done {
            text,
            written_by: WRITTEN_BY_LLM,
            fallback: None,
            replace: false,
        });
    });
    Box::pin(events)
}

type Sender = futures::channel::mpsc::UnboundedSender<SynthEvent>;

/// Sends the template as the end of a stream: as a replacement when tokens were shown,
/// else as one token then `Done`.
fn finish(tx: &Sender, template: String, fallback: Option<SynthFallback>, shown: bool) {
    if let Some(reason) = &fallback {
        warn!(reason = %reason, code = %reason.code(), "model report stream refused; template used");
    }
    if !shown {
        let _ = tx.unbounded_send(SynthEvent::Token(template.clone()));
    }
    let _ = tx.unbounded_send(SynthEvent::Done {
        text: template,
        written_by: WRITTEN_BY_TEMPLATE,
        fallback,
        replace: shown,
    });
}

/// The template as a stream: one token, then `Done`.
fn template_only(template: String, fallback: Option<SynthFallback>) -> SynthStream {
    let events = vec![
        SynthEvent::Token(template.clone()),
        SynthEvent::Done {
            text: template,
            written_by: WRITTEN_BY_TEMPLATE,
            fallback,
            replace: false,
        },
    ];
    Box::pin(futures::stream::iter(events))
}

/// A stream fed by a task running `body`; the task stops when the stream is dropped
/// (its next send fails) or `body` ends.
fn async_stream<F, Fut>(body: F) -> impl Stream<Item = SynthEvent> + Send
where
    F: FnOnce(Sender) -> Fut,
    Fut: std::future::Future<Output = ()> + Send + 'static,
{
    let (tx, rx) = futures::channel::mpsc::unbounded();
    let fut = body(tx);
    // In the caller's span, so the model call is traced within the task's handling.
    tokio::spawn(tracing::Instrument::in_current_span(fut));
    rx
}

impl std::fmt::Debug for LlmSynthesizer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LlmSynthesizer")
            .field("client", &self.client)
            .finish_non_exhaustive()
    }
}
