//! What a connection is doing, for its limits: waiting for a request's headers
//! (`Head`), answering requests (`Busy`), or waiting idle for the next request
//! (`Idle`). The socket wrapper [`Watched`] sees the first byte of a request; the
//! service marks a request begun ([`Activity::begin`]) and the response body's wrapper
//! ([`WithActivity`]) its end, when hyper drops it.

use std::pin::Pin;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::task::{Context, Poll};

use axum::body::{Body, Bytes};
use hyper::body::Frame;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::sync::Notify;
use tokio::time::Instant;

use super::Timeouts;

/// Where a connection is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Phase {
    /// A request started (or the connection was accepted); its headers are not all in.
    Head,
    /// This many requests are being answered.
    Busy(usize),
    /// The last response is out; no byte of the next request yet.
    Idle,
}

/// A connection's phase and when it began, shared by its socket, its service and its
/// supervisor.
#[derive(Debug)]
pub(super) struct Activity {
    state: Mutex<(Phase, Instant)>,
    /// True while `Idle`: the socket's reads check it without taking the lock.
    idle: AtomicBool,
    changed: Notify,
}

impl Activity {
    /// A connection just accepted: its first request's headers are awaited.
    pub(super) fn new() -> Self {
        Activity {
            state: Mutex::new((Phase::Head, Instant::now())),
            idle: AtomicBool::new(false),
            changed: Notify::new(),
        }
    }

    fn set(&self, change: impl FnOnce(Phase) -> Option<Phase>) {
        let mut state = self.state.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(phase) = change(state.0) {
            *state = (phase, Instant::now());
            self.idle.store(phase == Phase::Idle, Ordering::Release);
            self.changed.notify_one();
        }
    }

    /// A byte came: an idle connection starts a request.
    fn bytes_came(&self) {
        if self.idle.load(Ordering::Acquire) {
            self.set(|phase| (phase == Phase::Idle).then_some(Phase::Head));
        }
    }

    /// A request's headers are in and the app has it; the guard ends it when dropped.
    pub(super) fn begin(self: &Arc<Self>) -> InFlight {
        self.set(|phase| {
            Some(match phase {
                Phase::Busy(n) => Phase::Busy(n + 1),
                Phase::Head | Phase::Idle => Phase::Busy(1),
            })
        });
        InFlight(self.clone())
    }

    fn end(&self) {
        self.set(|phase| match phase {
            Phase::Busy(n) if n > 1 => Some(Phase::Busy(n - 1)),
            Phase::Busy(_) => Some(Phase::Idle),
            _ => None,
        });
    }

    /// When the current phase's limit passes; none while requests are answered.
    pub(super) fn deadline(&self, timeouts: &Timeouts) -> Option<Instant> {
        let (phase, since) = *self.state.lock().unwrap_or_else(PoisonError::into_inner);
        match phase {
            Phase::Head => Some(since + timeouts.header),
            Phase::Idle => Some(since + timeouts.idle),
            Phase::Busy(_) => None,
        }
    }

    /// The phase whose limit has passed (`"headers"`, `"idle"`), if one has.
    pub(super) fn expired(&self, timeouts: &Timeouts) -> Option<&'static str> {
        let (phase, _) = *self.state.lock().unwrap_or_else(PoisonError::into_inner);
        let deadline = self.deadline(timeouts)?;
        (Instant::now() >= deadline).then_some(match phase {
            Phase::Idle => "idle",
            _ => "headers",
        })
    }

    /// Resolves after the phase changed (at once if it changed since the last call).
    pub(super) async fn changed(&self) {
        self.changed.notified().await;
    }
}

/// A request being answered; dropping it ends the request.
#[derive(Debug)]
pub(super) struct InFlight(Arc<Activity>);

impl Drop for InFlight {
    fn drop(&mut self) {
        self.0.end();
    }
}

/// A socket that tells its connection's [`Activity`] when bytes come.
#[derive(Debug)]
pub(super) struct Watched<S> {
    stream: S,
    activity: Arc<Activity>,
}

impl<S> Watched<S> {
    /// Watches `stream` for `activity`.
    pub(super) fn new(stream: S, activity: Arc<Activity>) -> Self {
        Watched { stream, activity }
    }
}

impl<S: AsyncRead + Unpin> AsyncRead for Watched<S> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<std::io::Result<()>> {
        let before = buf.filled().len();
        let polled = Pin::new(&mut self.stream).poll_read(cx, buf);
        if matches!(polled, Poll::Ready(Ok(()))) && buf.filled().len() > before {
            self.activity.bytes_came();
        }
        polled
    }
}

impl<S: AsyncWrite + Unpin> AsyncWrite for Watched<S> {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<std::io::Result<usize>> {
        Pin::new(&mut self.stream).poll_write(cx, buf)
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[std::io::IoSlice<'_>],
    ) -> Poll<std::io::Result<usize>> {
        Pin::new(&mut self.stream).poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.stream.is_write_vectored()
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.stream).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.stream).poll_shutdown(cx)
    }
}

/// A response body that ends its request when hyper is done with it.
#[derive(Debug)]
pub(super) struct WithActivity {
    body: Body,
    _in_flight: InFlight,
}

impl WithActivity {
    /// `body`, ending `in_flight` when dropped.
    pub(super) fn new(body: Body, in_flight: InFlight) -> Self {
        WithActivity {
            body,
            _in_flight: in_flight,
        }
    }
}

impl hyper::body::Body for WithActivity {
    type Data = Bytes;
    type Error = axum::Error;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, axum::Error>>> {
        Pin::new(&mut self.body).poll_frame(cx)
    }

    fn is_end_stream(&self) -> bool {
        self.body.is_end_stream()
    }

    fn size_hint(&self) -> hyper::body::SizeHint {
        self.body.size_hint()
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;

    fn limits() -> Timeouts {
        Timeouts::from_millis(100, 1_000, 500)
    }

    #[tokio::test(start_paused = true)]
    async fn a_new_connection_has_the_header_limit_a_busy_one_none_an_idle_one_the_idle_limit() {
        let activity = Arc::new(Activity::new());
        let start = Instant::now();
        assert_eq!(
            activity.deadline(&limits()),
            Some(start + Duration::from_millis(100))
        );
        let first = activity.begin();
        let second = activity.begin();
        assert_eq!(activity.deadline(&limits()), None);
        drop(first);
        assert_eq!(activity.deadline(&limits()), None, "one still answered");
        tokio::time::advance(Duration::from_millis(40)).await;
        drop(second);
        let idle_since = Instant::now();
        assert_eq!(
            activity.deadline(&limits()),
            Some(idle_since + Duration::from_millis(500))
        );
        tokio::time::advance(Duration::from_millis(30)).await;
        activity.bytes_came();
        assert_eq!(
            activity.deadline(&limits()),
            Some(idle_since + Duration::from_millis(130)),
            "the next request's headers have the header limit from their first byte"
        );
        assert_eq!(activity.expired(&limits()), None);
        tokio::time::advance(Duration::from_millis(100)).await;
        assert_eq!(activity.expired(&limits()), Some("headers"));
    }

    #[tokio::test(start_paused = true)]
    async fn bytes_while_answering_do_not_start_a_request() {
        let activity = Arc::new(Activity::new());
        let request = activity.begin();
        activity.bytes_came();
        assert_eq!(activity.deadline(&limits()), None);
        drop(request);
        tokio::time::advance(Duration::from_millis(600)).await;
        assert_eq!(activity.expired(&limits()), Some("idle"));
    }
}
