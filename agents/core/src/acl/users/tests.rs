use super::*;
use crate::acl::password_env;

fn topology() -> Topology {
    Topology::new(&["math".into(), "date".into()])
}

fn user<'a>(users: &'a [AclUser], name: &str) -> &'a AclUser {
    users.iter().find(|u| u.name == name).expect(name)
}

#[test]
fn there_is_one_user_per_role_and_pool_plus_client_and_watcher() {
    let names: Vec<String> = users(&topology()).into_iter().map(|u| u.name).collect();
    assert_eq!(
        names,
        [
            "chief",
            "planner",
            "router",
            "synthesizer",
            "verifier",
            "pool-math",
            "pool-date",
            "client",
            "watcher"
        ]
    );
    assert_eq!(password_env("pool-math"), "CHORUS_ACL_PASSWORD_POOL_MATH");
}

#[test]
fn a_pool_reads_its_own_stream_and_writes_no_plan_or_report() {
    let all = users(&topology());
    let math = user(&all, "pool-math");
    assert!(math.keys.contains(&"~math_task".to_owned()));
    assert!(math.grants("~math_result"));
    assert!(math.grants("~dead_letter"));
    assert!(math.grants("~agent_heartbeat"));
    let rules = math.rules();
    for never in ["date_task", "plan_ready", "final_report", "task_available"] {
        assert!(!rules.contains(never), "{never} in {rules}");
    }
    assert!(!rules.contains("~chorus:{* "), "{rules}");
    assert!(!math.commands.contains(&"keys"));
    assert!(!math.commands.iter().any(|c| c.starts_with("flush")));
}

#[test]
fn a_stream_a_user_only_writes_is_in_its_append_selector_alone() {
    let all = users(&topology());
    for u in &all {
        for s in &u.selectors {
            for c in &s.commands {
                assert!(
                    APPEND_COMMANDS.contains(c),
                    "{}: {c} in a selector: {}",
                    u.name,
                    s.rule()
                );
            }
        }
        assert!(
            !u.commands.contains(&"xadd"),
            "{}: xadd at the root",
            u.name
        );
    }
    let math = user(&all, "pool-math");
    for written in [
        "math_result",
        "tool_request",
        "tool_response",
        "dead_letter",
    ] {
        assert!(!math.keys.iter().any(|k| k.ends_with(written)), "{written}");
        assert!(math.selectors[0].keys.contains(&format!("~{written}")));
    }
    let planner = user(&all, "planner");
    assert!(!planner.keys.iter().any(|k| k.ends_with("plan_ready")));
    assert!(planner.grants("~plan_ready"));
    let client = user(&all, "client");
    assert!(!client.keys.iter().any(|k| k.ends_with("task_available")));
    assert!(client.grants("~task_available"));
    assert_eq!(
        math.selectors[0].rule().split(' ').next(),
        Some("(+xadd"),
        "{math:?}"
    );
    assert!(
        math.rules()
            .contains(" (+xadd +zadd +eval +evalsha ~math_result ")
    );
    // The Cluster's append script SETs the stream's dedupe key (root rules) and
    // XADDs to the stream (the selector): each in one of them.
    for u in [math, planner, client] {
        let sent = u
            .keys
            .iter()
            .filter(|k| k.starts_with("~chorus:sent:"))
            .count();
        assert!(sent > 0, "{}: {:?}", u.name, u.keys);
    }
    assert!(
        math.keys
            .contains(&"~chorus:sent:{math_result}:*".to_owned())
    );
    assert!(math.commands.contains(&"cluster|slots") && math.commands.contains(&"asking"));
}

#[test]
fn each_role_writes_its_own_registry_entries_only() {
    let all = users(&topology());
    for u in &all {
        let own = keys::registry(&u.name);
        let writes_registry: Vec<&String> = u
            .keys
            .iter()
            .chain(u.selectors.iter().flat_map(|s| &s.keys))
            .filter(|k| k.contains("chorus:registry") && !k.starts_with("%R~"))
            .collect();
        for k in writes_registry {
            assert!(
                *k == format!("~{own}") || *k == format!("%W~{}", keys::REGISTRY),
                "{}: {k}",
                u.name
            );
        }
    }
    let math = user(&all, "pool-math");
    assert!(math.keys.contains(&"~chorus:registry:pool-math".to_owned()));
    assert!(
        math.selectors[0]
            .keys
            .contains(&"%W~chorus:registry".to_owned())
    );
    assert!(!math.commands.contains(&"zrem") && !math.commands.contains(&"del"));
    let planner = user(&all, "planner");
    assert!(planner.keys.contains(&"%R~chorus:registry:*".to_owned()));
    assert!(planner.keys.contains(&"%R~chorus:registry".to_owned()));
}

#[test]
fn roles_get_what_the_table_says() {
    let all = users(&topology());
    let planner = user(&all, "planner");
    assert!(planner.keys.contains(&"~task_available".to_owned()));
    assert!(planner.grants("~plan_ready"));
    assert!(planner.grants("~math_task"));
    assert!(!planner.rules().contains("final_report"));
    let router = user(&all, "router");
    assert!(router.keys.contains(&"~math_result".to_owned()));
    assert!(router.grants("~date_task"));
    assert!(
        !router
            .keys
            .iter()
            .any(|k| k == "~date_task" || k == "%R~date_task")
    );
    assert!(
        !router
            .keys
            .iter()
            .any(|k| k.contains("plan_ready") && k.starts_with("%W"))
    );
    let chief = user(&all, "chief");
    assert!(chief.keys.contains(&"%R~plan_ready".to_owned()));
    assert!(chief.keys.contains(&"%R~math_result".to_owned()));
    assert!(!chief.grants("~plan_ready"));
    // It sends a paused task's question the Planner's publish never got out: it
    // appends to `clarification_needed` (in its append selector, with the stream's
    // Cluster dedupe keys), and reads it only as it reads every stream.
    assert!(chief.grants("~clarification_needed"));
    assert!(
        chief.selectors[0]
            .keys
            .contains(&"~clarification_needed".to_owned())
    );
    assert!(chief.keys.contains(&"%R~clarification_needed".to_owned()));
    assert!(
        chief
            .keys
            .contains(&"~chorus:sent:{clarification_needed}:*".to_owned())
    );
    for other in ["router", "synthesizer", "verifier", "pool-math"] {
        assert!(
            !user(&all, other).grants("~clarification_needed"),
            "{other}"
        );
    }
    let synth = user(&all, "synthesizer");
    assert!(synth.keys.contains(&"~report_tokens:*".to_owned()));
    assert!(synth.grants("~final_report"));
    assert!(synth.channels.contains(&"final_report".to_owned()));
}

#[test]
fn the_client_cannot_read_state_and_the_watcher_cannot_write() {
    let all = users(&topology());
    let client = user(&all, "client");
    assert!(
        !client
            .keys
            .iter()
            .any(|k| k == "~chorus:{*" || k == "%R~chorus:*")
    );
    assert!(client.grants("~task_available"));
    assert!(client.keys.contains(&"%R~final_report".to_owned()));
    let watcher = user(&all, "watcher");
    assert!(watcher.keys.iter().all(|k| k.starts_with("%R~")));
    assert!(watcher.selectors.is_empty());
    for write in ["xadd", "publish", "set", "eval", "del", "hset", "xack"] {
        assert!(!watcher.commands.contains(&write), "{write}");
    }
}
