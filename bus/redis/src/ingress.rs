//! The PUBLISH ingress feed: a subscription to a topic's Pub/Sub channel, handing on the
//! raw payloads outside clients publish (and the bus's own mirror of every envelope,
//! which the reader tells apart). What a payload becomes is not decided here: that is
//! the one way in's job (`chorus_core::door`).

use async_trait::async_trait;
use chorus_bus::{BusError, IngressFeed, Topic};
use futures::StreamExt;
use futures::stream::BoxStream;

use std::time::Duration;

use super::RedisBus;
use crate::conn::Backend;
use crate::error::{RedisBusError, bus_err};
use crate::sentinel::Primary;

/// Payloads published on one channel, until the connection ends (in Sentinel mode,
/// or until the sentinels switch the primary: the caller subscribes again, on the new
/// one).
pub(crate) struct RedisIngress {
    messages: BoxStream<'static, redis::Msg>,
    /// In Sentinel mode, the primary and its switch count when subscribing.
    primary: Option<(Primary, u64)>,
}

#[async_trait]
impl IngressFeed for RedisIngress {
    async fn next(&mut self) -> Option<String> {
        let Some((primary, switches)) = &self.primary else {
            let msg = self.messages.next().await?;
            return Some(String::from_utf8_lossy(msg.get_payload_bytes()).into_owned());
        };
        loop {
            match tokio::time::timeout(Duration::from_millis(500), self.messages.next()).await {
                Ok(msg) => {
                    return Some(String::from_utf8_lossy(msg?.get_payload_bytes()).into_owned());
                }
                Err(_) if primary.switches() != *switches => return None,
                Err(_) => {}
            }
        }
    }
}

impl RedisBus {
    /// Subscribes to `topic`'s channel on a connection of its own.
    pub(crate) async fn ingress_feed(&self, topic: &Topic) -> Result<RedisIngress, BusError> {
        // On a Cluster a PUBLISH reaches every node: subscribing on any seed that
        // answers is enough (the first that does, in order).
        let mut last = None;
        let mut subscribed = None;
        let primary = match &self.shared.backend {
            Backend::Sentinel(p) => Some((p.clone(), p.switches())),
            _ => None,
        };
        let clients = self
            .shared
            .backend
            .pubsub_clients()
            .await
            .map_err(bus_err)?;
        for client in clients {
            let pubsub =
                tokio::time::timeout(self.settings().connect_timeout(), client.get_async_pubsub())
                    .await
                    .map_err(|_| RedisBusError::Timeout("connecting for the ingress subscription"));
            match pubsub {
                Ok(Ok(p)) => {
                    subscribed = Some(p);
                    break;
                }
                Ok(Err(e)) => last = Some(bus_err(e)),
                Err(e) => last = Some(e.into()),
            }
        }
        let Some(mut pubsub) = subscribed else {
            return Err(last.unwrap_or_else(|| {
                RedisBusError::Timeout("connecting for the ingress subscription").into()
            }));
        };
        pubsub.subscribe(topic.as_str()).await.map_err(bus_err)?;
        tracing::info!("ingress listening on channel {topic}");
        Ok(RedisIngress {
            messages: pubsub.into_on_message().boxed(),
            primary,
        })
    }
}
