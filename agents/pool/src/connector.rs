//! How a pool agent reaches its MCP server.

use std::path::Path;
use std::sync::Arc;

use chorus_core::roles::pool::Connector;
use chorus_core::settings::{PoolSettings, Settings};
use chorus_mcp_common::client::{McpClient, McpError};

/// A pool was named that `[pools]` does not configure.
#[derive(Debug, thiserror::Error)]
#[error("pool {0} is not configured (set pools.{0}.mcp_url)")]
pub struct NotConfigured(pub String);

/// The connector of a configured pool: a stdio child when `mcp_command` is set (it wins),
/// else Streamable HTTP at `mcp_url`.
pub fn for_pool(settings: &Settings, pool: &str) -> Result<Connector, NotConfigured> {
    let cfg: PoolSettings = settings
        .pools
        .get(pool)
        .ok_or_else(|| NotConfigured(pool.to_owned()))?
        .clone();
    Ok(Arc::new(move || {
        let cfg = cfg.clone();
        Box::pin(async move {
            match (&cfg.mcp_command, &cfg.mcp_url) {
                (Some(command), _) => {
                    let mut words = command.split_whitespace().map(str::to_owned);
                    let program = words.next().unwrap_or_default();
                    let args: Vec<String> = words.collect();
                    McpClient::spawn_stdio(Path::new(&program), &args).await
                }
                (None, Some(url)) => McpClient::connect_http(url).await,
                (None, None) => Err(McpError::Unreachable {
                    endpoint: "(none)".into(),
                    reason: "no MCP server configured".into(),
                }),
            }
        })
    }))
}
