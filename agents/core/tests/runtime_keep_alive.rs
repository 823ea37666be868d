//! The runtime loop keeps a long-running delivery alive: two replicas of a role whose
//! handler takes four claim idle times each handle every message once, where without
//! the keep-alive the idle entries would be claimed by the other replica and run twice.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

mod common;

use async_trait::async_trait;
use chorus_bus::*;
use chorus_core::runtime::{HandleError, Handler, Shutdown, run_loop};

/// Counts the deliveries it handled per task, taking `takes` for each.
struct Slow {
    takes: Duration,
    handled: Mutex<HashMap<String, u32>>,
}

#[async_trait]
impl Handler for Slow {
    async fn handle(&self, delivery: &Delivery) -> Result<(), HandleError> {
        tokio::time::sleep(self.takes).await;
        *self
            .handled
            .lock()
            .unwrap()
            .entry(delivery.message.task_id.to_string())
            .or_default() += 1;
        Ok(())
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_handler_slower_than_the_claim_idle_time_runs_once() {
    let claim_idle = Duration::from_millis(150);
    let bus = MemoryBus::new(BusSettings {
        block_ms: 50,
        claim_idle_ms: claim_idle.as_millis() as u64,
        ..BusSettings::default()
    });
    let topic = Topic::pool_task("math");
    let handler = Arc::new(Slow {
        takes: claim_idle * 4,
        handled: Mutex::new(HashMap::new()),
    });
    let (stop, shutdown) = Shutdown::new();
    let mut loops = Vec::new();
    for _ in 0..2 {
        let sub = Subscription::new("math", vec![topic.clone()]);
        let bus: Arc<dyn Bus> = Arc::new(bus.clone());
        let handler: Arc<dyn Handler> = handler.clone();
        loops.push(tokio::spawn(run_loop(
            bus,
            sub,
            handler,
            16,
            false,
            shutdown.clone(),
        )));
    }
    let tasks: Vec<String> = (0..6).map(|i| format!("slow-{i}")).collect();
    let msgs: Vec<Message> = tasks.iter().map(|t| common::math_step(t)).collect();
    bus.publish_many(&msgs).await.unwrap();
    // Every message handled and acked (nothing pending), then a little longer for any
    // second delivery to show.
    let until = tokio::time::Instant::now() + Duration::from_secs(10);
    while (handler.handled.lock().unwrap().len() < tasks.len() || bus.pending(&topic, "math") > 0)
        && tokio::time::Instant::now() < until
    {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    tokio::time::sleep(claim_idle * 2).await;
    stop.trigger();
    for l in loops {
        l.await.unwrap().unwrap();
    }
    let handled = handler.handled.lock().unwrap().clone();
    for task in &tasks {
        assert_eq!(handled.get(task), Some(&1), "{task}: {handled:?}");
    }
    assert_eq!(bus.pending(&topic, "math"), 0);
}
