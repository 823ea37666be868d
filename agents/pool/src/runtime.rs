//! The tokio runtime of a role process.

use chorus_core::settings::{AgentSettings, RuntimeFlavor};

/// The process's tokio runtime, as `agents.runtime` and `agents.worker_threads` say:
/// with `current_thread` (the default) every task runs on the calling thread; with
/// `multi_thread` on `worker_threads` workers, or with 0 on tokio's own choice,
/// `TOKIO_WORKER_THREADS` or one per core. Each worker costs a thread and its allocator
/// heap (docs/performance.md, "Where the memory goes" and "Memory per process, the heap
/// and the runtime").
pub fn build(agents: &AgentSettings) -> std::io::Result<tokio::runtime::Runtime> {
    let mut builder = match agents.runtime {
        RuntimeFlavor::CurrentThread => tokio::runtime::Builder::new_current_thread(),
        RuntimeFlavor::MultiThread => {
            let mut builder = tokio::runtime::Builder::new_multi_thread();
            if agents.worker_threads > 0 {
                builder.worker_threads(agents.worker_threads);
            }
            builder
        }
    };
    builder.enable_all().build()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The thread a task spawned on the runtime `agents` builds runs on.
    fn spawned_on(agents: &AgentSettings) -> std::thread::ThreadId {
        let runtime = build(agents).expect("runtime");
        runtime.block_on(async {
            tokio::spawn(async { std::thread::current().id() })
                .await
                .expect("joined")
        })
    }

    #[test]
    fn current_thread_runs_spawned_tasks_on_the_calling_thread() {
        let agents = AgentSettings {
            runtime: RuntimeFlavor::CurrentThread,
            ..AgentSettings::default()
        };
        assert_eq!(spawned_on(&agents), std::thread::current().id());
    }

    #[test]
    fn multi_thread_runs_spawned_tasks_on_a_worker() {
        let agents = AgentSettings {
            runtime: RuntimeFlavor::MultiThread,
            worker_threads: 1,
            ..AgentSettings::default()
        };
        assert_ne!(spawned_on(&agents), std::thread::current().id());
    }
}
