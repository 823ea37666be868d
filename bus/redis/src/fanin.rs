//! Reading several streams of a Cluster at once. One blocking XREAD or XREADGROUP names
//! streams of one slot only, and holds its connection while it waits: so each stream
//! gets a reader task with a connection of its own, and the readers hand their batches
//! to one channel that `next_batch` waits on. The tasks end when the fan-in is dropped
//! (what a cancelled XREADGROUP had read stays pending and is claimed after the idle
//! time, as after a crash).

use std::future::Future;

use tokio::sync::mpsc;
use tokio::task::JoinHandle;
use tokio::time::Instant;

/// Batches from per-stream reader tasks.
pub(crate) struct FanIn<T> {
    rx: mpsc::Receiver<Vec<T>>,
    tx: mpsc::Sender<Vec<T>>,
    tasks: Vec<JoinHandle<()>>,
}

impl<T: Send + 'static> FanIn<T> {
    /// An empty fan-in.
    pub(crate) fn new() -> Self {
        let (tx, rx) = mpsc::channel(16);
        FanIn {
            rx,
            tx,
            tasks: Vec::new(),
        }
    }

    /// Starts a reader: `reader` gets the sender and runs until it fails to send.
    pub(crate) fn spawn<F, Fut>(&mut self, reader: F)
    where
        F: FnOnce(mpsc::Sender<Vec<T>>) -> Fut,
        Fut: Future<Output = ()> + Send + 'static,
    {
        self.tasks.push(tokio::spawn(reader(self.tx.clone())));
    }

    /// What arrived by `deadline`: the first batch, plus any already waiting, up to
    /// about `max` items; empty when nothing came.
    pub(crate) async fn next_until(&mut self, deadline: Instant, max: usize) -> Vec<T> {
        let mut out = match tokio::time::timeout_at(deadline, self.rx.recv()).await {
            Ok(Some(batch)) => batch,
            _ => return Vec::new(),
        };
        while out.len() < max {
            match self.rx.try_recv() {
                Ok(batch) => out.extend(batch),
                Err(_) => break,
            }
        }
        out
    }
}

impl<T> Drop for FanIn<T> {
    fn drop(&mut self) {
        for task in &self.tasks {
            task.abort();
        }
    }
}
