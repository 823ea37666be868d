//! The key names' tests.

use super::*;

#[test]
fn slots_match_the_cluster_specification() {
    // Values from the Redis Cluster specification and `CLUSTER KEYSLOT`.
    assert_eq!(slot("123456789"), 0x31C3);
    assert_eq!(slot("foo"), 12182);
    assert_eq!(slot("{user1000}.following"), slot("{user1000}.followers"));
    assert_eq!(slot("foo{}{bar}"), slot("foo{}{bar}"));
    assert_ne!(hash_tag("foo{}{bar}"), "bar");
    assert_eq!(hash_tag("foo{{bar}}zap"), "{bar");
    assert_eq!(hash_tag("foo{bar}{zap}"), "bar");
}

#[test]
fn every_key_of_a_task_shares_the_task_slot() {
    let task = &TaskId::from("0194-abc");
    let want = slot(task);
    let keys = [
        plan(task),
        results(task, 1),
        results(task, 3),
        request(task),
        report(task),
        question(task),
        question_resumed(task, 2),
        once::accepted(task),
        once::published(&once::accepted(task)),
        once::planned(task),
        once::replanned(task, 2),
        once::dispatched(task, &"s1".into(), 1),
        once::response(task, &"s1".into(), 2),
        once::result(task, &"s1".into(), 1),
        once::verdict(task, 1),
        once::renavigate(task, 1),
        once::asked(task, 1),
        once::answered(task, 1),
        once::published(&once::answered(task, 1)),
        once::answer_refused(task, "1-0"),
        once::cancel_refused(task, "1-0"),
        once::reported(task),
        once::published(&once::reported(task)),
        once::writing(task),
    ];
    for key in keys {
        assert_eq!(slot(&key), want, "{key}");
        assert!(key.starts_with(&task_prefix(task)), "{key}");
    }
}

#[test]
fn a_streams_dedupe_keys_share_the_streams_slot() {
    for stream in ["task_available", "plan_ready", "math_task", "final_report"] {
        let key = sent(stream, &once::planned(&"t1".into()));
        assert_eq!(slot(&key), slot(stream), "{key}");
    }
}

#[test]
fn one_partition_keeps_every_stream_name() {
    for topic in ["plan_ready", "math_task", "task_available", "dead_letter"] {
        assert_eq!(partition_stream(topic, 0, 1), topic);
        assert_eq!(partition_streams(topic, 1), vec![topic.to_owned()]);
        assert_eq!(
            sent(topic, "chorus:{t}:once:planned"),
            format!("chorus:sent:{{{topic}}}:chorus:{{t}}:once:planned")
        );
    }
    assert_eq!(partition_of(&"any".into(), 1), 0);
}

#[test]
fn client_facing_topics_are_never_partitioned() {
    for topic in [
        "task_available",
        "clarification_answer",
        "task_cancel",
        "final_report",
        "dead_letter",
        "agent_heartbeat",
    ] {
        assert_eq!(partition_streams(topic, 6), vec![topic.to_owned()]);
    }
    assert_eq!(partition_streams("math_task", 6).len(), 6);
}

#[test]
fn partition_k_lands_in_the_kth_slot_range_shared_by_every_topic() {
    for n in [2u32, 3, 4, 6, 8, 64] {
        let width = 16384 / n;
        for k in 0..n {
            let streams: Vec<String> = ["plan_ready", "math_task", "tool_response"]
                .iter()
                .map(|t| partition_stream(t, k, n))
                .collect();
            let s = u32::from(slot(&streams[0]));
            assert!(s >= k * width && s < (k + 1) * width, "{n} {k} {s}");
            for stream in &streams {
                assert_eq!(slot(stream), slot(&streams[0]), "{stream}");
                let key = sent(stream, &once::planned(&"t1".into()));
                assert_eq!(slot(&key), slot(stream), "{key}");
                let (topic, tag) = split_partition(stream).expect("partitioned");
                assert!(
                    stream.starts_with(topic) && tag.starts_with('p'),
                    "{stream}"
                );
            }
        }
    }
    assert_eq!(
        partition_stream("plan_ready", 1, 3),
        format!("plan_ready:{{{}}}", partition_tag(1, 3))
    );
}

#[test]
fn tasks_spread_over_the_partitions() {
    let mut counts = [0u32; 6];
    for i in 0..6000 {
        let task = TaskId::from(format!("0194e1c2-{i:08x}").as_str());
        counts[partition_of(&task, 6) as usize] += 1;
    }
    for c in counts {
        assert!((800..1200).contains(&c), "{counts:?}");
    }
}

#[test]
fn acl_patterns_cover_every_partition() {
    let glob = |pattern: &str, key: &str| {
        // Enough of Redis's glob for these patterns: `*` only.
        let parts: Vec<&str> = pattern.split('*').collect();
        let mut rest = key;
        for (i, part) in parts.iter().enumerate() {
            match rest.find(part) {
                Some(0) => rest = &rest[part.len()..],
                Some(at) if i > 0 => rest = &rest[at + part.len()..],
                _ => return false,
            }
        }
        parts.last().is_some_and(|p| p.is_empty()) || rest.is_empty()
    };
    for n in [1, 3, 6] {
        for stream in partition_streams("math_task", n) {
            assert!(
                patterns::streams("math_task")
                    .iter()
                    .any(|p| glob(p, &stream)),
                "{stream}"
            );
            let key = sent(&stream, "chorus:{t}:once:dispatch:s1");
            assert!(
                patterns::sents("math_task").iter().any(|p| glob(p, &key)),
                "{key}"
            );
            assert!(
                !patterns::sents("date_task").iter().any(|p| glob(p, &key)),
                "{key}"
            );
        }
    }
}

#[test]
fn an_outbox_shares_its_once_keys_slot() {
    for key in [
        once::planned(&"t1".into()),
        "chorus:plain".to_owned(),
        ingress_raw("ab"),
    ] {
        assert_eq!(slot(&outbox(&key)), slot(&key), "{key}");
    }
}

#[test]
fn an_ingress_key_and_its_publish_marker_share_a_slot() {
    let raw = ingress_raw("00ff");
    assert_eq!(slot(&raw), slot(&once::published(&raw)));
    let dead = ingress_dead("task_available", "00ff");
    assert_eq!(slot(&dead), slot(&once::published(&dead)));
}
