//! A Streamable HTTP server with a bearer token: a client without it (or with a wrong
//! one) is refused with 401 and `WWW-Authenticate: Bearer`, `/healthz` stays open, and a
//! client sending it (given, or registered for the URL) works; no error names the token.

use chorus_mcp_common::args::Args;
use chorus_mcp_common::token::use_token_for;
use chorus_mcp_common::{BearerToken, HttpSettings, McpClient, ToolDef, ToolReply, spawn_http};

type Run = fn(&Args) -> Result<ToolReply, String>;

fn registry() -> &'static [(ToolDef, Run)] {
    &[]
}

chorus_mcp_common::tool_server!(
    /// A server with no tools: enough for the handshake.
    Empty,
    server_name: "empty",
    instructions: "none",
    registry: registry,
);

const SECRET: &str = "mcp-secret-token-0815";

#[tokio::test]
async fn the_endpoint_needs_the_token_and_health_does_not() {
    let settings = HttpSettings {
        token: BearerToken::new(SECRET),
        ..HttpSettings::loopback(0)
    };
    assert!(!format!("{settings:?}").contains(SECRET));
    let server = spawn_http(Empty::new, "empty", &settings)
        .await
        .expect("bind");
    let http = reqwest::Client::new();

    let health = http
        .get(format!("http://{}/healthz", server.local_addr))
        .send()
        .await
        .expect("healthz");
    assert_eq!(health.status(), 200);
    for auth in [None, Some("Bearer wrong"), Some(SECRET)] {
        let mut request = http
            .post(&server.url)
            .header("content-type", "application/json")
            .header("accept", "application/json, text/event-stream")
            .body(r#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#);
        if let Some(a) = auth {
            request = request.header("authorization", a);
        }
        let response = request.send().await.expect("post");
        assert_eq!(response.status(), 401, "{auth:?}");
        assert_eq!(response.headers()["www-authenticate"], "Bearer");
    }

    let refused = McpClient::connect_http(&server.url)
        .await
        .expect_err("no token");
    assert!(!refused.to_string().contains(SECRET), "{refused}");
    let wrong = McpClient::connect_http_with_token(&server.url, BearerToken::new("nope"))
        .await
        .expect_err("a wrong token");
    assert!(!wrong.to_string().contains("nope"), "{wrong}");

    let client = McpClient::connect_http_with_token(&server.url, BearerToken::new(SECRET))
        .await
        .expect("with the token");
    assert!(client.list_tools().await.expect("tools").is_empty());
    assert!(!format!("{client:?}").contains(SECRET));

    use_token_for(&server.url, BearerToken::new(SECRET).unwrap());
    let registered = McpClient::connect_http(&server.url)
        .await
        .expect("with the registered token");
    assert!(registered.list_tools().await.expect("tools").is_empty());
}
