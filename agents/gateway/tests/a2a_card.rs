//! The A2A agent card, in process: its fields, the JSON-RPC interface's URL from the
//! Host header, skills from the live registry with examples (or the configured pools
//! when no agent is live), and caching.

mod support;

use axum::body::Body;
use axum::http::Request;
use serde_json::{Value, json};
use support::System;

fn card_request(host: &str, etag: Option<&str>) -> Request<Body> {
    let mut request = Request::builder()
        .uri("/.well-known/agent-card.json")
        .header("host", host);
    if let Some(tag) = etag {
        request = request.header("if-none-match", tag);
    }
    request.body(Body::empty()).expect("request")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_card_names_the_json_rpc_interface_and_a_skill_per_live_pool_with_examples() {
    let system = System::start().await;
    let (status, headers, body) = system.send(card_request("chorus.test:8080", None)).await;
    assert_eq!(status, 200);
    let card: Value = serde_json::from_slice(&body).expect("JSON card");
    assert_eq!(card["name"], "Chorus");
    assert_eq!(card["version"], env!("CARGO_PKG_VERSION"));
    assert!(card["description"].as_str().unwrap().contains("contextId"));
    assert_eq!(
        card["supportedInterfaces"],
        json!([{"url": "http://chorus.test:8080/a2a", "protocolBinding": "JSONRPC", "protocolVersion": "1.0"}])
    );
    assert_eq!(
        card["capabilities"],
        json!({"streaming": true, "pushNotifications": false, "extendedAgentCard": false})
    );
    assert_eq!(card["defaultInputModes"], json!(["text/plain"]));
    assert_eq!(
        card["defaultOutputModes"],
        json!(["text/plain", "application/json"])
    );
    let skills = card["skills"].as_array().expect("skills");
    let ids: Vec<&str> = skills.iter().map(|s| s["id"].as_str().unwrap()).collect();
    assert_eq!(ids, ["date", "math"]);
    let math = &skills[1];
    assert_eq!(math["name"], "Arithmetic");
    let tags: Vec<&str> = math["tags"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t.as_str().unwrap())
        .collect();
    assert!(
        tags.contains(&"math") && tags.contains(&"sum") && tags.contains(&"sqrt"),
        "{tags:?}"
    );
    assert!(
        math["examples"]
            .as_array()
            .unwrap()
            .contains(&json!("tính 2+4 = ??"))
    );
    let date = &skills[0];
    assert!(
        date["examples"]
            .as_array()
            .unwrap()
            .contains(&json!("what weekday is 2026-12-25"))
    );
    assert!(date["description"].as_str().unwrap().contains("weekday"));

    let etag = headers["etag"].to_str().expect("etag").to_owned();
    assert!(
        headers["cache-control"]
            .to_str()
            .unwrap()
            .contains("max-age=10")
    );
    let (status, _, body) = system
        .send(card_request("chorus.test:8080", Some(&etag)))
        .await;
    assert_eq!((status, body.len()), (304, 0));
    let (status, _, _) = system.send(card_request("elsewhere:1", Some(&etag))).await;
    assert_eq!(status, 200, "another host is another card");
}

#[tokio::test]
async fn with_no_live_agent_the_card_lists_the_configured_pools_and_their_contract_tools() {
    let system = System::bare().await;
    let request = Request::builder()
        .uri("/.well-known/agent-card.json")
        .header("host", "10.0.0.5:80")
        .header("x-forwarded-host", "agents.example.org")
        .header("x-forwarded-proto", "https")
        .body(Body::empty())
        .unwrap();
    let (status, _, body) = system.send(request).await;
    assert_eq!(status, 200);
    let card: Value = serde_json::from_slice(&body).unwrap();
    assert_eq!(
        card["supportedInterfaces"][0]["url"],
        "https://agents.example.org/a2a"
    );
    let skills = card["skills"].as_array().unwrap();
    assert_eq!(skills.len(), 2);
    assert!(
        skills[0]["tags"]
            .as_array()
            .unwrap()
            .contains(&json!("iso_week"))
    );
    assert!(
        skills[1]["tags"]
            .as_array()
            .unwrap()
            .contains(&json!("percent"))
    );
}
