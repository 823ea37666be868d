//! Every math tool, success and failure, through McpClient over stdio (the real
//! binary), Streamable HTTP and the in-process pipe.

mod support;

use chorus_mcp_common::McpClient;
use chorus_mcp_math::MathServer;
use support::*;

const TOOLS: [&str; 13] = [
    "sum", "subtract", "multiply", "divide", "power", "sqrt", "root", "modulo", "abs", "round",
    "percent", "min", "max",
];

async fn assert_lists_every_tool(client: &McpClient) {
    for tool in testing::assert_lists(client, &TOOLS).await {
        assert!(tool.input_schema["required"].is_array(), "{}", tool.name);
    }
}

/// Every tool listed, every success and every error case, through `client`.
async fn every_case(client: McpClient) {
    assert_lists_every_tool(&client).await;
    assert_success_cases(&client).await;
    assert_error_cases(&client).await;
}

#[tokio::test]
async fn stdio_http_and_in_process_clients_list_every_tool_and_answer_every_case() {
    let binary = math_binary();
    testing::on_every_transport(binary, MathServer::new, "chorus-mcp-math", every_case).await;
}

#[tokio::test]
async fn concurrent_calls_on_clones_of_one_client_all_get_their_own_answer() {
    let server = http_server().await;
    let client = McpClient::connect_http(&server.url).await.expect("connect");
    let calls = (0..64u64).map(|i| {
        let client = client.clone();
        tokio::spawn(async move {
            let output = call(&client, "multiply", serde_json::json!({"a": i, "b": 3})).await;
            (i, output.value)
        })
    });
    for call in calls {
        let (i, value) = call.await.expect("task");
        assert_eq!(value, serde_json::json!((i * 3).to_string()));
    }
}

#[tokio::test]
async fn stdio_client_serves_concurrent_calls() {
    let client = stdio_client().await;
    let calls = (0..32u64).map(|i| {
        let client = client.clone();
        tokio::spawn(async move {
            (
                i,
                call(&client, "sum", serde_json::json!({"a": i, "b": i}))
                    .await
                    .value,
            )
        })
    });
    for call in calls {
        let (i, value) = call.await.expect("task");
        assert_eq!(value, serde_json::json!((i * 2).to_string()));
    }
}

#[tokio::test]
async fn a_stdio_client_whose_server_died_reconnects_on_a_later_call() {
    let dir = std::env::temp_dir().join(format!("chorus-stdio-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let pid_file = dir.join("server.pid");
    // The server writes its pid where the test can find it, then becomes the server.
    let script = format!(
        "echo $$ > '{}'; exec '{}' --transport stdio",
        pid_file.display(),
        math_binary().display()
    );
    let client = McpClient::spawn_stdio(std::path::Path::new("sh"), &["-c".into(), script])
        .await
        .expect("spawn")
        .with_call_timeout(std::time::Duration::from_secs(5));
    let sum = serde_json::json!({"a": 2, "b": 4});
    assert_eq!(
        call(&client, "sum", sum.clone()).await.value,
        serde_json::json!("6")
    );

    let pid = std::fs::read_to_string(&pid_file).expect("pid file");
    let killed = std::process::Command::new("kill")
        .args(["-KILL", pid.trim()])
        .status()
        .expect("kill");
    assert!(killed.success());
    tokio::time::sleep(std::time::Duration::from_millis(200)).await;

    // The call that meets the dead server fails as retryable; a later call runs on
    // a new session with a new server.
    let mut answer = None;
    for _ in 0..3 {
        match client.call("sum", testing::args(sum.clone())).await {
            Ok(output) => {
                answer = Some(output.value);
                break;
            }
            Err(e) => assert!(e.is_retryable(), "{e:?}"),
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(answer, Some(serde_json::json!("6")));
}
