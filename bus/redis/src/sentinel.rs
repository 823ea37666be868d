//! Redis Sentinel: finding the current primary and staying on it. redis-rs's
//! `SentinelClient` asks the sentinels for the primary of `bus.sentinel_master` (and
//! checks with `ROLE` that the node it names is a primary), but a connection made from
//! its answer stays on that node: redis-rs does not follow `+switch-master`. So the
//! shared write connection here ([`SentinelConnection`]) forgets its primary when a
//! command fails on a connection error or `READONLY` (the node died, or was demoted to a
//! replica), and the next command asks the sentinels again; the blocking readers do the
//! same through [`Primary::client`] each time they remake their connection. A node that
//! is still alive goes on answering as a primary for seconds after the sentinels
//! promoted another (they demote it later), so a task also listens to the sentinels'
//! `+switch-master` announcements: every connection made before a switch is dropped at
//! its next command, and made again to the new primary.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, Weak};
use std::time::Duration;

use futures::StreamExt;

use redis::aio::{ConnectionLike, MultiplexedConnection};
use redis::sentinel::{SentinelClient, SentinelClientBuilder, SentinelServerType};
use redis::{
    AsyncConnectionConfig, Client, Cmd, ConnectionAddr, ErrorKind, IntoConnectionInfo, Pipeline,
    RedisError, RedisFuture, Value,
};

use chorus_bus::error::BusError;
use chorus_bus::settings::BusSettings;

use crate::conn::{SetupError, is_connection_error, tls_files};

/// Finds the current primary by asking the sentinels, one question at a time (redis-rs's
/// `SentinelClient` keeps a connection to each sentinel and needs `&mut` to ask).
#[derive(Clone)]
pub(crate) struct Primary {
    sentinels: Arc<tokio::sync::Mutex<SentinelClient>>,
    /// One client per sentinel, for the `+switch-master` subscription.
    announcers: Vec<Client>,
    /// The master's name.
    master: String,
    /// The primary switches announced so far (see [`Primary::switches`]).
    switches: Arc<AtomicU64>,
    /// Whether the task listening for them runs.
    listening: Arc<AtomicBool>,
    /// Longest one question (the sentinels, then `ROLE` on the node named) may take.
    within: Duration,
    /// For messages: the master's name and the sentinels (passwords masked).
    describe: String,
}

impl Primary {
    /// The sentinels `settings` name, asked for the primary of `bus.sentinel_master`,
    /// with the settings' user, password and TLS files for the data nodes.
    pub(crate) fn new(settings: &BusSettings) -> Result<Self, BusError> {
        let target = settings.redis_target();
        let invalid =
            |what: String| -> BusError { SetupError(format!("{what} ({target})")).into() };
        let master = settings
            .sentinel_master
            .clone()
            .ok_or_else(|| invalid("bus.sentinel_master is not set".into()))?;
        let tls = if settings.uses_tls() {
            Some(tls_files(settings, &invalid)?)
        } else {
            None
        };
        let mut announcers = Vec::with_capacity(settings.sentinels.len());
        let mut addrs: Vec<ConnectionAddr> = Vec::with_capacity(settings.sentinels.len());
        let mut sentinel_user = None;
        let mut sentinel_password = None;
        for url in &settings.sentinels {
            let info = url.as_str().into_connection_info().map_err(|e| {
                invalid(format!(
                    "a sentinel is not a usable Redis URL: {:?}",
                    e.kind()
                ))
            })?;
            let redis = info.redis_settings();
            if sentinel_user.is_none() {
                sentinel_user = redis.username().map(str::to_owned);
            }
            if sentinel_password.is_none() {
                sentinel_password = redis.password().map(str::to_owned);
            }
            let announcer = match &tls {
                None => Client::open(info.clone()),
                Some((client_tls, root_cert)) => Client::build_with_tls(
                    info.clone(),
                    redis::TlsCertificates {
                        client_tls: client_tls.clone(),
                        root_cert: root_cert.clone(),
                    },
                ),
            };
            announcers.push(
                announcer
                    .map_err(|e| invalid(format!("a sentinel is not usable: {:?}", e.kind())))?,
            );
            addrs.push(info.addr().clone());
        }
        let mut builder = SentinelClientBuilder::new(addrs, &master, SentinelServerType::Master)
            .map_err(|e| {
                invalid(format!(
                    "the Sentinel settings are not usable: {:?}",
                    e.kind()
                ))
            })?;
        if let Some(user) = sentinel_user {
            builder = builder.set_client_to_sentinel_username(user);
        }
        if let Some(password) = sentinel_password {
            builder = builder.set_client_to_sentinel_password(password);
        }
        if let Some(user) = &settings.redis_user {
            builder = builder.set_client_to_redis_username(user);
        }
        if let Some(password) = settings.redis_password()? {
            builder = builder.set_client_to_redis_password(password);
        }
        if let Some((client_tls, root_cert)) = tls {
            let certs = || redis::TlsCertificates {
                client_tls: client_tls.clone(),
                root_cert: root_cert.clone(),
            };
            builder = builder
                .set_client_to_redis_tls_mode(redis::TlsMode::Secure)
                .set_client_to_redis_certificates(certs())
                .set_client_to_sentinel_certificates(certs());
        }
        let client = builder.build().map_err(|e| {
            invalid(format!(
                "the Sentinel settings are not usable: {:?}",
                e.kind()
            ))
        })?;
        Ok(Primary {
            sentinels: Arc::new(tokio::sync::Mutex::new(client)),
            announcers,
            master,
            switches: Arc::new(AtomicU64::new(0)),
            listening: Arc::new(AtomicBool::new(false)),
            within: settings.connect_timeout() * 2,
            describe: target,
        })
    }

    /// A client of the node the sentinels name primary now (checked with `ROLE`). Fails
    /// while no sentinel names a reachable primary: during a failover, between the old
    /// primary's death and a replica's promotion.
    pub(crate) async fn client(&self) -> Result<Client, RedisError> {
        let mut sentinels = self.sentinels.lock().await;
        match tokio::time::timeout(self.within, sentinels.async_get_client()).await {
            Ok(found) => found,
            Err(_) => Err(RedisError::from((
                ErrorKind::Io,
                "asking the sentinels for the primary timed out",
            ))),
        }
    }

    /// The master's name and the sentinels, for messages.
    pub(crate) fn describe(&self) -> &str {
        &self.describe
    }

    /// How many primary switches the sentinels announced since this bus started
    /// listening (or may have, while the subscription was being made again): a
    /// connection made at a smaller count may be on a demoted primary.
    pub(crate) fn switches(&self) -> u64 {
        self.switches.load(Ordering::SeqCst)
    }

    /// Starts (once per bus) the task that listens to the sentinels' `+switch-master`
    /// and counts the switches of this master; it ends once the bus and its readers
    /// are gone.
    pub(crate) fn listen(&self) {
        if self.listening.swap(true, Ordering::SeqCst) {
            return;
        }
        let switches = Arc::downgrade(&self.switches);
        let announcers = self.announcers.clone();
        let master = self.master.clone();
        let within = self.within;
        tokio::spawn(async move {
            let mut pause = Duration::from_millis(100);
            let mut first = true;
            loop {
                for announcer in &announcers {
                    match announcements(announcer, &master, &switches, within, first).await {
                        Ok(()) => return,
                        Err(e) => {
                            tracing::debug!(error = %e, "listening to a sentinel failed; trying the next");
                        }
                    }
                    first = false;
                }
                if switches.strong_count() == 0 {
                    return;
                }
                tokio::time::sleep(pause).await;
                pause = (pause * 2).min(Duration::from_secs(1));
            }
        });
    }
}

/// Listens to one sentinel's `+switch-master` until the bus is gone (`Ok`) or the
/// connection fails. Unless this is the `first` subscription, a switch may have been
/// missed while there was none: it counts one.
async fn announcements(
    sentinel: &Client,
    master: &str,
    switches: &Weak<AtomicU64>,
    within: Duration,
    first: bool,
) -> Result<(), RedisError> {
    let timed_out = || RedisError::from((ErrorKind::Io, "connecting to a sentinel timed out"));
    let mut pubsub = tokio::time::timeout(within, sentinel.get_async_pubsub())
        .await
        .map_err(|_| timed_out())??;
    pubsub.subscribe("+switch-master").await?;
    let Some(count) = switches.upgrade() else {
        return Ok(());
    };
    if !first {
        count.fetch_add(1, Ordering::SeqCst);
    }
    drop(count);
    let mut messages = pubsub.into_on_message();
    loop {
        match tokio::time::timeout(Duration::from_secs(1), messages.next()).await {
            Ok(Some(msg)) => {
                let payload: String = msg.get_payload().unwrap_or_default();
                // "<master name> <old ip> <old port> <new ip> <new port>"
                if payload.split_whitespace().next() == Some(master) {
                    let Some(count) = switches.upgrade() else {
                        return Ok(());
                    };
                    count.fetch_add(1, Ordering::SeqCst);
                    tracing::warn!(switch = %payload, "the sentinels switched the primary; reconnecting");
                }
            }
            Ok(None) => {
                return Err(RedisError::from((
                    ErrorKind::Io,
                    "the sentinel closed the subscription",
                )));
            }
            Err(_) if switches.strong_count() == 0 => return Ok(()),
            Err(_) => {}
        }
    }
}

/// Whether `e` means the node may no longer be the primary (it is gone, or answers
/// `READONLY` as a replica), so the sentinels must be asked again.
fn lost_primary(e: &RedisError) -> bool {
    is_connection_error(e)
}

/// The shared write connection in Sentinel mode: one multiplexed connection to the
/// primary, made on first use; after a command fails because the primary is gone or
/// was demoted, the connection is forgotten and the next command asks the sentinels
/// again and connects to the new primary. The failed command's error is returned (a
/// retried write then lands on the new primary). Clones share the connection.
#[derive(Clone)]
pub struct SentinelConnection {
    inner: Arc<Inner>,
}

/// A connection to the primary.
#[derive(Clone)]
struct Current {
    generation: u64,
    switches: u64,
    conn: MultiplexedConnection,
}

struct Inner {
    primary: Primary,
    config: AsyncConnectionConfig,
    /// The current connection, its generation (bumped at each new connection) and the
    /// switch count when it was made.
    current: Mutex<Option<Current>>,
    /// Held while connecting (one question to the sentinels at a time); the last
    /// generation handed out.
    connecting: tokio::sync::Mutex<u64>,
}

impl SentinelConnection {
    /// Connects to the primary the sentinels name now.
    pub(crate) async fn connect(
        primary: Primary,
        settings: &BusSettings,
    ) -> Result<Self, RedisError> {
        let config = AsyncConnectionConfig::new()
            .set_connection_timeout(Some(settings.connect_timeout()))
            .set_response_timeout(Some(settings.response_timeout()));
        let conn = SentinelConnection {
            inner: Arc::new(Inner {
                primary,
                config,
                current: Mutex::new(None),
                connecting: tokio::sync::Mutex::new(0),
            }),
        };
        conn.inner.primary.listen();
        conn.get().await?;
        Ok(conn)
    }

    /// The current connection, unless the sentinels switched the primary since it was
    /// made (it is forgotten then).
    fn current(&self) -> Option<(u64, MultiplexedConnection)> {
        let mut current = self.inner.current.lock().unwrap_or_else(|e| e.into_inner());
        match current.as_ref() {
            Some(c) if c.switches == self.inner.primary.switches() => {
                Some((c.generation, c.conn.clone()))
            }
            Some(_) => {
                tracing::info!("the sentinels switched the primary; reconnecting");
                *current = None;
                None
            }
            None => None,
        }
    }

    /// The connection to the primary, connecting (after asking the sentinels) when there
    /// is none.
    async fn get(&self) -> Result<(u64, MultiplexedConnection), RedisError> {
        if let Some(current) = self.current() {
            return Ok(current);
        }
        let mut generation = self.inner.connecting.lock().await;
        if let Some(current) = self.current() {
            return Ok(current);
        }
        let switches = self.inner.primary.switches();
        let client = self.inner.primary.client().await?;
        let conn = client
            .get_multiplexed_async_connection_with_config(&self.inner.config)
            .await?;
        *generation += 1;
        tracing::info!(
            primary = %client.get_connection_info().addr(),
            sentinels = self.inner.primary.describe(),
            "connected to the primary the sentinels name"
        );
        *self.inner.current.lock().unwrap_or_else(|e| e.into_inner()) = Some(Current {
            generation: *generation,
            switches,
            conn: conn.clone(),
        });
        Ok((*generation, conn))
    }

    /// The generation of the current connection (`None` while there is none); each new
    /// connection (to a new primary, after a failover) has a greater one.
    pub(crate) fn generation(&self) -> Option<u64> {
        self.current().map(|(g, _)| g)
    }

    /// Runs `cmd` on connection `generation` only, failing when there is another now
    /// (or none): a `WAIT` must go to the connection that wrote.
    pub(crate) async fn query_on(
        &self,
        generation: Option<u64>,
        cmd: &Cmd,
    ) -> Result<Value, RedisError> {
        match self.current() {
            Some((g, mut conn)) if Some(g) == generation => {
                let result = conn.req_packed_command(cmd).await;
                self.check(g, &result);
                result
            }
            _ => Err(RedisError::from((
                ErrorKind::Io,
                "the primary changed after the write, before its WAIT",
            ))),
        }
    }

    /// Forgets connection `generation` (unless a newer one replaced it already).
    fn forget(&self, generation: u64, e: &RedisError) {
        let mut current = self.inner.current.lock().unwrap_or_else(|e| e.into_inner());
        if current.as_ref().is_some_and(|c| c.generation == generation) {
            tracing::warn!(error = %e, "the primary is gone or demoted; asking the sentinels again");
            *current = None;
        }
    }

    /// Forgets connection `generation` when `result` says the primary is lost.
    fn check<T>(&self, generation: u64, result: &Result<T, RedisError>) {
        if let Err(e) = result
            && lost_primary(e)
        {
            self.forget(generation, e);
        }
    }
}

impl ConnectionLike for SentinelConnection {
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
