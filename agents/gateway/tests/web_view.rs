//! The web view's routes, in process: the gateway's router in front of every role on the
//! in-memory bus. The page and every asset it names are served with their types and a
//! same-origin policy, also with tokens on (while the JSON routes then answer 401);
//! after a task, `GET /tasks` lists it done with its latency, `GET /tasks/{id}/hops`
//! has the rows `chorus trace` prints, `GET /agents` the live pools and their tools,
//! and `GET /events` streamed the task's messages as they were published. (Dead letters
//! need a real consumer giving up: tests/e2e/tests/web_ui.rs.)

mod support;

use std::time::Duration;

use axum::body::Body;
use axum::http::Request;
use serde_json::Value;
use support::System;

fn get(uri: &str) -> Request<Body> {
    Request::builder()
        .uri(uri)
        .body(Body::empty())
        .expect("request")
}

/// Every `/ui/…` path `text` names in a `src`, `href` or `from` (the page and modules).
fn named_assets(text: &str) -> Vec<String> {
    text.split('"')
        .filter(|s| s.starts_with("/ui/"))
        .map(str::to_owned)
        .collect()
}

#[tokio::test]
async fn the_page_and_every_asset_it_names_are_served_with_their_type_and_policy() {
    let system = System::bare().await;
    let (status, headers, page) = system.send(get("/ui")).await;
    assert_eq!(status, 200);
    assert_eq!(headers["content-type"], "text/html; charset=utf-8");
    let policy = headers["content-security-policy"].to_str().expect("policy");
    assert!(policy.starts_with("default-src 'self'"), "{policy}");
    let page = String::from_utf8(page).expect("utf-8");
    let mut pending = named_assets(&page);
    let mut seen = Vec::new();
    while let Some(path) = pending.pop() {
        if seen.contains(&path) {
            continue;
        }
        let (status, headers, body) = system.send(get(&path)).await;
        assert_eq!(status, 200, "{path}");
        let kind = headers["content-type"].to_str().expect("type");
        let expected = if path.ends_with(".css") {
            "text/css"
        } else {
            "text/javascript"
        };
        assert!(kind.starts_with(expected), "{path}: {kind}");
        pending.extend(named_assets(&String::from_utf8_lossy(&body)));
        seen.push(path);
    }
    seen.sort();
    assert_eq!(
        seen,
        ["/ui/app.css", "/ui/app.js", "/ui/common.js", "/ui/graph.js"]
    );
}

#[tokio::test]
async fn with_tokens_on_the_assets_stay_open_and_the_view_routes_ask_for_the_token() {
    let path = std::env::temp_dir().join(format!("chorus-view-tokens-{}", std::process::id()));
    std::fs::write(&path, "view-token-1\n").expect("tokens file");
    let mut settings = support::defaults();
    settings.http.tokens_file = Some(path.display().to_string());
    let system = System::start_with(settings).await;
    std::fs::remove_file(&path).ok();
    for path in [
        "/ui",
        "/ui/app.js",
        "/ui/common.js",
        "/ui/graph.js",
        "/ui/app.css",
    ] {
        assert_eq!(system.send(get(path)).await.0, 200, "{path}");
    }
    for path in [
        "/tasks",
        "/tasks/t/hops",
        "/agents",
        "/dead-letters",
        "/events",
    ] {
        let (status, headers, _) = system.send(get(path)).await;
        assert_eq!(status, 401, "{path}");
        assert_eq!(headers["www-authenticate"], "Bearer", "{path}");
    }
    let request = Request::builder()
        .uri("/agents")
        .header("authorization", "Bearer view-token-1")
        .body(Body::empty())
        .expect("request");
    assert_eq!(system.send(request).await.0, 200);
}

#[tokio::test]
async fn a_task_shows_in_the_list_its_hops_and_the_live_feed_beside_the_agents() {
    let system = System::start().await;
    let mut feed = system.events(get("/events")).await;
    let (status, accepted) = system
        .call(
            "POST",
            "/tasks",
            serde_json::json!({"query": "2+4", "task_id": "v-1"}),
        )
        .await;
    assert_eq!(status, 202, "{accepted}");
    let done = system.poll("v-1", |s| s["state"] == "done").await;
    assert_eq!(done["report"]["status"], "completed", "{done}");

    // The feed streamed the task's messages in order, each with its row and payload.
    let mut topics = Vec::new();
    while !topics.contains(&"final_report".to_owned()) {
        let (name, data) = feed
            .try_next(Duration::from_secs(5))
            .await
            .expect("a message in time")
            .expect("the feed goes on");
        assert_eq!(name, "message");
        if data["task_id"] == "v-1" {
            topics.push(data["topic"].as_str().expect("topic").to_owned());
        }
    }
    for topic in ["task_available", "plan_ready", "math_task", "math_result"] {
        assert!(topics.contains(&topic.to_owned()), "{topic} in {topics:?}");
    }

    let (status, list) = system.call("GET", "/tasks?limit=10", None).await;
    assert_eq!(status, 200, "{list}");
    let task = &list["tasks"][0];
    assert_eq!(task["task_id"], "v-1", "{list}");
    assert_eq!(task["state"], "done");
    assert_eq!(task["status"], "completed");
    assert_eq!(task["summary"], "2 + 4 = 6");
    assert!(
        task["latency_ms"].as_f64().is_some_and(|ms| ms > 0.0),
        "{task}"
    );

    let (status, hops) = system.call("GET", "/tasks/v-1/hops", None).await;
    assert_eq!(status, 200, "{hops}");
    let rows = hops["hops"].as_array().expect("rows");
    assert_eq!(rows[0]["topic"], "task_available");
    assert_eq!(rows[0]["since_start_ms"], 0.0);
    let step = rows
        .iter()
        .find(|r| r["topic"] == "math_task")
        .expect("math_task");
    assert_eq!(step["summary"], "s1 sum a=2 b=4");
    assert_eq!(step["to"], "pool-math");
    assert_eq!(step["payload"]["tool"], "sum");
    let last = rows.last().expect("a last row");
    assert_eq!(last["topic"], "final_report");
    assert_eq!(last["since_start_ms"], hops["span_ms"]);

    let (status, agents) = system.call("GET", "/agents", None).await;
    assert_eq!(status, 200, "{agents}");
    let math = agents["agents"]
        .as_array()
        .and_then(|a| a.iter().find(|a| a["pool"] == "math"))
        .expect("a math agent");
    assert!(
        math["tools"]
            .as_array()
            .is_some_and(|t| t.contains(&Value::from("sum")))
    );
    assert!(
        math["age_ms"].as_u64().is_some_and(|ms| ms < 10_000),
        "{math}"
    );

    let (status, unknown) = system.call("GET", "/tasks/nope/hops", None).await;
    assert_eq!(
        (status, &unknown["error"]["code"]),
        (404, &Value::from("not_found"))
    );
    let (status, bad) = system.call("GET", "/tasks?limit=many", None).await;
    assert_eq!(
        (status, &bad["error"]["code"]),
        (400, &Value::from("invalid_query"))
    );
}
