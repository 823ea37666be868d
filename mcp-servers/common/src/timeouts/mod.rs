//! An HTTP/1.1 server with limits for slow clients, for every HTTP server Chorus runs
//! (the MCP servers' port and the Chief's doors). A client that opens a connection and
//! never finishes its request headers, never finishes its body, or keeps an idle
//! connection open would otherwise hold a socket for ever; here each has a limit:
//!
//! - **header** ([`Timeouts::header`]): from the moment a request starts (the
//!   connection is accepted, or the first byte of the next request on a kept-alive
//!   one) until its headers are complete; past it the connection is closed, unanswered.
//! - **body** ([`Timeouts::body`]): the whole request body must arrive within it
//!   ([`read_body`], called by each server's middleware, which answers 408 with
//!   `Connection: close` in its own error shape).
//! - **idle** ([`Timeouts::idle`]): how long a kept-alive connection may wait for its
//!   next request after its last response; past it the connection is closed.
//!
//! hyper's own `header_read_timeout` also runs while a kept-alive connection waits, so
//! it cannot give a longer idle limit than the header one; a small supervisor per
//! connection (`watch`) keeps the three apart. A request being answered (a long
//! stream included) has no connection limit. Graceful shutdown is axum's: stop
//! accepting, let each connection finish its request, then return.

mod body;
mod watch;

use std::convert::Infallible;
use std::future::Future;
use std::io;
use std::pin::pin;
use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::body::Body;
use hyper::body::Incoming;
use hyper_util::rt::TokioIo;
use tokio::net::{TcpListener, TcpStream};
use tokio::task::JoinSet;
use tower::ServiceExt;

pub use body::{BodyError, read_body};
use watch::{Activity, Watched, WithActivity};

/// The limits a server gives slow clients.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Timeouts {
    /// The longest a request's headers may take (default 10 s).
    pub header: Duration,
    /// The longest a request's body may take (default 30 s).
    pub body: Duration,
    /// The longest a kept-alive connection may wait for its next request (default
    /// 60 s).
    pub idle: Duration,
}

impl Timeouts {
    /// Default header limit, in milliseconds.
    pub const HEADER_MS: u64 = 10_000;
    /// Default body limit, in milliseconds.
    pub const BODY_MS: u64 = 30_000;
    /// Default idle keep-alive limit, in milliseconds.
    pub const IDLE_MS: u64 = 60_000;

    /// The limits given in milliseconds.
    pub fn from_millis(header: u64, body: u64, idle: u64) -> Timeouts {
        Timeouts {
            header: Duration::from_millis(header),
            body: Duration::from_millis(body),
            idle: Duration::from_millis(idle),
        }
    }
}

impl Default for Timeouts {
    fn default() -> Self {
        Timeouts::from_millis(Self::HEADER_MS, Self::BODY_MS, Self::IDLE_MS)
    }
}

/// Serves `app` on `listener` with `timeouts` until `shutdown` resolves, then lets the
/// open connections finish their requests (each still under its limits) and returns.
pub async fn serve(
    listener: TcpListener,
    app: Router,
    timeouts: Timeouts,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> io::Result<()> {
    let (stop, stopped) = tokio::sync::watch::channel(false);
    let mut shutdown = pin!(shutdown);
    let mut connections = JoinSet::new();
    loop {
        tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok((stream, _)) => {
                    connections.spawn(connection(stream, app.clone(), timeouts, stopped.clone()));
                }
                Err(e) => accept_failed(e).await,
            },
            Some(_) = connections.join_next(), if !connections.is_empty() => {}
            () = &mut shutdown => break,
        }
    }
    drop(listener);
    let _ = stop.send(true);
    while connections.join_next().await.is_some() {}
    Ok(())
}

/// After a failed accept: nothing for a connection the client dropped; otherwise (out
/// of file descriptors…) a log line and a second's pause, as axum does.
async fn accept_failed(e: io::Error) {
    use io::ErrorKind as K;
    if matches!(
        e.kind(),
        K::ConnectionRefused | K::ConnectionAborted | K::ConnectionReset
    ) {
        return;
    }
    tracing::error!(error = %e, "accept failed");
    tokio::time::sleep(Duration::from_secs(1)).await;
}

/// Serves one connection until it ends, a limit passes, or (after `stopped`) its
/// request is answered.
async fn connection(
    stream: TcpStream,
    app: Router,
    timeouts: Timeouts,
    mut stopped: tokio::sync::watch::Receiver<bool>,
) {
    let activity = Arc::new(Activity::new());
    let io = TokioIo::new(Watched::new(stream, activity.clone()));
    let service = {
        let activity = activity.clone();
        hyper::service::service_fn(move |request: hyper::Request<Incoming>| {
            let in_flight = activity.begin();
            let app = app.clone();
            async move {
                let response = app.oneshot(request.map(Body::new)).await?;
                Ok::<_, Infallible>(
                    response.map(|body| Body::new(WithActivity::new(body, in_flight))),
                )
            }
        })
    };
    let mut conn = pin!(hyper::server::conn::http1::Builder::new().serve_connection(io, service));
    let mut stopping = *stopped.borrow();
    if stopping {
        conn.as_mut().graceful_shutdown();
    }
    loop {
        let deadline = activity.deadline(&timeouts);
        let expired = async {
            match deadline {
                Some(at) => tokio::time::sleep_until(at).await,
                None => std::future::pending().await,
            }
        };
        tokio::select! {
            result = conn.as_mut() => {
                if let Err(e) = result {
                    tracing::debug!(error = %e, "HTTP connection ended with an error");
                }
                return;
            }
            () = expired => {
                if let Some(phase) = activity.expired(&timeouts) {
                    tracing::debug!(phase, "HTTP connection closed: a slow client");
                    return;
                }
            }
            () = activity.changed() => {}
            _ = stopped.changed(), if !stopping => {
                stopping = true;
                conn.as_mut().graceful_shutdown();
            }
        }
    }
}
