//! Bus benchmark: publish→deliver latency (one message at a time, p50/p99) and batch
//! throughput (publish_many + COUNT reads + pipelined acks), on Redis and in memory.
//! Prints figures; asserts nothing.
//!
//! `cargo bench -p chorus-bus --bench bus_latency` starts its own redis-server, or uses
//! `CHORUS_BENCH_REDIS_URL` when set.

use std::sync::Arc;
use std::time::{Duration, Instant};

use chorus_bus::*;
use chorus_bus_redis::*;
use chorus_testkit::RedisServer;

const LATENCY_ROUNDS: usize = 2000;
const THROUGHPUT_MESSAGES: usize = 50_000;
const PUBLISH_CHUNK: usize = 500;

fn step(pool: &str, i: usize) -> Message {
    let args = serde_json::json!({"a": i, "b": 4});
    Message::new(
        format!("bench-{i}"),
        Topic::pool_task(pool),
        "bench",
        Payload::StepTask(StepTask {
            step_id: "s1".into(),
            pool: pool.into(),
            tool: "sum".into(),
            arguments: args.as_object().cloned().unwrap_or_default(),
            context: TaskContext::default(),
            iteration: 1,
        }),
    )
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i.min(sorted.len() - 1)]
}

async fn latency(bus: &dyn Bus, role: &str) -> (Duration, Duration) {
    let mut sub = bus
        .subscribe(Subscription::new(role, vec![Topic::pool_task("bench")]))
        .await
        .expect("subscribe");
    let mut samples = Vec::with_capacity(LATENCY_ROUNDS);
    for i in 0..LATENCY_ROUNDS {
        let msg = step("bench", i);
        let start = Instant::now();
        bus.publish(&msg).await.expect("publish");
        loop {
            let batch = sub.next_batch().await.expect("next_batch");
            if batch.iter().any(|d| d.message.id == msg.id) {
                samples.push(start.elapsed());
                let tokens: Vec<AckToken> = batch.iter().map(Delivery::ack_token).collect();
                sub.ack(&tokens).await.expect("ack");
                break;
            }
        }
    }
    samples.sort();
    (percentile(&samples, 0.5), percentile(&samples, 0.99))
}

async fn throughput(bus: Arc<dyn Bus>, role: &str) -> f64 {
    let mut sub = bus
        .subscribe(Subscription::new(role, vec![Topic::pool_task("bulk")]))
        .await
        .expect("subscribe");
    let msgs: Vec<Message> = (0..THROUGHPUT_MESSAGES).map(|i| step("bulk", i)).collect();
    let start = Instant::now();
    let publisher = {
        let bus = bus.clone();
        tokio::spawn(async move {
            for chunk in msgs.chunks(PUBLISH_CHUNK) {
                bus.publish_many(chunk).await.expect("publish_many");
            }
        })
    };
    let mut handled = 0;
    while handled < THROUGHPUT_MESSAGES {
        let batch = sub.next_batch().await.expect("next_batch");
        let tokens: Vec<AckToken> = batch.iter().map(Delivery::ack_token).collect();
        sub.ack(&tokens).await.expect("ack");
        handled += batch.len();
    }
    publisher.await.expect("publisher");
    THROUGHPUT_MESSAGES as f64 / start.elapsed().as_secs_f64()
}

fn settings(url: String) -> BusSettings {
    BusSettings {
        redis_url: url,
        batch_count: 256,
        stream_maxlen: 1_000_000,
        ..BusSettings::default()
    }
}

#[tokio::main]
async fn main() {
    let (_server, url) = match std::env::var("CHORUS_BENCH_REDIS_URL") {
        Ok(url) => (None, url),
        Err(_) => {
            let server = RedisServer::start();
            let url = server.url();
            (Some(server), url)
        }
    };
    let redis: Arc<dyn Bus> = Arc::new(
        RedisBus::connect(settings(url.clone()))
            .await
            .expect("connect"),
    );
    let memory: Arc<dyn Bus> = Arc::new(MemoryBus::new(settings(url)));
    for (name, bus) in [("redis", redis), ("memory", memory)] {
        let (p50, p99) = latency(bus.as_ref(), "bench-latency").await;
        let rate = throughput(bus.clone(), "bench-throughput").await;
        println!(
            "{name:>6}: publish→deliver p50 {:.3} ms, p99 {:.3} ms ({LATENCY_ROUNDS} one at a time); \
             batch throughput {rate:.0} msg/s ({THROUGHPUT_MESSAGES} msgs, publish_many {PUBLISH_CHUNK}, COUNT 256, pipelined acks)",
            p50.as_secs_f64() * 1e3,
            p99.as_secs_f64() * 1e3,
        );
    }
}
