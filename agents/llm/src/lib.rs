//! Chorus LLM planning and synthesis through any OpenAI-compatible server (OpenAI,
//! Ollama, vLLM, llama.cpp), with async-openai.
//!
//! The model is an optional helper behind code that does not need it: the heuristic
//! planner answers first and the model is asked only for what it cannot plan
//! ([`plan_with_fallback`]); a model-made plan is used only when it fits the live tools
//! ([`validate`]); a model-written report is used only when every number in it comes
//! from the results ([`numbers_grounded`]), else the template writes it
//! ([`write_or_template`]; streamed, with each number held back until checked:
//! [`stream_or_template`]). Every failure (timeout, HTTP error, invalid JSON, unknown
//! tool, cycle, ungrounded number) falls back and says why. With `verify` on, the model
//! also checks each report (FINISHED or REITERATE) and advises a new plan ([`verify`]). This crate never publishes
//! on the bus and never fails a task: the Planner and Synthesizer roles call it.

pub mod catalog;
pub mod client;
pub mod dialect;
pub mod error;
pub mod grounding;
pub mod planner;
pub mod prompt;
pub mod settings;
pub mod synth;
pub mod tools;
pub mod validate;
pub mod verify;
pub mod wire;

pub use client::{LlmClient, TokenStream};
pub use dialect::{Dialect, ResponseFormat};
pub use error::{LlmError, PlanFallback, SynthFallback};
pub use grounding::numbers_grounded;
pub use planner::{LlmPlanner, PlanPath, heuristic_first, plan_with_fallback};
pub use prompt::Prompts;
pub use settings::LlmSettings;
pub use synth::{
    LlmSynthesizer, SynthEvent, SynthStream, WRITTEN_BY_LLM, WRITTEN_BY_TEMPLATE,
    stream_or_template, write_or_template,
};
pub use tools::PoolTool;
pub use verify::{Judgement, LlmVerifier};
