//! The in-memory store's tests: TTLs, hashes and sorted sets as Redis has them, retiring keys.

use super::*;

#[tokio::test]
async fn keys_expire_after_their_ttl() {
    let store = MemoryStore::new();
    store
        .set("chorus:a", "1", Duration::from_millis(20))
        .await
        .expect("set");
    assert_eq!(store.get("chorus:a").await.expect("get"), Some("1".into()));
    tokio::time::sleep(Duration::from_millis(40)).await;
    assert_eq!(store.get("chorus:a").await.expect("get"), None);
    assert!(
        store
            .set_nx("chorus:a", "2", Duration::from_secs(9))
            .await
            .expect("nx")
    );
    assert!(
        !store
            .set_nx("chorus:a", "3", Duration::from_secs(9))
            .await
            .expect("nx")
    );
}

#[tokio::test]
async fn hashes_and_sorted_sets_behave_like_redis() {
    let store = MemoryStore::new();
    let ttl = Duration::from_secs(60);
    assert!(store.hset_nx("h", "f", "1", ttl).await.expect("hsetnx"));
    assert!(!store.hset_nx("h", "f", "2", ttl).await.expect("hsetnx"));
    store.hset("h", "g", "3", ttl).await.expect("hset");
    let mut all = store.hgetall("h").await.expect("hgetall");
    all.sort();
    assert_eq!(
        all,
        vec![("f".into(), "1".into()), ("g".into(), "3".into())]
    );
    store.zadd("z", "late", 30).await.expect("zadd");
    store.zadd("z", "early", 10).await.expect("zadd");
    store.zadd("z", "mid", 20).await.expect("zadd");
    assert_eq!(
        store.zrange_to("z", 20, 10).await.expect("range"),
        vec!["early", "mid"]
    );
    assert!(store.zrem("z", "early").await.expect("zrem"));
    assert!(!store.zrem("z", "early").await.expect("zrem"));
    let err = store.get("z").await.expect_err("wrong type");
    assert!(matches!(err, BusError::WrongType { .. }));
}

#[tokio::test]
async fn retiring_keeps_what_hangs_on_a_condition_key_when_it_exists() {
    use crate::store::KeepIf;
    let store = MemoryStore::new();
    let long = Duration::from_secs(86_400);
    let short = Duration::from_secs(30);
    store.set("t:question", "q", long).await.expect("set");
    store.set("t:answered", "a", long).await.expect("set");
    store.zadd("waiting", "t", 1).await.expect("zadd");
    let r = Retirement {
        set: Vec::new(),
        keep: Vec::new(),
        delete: Vec::new(),
        zrem: Vec::new(),
        ttl: short,
        keep_if: Some(KeepIf {
            key: "t:question".into(),
            keep: vec!["t:answered".into()],
            zrem: vec![("waiting".into(), "t".into())],
        }),
    };
    store.retire(&r).await.expect("retire");
    let left = store.keys_with_ttl("t:");
    assert_eq!(left.len(), 2, "{left:?}");
    assert!(left.iter().all(|(_, ttl)| ttl.is_some_and(|t| t <= short)));
    assert!(
        store
            .zrange_to("waiting", 10, 10)
            .await
            .expect("z")
            .is_empty()
    );
}

#[tokio::test]
async fn retiring_keeps_what_it_names_with_the_short_ttl_and_deletes_the_rest() {
    let store = MemoryStore::new();
    let long = Duration::from_secs(86_400);
    let short = Duration::from_secs(30);
    store.set("t:kept", "k", long).await.expect("set");
    store.set("t:gone", "g", long).await.expect("set");
    store.hset("t:hash", "f", "v", long).await.expect("hset");
    store.zadd("open", "t", 1).await.expect("zadd");
    store.zadd("open", "u", 2).await.expect("zadd");
    let r = Retirement {
        set: vec![("t:report".into(), "r".into())],
        keep: vec!["t:kept".into(), "t:absent".into()],
        delete: vec!["t:gone".into(), "t:hash".into()],
        zrem: vec![("open".into(), "t".into())],
        ttl: short,
        keep_if: None,
    };
    store.retire(&r).await.expect("retire");
    let left = store.keys_with_ttl("t:");
    let names: Vec<&str> = left.iter().map(|(k, _)| k.as_str()).collect();
    assert_eq!(names, ["t:kept", "t:report"]);
    assert!(left.iter().all(|(_, ttl)| ttl.is_some_and(|t| t <= short)));
    assert_eq!(store.zrange_to("open", 10, 10).await.expect("z"), ["u"]);
    // The guard is set: a late writer neither stores nor reopens.
    let opened = store
        .set_and_zadd_unless("t:kept", "t:request", "q", long, "open", "t", 3)
        .await
        .expect("unless");
    assert!(!opened);
    assert!(store.get("t:request").await.expect("get").is_none());
    let opened = store
        .set_and_zadd_unless("v:guard", "v:request", "q", long, "open", "v", 3)
        .await
        .expect("unless");
    assert!(opened);
    assert_eq!(
        store.zrange_to("open", 10, 10).await.expect("z"),
        ["u", "v"]
    );
}
