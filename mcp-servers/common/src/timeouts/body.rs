//! Reading a request's whole body within the body limit: what each server's
//! middleware calls before its routes see the request, so a body that stalls ends in
//! 408 (with `Connection: close`) instead of holding the connection.

use std::time::Duration;

use axum::body::{Body, Bytes};
use axum::extract::Request;
use http_body_util::{BodyExt, LengthLimitError, Limited};

/// Why a request's body could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BodyError {
    /// The body did not arrive within the limit (answer 408 and close).
    #[error("the request body did not arrive within {} ms", .0.as_millis())]
    TooSlow(Duration),
    /// The body is larger than the bytes given (answer 413).
    #[error("the request body is larger than {0} bytes")]
    TooLarge(usize),
    /// The connection failed while the body was read (answer 400).
    #[error("the request body could not be read: {0}")]
    Failed(String),
}

impl BodyError {
    /// The HTTP status that answers it: 408, 413 or 400.
    pub fn status(&self) -> axum::http::StatusCode {
        use axum::http::StatusCode as S;
        match self {
            BodyError::TooSlow(_) => S::REQUEST_TIMEOUT,
            BodyError::TooLarge(_) => S::PAYLOAD_TOO_LARGE,
            BodyError::Failed(_) => S::BAD_REQUEST,
        }
    }
}

/// `request` with its body read in full: at most `max_bytes`, all of it within `within`.
pub async fn read_body(
    request: Request,
    max_bytes: usize,
    within: Duration,
) -> Result<Request, BodyError> {
    let (parts, body) = request.into_parts();
    let bytes = read(body, max_bytes, within).await?;
    Ok(Request::from_parts(parts, Body::from(bytes)))
}

async fn read(body: Body, max_bytes: usize, within: Duration) -> Result<Bytes, BodyError> {
    let collected = tokio::time::timeout(within, Limited::new(body, max_bytes).collect())
        .await
        .map_err(|_| BodyError::TooSlow(within))?;
    match collected {
        Ok(collected) => Ok(collected.to_bytes()),
        Err(e) if e.is::<LengthLimitError>() => Err(BodyError::TooLarge(max_bytes)),
        Err(e) => Err(BodyError::Failed(e.to_string())),
    }
}

#[cfg(test)]
mod tests {
    use futures::{StreamExt, stream};

    use super::*;

    fn request(body: Body) -> Request {
        Request::builder().uri("/x").body(body).expect("request")
    }

    #[tokio::test]
    async fn a_whole_body_is_kept_byte_for_byte() {
        let read = read_body(request(Body::from("{\"a\":1}")), 64, Duration::from_secs(1))
            .await
            .expect("read");
        let bytes = read.into_body().collect().await.expect("body").to_bytes();
        assert_eq!(&bytes[..], b"{\"a\":1}");
    }

    #[tokio::test]
    async fn a_body_over_the_size_is_too_large() {
        let err = read_body(
            request(Body::from(vec![b'x'; 65])),
            64,
            Duration::from_secs(1),
        )
        .await
        .expect_err("too large");
        assert_eq!(err, BodyError::TooLarge(64));
        assert_eq!(err.status(), 413);
    }

    #[tokio::test(start_paused = true)]
    async fn a_body_that_stalls_is_too_slow() {
        let first = stream::iter([Ok::<_, std::io::Error>(Bytes::from_static(b"{"))]);
        let stalled = first.chain(stream::pending());
        let body = Body::from_stream(stalled);
        let err = read_body(request(body), 64, Duration::from_millis(300))
            .await
            .expect_err("stalls");
        assert_eq!(err, BodyError::TooSlow(Duration::from_millis(300)));
        assert_eq!(err.status(), 408);
    }
}
