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
mod tests;
