//! A per-token rate limit on the HTTP doors (`[http] rate_per_sec`, `burst`; off by
//! default): a request over its token's rate gets 429 with `Retry-After` (seconds) and
//! a JSON error in its door's shape. The limit keys on the [`Caller`] the token check
//! found (the token's place in the list, never the token); with tokens off, every
//! client shares one budget. `GET /healthz` and the A2A agent card are not counted.
//!
//! The algorithm is GCRA (a token bucket kept as one instant per caller): a caller may
//! make `burst` requests at once, then one each `1 / rate_per_sec` seconds. Callers are
//! the configured tokens (plus one), so the table stays small.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::extract::{Request, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::middleware::Next;
use axum::response::Response;
use chorus_agents::settings::HttpSettings;

use crate::auth::{Caller, refusal};

/// The rate limit: off, or each caller's theoretical arrival time.
#[derive(Debug, Clone, Default)]
pub struct Limiter(Option<Arc<Gcra>>);

#[derive(Debug)]
struct Gcra {
    /// Time between requests at the rate.
    interval: Duration,
    /// How far ahead of now a caller's arrival time may run (`(burst - 1) × interval`).
    tolerance: Duration,
    callers: Mutex<HashMap<Caller, Instant>>,
}

impl Limiter {
    /// The limit `settings` name, or none when `rate_per_sec` is 0.
    pub fn from_settings(settings: &HttpSettings) -> Limiter {
        if settings.rate_per_sec == 0 {
            return Limiter(None);
        }
        let burst = if settings.burst == 0 {
            settings.rate_per_sec
        } else {
            settings.burst
        };
        let interval = Duration::from_secs(1) / settings.rate_per_sec;
        Limiter(Some(Arc::new(Gcra {
            interval,
            tolerance: interval * (burst - 1),
            callers: Mutex::new(HashMap::new()),
        })))
    }

    /// `Ok` when `caller` may make a request at `now` (and counts it), or how long it
    /// must wait.
    fn check(&self, caller: Caller, now: Instant) -> Result<(), Duration> {
        let Some(gcra) = &self.0 else { return Ok(()) };
        let mut callers = gcra
            .callers
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let tat = callers.get(&caller).copied().unwrap_or(now).max(now);
        let ahead = tat - now;
        if ahead > gcra.tolerance {
            return Err(ahead - gcra.tolerance);
        }
        callers.insert(caller, tat + gcra.interval);
        Ok(())
    }
}

/// The middleware: counts each request of a caller the token check let in.
pub async fn limit(State(limiter): State<Limiter>, request: Request, next: Next) -> Response {
    let Some(caller) = request.extensions().get::<Caller>().copied() else {
        // Open routes (the health check, the agent card) carry no caller.
        return next.run(request).await;
    };
    match limiter.check(caller, Instant::now()) {
        Ok(()) => next.run(request).await,
        Err(wait) => {
            let seconds = wait.as_secs() + u64::from(wait.subsec_nanos() > 0);
            let mut response = refusal(
                request.uri().path(),
                StatusCode::TOO_MANY_REQUESTS,
                "rate_limited",
                &format!("too many requests; retry in {} s", seconds.max(1)),
            );
            response
                .headers_mut()
                .insert(header::RETRY_AFTER, HeaderValue::from(seconds.max(1)));
            response
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn limiter(rate: u32, burst: u32) -> Limiter {
        Limiter::from_settings(&HttpSettings {
            rate_per_sec: rate,
            burst,
            ..Default::default()
        })
    }

    #[test]
    fn a_burst_then_one_per_interval_each_caller_on_its_own() {
        let l = limiter(2, 3);
        let t0 = Instant::now();
        let a = Caller::Token(0);
        for _ in 0..3 {
            assert!(l.check(a, t0).is_ok());
        }
        let wait = l.check(a, t0).expect_err("over the burst");
        assert_eq!(wait, Duration::from_millis(500));
        assert!(l.check(Caller::Token(1), t0).is_ok(), "another token");
        assert!(l.check(a, t0 + Duration::from_millis(500)).is_ok());
        assert!(l.check(a, t0 + Duration::from_millis(500)).is_err());
    }

    #[test]
    fn off_by_default() {
        let l = Limiter::from_settings(&HttpSettings::default());
        let t0 = Instant::now();
        for _ in 0..1000 {
            assert!(l.check(Caller::Anonymous, t0).is_ok());
        }
    }
}
