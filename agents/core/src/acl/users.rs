//! The users the topology table makes: one per role (a pool's agents share their
//! pool's), the client and the watcher, each with the keys and channels its job needs.

use chorus_bus::Topic;
use chorus_bus::keys::{self, patterns};
use chorus_bus::tokens::TOKEN_STREAM_PREFIX;

use super::commands::{
    APPEND_COMMANDS, CLIENT_COMMANDS, POOL_COMMANDS, ROLE_COMMANDS, WATCHER_COMMANDS,
};
use super::rule::{AclUser, Selector, ro, rw, wo};
use crate::topology::{Role, Topology};

/// The name of the user a client (`chorus ask`, `chorus cancel`, an outside program)
/// connects as.
pub const CLIENT_USER: &str = "client";
/// The name of the read-only user of `chorus watch` and `chorus trace`.
pub const WATCHER_USER: &str = "watcher";

/// The topics a client submits to.
const CLIENT_WRITES: &[&str] = &[
    Topic::TASK_AVAILABLE,
    Topic::CLARIFICATION_ANSWER,
    Topic::TASK_CANCEL,
];
/// The topics a client reads: what its task says (reports, questions) and its progress.
const CLIENT_READS: &[&str] = &[
    Topic::FINAL_REPORT,
    Topic::CLARIFICATION_NEEDED,
    Topic::PLAN_READY,
    Topic::TOOL_RESPONSE,
];

/// The ACL user a role's processes connect as (its consumer group's name).
pub fn user_of(role: &Role) -> String {
    role.group()
}

/// Pushes `item` unless it is there already.
fn push_new(list: &mut Vec<String>, item: String) {
    if !list.contains(&item) {
        list.push(item);
    }
}

/// The user of `role`'s processes.
pub fn role_user(topology: &Topology, role: &Role) -> AclUser {
    let reads = topology.reads(role);
    let writes = topology.writes(role);
    let group = user_of(role);
    let mut keys = Vec::new();
    let mut channels = Vec::new();
    // Read with a consumer group (XREADGROUP, XACK, XCLAIM and XGROUP count as writes),
    // on every stream of the topic (its partitions, with `bus.partitions` > 1).
    for t in &reads {
        for stream in patterns::streams(t.as_str()) {
            push_new(&mut keys, rw(&stream));
        }
    }
    // Every topic it reads or writes, dead letters and heartbeats are mirrored (on the
    // channel of each stream).
    for t in reads
        .iter()
        .chain(&writes)
        .chain([&Topic::dead_letter(), &Topic::agent_heartbeat()])
    {
        for stream in patterns::streams(t.as_str()) {
            push_new(&mut channels, stream);
        }
    }
    // The Chief's process hosts the HTTP doors, which stream a task's progress (its
    // plan, steps and tool events) to their clients: it reads every topic.
    if *role == Role::Chief {
        for t in topology.topics() {
            for stream in patterns::streams(t.as_str()) {
                if !keys.contains(&rw(&stream)) {
                    push_new(&mut keys, ro(&stream));
                }
                push_new(&mut channels, stream);
            }
        }
    }
    let pool = matches!(role, Role::Pool(_));
    let state: &[&str] = match role {
        // A pool agent sets the once-keys of its results and tool events; it reads no
        // task state.
        Role::Pool(_) => patterns::POOL_ONCE,
        Role::Chief => &[
            patterns::TASKS,
            keys::DEADLINES,
            keys::WAITING,
            patterns::SESSIONS,
            patterns::INGRESS,
        ],
        _ => &[
            patterns::TASKS,
            keys::DEADLINES,
            keys::WAITING,
            patterns::SESSIONS,
        ],
    };
    keys.extend(state.iter().map(|k| rw(k)));
    // In Cluster a claimed publish reaches its stream through a script that sets the
    // stream's dedupe key (SET, checked against these root rules) beside the stream (in
    // the append selector): a role may set those of the streams it writes.
    for t in writes.iter().chain([&Topic::dead_letter()]) {
        for sent in patterns::sents(t.as_str()) {
            push_new(&mut keys, rw(&sent));
        }
    }
    // Its own group's registry entries; a role other than a pool reads the others'.
    keys.push(rw(&keys::registry(&group)));
    if !pool {
        keys.push(ro(keys::REGISTRY));
        keys.push(ro(patterns::REGISTRY_ENTRIES));
    }
    if matches!(role, Role::Synthesizer | Role::Chief) {
        keys.push(rw(&format!("{TOKEN_STREAM_PREFIX}*")));
    }
    AclUser {
        name: group,
        commands: if pool { POOL_COMMANDS } else { ROLE_COMMANDS }.to_vec(),
        keys,
        channels,
        selectors: vec![append_selector(role, &writes, state)],
    }
}

/// The appends of a role: the streams it writes, dead letters and heartbeats, with the
/// state keys its once-scripts declare beside them (and, in Cluster, the streams'
/// dedupe keys); its group in the registry's index.
fn append_selector(role: &Role, writes: &[Topic], state: &[&str]) -> Selector {
    let streams: Vec<Topic> = writes
        .iter()
        .cloned()
        .chain([Topic::dead_letter(), Topic::agent_heartbeat()])
        .collect();
    let mut keys = Vec::new();
    for t in &streams {
        for stream in patterns::streams(t.as_str()) {
            push_new(&mut keys, rw(&stream));
        }
    }
    for k in state {
        push_new(&mut keys, rw(k));
    }
    for t in &streams {
        for sent in patterns::sents(t.as_str()) {
            push_new(&mut keys, rw(&sent));
        }
    }
    if *role == Role::Synthesizer {
        keys.push(rw(&format!("{TOKEN_STREAM_PREFIX}*")));
    }
    keys.push(wo(keys::REGISTRY));
    Selector {
        commands: APPEND_COMMANDS.to_vec(),
        keys,
    }
}

/// The client user: submits requests, answers and cancellations, reads reports,
/// questions and progress; no task state except the once-keys guarding what it submits
/// and the open question it answers.
pub fn client_user() -> AclUser {
    let mut keys: Vec<String> = CLIENT_READS
        .iter()
        .flat_map(|t| patterns::streams(t))
        .map(|t| ro(&t))
        .collect();
    keys.push(ro(&format!("{TOKEN_STREAM_PREFIX}*")));
    keys.extend(patterns::CLIENT_ONCE.iter().map(|k| rw(k)));
    // The dedupe keys of its streams (set by the Cluster's append script).
    keys.extend(CLIENT_WRITES.iter().map(|t| rw(&patterns::sent(t))));
    // Answering checks the task's open question and whether it has ended (its report,
    // which `final_report` carries to every client anyway).
    keys.push(ro(patterns::QUESTION));
    keys.push(ro(patterns::REPORT));
    // The registry of live agents (`chorus ask` checks something would answer).
    keys.push(ro(keys::REGISTRY));
    keys.push(ro(patterns::REGISTRY_ENTRIES));
    // Submissions go through the once-scripts (EVAL's declared keys need `~`), in the
    // append selector: the client cannot read what other clients submitted.
    let mut appends: Vec<String> = CLIENT_WRITES.iter().map(|t| rw(t)).collect();
    appends.extend(patterns::CLIENT_ONCE.iter().map(|k| rw(k)));
    appends.extend(CLIENT_WRITES.iter().map(|t| rw(&patterns::sent(t))));
    let mut channels: Vec<String> = CLIENT_WRITES
        .iter()
        .chain(CLIENT_READS)
        .flat_map(|t| patterns::streams(t))
        .collect();
    channels.push(format!("{TOKEN_STREAM_PREFIX}*"));
    AclUser {
        name: CLIENT_USER.to_owned(),
        commands: CLIENT_COMMANDS.to_vec(),
        keys,
        channels,
        selectors: vec![Selector {
            // The client adds nothing to the registry.
            commands: ["xadd", "eval", "evalsha"].to_vec(),
            keys: appends,
        }],
    }
}

/// The watcher user: reads every topic and the state, writes nothing.
pub fn watcher_user(topology: &Topology) -> AclUser {
    let mut keys: Vec<String> = topology
        .topics()
        .iter()
        .flat_map(|t| patterns::streams(t.as_str()))
        .map(|t| ro(&t))
        .collect();
    keys.push(ro(&format!("{TOKEN_STREAM_PREFIX}*")));
    keys.push(ro(patterns::ALL));
    let mut channels: Vec<String> = topology
        .topics()
        .iter()
        .flat_map(|t| patterns::streams(t.as_str()))
        .collect();
    channels.push(format!("{TOKEN_STREAM_PREFIX}*"));
    AclUser {
        name: WATCHER_USER.to_owned(),
        commands: WATCHER_COMMANDS.to_vec(),
        keys,
        channels,
        selectors: Vec::new(),
    }
}

/// Every user of a system with `topology`'s pools: the roles, one per pool, the client
/// and the watcher.
pub fn users(topology: &Topology) -> Vec<AclUser> {
    let mut out: Vec<AclUser> = topology
        .roles()
        .iter()
        .map(|r| role_user(topology, r))
        .collect();
    out.push(client_user());
    out.push(watcher_user(topology));
    out
}

#[cfg(test)]
mod tests {
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
}
