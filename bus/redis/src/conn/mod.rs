//! Connections. Writes share one multiplexed connection: a `ConnectionManager`
//! (reconnecting by itself) on a standalone Redis, redis-rs's cluster connection (one
//! multiplexed socket per node, following MOVED/ASK) on a Cluster, a connection to the
//! primary the sentinels name (asking them again after a failover, `sentinel.rs`) in
//! Sentinel mode. Each blocking reader owns a dedicated connection whose response
//! timeout is above its BLOCK time — on a Cluster a cluster connection of its own, so a
//! blocking read never holds up the shared socket to its node; it is dropped on any
//! connection error and made again on the next read, with a growing pause, so a
//! restarted Redis (or a failover) is picked up without help.
//!
//! Riding out a lost connection (the reader's connection made again, writes retried)
//! is `recover.rs`; the shared connections of a Cluster and of Sentinel are made again
//! when they fail (`renew.rs`, `cluster.rs`).

mod cluster;
mod recover;
pub(crate) mod renew;

pub use cluster::ClusterConnection;
use recover::MAX_BACKOFF;
pub(crate) use recover::{ReadConn, SETUP_PATIENCE, is_connection_error, patiently, retry_writes};

use std::time::Duration;

use redis::aio::{
    ConnectionLike, ConnectionManager, ConnectionManagerConfig, MultiplexedConnection,
};
use redis::cluster::{ClusterClient, ClusterClientBuilder};
use redis::io::tcp::TcpSettings;
use redis::{Client, Cmd, ErrorKind, IntoConnectionInfo, Pipeline, RedisError, RedisFuture, Value};

use chorus_bus::error::BusError;
use chorus_bus::settings::{BusSettings, RedisMode};

use crate::sentinel::{Primary, SentinelConnection};

/// A connection to Redis, whatever the deployment: clones of a `Managed` or `Cluster`
/// connection share its sockets. Public (`chorus_bus_redis::Connection`) for commands
/// the bus does not wrap; it runs any command or pipeline (on a Cluster, one slot per
/// pipeline).
#[derive(Clone)]
pub enum Connection {
    /// The shared connection to a standalone Redis.
    Managed(ConnectionManager),
    /// A dedicated connection to a standalone Redis (a blocking reader's).
    Plain(MultiplexedConnection),
    /// A connection to a Redis Cluster (made again when it stops answering).
    Cluster(ClusterConnection),
    /// The shared connection to the primary the sentinels name (following failovers).
    Sentinel(SentinelConnection),
}

impl Connection {
    /// Whether this connection talks to a Cluster (every multi-key command, script and
    /// pipeline must then touch one slot).
    pub fn is_cluster(&self) -> bool {
        matches!(self, Connection::Cluster(_))
    }
}

impl ConnectionLike for Connection {
    fn req_packed_command<'a>(&'a mut self, cmd: &'a Cmd) -> RedisFuture<'a, Value> {
        match self {
            Connection::Managed(c) => c.req_packed_command(cmd),
            Connection::Plain(c) => c.req_packed_command(cmd),
            Connection::Cluster(c) => c.req_packed_command(cmd),
            Connection::Sentinel(c) => c.req_packed_command(cmd),
        }
    }

    fn req_packed_commands<'a>(
        &'a mut self,
        pipeline: &'a Pipeline,
        offset: usize,
        count: usize,
    ) -> RedisFuture<'a, Vec<Value>> {
        match self {
            Connection::Managed(c) => c.req_packed_commands(pipeline, offset, count),
            Connection::Plain(c) => c.req_packed_commands(pipeline, offset, count),
            Connection::Cluster(c) => c.req_packed_commands(pipeline, offset, count),
            Connection::Sentinel(c) => c.req_packed_commands(pipeline, offset, count),
        }
    }

    fn get_db(&self) -> i64 {
        match self {
            Connection::Managed(c) => c.get_db(),
            Connection::Plain(c) => c.get_db(),
            Connection::Cluster(c) => c.get_db(),
            Connection::Sentinel(c) => c.get_db(),
        }
    }
}

/// What connections are made from: one client for a standalone Redis; for a Cluster, a
/// cluster client for writes, one for blocking reads (a longer response timeout), and a
/// plain client per seed node for Pub/Sub (a PUBLISH reaches every node of a Cluster).
#[derive(Clone)]
// One per bus, cloned for each reader: its size does not matter.
#[allow(clippy::large_enum_variant)]
pub(crate) enum Backend {
    /// A standalone Redis.
    Standalone(Client),
    /// A Redis Cluster.
    Cluster(ClusterClients),
    /// A primary found through Redis Sentinel.
    Sentinel(Primary),
}

/// The clients of a Cluster.
#[derive(Clone)]
pub(crate) struct ClusterClients {
    /// Writes.
    writes: ClusterClient,
    /// Blocking reads.
    reads: ClusterClient,
    /// One client per seed node, for subscriptions.
    seeds: Vec<Client>,
}

impl ClusterClients {
    /// A cluster connection for a blocking reader, made within `within`.
    pub(crate) async fn reader(&self, within: Duration) -> Result<Connection, RedisError> {
        ClusterConnection::connect(self.reads.clone(), within)
            .await
            .map(Connection::Cluster)
    }
}

/// The longest making one cluster connection may take when a node's reply may take up
/// to `reply`: connecting to the seeds and checking each (`PING`), asking one for the
/// slots, then connecting to the nodes serving them — about two rounds of a connect
/// and a reply.
pub(crate) fn cluster_connect_within(settings: &BusSettings, reply: Duration) -> Duration {
    (settings.connect_timeout() + reply) * 2
}

impl Backend {
    /// The backend `settings` describe.
    pub(crate) fn new(settings: &BusSettings) -> Result<Self, BusError> {
        match settings.redis_mode {
            RedisMode::Standalone => Ok(Backend::Standalone(client(settings)?)),
            RedisMode::Cluster => {
                let seeds = settings.cluster_seeds();
                let writes = cluster_client(settings, &seeds, settings.response_timeout())?;
                let reads = cluster_client(settings, &seeds, settings.read_timeout())?;
                let seeds = seeds
                    .iter()
                    .map(|url| {
                        let mut one = settings.clone();
                        one.redis_url = url.clone();
                        client(&one)
                    })
                    .collect::<Result<Vec<_>, _>>()?;
                Ok(Backend::Cluster(ClusterClients {
                    writes,
                    reads,
                    seeds,
                }))
            }
            RedisMode::Sentinel => Ok(Backend::Sentinel(Primary::new(settings)?)),
        }
    }

    /// The shared write connection.
    pub(crate) async fn connect(&self, settings: &BusSettings) -> Result<Connection, RedisError> {
        match self {
            Backend::Standalone(client) => connect_manager(client, settings)
                .await
                .map(Connection::Managed),
            Backend::Cluster(c) => {
                let within = cluster_connect_within(settings, settings.response_timeout());
                ClusterConnection::connect(c.writes.clone(), within)
                    .await
                    .map(Connection::Cluster)
            }
            Backend::Sentinel(primary) => SentinelConnection::connect(primary.clone(), settings)
                .await
                .map(Connection::Sentinel),
        }
    }

    /// The clients to subscribe through, in the order to try them (in Sentinel mode,
    /// the primary's, asking the sentinels which node that is now).
    pub(crate) async fn pubsub_clients(&self) -> Result<Vec<Client>, RedisError> {
        match self {
            Backend::Standalone(client) => Ok(vec![client.clone()]),
            Backend::Cluster(c) => Ok(c.seeds.clone()),
            Backend::Sentinel(primary) => Ok(vec![primary.client().await?]),
        }
    }

    /// The address to name in messages.
    pub(crate) fn describe(&self) -> String {
        match self {
            Backend::Standalone(client) => client.get_connection_info().addr().to_string(),
            Backend::Cluster(c) => {
                let nodes: Vec<String> = c
                    .seeds
                    .iter()
                    .map(|c| c.get_connection_info().addr().to_string())
                    .collect();
                format!("cluster [{}]", nodes.join(", "))
            }
            Backend::Sentinel(primary) => primary.describe().to_owned(),
        }
    }
}

/// Retries of a command the Cluster turned away for a while (TRYAGAIN, CLUSTERDOWN,
/// MASTERDOWN, LOADING), inside redis-rs, before the error reaches [`retry_writes`].
const CLUSTER_RETRIES: u32 = 10;
/// The first pause before such a retry. A TRYAGAIN — a multi-key script or pipeline
/// whose keys are split between two nodes while their slot migrates — lasts as long as
/// one slot's MIGRATE, milliseconds: redis-rs's default (at least 1,280 ms before every
/// retry, which `max_retry_wait` does not lower) stalled such a publish over a second.
const CLUSTER_MIN_RETRY_WAIT_MS: u64 = 10;
/// The longest pause between two such retries: the pauses double from
/// [`CLUSTER_MIN_RETRY_WAIT_MS`] (with jitter) up to this, about 4 s in all over
/// [`CLUSTER_RETRIES`], as long as a failover's election.
const CLUSTER_MAX_RETRY_WAIT_MS: u64 = 1000;

/// The TCP settings of every connection the bus makes (to a standalone Redis, a
/// Cluster's nodes, a Sentinel primary and the sentinels): `TCP_NODELAY` on. redis-rs
/// leaves it off by default, so with Nagle's algorithm a command written while an
/// earlier one on the same multiplexed connection is not yet acknowledged (a lingering
/// ack batch, a keep-alive) waited for that acknowledgement before it was sent.
pub(crate) fn tcp_settings() -> TcpSettings {
    TcpSettings::default().set_nodelay(true)
}

/// A cluster client on `seeds` with the settings' user, password, TLS files, connect
/// timeout and `response` timeout.
fn cluster_client(
    settings: &BusSettings,
    seeds: &[String],
    response: Duration,
) -> Result<ClusterClient, BusError> {
    let url = settings.redacted_url();
    let invalid =
        |what: String| -> BusError { SetupError(format!("{what} (redis_url {url})")).into() };
    let mut infos = Vec::with_capacity(seeds.len());
    for seed in seeds {
        let info = seed.as_str().into_connection_info().map_err(|e| {
            invalid(format!(
                "a Cluster seed node is not a usable Redis URL: {:?}",
                e.kind()
            ))
        })?;
        infos.push(info.set_tcp_settings(tcp_settings()));
    }
    let mut builder = ClusterClientBuilder::new(infos)
        .connection_timeout(settings.connect_timeout())
        .response_timeout(response)
        .retries(CLUSTER_RETRIES)
        .min_retry_wait(CLUSTER_MIN_RETRY_WAIT_MS)
        .max_retry_wait(CLUSTER_MAX_RETRY_WAIT_MS)
        .retry_wait_formula(CLUSTER_MIN_RETRY_WAIT_MS, 2)
        .tcp_settings(tcp_settings());
    if let Some(user) = &settings.redis_user {
        builder = builder.username(user);
    }
    if let Some(password) = settings.redis_password()? {
        builder = builder.password(password);
    }
    if settings.redis_url.starts_with("rediss://") {
        let (client_tls, root_cert) = tls_files(settings, &invalid)?;
        builder = builder.certs(redis::TlsCertificates {
            client_tls,
            root_cert,
        });
    }
    builder.build().map_err(|e| {
        invalid(format!(
            "the Cluster settings are not usable: {:?}",
            e.kind()
        ))
    })
}

/// The client certificate and the CA certificate the settings name, read.
pub(crate) fn tls_files(
    settings: &BusSettings,
    invalid: &dyn Fn(String) -> BusError,
) -> Result<(Option<redis::ClientTlsConfig>, Option<Vec<u8>>), BusError> {
    let read = |key: &str, path: &str| -> Result<Vec<u8>, BusError> {
        std::fs::read(path).map_err(|e| invalid(format!("bus.{key}: cannot read {path}: {e}")))
    };
    let root_cert = match &settings.tls_ca_file {
        Some(path) => Some(read("tls_ca_file", path)?),
        None => None,
    };
    let client_tls = match (&settings.tls_cert_file, &settings.tls_key_file) {
        (Some(cert), Some(key)) => Some(redis::ClientTlsConfig {
            client_cert: read("tls_cert_file", cert)?,
            client_key: read("tls_key_file", key)?,
        }),
        _ => None,
    };
    Ok((client_tls, root_cert))
}

/// Connecting failed for a reason worth saying plainly (a refused user, a certificate
/// that does not verify, an unusable TLS file); the text holds no secret.
#[derive(Debug, thiserror::Error)]
#[error("redis: {0}")]
pub(crate) struct SetupError(pub(crate) String);

impl From<SetupError> for BusError {
    fn from(e: SetupError) -> Self {
        BusError::Transport(Box::new(e))
    }
}

/// The client for `settings`: the URL, the ACL user and the password read from the
/// variable `bus.redis_password_env` names, and for `rediss://` the CA file and the
/// optional client certificate. No error here carries the password. Public (as
/// `chorus_bus_redis::client`) for tools that need a connection of their own to the
/// same Redis, as the bus would make it (the benchmark's `INFO` reader).
pub fn client(settings: &BusSettings) -> Result<Client, BusError> {
    let url = settings.redacted_url();
    let invalid =
        |what: String| -> BusError { SetupError(format!("{what} (redis_url {url})")).into() };
    let mut info = settings
        .redis_url
        .as_str()
        .into_connection_info()
        .map_err(|e| {
            invalid(format!(
                "bus.redis_url is not a usable Redis URL: {:?}",
                e.kind()
            ))
        })?;
    let mut redis = info.redis_settings().clone();
    if let Some(user) = &settings.redis_user {
        redis = redis.set_username(user);
    }
    if let Some(password) = settings.redis_password()? {
        redis = redis.set_password(password);
    }
    info = info
        .set_redis_settings(redis)
        .set_tcp_settings(tcp_settings());
    if !settings.redis_url.starts_with("rediss://") {
        return Client::open(info).map_err(|e| invalid(format!("{:?}", e.kind())));
    }
    let (client_tls, root_cert) = tls_files(settings, &invalid)?;
    Client::build_with_tls(
        info,
        redis::TlsCertificates {
            client_tls,
            root_cert,
        },
    )
    .map_err(|e| {
        invalid(format!(
            "the TLS settings (tls_ca_file {:?}, tls_cert_file {:?}) are not usable: {:?}",
            settings.tls_ca_file,
            settings.tls_cert_file,
            e.kind()
        ))
    })
}

/// Explains a failure to connect: which user was refused, or which certificate did not
/// verify, naming the URL (password masked) and the files, never a secret.
pub(crate) fn connect_error(settings: &BusSettings, e: RedisError) -> BusError {
    let url = settings.redis_target();
    let user = settings.redis_user.as_deref().unwrap_or("default");
    let text = e.to_string();
    let lower = text.to_ascii_lowercase();
    let reason = if matches!(e.kind(), ErrorKind::AuthenticationFailed)
        || lower.contains("wrongpass")
        || lower.contains("noauth")
        || lower.contains("invalid username-password")
    {
        format!(
            "Redis at {url} refused user {user:?} (wrong password, or the user is off or unknown: check `chorus acl` and the variable bus.redis_password_env names)"
        )
    } else if matches!(e.kind(), ErrorKind::InvalidClientConfig) {
        format!(
            "the TLS settings for {url} are not usable (tls_ca_file {:?}, tls_cert_file {:?}, tls_key_file {:?}): {}",
            settings.tls_ca_file,
            settings.tls_cert_file,
            settings.tls_key_file,
            scrub(&text, settings)
        )
    } else if lower.contains("certificate") || lower.contains("tls") || lower.contains("handshake")
    {
        let ca = settings
            .tls_ca_file
            .as_deref()
            .unwrap_or("the system's roots");
        format!(
            "the TLS connection to {url} failed: the server's certificate did not verify against {ca} (or the handshake was refused): {}",
            scrub(&text, settings)
        )
    } else {
        format!(
            "connecting to Redis at {url} as user {user:?} failed: {}",
            scrub(&text, settings)
        )
    };
    SetupError(reason).into()
}

/// `text` with the password (if any is configured) removed, belt and braces.
fn scrub(text: &str, settings: &BusSettings) -> String {
    let mut out = text.replace(&settings.redis_url, &settings.redacted_url());
    for sentinel in &settings.sentinels {
        out = out.replace(sentinel, &chorus_bus::settings::redact_url(sentinel));
    }
    if let Ok(Some(p)) = settings.redis_password()
        && !p.is_empty()
    {
        out = out.replace(&p, "***");
    }
    out
}

/// The shared write connection.
pub(crate) async fn connect_manager(
    client: &Client,
    settings: &BusSettings,
) -> Result<ConnectionManager, RedisError> {
    let config = ConnectionManagerConfig::new()
        .set_connection_timeout(Some(settings.connect_timeout()))
        .set_response_timeout(Some(settings.response_timeout()))
        .set_number_of_retries(3)
        .set_max_delay(MAX_BACKOFF);
    ConnectionManager::new_with_config(client.clone(), config).await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn connections_are_made_with_nodelay() {
        assert!(tcp_settings().nodelay());
        let plain = client(&BusSettings::default()).expect("a client");
        assert!(plain.get_connection_info().tcp_settings().nodelay());
        let tls = BusSettings {
            redis_url: "rediss://127.0.0.1:6380".to_owned(),
            ..BusSettings::default()
        };
        let tls = client(&tls).expect("a TLS client");
        assert!(tls.get_connection_info().tcp_settings().nodelay());
    }
}
