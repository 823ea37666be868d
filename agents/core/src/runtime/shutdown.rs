//! Stopping: the shutdown signal every loop of a process holds, and the OS signals
//! (Ctrl-C, SIGTERM) that ask a `chorus` command to stop.

use tokio::sync::watch;

/// A shutdown signal shared by every loop of a process.
#[derive(Clone)]
pub struct Shutdown {
    rx: watch::Receiver<bool>,
}

/// Triggers a [`Shutdown`].
pub struct ShutdownTrigger {
    tx: watch::Sender<bool>,
}

impl Shutdown {
    /// A new signal and its trigger.
    pub fn new() -> (ShutdownTrigger, Shutdown) {
        let (tx, rx) = watch::channel(false);
        (ShutdownTrigger { tx }, Shutdown { rx })
    }

    /// Whether shutdown was requested.
    pub fn is_requested(&self) -> bool {
        *self.rx.borrow()
    }

    /// Resolves when shutdown is requested.
    pub async fn requested(&mut self) {
        while !*self.rx.borrow() {
            if self.rx.changed().await.is_err() {
                return;
            }
        }
    }
}

impl ShutdownTrigger {
    /// Requests shutdown of every loop holding the signal.
    pub fn trigger(&self) {
        let _ = self.tx.send(true);
    }
}

/// Resolves on Ctrl-C or SIGTERM: how every `chorus` command is asked to stop.
pub async fn stop_signal() {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        if let Ok(mut term) = signal(SignalKind::terminate()) {
            tokio::select! {
                _ = tokio::signal::ctrl_c() => {}
                _ = term.recv() => {}
            }
            return;
        }
    }
    let _ = tokio::signal::ctrl_c().await;
}
