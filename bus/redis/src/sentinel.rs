//! Redis Sentinel: finding the current primary and staying on it. redis-rs's
//! `SentinelClient` asks the sentinels for the primary of `bus.sentinel_master` (and
//! checks with `ROLE` that the node it names is a primary), but a connection made from
//! its answer stays on that node: redis-rs does not follow `+switch-master`. So the
//! shared write connection here ([`SentinelConnection`]) forgets its primary when a
//! command fails on a connection error or `READONLY` (the node died, or was demoted to a
//! replica), and the next command asks the sentinels again (`conn/renew.rs`, as the
//! Cluster's connection is made again); the blocking readers do the same through
//! [`Primary::client`] each time they remake their connection. A node that
//! is still alive goes on answering as a primary for seconds after the sentinels
//! promoted another (they demote it later), so a task also listens to the sentinels'
//! `+switch-master` announcements: every connection made before a switch is dropped at
//! its next command, and made again to the new primary.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Weak};
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

use crate::conn::renew::{Renewing, Source};
use crate::conn::{SetupError, tcp_settings, tls_files};

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
            let info = url
                .as_str()
                .into_connection_info()
                .map_err(|e| {
                    invalid(format!(
                        "a sentinel is not a usable Redis URL: {:?}",
                        e.kind()
                    ))
                })?
                .set_tcp_settings(tcp_settings());
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
            })?
            .set_client_to_redis_tcp_settings(tcp_settings())
            .set_client_to_sentinel_tcp_settings(tcp_settings());
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

/// Makes connections to the primary the sentinels name now (asking them each time).
pub(crate) struct ToPrimary {
    primary: Primary,
    config: AsyncConnectionConfig,
}

impl Source for ToPrimary {
    type Conn = MultiplexedConnection;
    const KIND: &'static str = "sentinel";

    async fn connect(&self) -> Result<Self::Conn, RedisError> {
        let client = self.primary.client().await?;
        let conn = client
            .get_multiplexed_async_connection_with_config(&self.config)
            .await?;
        tracing::info!(
            primary = %client.get_connection_info().addr(),
            sentinels = self.primary.describe(),
            "connected to the primary the sentinels name"
        );
        Ok(conn)
    }

    /// The switches announced: a connection made before the last one is left.
    fn mark(&self) -> u64 {
        self.primary.switches()
    }

    /// The first failure: the node is gone, or answers `READONLY` as a replica.
    fn forget_after(&self) -> u32 {
        1
    }
}

/// The shared write connection in Sentinel mode: one multiplexed connection to the
/// primary, made again (by `conn::renew`) after a command failed because the primary is
/// gone or was demoted, or once the sentinels announced a switch: the next command asks
/// the sentinels again and connects to the new primary. The failed command's error is
/// returned (a retried write then lands on the new primary). Clones share the
/// connection.
#[derive(Clone)]
pub struct SentinelConnection {
    inner: Renewing<ToPrimary>,
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
        primary.listen();
        Ok(SentinelConnection {
            inner: Renewing::connect(ToPrimary { primary, config }).await?,
        })
    }

    /// The generation writes go to now (see [`Renewing::generation`]); each new
    /// connection has a greater one.
    pub(crate) fn generation(&self) -> u64 {
        self.inner.generation()
    }

    /// Runs `cmd` on connection `generation` only, failing when there is another now
    /// (or none): a `WAIT` must go to the connection that wrote.
    pub(crate) async fn query_on(
        &self,
        generation: Option<u64>,
        cmd: &Cmd,
    ) -> Result<Value, RedisError> {
        let (g, mut conn) = self.inner.at(generation)?;
        let result = conn.req_packed_command(cmd).await;
        self.inner.check(g, &result);
        result
    }
}

impl ConnectionLike for SentinelConnection {
    fn req_packed_command<'a>(&'a mut self, cmd: &'a Cmd) -> RedisFuture<'a, Value> {
        self.inner.req_packed_command(cmd)
    }

    fn req_packed_commands<'a>(
        &'a mut self,
        pipeline: &'a Pipeline,
        offset: usize,
        count: usize,
    ) -> RedisFuture<'a, Vec<Value>> {
        self.inner.req_packed_commands(pipeline, offset, count)
    }

    fn get_db(&self) -> i64 {
        self.inner.get_db()
    }
}
