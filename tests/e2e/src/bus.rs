//! Bus helpers: a task's messages on a topic, waiting for them, asking, the
//! Pub/Sub log of a topic, dead letters and final reports.

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use chorus_bus::{Bus, Message, Topic};

/// Messages of `task` on `topic` so far (from the stream's history).
pub async fn of_task(bus: &dyn Bus, topic: &Topic, task: &str) -> Vec<Message> {
    bus.recent(topic, 100_000)
        .await
        .expect("history")
        .into_iter()
        .filter(|m| m.task_id == task)
        .collect()
}

/// Waits (up to `within`) until `task` has a message on `topic`; returns them all
/// (none when the time ran out).
pub async fn wait_on(bus: &dyn Bus, topic: &Topic, task: &str, within: Duration) -> Vec<Message> {
    let start = Instant::now();
    loop {
        let got = of_task(bus, topic, task).await;
        if !got.is_empty() || start.elapsed() > within {
            return got;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// Asks `query` (a full envelope, no context) and waits up to 20 s for its report;
/// returns the task id and the report. Panics with the query when none came.
pub async fn ask_for(bus: &dyn Bus, query: &str) -> (String, chorus_bus::FinalReport) {
    let (task, r) = chorus_core::client::ask(
        bus,
        query,
        chorus_bus::TaskContext::default(),
        Duration::from_secs(20),
        |_| {},
    )
    .await
    .unwrap_or_else(|e| panic!("{query}: {e}"));
    (task.to_string(), r)
}

/// Every message heard on a topic's Pub/Sub channel from its start on — the stream's
/// mirror and the announcements that have no stream entry (the verdict FINISHED) —
/// collected in the background until dropped.
pub struct ChannelLog {
    heard: std::sync::Arc<std::sync::Mutex<Vec<Message>>>,
    task: tokio::task::JoinHandle<()>,
}

impl ChannelLog {
    /// Subscribes to `topic`'s channel on `bus`.
    pub async fn start(bus: &dyn Bus, topic: Topic) -> ChannelLog {
        let mut feed = bus.ingress(&topic).await.expect("subscribe");
        let heard = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
        let into = heard.clone();
        let task = tokio::spawn(async move {
            while let Some(payload) = feed.next().await {
                if let Ok(d) = Message::decode_on(&topic, &payload, None) {
                    into.lock().expect("lock").push(d.into_message());
                }
            }
        });
        ChannelLog { heard, task }
    }

    /// The messages of `task` heard so far, oldest first.
    pub fn of_task(&self, task: &str) -> Vec<Message> {
        self.heard
            .lock()
            .expect("lock")
            .iter()
            .filter(|m| m.task_id == task)
            .cloned()
            .collect()
    }

    /// Waits (up to `within`) until `done` holds for `task`'s messages; returns them.
    pub async fn wait_for(
        &self,
        task: &str,
        within: Duration,
        done: impl Fn(&[Message]) -> bool,
    ) -> Vec<Message> {
        let start = Instant::now();
        loop {
            let got = self.of_task(task);
            if done(&got) || start.elapsed() > within {
                return got;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }
}

impl Drop for ChannelLog {
    fn drop(&mut self) {
        self.task.abort();
    }
}

impl ChannelLog {
    /// The verdicts heard for `task` on a `verification_done` log, oldest first, once
    /// the last one is FINISHED (every task's last verdict) or 5 s passed.
    pub async fn verdicts(&self, task: &str) -> Vec<chorus_bus::VerificationDone> {
        self.wait_for(task, Duration::from_secs(5), finished)
            .await
            .into_iter()
            .map(|m| match m.payload {
                chorus_bus::Payload::VerificationDone(v) => v,
                other => panic!("not a verdict: {other:?}"),
            })
            .collect()
    }
}

/// Whether the last of `msgs` is a verdict FINISHED.
fn finished(msgs: &[Message]) -> bool {
    matches!(
        msgs.last().map(|m| &m.payload),
        Some(chorus_bus::Payload::VerificationDone(v)) if v.verdict == chorus_bus::Verdict::Finished
    )
}

/// The dead letters on `dead_letter` so far, oldest first.
pub async fn dead_letters(bus: &dyn Bus) -> Vec<chorus_bus::DeadLetter> {
    bus.recent(&Topic::dead_letter(), 100_000)
        .await
        .expect("dead letters")
        .into_iter()
        .filter_map(|m| match m.payload {
            chorus_bus::Payload::DeadLetter(d) => Some(d),
            _ => None,
        })
        .collect()
}

/// The final reports on `final_report` so far, by task id (retried while the bus is
/// failing over or resharding).
pub async fn final_reports_by_task(
    bus: &dyn Bus,
) -> BTreeMap<String, Vec<chorus_bus::FinalReport>> {
    let mut by_task: BTreeMap<String, Vec<chorus_bus::FinalReport>> = BTreeMap::new();
    let history = loop {
        match bus.recent(&Topic::final_report(), 100_000).await {
            Ok(h) => break h,
            Err(_) => tokio::time::sleep(Duration::from_millis(200)).await,
        }
    };
    for m in history {
        if let chorus_bus::Payload::FinalReport(r) = m.payload {
            by_task.entry(m.task_id.to_string()).or_default().push(r);
        }
    }
    by_task
}
