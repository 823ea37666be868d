//! `GET /events`: a live feed of every task's messages as Server-Sent Events, each
//! `event: message` with a [`LiveMessage`]; `event: lagged` (`{"missed": N}`) when this
//! client fell behind and missed messages (the page then reloads its lists). One
//! watcher of the bus serves every open feed and runs only while one is open
//! ([`crate::hub::Hub`]). The page reads it with `fetch()`, so it can send its token.

use std::convert::Infallible;

use axum::extract::State;
use axum::response::sse::{Event, KeepAlive, Sse};
use chorus_core::hops::Row;
use futures::Stream;
use tokio::sync::broadcast::error::RecvError;

use super::hops::LiveMessage;
use crate::api::ApiState;
use crate::native::ApiError;

/// The event carrying one message.
fn message_event(msg: &chorus_bus::Message) -> Event {
    let t = chorus_core::hops::format::sent_us(msg);
    let live = LiveMessage::of(msg, Row::of(msg, t, t));
    Event::default()
        .event("message")
        .json_data(&live)
        .unwrap_or_else(|e| Event::default().event("error").data(e.to_string()))
}

/// `GET /events`: the live feed, from now on.
pub async fn events(
    State(api): State<ApiState>,
) -> Result<Sse<impl Stream<Item = Result<Event, Infallible>>>, ApiError> {
    let rx = api.feed.subscribe().await.map_err(ApiError::from_bus)?;
    let stream = futures::stream::unfold(rx, |mut rx| async move {
        let event = match rx.recv().await {
            Ok(msg) => message_event(&msg),
            Err(RecvError::Lagged(missed)) => Event::default()
                .event("lagged")
                .data(format!("{{\"missed\":{missed}}}")),
            Err(RecvError::Closed) => return None,
        };
        Some((Ok(event), rx))
    });
    Ok(Sse::new(stream).keep_alive(KeepAlive::default()))
}
