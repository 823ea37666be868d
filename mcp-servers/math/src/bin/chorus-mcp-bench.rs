//! `chorus-mcp-bench`: tool calls per second and latency percentiles of the
//! math server through `McpClient`, sequential and with many calls in flight.
//!
//! Without `--url` it serves the math server over Streamable HTTP on a free
//! loopback port inside this process; with `--url` it measures a running server.

use std::time::{Duration, Instant};

use anyhow::{Context, bail};
use chorus_mcp_common::{HttpSettings, McpClient, spawn_http};
use chorus_mcp_math::MathServer;
use clap::{Parser, ValueEnum};
use serde_json::{Map, Value, json};

/// Benchmark the math MCP server.
#[derive(Debug, Parser)]
#[command(name = "chorus-mcp-bench", version)]
struct Cli {
    /// MCP endpoint of a running server (default: serve one in this process).
    #[arg(long)]
    url: Option<String>,
    /// Transport to measure when no --url is given.
    #[arg(long, value_enum, default_value_t = Mode::Http)]
    mode: Mode,
    /// Calls per phase.
    #[arg(long, default_value_t = 20_000)]
    calls: usize,
    /// Calls in flight in the concurrent phase.
    #[arg(long, default_value_t = 16)]
    concurrency: usize,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum Mode {
    /// Streamable HTTP on 127.0.0.1 (in this process).
    Http,
    /// The in-process duplex pipe (no network).
    InProcess,
    /// `chorus-mcp-math --transport stdio`, spawned (the binary next to this one).
    Stdio,
    /// Streamable HTTP on 127.0.0.1 (in this process), called with bare JSON-RPC POSTs
    /// on one kept-alive connection, without rmcp's client: the server's share.
    RawHttp,
}

fn sum_args(i: usize) -> Map<String, Value> {
    match json!({"a": i, "b": 4}) {
        Value::Object(map) => map,
        _ => Map::new(),
    }
}

async fn one_call(client: &McpClient, i: usize) -> anyhow::Result<Duration> {
    let started = Instant::now();
    let output = client.call("sum", sum_args(i)).await?;
    let elapsed = started.elapsed();
    if output.is_error || output.value != json!((i + 4).to_string()) {
        bail!("wrong answer for sum({i}, 4): {output:?}");
    }
    Ok(elapsed)
}

fn report(label: &str, mut latencies: Vec<Duration>, wall: Duration) {
    latencies.sort_unstable();
    let pick = |q: f64| latencies[((latencies.len() - 1) as f64 * q).round() as usize];
    println!(
        "{label:<28} {:>9.0} calls/s   p50 {:>7.3} ms   p99 {:>7.3} ms   ({} calls in {:.2} s)",
        latencies.len() as f64 / wall.as_secs_f64(),
        pick(0.50).as_secs_f64() * 1e3,
        pick(0.99).as_secs_f64() * 1e3,
        latencies.len(),
        wall.as_secs_f64()
    );
}

async fn sequential(client: &McpClient, calls: usize) -> anyhow::Result<()> {
    let mut latencies = Vec::with_capacity(calls);
    let started = Instant::now();
    for i in 0..calls {
        latencies.push(one_call(client, i).await?);
    }
    report("sequential (1 in flight)", latencies, started.elapsed());
    Ok(())
}

async fn concurrent(client: &McpClient, calls: usize, concurrency: usize) -> anyhow::Result<()> {
    let started = Instant::now();
    let workers = (0..concurrency).map(|worker| {
        let client = client.clone();
        tokio::spawn(async move {
            let mut latencies = Vec::new();
            for i in (worker..calls).step_by(concurrency) {
                latencies.push(one_call(&client, i).await?);
            }
            anyhow::Ok(latencies)
        })
    });
    let mut latencies = Vec::with_capacity(calls);
    for worker in workers.collect::<Vec<_>>() {
        latencies.extend(worker.await??);
    }
    report(
        &format!("concurrent ({concurrency} in flight)"),
        latencies,
        started.elapsed(),
    );
    Ok(())
}

/// Bare JSON-RPC `tools/call` POSTs on one kept-alive connection (no rmcp client).
async fn raw_http(url: &str, calls: usize) -> anyhow::Result<()> {
    let http = reqwest::Client::builder()
        .tcp_nodelay(true)
        .pool_max_idle_per_host(1)
        .build()?;
    let call = |i: usize| {
        let body = json!({"jsonrpc": "2.0", "id": i, "method": "tools/call",
            "params": {"name": "sum", "arguments": sum_args(i)}});
        let request = http
            .post(url)
            .header("content-type", "application/json")
            .header("accept", "application/json, text/event-stream")
            .header("mcp-protocol-version", "2025-11-25")
            .body(body.to_string());
        async move {
            let started = Instant::now();
            let response = request.send().await?;
            let bytes = response.bytes().await?;
            let elapsed = started.elapsed();
            let reply: Value = serde_json::from_slice(&bytes)?;
            let want = json!((i + 4).to_string());
            if reply["result"]["structuredContent"]["result"] != want {
                bail!("wrong answer for sum({i}, 4): {reply}");
            }
            anyhow::Ok(elapsed)
        }
    };
    for i in 0..200 {
        call(i).await.context("warm-up")?;
    }
    let mut latencies = Vec::with_capacity(calls);
    let started = Instant::now();
    for i in 0..calls {
        latencies.push(call(i).await?);
    }
    report("raw JSON-RPC POST (1)", latencies, started.elapsed());
    Ok(())
}

/// The math server binary next to this one.
fn math_binary() -> anyhow::Result<std::path::PathBuf> {
    let exe = std::env::current_exe()?;
    Ok(exe.with_file_name("chorus-mcp-math"))
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let cli = Cli::parse();
    let serve = || async {
        spawn_http(
            MathServer::new,
            "chorus-mcp-math",
            &HttpSettings::loopback(0),
        )
        .await
        .context("start math server")
    };
    let (client, _server) = match (&cli.url, cli.mode) {
        (Some(url), _) => (McpClient::connect_http(url).await?, None),
        (None, Mode::InProcess) => (McpClient::in_process(MathServer::new()).await?, None),
        (None, Mode::Stdio) => {
            let args = ["--transport".to_owned(), "stdio".to_owned()];
            (McpClient::spawn_stdio(&math_binary()?, &args).await?, None)
        }
        (None, Mode::RawHttp) => {
            let server = serve().await?;
            println!("chorus-mcp-bench: bare POSTs to {}", server.url);
            return raw_http(&server.url, cli.calls).await;
        }
        (None, Mode::Http) => {
            let server = serve().await?;
            (McpClient::connect_http(&server.url).await?, Some(server))
        }
    };
    println!("chorus-mcp-bench: tool `sum` on {}", client.endpoint());
    for i in 0..200 {
        one_call(&client, i).await.context("warm-up")?;
    }
    sequential(&client, cli.calls).await?;
    concurrent(&client, cli.calls, cli.concurrency.max(1)).await?;
    Ok(())
}
