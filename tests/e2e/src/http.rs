//! HTTP helpers: polling a task's state and reading a Server-Sent Events body.

use std::time::{Duration, Instant};

/// Polls `GET {url}/tasks/{task}` (each answer 200) every 20 ms until `done` holds for
/// its state or 20 s pass, and returns the last state.
pub async fn poll_task(
    http: &reqwest::Client,
    url: &str,
    task: &str,
    done: impl Fn(&serde_json::Value) -> bool,
) -> serde_json::Value {
    let start = Instant::now();
    loop {
        let r = http
            .get(format!("{url}/tasks/{task}"))
            .send()
            .await
            .expect("get");
        assert_eq!(r.status(), 200);
        let state: serde_json::Value = r.json().await.expect("json");
        if done(&state) || start.elapsed() > Duration::from_secs(20) {
            return state;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// Reads a Server-Sent Events body to its end (or 20 s) and returns the (event, data)
/// pairs, data parsed as JSON.
pub async fn read_events(response: reqwest::Response) -> Vec<(String, serde_json::Value)> {
    use futures::StreamExt;
    let mut body = response.bytes_stream();
    let mut reader = chorus_testkit::sse::SseReader::new();
    let mut events = Vec::new();
    let read = async {
        while let Some(chunk) = body.next().await {
            reader.push(&chunk.expect("chunk"));
            while let Some(event) = reader.next_event() {
                let data = serde_json::from_str(&event.data).expect("json data");
                events.push((event.name, data));
            }
        }
    };
    let _ = tokio::time::timeout(Duration::from_secs(20), read).await;
    events
}
