//! One watcher on the progress topics, shared by every streaming HTTP client of this
//! Chief. It runs only while someone listens: the first `POST /chat/stream` starts it
//! (and waits until it watches, so nothing published after is missed), and it stops
//! when the last listener is gone, so an idle Chief reads nothing it will not use.

use std::sync::Arc;

use chorus_bus::{Bus, BusError, Message, PoolName, Topic};
use tokio::sync::{Mutex, broadcast};

/// Fan-out of progress messages to HTTP clients.
#[derive(Clone)]
pub struct Hub {
    bus: Arc<dyn Bus>,
    topics: Arc<Vec<Topic>>,
    tx: broadcast::Sender<Arc<Message>>,
    /// Whether the watching task runs; taken to start or stop it.
    running: Arc<Mutex<bool>>,
}

impl Hub {
    /// A hub for `plan_ready`, every pool's results, `final_report` and the tasks'
    /// questions (`clarification_needed`) on `bus`.
    pub fn new(bus: Arc<dyn Bus>, pools: &[PoolName]) -> Hub {
        let mut topics = vec![
            Topic::plan_ready(),
            Topic::final_report(),
            Topic::clarification_needed(),
        ];
        topics.extend(pools.iter().map(|p| Topic::pool_result(p)));
        Hub::on(bus, topics)
    }

    /// A hub for `topics` on `bus` (the web view's live feed watches more of them).
    pub fn on(bus: Arc<dyn Bus>, topics: Vec<Topic>) -> Hub {
        let (tx, _) = broadcast::channel(4096);
        Hub {
            bus,
            topics: Arc::new(topics),
            tx,
            running: Arc::new(Mutex::new(false)),
        }
    }

    /// A receiver of every progress message published from now on.
    pub async fn subscribe(&self) -> Result<broadcast::Receiver<Arc<Message>>, BusError> {
        let mut running = self.running.lock().await;
        let rx = self.tx.subscribe();
        if !*running {
            let watcher = self.bus.watch(&self.topics).await?;
            *running = true;
            tokio::spawn(self.clone().forward(watcher));
        }
        Ok(rx)
    }

    /// Forwards batches until no listener is left.
    async fn forward(self, mut watcher: Box<dyn chorus_bus::Watcher>) {
        loop {
            match watcher.next_batch().await {
                Ok(mut batch) => {
                    // One read spans several streams; restore the order of events.
                    batch.sort_by_key(|m| m.timestamp_us);
                    for m in batch {
                        let _ = self.tx.send(Arc::new(m));
                    }
                }
                Err(e) => {
                    tracing::warn!(error = %e, "progress watch failed; retrying");
                    tokio::time::sleep(std::time::Duration::from_millis(200)).await;
                }
            }
            let mut running = self.running.lock().await;
            if self.tx.receiver_count() == 0 {
                *running = false;
                return;
            }
        }
    }
}
