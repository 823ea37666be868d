//! A shared connection made again when it stops working: the one mechanism behind the
//! Sentinel write connection (`sentinel.rs`) and the Cluster one (`cluster.rs`). A
//! command runs on the current connection; an error that says the connection, not the
//! command, failed ([`is_connection_error`]: I/O, a timeout, CLUSTERDOWN, READONLY, …)
//! counts against that connection, and once it has failed [`Source::forget_after`]
//! times it is replaced: in Sentinel mode forgotten at once (the primary is gone or
//! demoted; also when the sentinels announce a new primary), so the next command makes
//! a new one; on a Cluster a new one is made in the background while commands go on on
//! the old one (most of whose nodes may still answer), and takes its place once made.
//! The failed command's error is still returned (`retry_writes` sends it again). Each
//! connection has a generation, greater for each new one, so a `WAIT` goes to the
//! connection that wrote ([`Renewing::at`]: the last one replaced is kept for that, so
//! the publishes in flight when a connection is replaced need not fail), and a late
//! failure on a replaced connection does not count against the one that replaced it.

use std::future::Future;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};

use redis::aio::ConnectionLike;
use redis::{Cmd, ErrorKind, Pipeline, RedisError, RedisFuture, Value};

use super::is_connection_error;

/// What a [`Renewing`] connection is made from, and when to give one up.
pub(crate) trait Source: Send + Sync + 'static {
    /// The connection made.
    type Conn: ConnectionLike + Clone + Send + Sync + 'static;
    /// What it connects to, for logs ("cluster", "sentinel").
    const KIND: &'static str;

    /// Makes a new connection.
    fn connect(&self) -> impl Future<Output = Result<Self::Conn, RedisError>> + Send;

    /// A count that grows whenever every connection made before may be stale (in
    /// Sentinel mode, the primary switches announced): a connection made at a smaller
    /// count is forgotten at its next command. Never grows by default.
    fn mark(&self) -> u64 {
        0
    }

    /// How many failures of one connection make it replaced.
    fn forget_after(&self) -> u32;

    /// Whether a failing connection is kept for commands until its replacement is made
    /// (in the background), rather than forgotten at once.
    fn replace_in_background(&self) -> bool {
        false
    }
}

/// One connection made by the source.
struct Current<C> {
    generation: u64,
    /// [`Source::mark`] when it was made.
    mark: u64,
    /// Connection errors so far.
    failures: u32,
    /// Whether its replacement is being made in the background.
    replacing: bool,
    conn: C,
}

/// The connections of a [`Renewing`].
struct Connections<C> {
    /// The current one (none until the next command makes one).
    current: Option<Current<C>>,
    /// The last one forgotten, and its generation: the `WAIT` of a publish that wrote
    /// on it still goes there.
    retired: Option<(u64, C)>,
}

impl<C> Connections<C> {
    /// Forgets the current connection, keeping it as the retired one.
    fn retire(&mut self) {
        if let Some(c) = self.current.take() {
            self.retired = Some((c.generation, c.conn));
        }
    }
}

struct Inner<S: Source> {
    source: S,
    connections: Mutex<Connections<S::Conn>>,
    /// Held while connecting: one new connection at a time.
    connecting: tokio::sync::Mutex<()>,
    /// The generation of the last connection made.
    made: AtomicU64,
}

/// A connection made again from its [`Source`] once it has failed often enough (see the
/// module's doc). Clones share the connection.
pub(crate) struct Renewing<S: Source> {
    inner: Arc<Inner<S>>,
}

impl<S: Source> Clone for Renewing<S> {
    fn clone(&self) -> Self {
        Renewing {
            inner: self.inner.clone(),
        }
    }
}

impl<S: Source> Renewing<S> {
    /// Makes the first connection from `source`.
    pub(crate) async fn connect(source: S) -> Result<Self, RedisError> {
        let renewing = Renewing {
            inner: Arc::new(Inner {
                source,
                connections: Mutex::new(Connections {
                    current: None,
                    retired: None,
                }),
                connecting: tokio::sync::Mutex::new(()),
                made: AtomicU64::new(0),
            }),
        };
        renewing.get().await?;
        Ok(renewing)
    }

    fn lock(&self) -> MutexGuard<'_, Connections<S::Conn>> {
        self.inner
            .connections
            .lock()
            .unwrap_or_else(|e| e.into_inner())
    }

    /// The current connection and its generation, unless its source marked it stale
    /// (it is forgotten then).
    fn current(&self) -> Option<(u64, S::Conn)> {
        let mut connections = self.lock();
        match connections.current.as_ref() {
            Some(c) if c.mark == self.inner.source.mark() => Some((c.generation, c.conn.clone())),
            Some(_) => {
                tracing::info!(connection = S::KIND, "the primary changed; reconnecting");
                connections.retire();
                None
            }
            None => None,
        }
    }

    /// The current connection, making one when there is none.
    async fn get(&self) -> Result<(u64, S::Conn), RedisError> {
        if let Some(current) = self.current() {
            return Ok(current);
        }
        let _connecting = self.inner.connecting.lock().await;
        if let Some(current) = self.current() {
            return Ok(current);
        }
        let mark = self.inner.source.mark();
        // Boxed: a role's start awaits this deep inside its own future.
        let conn = Box::pin(self.inner.source.connect()).await?;
        let generation = self.inner.made.fetch_add(1, Ordering::SeqCst) + 1;
        self.lock().current = Some(Current {
            generation,
            mark,
            failures: 0,
            replacing: false,
            conn: conn.clone(),
        });
        Ok((generation, conn))
    }

    /// The generation writes go to now: the current connection's, or while there is
    /// none the one the next command will make (a publish whose write makes it may
    /// `WAIT` on it).
    pub(crate) fn generation(&self) -> u64 {
        match self.current() {
            Some((g, _)) => g,
            None => self.inner.made.load(Ordering::SeqCst) + 1,
        }
    }

    /// The connection of `generation` — the current one, or the last one forgotten —
    /// else an error: a `WAIT` must go to the connection that wrote (on another it would
    /// count none of the writes, or report replicas for writes it never made).
    pub(crate) fn at(&self, generation: Option<u64>) -> Result<(u64, S::Conn), RedisError> {
        if let Some((g, conn)) = self.current().filter(|(g, _)| Some(*g) == generation) {
            return Ok((g, conn));
        }
        match &self.lock().retired {
            Some((g, conn)) if Some(*g) == generation => Ok((*g, conn.clone())),
            _ => Err(RedisError::from((
                ErrorKind::Io,
                "the connection was made again twice after the write, before its WAIT",
            ))),
        }
    }

    /// Counts `result` against connection `generation`: a connection error is one more
    /// failure, and the connection is replaced at [`Source::forget_after`] of them (a
    /// success does not start the count again: on a Cluster, one node that stopped
    /// answering does not keep the others from answering).
    pub(crate) fn check<T>(&self, generation: u64, result: &Result<T, RedisError>) {
        let Err(e) = result else {
            return;
        };
        if !is_connection_error(e) {
            return;
        }
        let mut connections = self.lock();
        let Some(c) = connections
            .current
            .as_mut()
            .filter(|c| c.generation == generation)
        else {
            return;
        };
        c.failures += 1;
        if c.failures < self.inner.source.forget_after() || c.replacing {
            return;
        }
        if !self.inner.source.replace_in_background() {
            tracing::warn!(
                connection = S::KIND,
                error = %e,
                failures = c.failures,
                "the connection failed; making a new one at the next command"
            );
            connections.retire();
            return;
        }
        tracing::warn!(
            connection = S::KIND,
            error = %e,
            failures = c.failures,
            "the connection failed; making a new one beside it"
        );
        c.replacing = true;
        drop(connections);
        self.replace(generation);
    }

    /// Makes a new connection in the background and puts it in the place of connection
    /// `generation` (unless another replaced it meanwhile); when making it fails, the
    /// next failure tries again.
    fn replace(&self, generation: u64) {
        let this = self.clone();
        tokio::spawn(async move {
            let _connecting = this.inner.connecting.lock().await;
            let mark = this.inner.source.mark();
            let made = Box::pin(this.inner.source.connect()).await;
            let mut connections = this.lock();
            let Some(c) = connections
                .current
                .as_mut()
                .filter(|c| c.generation == generation)
            else {
                return;
            };
            match made {
                Ok(conn) => {
                    let made = this.inner.made.fetch_add(1, Ordering::SeqCst) + 1;
                    connections.retire();
                    connections.current = Some(Current {
                        generation: made,
                        mark,
                        failures: 0,
                        replacing: false,
                        conn,
                    });
                    tracing::info!(
                        connection = S::KIND,
                        "a new connection replaced the failing one"
                    );
                }
                Err(e) => {
                    c.replacing = false;
                    tracing::warn!(connection = S::KIND, error = %e, "making a new connection failed; the next failure tries again");
                }
            }
        });
    }
}

impl<S: Source> ConnectionLike for Renewing<S> {
    fn req_packed_command<'a>(&'a mut self, cmd: &'a Cmd) -> RedisFuture<'a, Value> {
        Box::pin(async move {
            let (generation, mut conn) = self.get().await?;
            let result = conn.req_packed_command(cmd).await;
            self.check(generation, &result);
            result
        })
    }

    fn req_packed_commands<'a>(
        &'a mut self,
        pipeline: &'a Pipeline,
        offset: usize,
        count: usize,
    ) -> RedisFuture<'a, Vec<Value>> {
        Box::pin(async move {
            let (generation, mut conn) = self.get().await?;
            let result = conn.req_packed_commands(pipeline, offset, count).await;
            self.check(generation, &result);
            result
        })
    }

    fn get_db(&self) -> i64 {
        0
    }
}
