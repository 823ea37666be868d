//! A per-token rate limit on the HTTP doors (`[http] rate_per_sec`, `burst`; off by
//! default): a request over its token's rate gets 429 with `Retry-After` (seconds) and
//! a JSON error in its door's shape. The limit keys on the [`Caller`] the token check
//! found (the token's place in the list, never the token); with tokens off, every
//! client shares one budget. `GET /healthz` and the A2A agent card are not counted.
//!
//! The counting is the `governor` crate's keyed GCRA limiter: a caller may make `burst`
//! requests at once, then one each `1 / rate_per_sec` seconds. Callers are the
//! configured tokens (plus one), so its table stays small.

use std::num::NonZeroU32;
use std::sync::Arc;
use std::time::Duration;

use axum::extract::{Request, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::middleware::Next;
use axum::response::Response;
use chorus_core::settings::HttpSettings;
use governor::clock::{Clock, DefaultClock};
use governor::state::keyed::HashMapStateStore;
use governor::{Quota, RateLimiter};

use crate::auth::{Caller, refusal};

/// The keyed limiter: one budget per caller.
type Keyed = RateLimiter<Caller, HashMapStateStore<Caller>, DefaultClock>;

/// The rate limit: off, or each caller's budget.
#[derive(Clone, Default)]
pub struct Limiter(Option<Arc<Keyed>>);

impl std::fmt::Debug for Limiter {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(if self.0.is_some() {
            "Limiter(on)"
        } else {
            "Limiter(off)"
        })
    }
}

impl Limiter {
    /// The limit `settings` name, or none when `rate_per_sec` is 0.
    pub fn from_settings(settings: &HttpSettings) -> Limiter {
        let Some(rate) = NonZeroU32::new(settings.rate_per_sec) else {
            return Limiter(None);
        };
        let burst = NonZeroU32::new(settings.burst).unwrap_or(rate);
        let quota = Quota::per_second(rate).allow_burst(burst);
        Limiter(Some(Arc::new(RateLimiter::hashmap(quota))))
    }

    /// `Ok` when `caller` may make a request now (and counts it), or how long it must
    /// wait.
    fn check(&self, caller: Caller) -> Result<(), Duration> {
        let Some(limiter) = &self.0 else {
            return Ok(());
        };
        limiter
            .check_key(&caller)
            .map_err(|not_until| not_until.wait_time_from(DefaultClock::default().now()))
    }
}

/// The middleware: counts each request of a caller the token check let in.
pub async fn limit(State(limiter): State<Limiter>, request: Request, next: Next) -> Response {
    let Some(caller) = request.extensions().get::<Caller>().copied() else {
        // Open routes (the health check, the agent card) carry no caller.
        return next.run(request).await;
    };
    match limiter.check(caller) {
        Ok(()) => next.run(request).await,
        Err(wait) => {
            let seconds = (wait.as_secs() + u64::from(wait.subsec_nanos() > 0)).max(1);
            let mut response = refusal(
                request.uri().path(),
                StatusCode::TOO_MANY_REQUESTS,
                "rate_limited",
                &format!("too many requests; retry in {seconds} s"),
            );
            response
                .headers_mut()
                .insert(header::RETRY_AFTER, HeaderValue::from(seconds));
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
    fn a_burst_then_a_wait_of_about_one_interval_each_caller_on_its_own() {
        let l = limiter(2, 3);
        let a = Caller::Token(0);
        for _ in 0..3 {
            assert!(l.check(a).is_ok());
        }
        let wait = l.check(a).expect_err("over the burst");
        assert!(
            wait > Duration::from_millis(300) && wait <= Duration::from_millis(500),
            "{wait:?}"
        );
        assert!(l.check(Caller::Token(1)).is_ok(), "another token");
    }

    #[test]
    fn off_by_default() {
        let l = Limiter::from_settings(&HttpSettings::default());
        for _ in 0..1000 {
            assert!(l.check(Caller::Anonymous).is_ok());
        }
    }
}
