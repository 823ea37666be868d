//! The behavioural suite every bus transport must pass, written once over a
//! [`Harness`] and instantiated for memory and Redis by [`bus_suite!`].

#![allow(dead_code)]

pub mod behaviour;
pub mod samples;

use std::collections::HashSet;
use std::sync::Arc;

use async_trait::async_trait;
use chorus_bus::*;

/// Settings shared by the suite: short block and claim times so tests are quick.
pub fn test_settings() -> BusSettings {
    BusSettings {
        block_ms: 100,
        claim_idle_ms: 300,
        max_deliveries: 3,
        batch_count: 64,
        stream_maxlen: 5000,
        max_message_bytes: 64 * 1024,
        ..BusSettings::default()
    }
}

/// A transport under test.
#[async_trait]
pub trait Harness: Send + Sync {
    /// A bus handle; for Redis a new connection each time (like another process).
    async fn bus(&self) -> Arc<dyn Bus>;
    /// A store handle.
    async fn store(&self) -> Arc<dyn Store>;
    /// Appends a raw entry whose `data` field is `data`, as an outside client would.
    async fn inject(&self, topic: &str, data: &str);
    /// Number of entries in a stream.
    async fn stream_len(&self, topic: &str) -> usize;
}

/// Reads until `n` deliveries arrived (acking each) or `rounds` batches passed.
pub async fn collect(sub: &mut dyn Subscriber, n: usize, rounds: usize) -> Vec<Delivery> {
    let mut out = Vec::new();
    for _ in 0..rounds {
        let batch = sub.next_batch().await.expect("next_batch");
        let tokens: Vec<AckToken> = batch.iter().map(Delivery::ack_token).collect();
        sub.ack(&tokens).await.expect("ack");
        out.extend(batch);
        if out.len() >= n {
            break;
        }
    }
    out
}

/// The dead letters currently on the `dead_letter` stream.
pub async fn dead_letters(bus: &dyn Bus) -> Vec<DeadLetter> {
    bus.recent(&Topic::dead_letter(), 1000)
        .await
        .expect("recent")
        .into_iter()
        .filter_map(|m| match m.payload {
            Payload::DeadLetter(d) => Some(d),
            _ => None,
        })
        .collect()
}

/// Task ids of deliveries.
pub fn task_ids(ds: &[Delivery]) -> Vec<String> {
    ds.iter().map(|d| d.message.task_id.to_string()).collect()
}

/// Whether every item is distinct.
pub fn all_distinct(ids: &[String]) -> bool {
    ids.iter().collect::<HashSet<_>>().len() == ids.len()
}

/// Instantiates every behaviour test for a harness made by `$make().await`.
#[macro_export]
macro_rules! bus_suite {
    ($make:path) => {
        $crate::bus_suite!(@tests $make;
            every_topic_round_trips_through_the_bus_and_raw_json,
            two_roles_both_receive_every_message,
            two_replicas_split_a_thousand_messages_without_duplicates,
            a_dead_consumers_messages_go_to_another_replica_after_the_idle_time,
            kept_alive_entries_are_not_claimed_until_the_keep_alive_stops,
            an_announcement_reaches_channel_subscribers_and_no_stream,
            a_message_failing_too_often_is_dead_lettered_and_the_consumer_goes_on,
            a_handler_can_dead_letter_a_message_with_its_reason,
            malformed_entries_are_dead_lettered_and_the_next_good_one_delivered,
            a_bare_xadd_request_is_delivered_normalised,
            publish_once_publishes_once_under_concurrency,
            publish_once_many_publishes_each_new_key_once,
            publish_guarded_publishes_only_behind_a_new_guard,
            publish_all_once_publishes_every_message_once_or_none,
            an_oversized_message_is_refused_with_a_clear_error,
            a_watcher_sees_messages_published_after_it_started,
            streams_are_capped_near_the_configured_length,
            the_store_keeps_values_hashes_and_sorted_sets,
            report_tokens_are_read_in_order_from_the_first_by_any_reader,
            a_token_reader_waits_for_tokens_appended_after_it_started,
            token_streams_are_capped_and_expire_with_their_ttl,
            stream_stats_count_entries_and_each_groups_pending,
        );
    };
    (@tests $make:path; $($name:ident),* $(,)?) => {
        $(
            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn $name() {
                let harness = $make().await;
                suite::behaviour::$name(&harness).await;
            }
        )*
    };
}
