//! The behaviours, one function each, over any [`Harness`].

use std::sync::Arc;
use std::time::Duration;

use chorus_bus::*;

use super::samples::{every_topic, math_task, task_request};
use super::{Harness, all_distinct, collect, dead_letters, task_ids};

pub async fn every_topic_round_trips_through_the_bus_and_raw_json(h: &impl Harness) {
    let bus = h.bus().await;
    let samples = every_topic();
    let topics: Vec<Topic> = samples.iter().map(|m| m.topic.clone()).collect();
    let mut sub = bus
        .subscribe(Subscription::new("roundtrip", topics))
        .await
        .expect("subscribe");
    for m in &samples {
        assert_eq!(Message::from_json(&m.to_json()).expect("raw json"), *m);
        bus.publish(m).await.expect("publish");
    }
    let got = collect(sub.as_mut(), samples.len(), 50).await;
    assert_eq!(got.len(), samples.len());
    for m in &samples {
        let d = got
            .iter()
            .find(|d| d.message.id == m.id)
            .expect("delivered");
        assert_eq!(&d.message, m);
        assert_eq!(d.topic, m.topic);
        assert_eq!(d.deliveries, 1);
        assert!(!d.bare);
    }
}

pub async fn two_roles_both_receive_every_message(h: &impl Harness) {
    let bus = h.bus().await;
    let topic = vec![Topic::plan_ready(), Topic::pool_result("math")];
    let mut router = bus
        .subscribe(Subscription::new("router", topic.clone()))
        .await
        .expect("router");
    let mut synth = bus
        .subscribe(Subscription::new("synthesizer", topic))
        .await
        .expect("synth");
    let sample = every_topic()
        .into_iter()
        .find(|m| m.topic == Topic::plan_ready())
        .expect("plan sample");
    bus.publish(&sample).await.expect("publish");
    let a = collect(router.as_mut(), 1, 20).await;
    let b = collect(synth.as_mut(), 1, 20).await;
    assert_eq!(a.len(), 1);
    assert_eq!(b.len(), 1);
    assert_eq!(a[0].message.id, sample.id);
    assert_eq!(b[0].message.id, sample.id);
}

pub async fn two_replicas_split_a_thousand_messages_without_duplicates(h: &impl Harness) {
    let bus = h.bus().await;
    let topic = Topic::pool_task("math");
    let mut replicas = Vec::new();
    for _ in 0..2 {
        let b = h.bus().await;
        replicas.push(
            b.subscribe(Subscription::new("math", vec![topic.clone()]))
                .await
                .expect("subscribe"),
        );
    }
    let msgs: Vec<Message> = (0..1000).map(|i| math_task(&format!("t{i}"))).collect();
    bus.publish_many(&msgs).await.expect("publish_many");
    let total = Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let mut handles = Vec::new();
    for mut sub in replicas {
        let total = total.clone();
        handles.push(tokio::spawn(async move {
            let mut mine = Vec::new();
            let mut idle_rounds = 0;
            while total.load(std::sync::atomic::Ordering::SeqCst) < 1000 && idle_rounds < 30 {
                let batch = sub.next_batch().await.expect("next_batch");
                if batch.is_empty() {
                    idle_rounds += 1;
                }
                // Handling takes a moment, as it would in an agent.
                tokio::time::sleep(Duration::from_millis(2)).await;
                let tokens: Vec<AckToken> = batch.iter().map(Delivery::ack_token).collect();
                sub.ack(&tokens).await.expect("ack");
                total.fetch_add(batch.len(), std::sync::atomic::Ordering::SeqCst);
                mine.extend(task_ids(&batch));
            }
            mine
        }));
    }
    let mut all = Vec::new();
    let mut per_replica = Vec::new();
    for handle in handles {
        let mine = handle.await.expect("replica task");
        per_replica.push(mine.len());
        all.extend(mine);
    }
    assert_eq!(all.len(), 1000, "per replica: {per_replica:?}");
    assert!(all_distinct(&all), "a message was handled twice");
    assert!(
        per_replica.iter().all(|n| *n > 0),
        "both replicas used: {per_replica:?}"
    );
}

pub async fn a_dead_consumers_messages_go_to_another_replica_after_the_idle_time(h: &impl Harness) {
    let bus = h.bus().await;
    let topic = Topic::pool_task("math");
    let mut doomed = bus
        .subscribe(Subscription::new("math", vec![topic.clone()]))
        .await
        .expect("doomed");
    let msgs: Vec<Message> = (0..5).map(|i| math_task(&format!("d{i}"))).collect();
    bus.publish_many(&msgs).await.expect("publish");
    let taken = collect_without_ack(doomed.as_mut(), 5).await;
    assert_eq!(taken.len(), 5);
    drop(doomed); // dies before acking
    let other_bus = h.bus().await;
    let mut survivor = other_bus
        .subscribe(Subscription::new("math", vec![topic]))
        .await
        .expect("survivor");
    let got = collect(survivor.as_mut(), 5, 40).await;
    let mut ids = task_ids(&got);
    ids.sort();
    assert_eq!(ids, vec!["d0", "d1", "d2", "d3", "d4"]);
    assert!(got.iter().all(|d| d.deliveries == 2), "{got:?}");
}

pub async fn kept_alive_entries_are_not_claimed_until_the_keep_alive_stops(h: &impl Harness) {
    let bus = h.bus().await;
    let topic = Topic::pool_task("math");
    let busy = Subscription::new("math", vec![topic.clone()]);
    let busy_consumer = busy.consumer.clone();
    let mut slow = bus.subscribe(busy).await.expect("slow");
    bus.publish_many(&[math_task("k0"), math_task("k1")])
        .await
        .expect("publish");
    let taken = collect_without_ack(slow.as_mut(), 2).await;
    assert_eq!(task_ids(&taken), vec!["k0", "k1"]);
    let tokens: Vec<AckToken> = taken.iter().map(Delivery::ack_token).collect();
    let other_bus = h.bus().await;
    let mut other = other_bus
        .subscribe(Subscription::new("math", vec![topic]))
        .await
        .expect("other");
    // Three claim idle times (300 ms each) with k0 kept alive every 100 ms: the other
    // replica never gets k0, and gets k1 (left idle) once with 2 deliveries.
    let claim_idle = bus.claim_idle();
    assert_eq!(claim_idle, Duration::from_millis(300));
    let until = tokio::time::Instant::now() + claim_idle * 3;
    let mut seen = Vec::new();
    while tokio::time::Instant::now() < until {
        bus.keep_alive("math", &busy_consumer, &tokens[..1])
            .await
            .expect("keep_alive");
        // Blocks at most the block time (100 ms).
        let batch = other.next_batch().await.expect("next_batch");
        other
            .ack(&batch.iter().map(Delivery::ack_token).collect::<Vec<_>>())
            .await
            .expect("ack");
        seen.extend(batch);
    }
    assert_eq!(task_ids(&seen), vec!["k1"], "{seen:?}");
    assert_eq!(seen[0].deliveries, 2);
    // Keeping an acked entry alive does nothing, and fails nothing.
    bus.keep_alive("math", &busy_consumer, &tokens[1..])
        .await
        .expect("keep_alive of an acked entry");
    // Once nobody keeps k0 alive, it is claimed, and the keep-alives counted no delivery.
    let got = collect(other.as_mut(), 1, 40).await;
    assert_eq!(task_ids(&got), vec!["k0"]);
    assert_eq!(got[0].deliveries, 2, "{got:?}");
}

pub async fn an_announcement_reaches_channel_subscribers_and_no_stream(h: &impl Harness) {
    let bus = h.bus().await;
    let topic = Topic::verification_done();
    let mut feed = bus.ingress(&topic).await.expect("subscribe");
    let mut msg = math_task("a1");
    msg.topic = topic.clone();
    msg.payload = Payload::VerificationDone(VerificationDone {
        iteration: 1,
        verdict: Verdict::Finished,
        reasons: Vec::new(),
        failed_steps: Vec::new(),
        plan: None,
    });
    bus.announce(&msg).await.expect("announce");
    let heard = tokio::time::timeout(Duration::from_secs(5), feed.next())
        .await
        .expect("heard within 5 s")
        .expect("a payload");
    let heard = Message::decode_on(&topic, &heard, None)
        .expect("an envelope")
        .into_message();
    assert_eq!(heard.task_id, msg.task_id);
    assert_eq!(heard.payload, msg.payload);
    assert_eq!(h.stream_len("verification_done").await, 0);
    // An oversized announcement is refused as any publish would be.
    let mut huge = msg.clone();
    if let Payload::VerificationDone(v) = &mut huge.payload {
        v.reasons = vec!["x".repeat(100 * 1024)];
    }
    assert!(bus.announce(&huge).await.is_err());
}

async fn collect_without_ack(sub: &mut dyn Subscriber, n: usize) -> Vec<Delivery> {
    let mut out = Vec::new();
    for _ in 0..20 {
        out.extend(sub.next_batch().await.expect("next_batch"));
        if out.len() >= n {
            break;
        }
    }
    out
}

pub async fn a_message_failing_too_often_is_dead_lettered_and_the_consumer_goes_on(
    h: &impl Harness,
) {
    let bus = h.bus().await;
    let topic = Topic::pool_task("math");
    let mut sub = bus
        .subscribe(Subscription::new("math", vec![topic]))
        .await
        .expect("subscribe");
    bus.publish(&math_task("poison")).await.expect("publish");
    // The handler fails every time: it never acks. Deliveries 1..=3 reach it.
    let mut seen = Vec::new();
    for _ in 0..60 {
        for d in sub.next_batch().await.expect("next_batch") {
            seen.push(d.deliveries);
        }
        if !dead_letters(bus.as_ref()).await.is_empty() {
            break;
        }
    }
    assert_eq!(seen, vec![1, 2, 3]);
    let dls = dead_letters(bus.as_ref()).await;
    assert_eq!(dls.len(), 1);
    assert_eq!(dls[0].topic, "math_task");
    assert_eq!(dls[0].role, "math");
    assert_eq!(dls[0].deliveries, 4);
    assert!(
        dls[0].reason.contains("max_deliveries"),
        "{}",
        dls[0].reason
    );
    assert!(dls[0].original.contains("poison"));
    bus.publish(&math_task("healthy")).await.expect("publish");
    let got = collect(sub.as_mut(), 1, 20).await;
    assert_eq!(task_ids(&got), vec!["healthy"]);
}

pub async fn a_handler_can_dead_letter_a_message_with_its_reason(h: &impl Harness) {
    let bus = h.bus().await;
    let mut sub = bus
        .subscribe(Subscription::new("math", vec![Topic::pool_task("math")]))
        .await
        .expect("subscribe");
    bus.publish(&math_task("t-unknown-tool"))
        .await
        .expect("publish");
    let got = collect_without_ack(sub.as_mut(), 1).await;
    assert_eq!(got.len(), 1);
    sub.dead_letter(&got[0], "unknown tool `sqrt`")
        .await
        .expect("dead_letter");
    let dls = dead_letters(bus.as_ref()).await;
    assert_eq!(dls.len(), 1);
    assert_eq!(dls[0].reason, "unknown tool `sqrt`");
    assert_eq!(dls[0].entry_id, got[0].entry_id);
    let dl_msgs = bus.recent(&Topic::dead_letter(), 10).await.expect("recent");
    assert_eq!(dl_msgs[0].task_id, "t-unknown-tool");
}

pub async fn malformed_entries_are_dead_lettered_and_the_next_good_one_delivered(h: &impl Harness) {
    let bus = h.bus().await;
    let mut sub = bus
        .subscribe(Subscription::new("router", vec![Topic::plan_ready()]))
        .await
        .expect("subscribe");
    h.inject("plan_ready", "{not json").await;
    let wrong_payload = task_request("2+4")
        .to_json()
        .replace("\"task_available\"", "\"plan_ready\"");
    h.inject("plan_ready", &wrong_payload).await;
    let wrong_topic = task_request("2+4").to_json();
    h.inject("plan_ready", &wrong_topic).await;
    let good = every_topic()
        .into_iter()
        .find(|m| m.topic == Topic::plan_ready())
        .expect("sample");
    bus.publish(&good).await.expect("publish");
    let got = collect(sub.as_mut(), 1, 20).await;
    assert_eq!(got.len(), 1);
    assert_eq!(got[0].message, good);
    let dls = dead_letters(bus.as_ref()).await;
    assert_eq!(dls.len(), 3, "{dls:?}");
    assert!(
        dls[0].reason.contains("invalid message JSON"),
        "{}",
        dls[0].reason
    );
    assert_eq!(dls[0].original, "{not json");
    assert!(dls[1].reason.contains("missing field"), "{}", dls[1].reason);
    assert!(dls[2].reason.contains("arrived on"), "{}", dls[2].reason);
    assert!(dls.iter().all(|d| d.role == "router" && d.deliveries == 1));
}

pub async fn a_bare_xadd_request_is_delivered_normalised(h: &impl Harness) {
    let bus = h.bus().await;
    let mut sub = bus
        .subscribe(Subscription::new("planner", vec![Topic::task_available()]))
        .await
        .expect("subscribe");
    h.inject("task_available", r#"{"query":"2+4"}"#).await;
    let got = collect(sub.as_mut(), 1, 20).await;
    assert_eq!(got.len(), 1);
    let d = &got[0];
    assert!(d.bare);
    assert_eq!(d.message.from_agent, "client");
    assert!(!d.message.task_id.is_empty());
    let Payload::TaskAvailable(req) = &d.message.payload else {
        panic!("payload {:?}", d.message.payload)
    };
    assert_eq!(req.query, "2+4");
    assert!(dead_letters(bus.as_ref()).await.is_empty());
}

pub async fn publish_once_publishes_once_under_concurrency(h: &impl Harness) {
    let mut calls = Vec::new();
    let msg = task_request("once");
    for _ in 0..20 {
        let bus = h.bus().await;
        let msg = msg.clone();
        calls.push(tokio::spawn(async move {
            bus.publish_once("chorus:test:once", Duration::from_secs(60), &msg)
                .await
                .expect("publish_once")
        }));
    }
    let mut published = 0;
    for c in calls {
        published += usize::from(c.await.expect("task"));
    }
    assert_eq!(published, 1);
    assert_eq!(h.stream_len("task_available").await, 1);
}

pub async fn publish_once_many_publishes_each_new_key_once(h: &impl Harness) {
    let bus = h.bus().await;
    let ttl = Duration::from_secs(60);
    let items: Vec<(String, _)> = (0..3)
        .map(|i| {
            (
                format!("chorus:test:many:{i}"),
                task_request(&format!("m{i}")),
            )
        })
        .collect();
    // The first call finds every key new (and, on Redis, the script not yet loaded).
    assert_eq!(
        bus.publish_once_many(&items[..2], ttl)
            .await
            .expect("first"),
        vec![true, true]
    );
    assert_eq!(
        bus.publish_once_many(&items, ttl).await.expect("second"),
        vec![false, false, true]
    );
    assert_eq!(h.stream_len("task_available").await, 3);
}

/// The value stored under a guard key.
async fn guard_value(store: &dyn Store, key: &str) -> Option<String> {
    store.get(key).await.expect("get")
}

pub async fn publish_guarded_publishes_only_behind_a_new_guard(h: &impl Harness) {
    let (bus, store) = (h.bus().await, h.store().await);
    let ttl = Duration::from_secs(60);
    let item = |i: usize| {
        (
            format!("chorus:{{test}}:g:{i}"),
            task_request(&format!("g{i}")),
        )
    };
    assert!(
        bus.publish_once(&item(1).0, ttl, &item(1).1)
            .await
            .expect("once")
    );
    // A new guard: stored with its value, each item under its own once-key.
    assert_eq!(
        bus.publish_guarded(
            "chorus:{test}:guard",
            "plan A",
            &[item(0), item(1), item(2)],
            ttl
        )
        .await
        .expect("guarded"),
        Some(vec![true, false, true])
    );
    assert_eq!(h.stream_len("task_available").await, 3);
    assert_eq!(
        guard_value(&*store, "chorus:{test}:guard").await,
        Some("plan A".into())
    );
    // The guard is set: nothing is published and the first value stays.
    assert_eq!(
        bus.publish_guarded("chorus:{test}:guard", "plan B", &[item(3)], ttl)
            .await
            .expect("guarded again"),
        None
    );
    assert_eq!(h.stream_len("task_available").await, 3);
    assert_eq!(
        guard_value(&*store, "chorus:{test}:guard").await,
        Some("plan A".into())
    );
    // An oversized item fails the whole call before anything is written.
    let huge = (
        "chorus:{test}:g:huge".to_owned(),
        task_request(&"x".repeat(100 * 1024)),
    );
    let err = bus
        .publish_guarded("chorus:{test}:guard2", "v", &[item(4), huge], ttl)
        .await
        .expect_err("too large");
    assert!(
        matches!(err, BusError::Decode(DecodeError::TooLarge { .. })),
        "{err:?}"
    );
    assert_eq!(guard_value(&*store, "chorus:{test}:guard2").await, None);
    assert_eq!(h.stream_len("task_available").await, 3);
    // Racing callers: exactly one gets through.
    let mut calls = Vec::new();
    for i in 10..20 {
        let bus = h.bus().await;
        calls.push(tokio::spawn(async move {
            bus.publish_guarded("chorus:{test}:guard3", &format!("v{i}"), &[item(i)], ttl)
                .await
                .expect("race")
        }));
    }
    let mut winners = 0;
    for c in calls {
        winners += usize::from(c.await.expect("task").is_some());
    }
    assert_eq!(winners, 1);
    assert_eq!(h.stream_len("task_available").await, 4);
}

pub async fn publish_all_once_publishes_every_message_once_or_none(h: &impl Harness) {
    let ttl = Duration::from_secs(60);
    let key = "chorus:{test}:all";
    let before = h.stream_len("math_task").await;
    // Racing callers, each with the same two messages on two streams: one gets through
    // and both of its messages go out; the others publish nothing.
    let mut calls = Vec::new();
    for _ in 0..10 {
        let bus = h.bus().await;
        calls.push(tokio::spawn(async move {
            let msgs = [task_request("all"), math_task("all")];
            bus.publish_all_once(key, ttl, &msgs).await.expect("race")
        }));
    }
    let mut winners = 0;
    for c in calls {
        winners += usize::from(c.await.expect("task"));
    }
    assert_eq!(winners, 1);
    assert_eq!(h.stream_len("task_available").await, 1);
    assert_eq!(h.stream_len("math_task").await, before + 1);
    // Once more later: the key is set, nothing goes out.
    let bus = h.bus().await;
    let again = [task_request("all"), math_task("all")];
    assert!(!bus.publish_all_once(key, ttl, &again).await.expect("again"));
    assert_eq!(h.stream_len("task_available").await, 1);
    assert_eq!(h.stream_len("math_task").await, before + 1);
}

pub async fn an_oversized_message_is_refused_with_a_clear_error(h: &impl Harness) {
    let bus = h.bus().await;
    let huge = task_request(&"x".repeat(100 * 1024));
    let err = bus.publish(&huge).await.expect_err("too large");
    assert!(
        matches!(
            err,
            BusError::Decode(DecodeError::TooLarge { limit: 65536, .. })
        ),
        "{err:?}"
    );
    assert!(
        err.to_string().contains("over the limit of 65536 bytes"),
        "{err}"
    );
    assert_eq!(h.stream_len("task_available").await, 0);
}

pub async fn a_watcher_sees_messages_published_after_it_started(h: &impl Harness) {
    let bus = h.bus().await;
    bus.publish(&task_request("before")).await.expect("publish");
    let mut watcher = bus
        .watch(&[Topic::task_available(), Topic::final_report()])
        .await
        .expect("watch");
    let after = task_request("after");
    bus.publish(&after).await.expect("publish");
    bus.publish(&math_task("unwatched")).await.expect("publish");
    let mut seen = Vec::new();
    for _ in 0..20 {
        seen.extend(watcher.next_batch().await.expect("watch batch"));
        if !seen.is_empty() {
            break;
        }
    }
    assert_eq!(seen, vec![after.clone()]);
    let recent = bus
        .recent(&Topic::task_available(), 1)
        .await
        .expect("recent");
    assert_eq!(recent, vec![after]);
}

pub async fn streams_are_capped_near_the_configured_length(h: &impl Harness) {
    let bus = h.bus().await;
    let msgs: Vec<Message> = (0..6000).map(|i| math_task(&format!("c{i}"))).collect();
    bus.publish_many(&msgs).await.expect("publish");
    let len = h.stream_len("math_task").await;
    // The cap is 5000; Redis trims approximately (whole nodes of 100 entries).
    assert!((5000..=5500).contains(&len), "len {len}");
}

pub async fn the_store_keeps_values_hashes_and_sorted_sets(h: &impl Harness) {
    let store = h.store().await;
    let ttl = Duration::from_secs(60);
    store.set("chorus:t:a", "1", ttl).await.expect("set");
    assert_eq!(
        store.get("chorus:t:a").await.expect("get"),
        Some("1".into())
    );
    assert!(!store.set_nx("chorus:t:a", "2", ttl).await.expect("nx"));
    assert!(store.set_nx("chorus:t:b", "2", ttl).await.expect("nx"));
    store.del("chorus:t:b").await.expect("del");
    assert_eq!(store.get("chorus:t:b").await.expect("get"), None);
    assert!(
        store
            .hset_nx("chorus:t:h", "s1", "ok", ttl)
            .await
            .expect("hsetnx")
    );
    assert!(
        !store
            .hset_nx("chorus:t:h", "s1", "again", ttl)
            .await
            .expect("hsetnx")
    );
    store
        .hset("chorus:t:h", "s2", "ok2", ttl)
        .await
        .expect("hset");
    store.hdel("chorus:t:h", "s2").await.expect("hdel");
    assert_eq!(
        store.hgetall("chorus:t:h").await.expect("hgetall"),
        vec![("s1".to_owned(), "ok".to_owned())]
    );
    store.zadd("chorus:t:z", "b", 20).await.expect("zadd");
    store.zadd("chorus:t:z", "a", 10).await.expect("zadd");
    store.zadd("chorus:t:z", "c", 30).await.expect("zadd");
    assert_eq!(
        store.zrange_to("chorus:t:z", 25, 10).await.expect("zrange"),
        vec!["a", "b"]
    );
    assert!(store.zrem("chorus:t:z", "a").await.expect("zrem"));
    let err = store
        .get("chorus:t:z")
        .await
        .expect_err("a sorted set is not a string");
    assert!(matches!(err, BusError::WrongType { .. }), "{err:?}");
    store
        .set("chorus:t:short", "x", Duration::from_millis(30))
        .await
        .expect("set");
    tokio::time::sleep(Duration::from_millis(80)).await;
    assert_eq!(store.get("chorus:t:short").await.expect("get"), None);
}

fn text(t: &str) -> ReportToken {
    ReportToken::Text(t.to_owned())
}

fn done(t: &str, replace: bool) -> ReportToken {
    ReportToken::Done(TokensDone {
        text: t.to_owned(),
        written_by: "llm".to_owned(),
        replace,
        reason: replace.then(|| "ungrounded".to_owned()),
    })
}

/// Reads `reader` until its done entry, or `rounds` empty waits.
async fn read_to_done(reader: &mut dyn TokenReader, rounds: usize) -> Vec<ReportToken> {
    let mut out = Vec::new();
    for _ in 0..rounds {
        out.extend(reader.next(Duration::from_millis(200)).await.expect("read"));
        if matches!(out.last(), Some(ReportToken::Done(_))) {
            break;
        }
    }
    out
}

pub async fn report_tokens_are_read_in_order_from_the_first_by_any_reader(h: &impl Harness) {
    let (writer, reader_bus) = (h.bus().await, h.bus().await);
    let (task, other) = (TaskId::from("tok-1"), TaskId::from("tok-2"));
    let ttl = Duration::from_secs(60);
    let first = [text("2+4 "), text("is ")];
    assert_eq!(
        writer
            .append_tokens(&task, &first, ttl)
            .await
            .expect("append"),
        2
    );
    let mut early = reader_bus.read_tokens(&task).await.expect("reader");
    assert_eq!(
        early
            .next(Duration::ZERO)
            .await
            .expect("read what is there"),
        first.to_vec()
    );
    let rest = [text("6."), done("2+4 is 6.", false)];
    assert_eq!(
        writer
            .append_tokens(&task, &rest, ttl)
            .await
            .expect("append"),
        4
    );
    writer
        .append_tokens(&other, &[text("elsewhere")], ttl)
        .await
        .expect("append");
    assert_eq!(read_to_done(early.as_mut(), 10).await, rest.to_vec());
    assert!(early.next(Duration::ZERO).await.expect("read").is_empty());
    // A reader made after the end reads everything from the first entry.
    let mut late = reader_bus.read_tokens(&task).await.expect("reader");
    let all: Vec<ReportToken> = first.iter().chain(&rest).cloned().collect();
    assert_eq!(read_to_done(late.as_mut(), 10).await, all);
    // A stream nobody wrote is empty, not an error.
    let mut none = reader_bus
        .read_tokens(&TaskId::from("tok-none"))
        .await
        .expect("reader");
    assert!(none.next(Duration::ZERO).await.expect("read").is_empty());
    assert!(
        none.next(Duration::from_millis(50))
            .await
            .expect("read")
            .is_empty()
    );
}

pub async fn a_token_reader_waits_for_tokens_appended_after_it_started(h: &impl Harness) {
    let bus = h.bus().await;
    let task = TaskId::from("tok-wait");
    let mut reader = bus.read_tokens(&task).await.expect("reader");
    let writer = h.bus().await;
    let (t, w) = (task.clone(), writer.clone());
    let append = tokio::spawn(async move {
        tokio::time::sleep(Duration::from_millis(100)).await;
        let tokens = [text("late "), done("late answer", true)];
        w.append_tokens(&t, &tokens, Duration::from_secs(60))
            .await
            .expect("append");
    });
    let started = std::time::Instant::now();
    let got = read_to_done(reader.as_mut(), 5).await;
    append.await.expect("appender");
    assert_eq!(got, vec![text("late "), done("late answer", true)]);
    assert!(
        started.elapsed() < Duration::from_secs(2),
        "{:?}",
        started.elapsed()
    );
}

pub async fn token_streams_are_capped_and_expire_with_their_ttl(h: &impl Harness) {
    let bus = h.bus().await;
    let task = TaskId::from("tok-cap");
    let many: Vec<ReportToken> = (0..5000).map(|i| text(&format!("{i} "))).collect();
    let len = bus
        .append_tokens(&task, &many, Duration::from_secs(60))
        .await
        .expect("append");
    // The cap is 4096; Redis trims approximately (whole nodes of 100 entries).
    assert!((4096..=4196).contains(&len), "len {len}");
    let mut reader = bus.read_tokens(&task).await.expect("reader");
    let mut read = Vec::new();
    loop {
        let batch = reader.next(Duration::ZERO).await.expect("read");
        if batch.is_empty() {
            break;
        }
        read.extend(batch);
    }
    assert_eq!(read.len(), len);
    assert_eq!(read.last(), many.last(), "the newest entries are kept");

    let short = TaskId::from("tok-short");
    bus.append_tokens(&short, &[text("gone soon")], Duration::from_millis(50))
        .await
        .expect("append");
    tokio::time::sleep(Duration::from_millis(150)).await;
    let mut reader = bus.read_tokens(&short).await.expect("reader");
    assert!(reader.next(Duration::ZERO).await.expect("read").is_empty());
}

pub async fn stream_stats_count_entries_and_each_groups_pending(h: &impl Harness) {
    let bus = h.bus().await;
    let (tasks, absent) = (Topic::pool_task("math"), Topic::pool_task("date"));
    let mut pool = bus
        .subscribe(Subscription::new("pool-math", vec![tasks.clone()]))
        .await
        .expect("subscribe");
    for i in 0..3 {
        bus.publish(&math_task(&format!("stats-{i}")))
            .await
            .expect("publish");
    }
    let mut got = Vec::new();
    for _ in 0..20 {
        got.extend(pool.next_batch().await.expect("next_batch"));
        if got.len() >= 3 {
            break;
        }
    }
    assert_eq!(got.len(), 3);
    pool.ack(&[got[0].ack_token()]).await.expect("ack"); // two stay pending
    let stats = bus
        .stream_stats(&[tasks.clone(), absent.clone()])
        .await
        .expect("stats");
    let pending = vec![GroupStats {
        group: "pool-math".into(),
        pending: 2,
    }];
    let expected = [
        StreamStats {
            topic: tasks,
            length: 3,
            groups: pending,
        },
        StreamStats {
            topic: absent,
            length: 0,
            groups: Vec::new(),
        },
    ];
    assert_eq!(stats, expected);
}
