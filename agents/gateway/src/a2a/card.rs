//! The agent card, `GET /.well-known/agent-card.json` (A2A 1.x, section 8): who Chorus
//! is, where its JSON-RPC interface is (`supportedInterfaces`: binding `JSONRPC`,
//! protocol version 1.0, the URL of `POST /a2a` as this request reached the Chief — its
//! `Host`, or `X-Forwarded-Host` and `X-Forwarded-Proto` behind a proxy), what it can
//! do (`capabilities.streaming`; no push notifications, no extended card), and one
//! skill per pool: the configured pools and any other a live agent serves, with the
//! tools the live registry lists (the tool contract's when no agent of the pool is live
//! right now) and example requests. The card is built on each request, so it follows
//! the registry; it is cacheable for a few seconds (`Cache-Control`, an `ETag` of its
//! content, `If-None-Match` answered 304).

use std::collections::{BTreeMap, BTreeSet};
use std::hash::{Hash, Hasher};

use a2a::{AgentCapabilities, AgentCard, AgentInterface, AgentSkill, TRANSPORT_PROTOCOL_JSONRPC};
use axum::Json;
use axum::extract::State;
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use chorus_bus::PoolName;
use chorus_core::registry::Registry;
use chorus_heuristic::capabilities::{DATE_TOOLS, MATH_TOOLS};
use chorus_heuristic::dates::DATE_POOL;
use chorus_heuristic::expr::MATH_POOL;

use super::wire::{JSON, TEXT};
use crate::api::ApiState;

/// How long a client may keep the card, in seconds.
const MAX_AGE_SECS: u32 = 10;

/// The card's description.
const DESCRIPTION: &str = "Chorus answers requests in English or Vietnamese by planning \
    them into steps, running each step on a pool of specialist agents that call tools on \
    MCP servers, and writing one report. It asks back when a request is missing \
    something or reads two ways (TASK_STATE_INPUT_REQUIRED: answer with a message on the \
    same taskId), and a contextId is a conversation: a follow-up such as \"now multiply \
    that by 3\" uses the last answer.";

/// `GET /.well-known/agent-card.json`.
pub(crate) async fn card(State(api): State<ApiState>, headers: HeaderMap) -> Response {
    let card = build(&api, &rpc_url(&headers)).await;
    let body = match serde_json::to_vec(&card) {
        Ok(body) => body,
        Err(e) => return (StatusCode::INTERNAL_SERVER_ERROR, e.to_string()).into_response(),
    };
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    body.hash(&mut hasher);
    let etag = format!("\"{:016x}\"", hasher.finish());
    let cache = format!("public, max-age={MAX_AGE_SECS}");
    let matched = headers
        .get(header::IF_NONE_MATCH)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.split(',').any(|t| t.trim() == etag || t.trim() == "*"));
    let mut response = if matched {
        StatusCode::NOT_MODIFIED.into_response()
    } else {
        Json(card).into_response()
    };
    let h = response.headers_mut();
    for (name, value) in [(header::ETAG, etag), (header::CACHE_CONTROL, cache)] {
        if let Ok(value) = HeaderValue::from_str(&value) {
            h.insert(name, value);
        }
    }
    h.insert(
        header::VARY,
        HeaderValue::from_static("Host, X-Forwarded-Host, X-Forwarded-Proto"),
    );
    response
}

/// The card, with the JSON-RPC interface at `url`.
pub(crate) async fn build(api: &ApiState, url: &str) -> AgentCard {
    AgentCard {
        name: "Chorus".to_owned(),
        description: DESCRIPTION.to_owned(),
        version: env!("CARGO_PKG_VERSION").to_owned(),
        supported_interfaces: vec![AgentInterface::new(url, TRANSPORT_PROTOCOL_JSONRPC)],
        capabilities: AgentCapabilities {
            streaming: Some(true),
            push_notifications: Some(false),
            extensions: None,
            extended_agent_card: Some(false),
        },
        default_input_modes: vec![TEXT.to_owned()],
        default_output_modes: vec![TEXT.to_owned(), JSON.to_owned()],
        skills: skills(api).await,
        provider: None,
        documentation_url: None,
        icon_url: None,
        security_schemes: None,
        security_requirements: None,
        signatures: None,
    }
}

/// The URL of `POST /a2a` as the client reached this Chief.
fn rpc_url(headers: &HeaderMap) -> String {
    let read = |name: &str| {
        headers
            .get(name)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.split(',').next())
            .map(str::trim)
            .filter(|v| !v.is_empty())
    };
    let host = read("x-forwarded-host")
        .or_else(|| read("host"))
        .filter(|h| {
            h.chars()
                .all(|c| c.is_ascii_alphanumeric() || "-.:[]_".contains(c))
        })
        .unwrap_or("localhost");
    let scheme = match read("x-forwarded-proto") {
        Some("https") => "https",
        _ => "http",
    };
    format!("{scheme}://{host}{}", super::RPC_PATH)
}

/// One skill per pool: configured ones and live ones, sorted by name.
async fn skills(api: &ApiState) -> Vec<AgentSkill> {
    let mut tools: BTreeMap<PoolName, BTreeSet<String>> = api
        .topology
        .pools()
        .iter()
        .map(|p| (p.clone(), BTreeSet::new()))
        .collect();
    let mut descriptions = BTreeMap::new();
    match Registry::new(api.state.clone()).live().await {
        Ok(live) => {
            for agent in live {
                let Some(pool) = agent.pool else { continue };
                for tool in agent.tools {
                    descriptions.insert(tool.name.clone(), tool.description);
                    tools.entry(pool.clone()).or_default().insert(tool.name);
                }
            }
        }
        Err(e) => tracing::warn!(error = %e, "reading the registry for the agent card failed"),
    }
    tools
        .into_iter()
        .map(|(pool, live)| skill(&pool, live, &descriptions))
        .collect()
}

/// The skill of `pool`, whose live agents offer `live` (maybe none right now).
fn skill(
    pool: &PoolName,
    live: BTreeSet<String>,
    descriptions: &BTreeMap<String, String>,
) -> AgentSkill {
    // The tool contract's tools, in its order, for the pools it names (by the names
    // the heuristic planner plans with); none for any other pool.
    let contract = match pool.as_str() {
        MATH_POOL => MATH_TOOLS,
        DATE_POOL => DATE_TOOLS,
        _ => &[],
    };
    let tools: Vec<String> = match live.is_empty() {
        true => contract.iter().map(|t| (*t).to_owned()).collect(),
        false => live.into_iter().collect(),
    };
    let list = tools.join(", ");
    let (name, description, examples): (String, String, Vec<String>) = match pool.as_str() {
        MATH_POOL => (
            "Arithmetic".into(),
            format!(
                "Computes arithmetic written in symbols or words, in English or Vietnamese: \
                 sums, differences, products, quotients, powers, roots, percentages, \
                 remainders, rounding, minimum and maximum, totals and averages of lists; \
                 a compound request runs step by step. Tools: {list}."
            ),
            [
                "tính 2+4 = ??",
                "compute (2+4)*3 - 1",
                "divide 10 by 4",
                "15% of 200",
                "căn bậc hai của 16",
            ]
            .map(String::from)
            .to_vec(),
        ),
        DATE_POOL => (
            "Dates and times".into(),
            format!(
                "Answers date and time questions in English or Vietnamese: today's date, \
                 weekdays, dates in or before a duration, days between or until a date, \
                 holidays, ages, week numbers, the time in a city and time conversions. \
                 Tools: {list}."
            ),
            [
                "what weekday is 2026-12-25",
                "what day is it in 10 days",
                "how many days until new year's day",
                "what time is it in Tokyo",
                "2026-12-25 là thứ mấy",
            ]
            .map(String::from)
            .to_vec(),
        ),
        other => (
            format!("The {other} tools"),
            format!("Uses the {other} pool's tools ({list}), planned by the language model."),
            tools
                .iter()
                .take(3)
                .map(|t| match descriptions.get(t).filter(|d| !d.is_empty()) {
                    Some(d) => d.clone(),
                    None => format!("use {t}"),
                })
                .collect(),
        ),
    };
    let mut tags = vec![pool.to_string()];
    tags.extend(tools);
    AgentSkill {
        id: pool.to_string(),
        name,
        description,
        tags,
        examples: Some(examples),
        input_modes: None,
        output_modes: None,
        security_requirements: None,
    }
}
