//! The tokio runtime of a role process.

/// The process's tokio runtime: `worker_threads` worker threads (`agents.worker_threads`),
/// or with 0 (the default) tokio's own choice, `TOKIO_WORKER_THREADS` or one per core.
/// Each worker costs a thread and its allocator heap (docs/performance.md, "Where the
/// memory goes").
pub fn build(worker_threads: usize) -> std::io::Result<tokio::runtime::Runtime> {
    let mut builder = tokio::runtime::Builder::new_multi_thread();
    builder.enable_all();
    if worker_threads > 0 {
        builder.worker_threads(worker_threads);
    }
    builder.build()
}
