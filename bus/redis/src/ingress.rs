//! The PUBLISH ingress feed: a subscription to a topic's Pub/Sub channel, handing on the
//! raw payloads outside clients publish (and the bus's own mirror of every envelope,
//! which the reader tells apart). What a payload becomes is not decided here: that is
//! the one way in's job (`chorus_agents::door`).

use async_trait::async_trait;
use chorus_bus::{BusError, IngressFeed, Topic};
use futures::StreamExt;
use futures::stream::BoxStream;

use super::RedisBus;
use crate::error::{RedisBusError, bus_err};

/// Payloads published on one channel, until the connection ends.
pub(crate) struct RedisIngress {
    messages: BoxStream<'static, redis::Msg>,
}

#[async_trait]
impl IngressFeed for RedisIngress {
    async fn next(&mut self) -> Option<String> {
        let msg = self.messages.next().await?;
        Some(String::from_utf8_lossy(msg.get_payload_bytes()).into_owned())
    }
}

impl RedisBus {
    /// Subscribes to `topic`'s channel on a connection of its own.
    pub(crate) async fn ingress_feed(&self, topic: &Topic) -> Result<RedisIngress, BusError> {
        // On a Cluster a PUBLISH reaches every node: subscribing on any seed that
        // answers is enough (the first that does, in order).
        let mut last = None;
        let mut subscribed = None;
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
        })
    }
}
