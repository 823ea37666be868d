//! Least privilege on Redis: one ACL user per role, built from the topology table.
//! `chorus acl` prints these users as a file for `redis-server --aclfile`; each process
//! connects as its role's user (`bus.redis_user`, password from the variable
//! `bus.redis_password_env` names). docs/security.md explains what each can and cannot do.
//!
//! A role may read (with its consumer group: XREADGROUP, XACK, XCLAIM, XPENDING, XGROUP)
//! the streams it reads in the table, append to the streams it writes (and mirror them
//! on the channel of the same name), write `dead_letter` and `agent_heartbeat`, and touch
//! the state keys its job needs. A pool agent reads its own pool's stream only and
//! writes its results and tool events: it cannot publish a plan or a report.
//!
//! Appends go through a selector of their own (Redis 7 ACL selectors): a user's root
//! rules hold the commands that read and the keys of the streams it reads, and one
//! selector holds the appending commands (`XADD`, `ZADD`, and `EVAL`/`EVALSHA` for the
//! once-scripts) with the streams it writes. Redis asks read *and* write permission for
//! the keys a script declares, so the streams a role writes through the once-scripts
//! need `~` (not `%W~`); in the selector, `~` lets only those commands at them, and a
//! script's own commands are checked one by one against the root and the selector. So a
//! role cannot read (XREAD, XRANGE, XREADGROUP, XCLAIM, …) a stream it only writes, nor
//! append to one it only reads. In the registry each role writes its own group's hash
//! only (`chorus:registry:<group>`) and may add its group to the index (`ZADD`).

use chorus_bus::Topic;
use chorus_bus::keys::{self, patterns};
use chorus_bus::tokens::TOKEN_STREAM_PREFIX;

use crate::topology::{Role, Topology};

/// The prefix of the environment variables holding the users' passwords:
/// `CHORUS_ACL_PASSWORD_PLANNER`, `CHORUS_ACL_PASSWORD_POOL_MATH`, …
pub const PASSWORD_ENV_PREFIX: &str = "CHORUS_ACL_PASSWORD_";

/// The name of the user a client (`chorus ask`, `chorus cancel`, an outside program)
/// connects as.
pub const CLIENT_USER: &str = "client";
/// The name of the read-only user of `chorus watch` and `chorus trace`.
pub const WATCHER_USER: &str = "watcher";

/// Commands of every role's process apart from its appends ([`APPEND_COMMANDS`]): its
/// consumer groups, the mirrors, the state scripts (EVAL/EVALSHA/SCRIPT LOAD), the
/// atomic dead-letter pipeline (MULTI/EXEC), the state store and the PUBLISH ingress
/// (SUBSCRIBE). Key patterns limit what each command may touch.
const ROLE_COMMANDS: &[&str] = &[
    "ping",
    // Sentinel mode: redis-rs checks the primary the sentinels name with ROLE;
    // `bus.replica_acks` sends WAIT.
    "role",
    "wait",
    // Cluster mode: redis-rs learns the slots with CLUSTER SLOTS and follows an ASK
    // redirection with ASKING.
    "cluster|slots",
    "asking",
    "publish",
    "subscribe",
    "unsubscribe",
    "xreadgroup",
    "xack",
    "xclaim",
    "xpending",
    "xgroup|create",
    "xgroup|delconsumer",
    "xinfo|consumers",
    "xinfo|groups",
    "xread",
    "xrange",
    "xrevrange",
    "xlen",
    "eval",
    "evalsha",
    "script|load",
    "multi",
    "exec",
    "discard",
    "get",
    "mget",
    "exists",
    "set",
    "del",
    "hset",
    "hsetnx",
    "hdel",
    "hgetall",
    "pexpire",
    "zadd",
    "zrangebyscore",
    "zrem",
];

/// Commands of a pool agent apart from its appends ([`APPEND_COMMANDS`]): its group,
/// the mirrors, the dead-letter pipeline, its heartbeat in the registry, and the length
/// of its stream (`XLEN`, sampled for `chorus_stream_length`).
const POOL_COMMANDS: &[&str] = &[
    "ping",
    // Sentinel mode: redis-rs checks the primary the sentinels name with ROLE;
    // `bus.replica_acks` sends WAIT.
    "role",
    "wait",
    // Cluster mode: redis-rs learns the slots with CLUSTER SLOTS and follows an ASK
    // redirection with ASKING.
    "cluster|slots",
    "asking",
    "publish",
    "xreadgroup",
    "xack",
    "xclaim",
    "xpending",
    "xgroup|create",
    "xgroup|delconsumer",
    "xinfo|consumers",
    "xinfo|groups",
    "xlen",
    "script|load",
    "multi",
    "exec",
    "discard",
    "get",
    "set",
    "hset",
    "hdel",
    "hgetall",
    "pexpire",
];

/// Commands of the client apart from its appends ([`APPEND_COMMANDS`]): read what the
/// task says (its once-keys and the registry).
const CLIENT_COMMANDS: &[&str] = &[
    "ping",
    // Sentinel mode: redis-rs checks the primary the sentinels name with ROLE;
    // `bus.replica_acks` sends WAIT.
    "role",
    "wait",
    // Cluster mode: redis-rs learns the slots with CLUSTER SLOTS and follows an ASK
    // redirection with ASKING.
    "cluster|slots",
    "asking",
    "publish",
    "script|load",
    "zrangebyscore",
    "get",
    "set",
    "hgetall",
    "xread",
    "xrange",
    "xrevrange",
    "subscribe",
    "unsubscribe",
];

/// Commands of the append selector: append to a stream (plain, or through a
/// once-script, whose declared keys need `~`), add a group to the registry's index.
/// None of them reads a stream.
const APPEND_COMMANDS: &[&str] = &["xadd", "zadd", "eval", "evalsha"];

/// Commands of the watcher: reading only, and `MONITOR` (every command live, as
/// `redis-cli MONITOR` shows it; Redis leaves `AUTH` and `HELLO … AUTH` out of it).
const WATCHER_COMMANDS: &[&str] = &[
    "ping",
    // Sentinel mode: redis-rs checks the primary the sentinels name with ROLE.
    "role",
    // Cluster mode: redis-rs learns the slots with CLUSTER SLOTS and follows an ASK
    // redirection with ASKING.
    "cluster|slots",
    "asking",
    "monitor",
    "xread",
    "xrange",
    "xrevrange",
    "xlen",
    "xinfo|stream",
    "xinfo|groups",
    "xinfo|consumers",
    "xpending",
    "subscribe",
    "unsubscribe",
    "get",
    "mget",
    "hgetall",
    "zrangebyscore",
];

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

/// One Redis ACL user.
#[derive(Clone, PartialEq, Eq)]
pub struct AclUser {
    /// The user name (`planner`, `pool-math`, `client`, …).
    pub name: String,
    /// Allowed commands (`xadd`, `xgroup|create`, …).
    pub commands: Vec<&'static str>,
    /// Key patterns with their permission prefix (`~k` read and write, `%R~k`, `%W~k`).
    pub keys: Vec<String>,
    /// Channel patterns (without the `&`).
    pub channels: Vec<String>,
    /// Further permission sets (Redis 7 selectors): a command is allowed when the root
    /// rules or one selector allow it with every key it names.
    pub selectors: Vec<Selector>,
}

/// A Redis 7 ACL selector: commands and the keys they may touch, apart from the user's
/// root rules.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Selector {
    /// Allowed commands.
    pub commands: Vec<&'static str>,
    /// Key patterns with their permission prefix.
    pub keys: Vec<String>,
}

impl Selector {
    /// The selector as an ACL rule: `(+cmd … ~key …)`.
    pub fn rule(&self) -> String {
        let parts: Vec<String> = self
            .commands
            .iter()
            .map(|c| format!("+{c}"))
            .chain(self.keys.iter().cloned())
            .collect();
        format!("({})", parts.join(" "))
    }
}

impl std::fmt::Debug for AclUser {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.rules())
    }
}

impl AclUser {
    /// The environment variable holding this user's password
    /// (`CHORUS_ACL_PASSWORD_POOL_MATH` for `pool-math`).
    pub fn password_env(&self) -> String {
        password_env(&self.name)
    }

    /// The rules after the user's name and password: commands, keys, channels,
    /// selectors.
    pub fn rules(&self) -> String {
        let mut out = String::from("resetkeys resetchannels clearselectors -@all");
        for c in &self.commands {
            out.push_str(" +");
            out.push_str(c);
        }
        for k in &self.keys {
            out.push(' ');
            out.push_str(k);
        }
        for c in &self.channels {
            out.push_str(" &");
            out.push_str(c);
        }
        for s in &self.selectors {
            out.push(' ');
            out.push_str(&s.rule());
        }
        out
    }

    /// Whether the user's root rules or a selector grant `pattern` (as written, with its
    /// permission prefix).
    pub fn grants(&self, pattern: &str) -> bool {
        self.keys.iter().any(|k| k == pattern)
            || self
                .selectors
                .iter()
                .any(|s| s.keys.iter().any(|k| k == pattern))
    }

    /// The user's line in an ACL file: `on` with `password`, or `off` (no password,
    /// cannot log in) when there is none.
    pub fn line(&self, password: Option<&str>) -> String {
        match password {
            Some(p) => format!("user {} on >{p} {}", self.name, self.rules()),
            None => format!("user {} off {}", self.name, self.rules()),
        }
    }
}

/// The environment variable holding the password of `user`.
pub fn password_env(user: &str) -> String {
    let tail: String = user
        .chars()
        .map(|c| match c {
            'a'..='z' => c.to_ascii_uppercase(),
            'A'..='Z' | '0'..='9' => c,
            _ => '_',
        })
        .collect();
    format!("{PASSWORD_ENV_PREFIX}{tail}")
}

/// The ACL user a role's processes connect as (its consumer group's name).
pub fn user_of(role: &Role) -> String {
    role.group()
}

/// Full access (`~`) to `pattern`.
fn rw(pattern: &str) -> String {
    format!("~{pattern}")
}

/// Read-only access to `pattern`.
fn ro(pattern: &str) -> String {
    format!("%R~{pattern}")
}

/// Write-only access to `pattern`.
fn wo(pattern: &str) -> String {
    format!("%W~{pattern}")
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
    // Read with a consumer group (XREADGROUP, XACK, XCLAIM and XGROUP count as writes).
    for t in &reads {
        push_new(&mut keys, rw(t.as_str()));
    }
    // Every topic it reads or writes, dead letters and heartbeats are mirrored.
    for t in reads
        .iter()
        .chain(&writes)
        .chain([&Topic::dead_letter(), &Topic::agent_heartbeat()])
    {
        push_new(&mut channels, t.as_str().to_owned());
    }
    // The Chief's process hosts the HTTP doors, which stream a task's progress (its
    // plan, steps and tool events) to their clients: it reads every topic.
    if *role == Role::Chief {
        for t in topology.topics() {
            if !keys.contains(&rw(t.as_str())) {
                push_new(&mut keys, ro(t.as_str()));
            }
            push_new(&mut channels, t.as_str().to_owned());
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
        push_new(&mut keys, rw(&patterns::sent(t.as_str())));
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
        push_new(&mut keys, rw(t.as_str()));
    }
    for k in state {
        push_new(&mut keys, rw(k));
    }
    for t in &streams {
        push_new(&mut keys, rw(&patterns::sent(t.as_str())));
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
    let mut keys: Vec<String> = CLIENT_READS.iter().map(|t| ro(t)).collect();
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
        .map(|t| (*t).to_owned())
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
    let mut keys: Vec<String> = topology.topics().iter().map(|t| ro(t.as_str())).collect();
    keys.push(ro(&format!("{TOKEN_STREAM_PREFIX}*")));
    keys.push(ro(patterns::ALL));
    let mut channels: Vec<String> = topology
        .topics()
        .iter()
        .map(|t| t.as_str().to_owned())
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

/// Passwords that were needed but not found: the variables' names.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("no password for {}: set {}", .users.join(", "), .variables.join(", "))]
pub struct MissingPasswords {
    /// The users without a password.
    pub users: Vec<String>,
    /// The environment variables to set.
    pub variables: Vec<String>,
}

/// The file's last line. The `default` user cannot log in (`off`, no password: a
/// connection without a user gets NOAUTH) but keeps every permission, because Redis
/// 7.0 replays the AOF's MULTI/EXEC blocks as the default user and re-checks its rules
/// at EXEC (redis/redis#14541, fixed upstream by #14545): with `-@all` every
/// transaction in the AOF, final reports among them, is dropped on a restart.
pub const DEFAULT_USER: &str = "user default off resetpass ~* &* +@all\n";

/// The ACL file: every user with the password `password(variable)` gives for its
/// variable, then `user default off`. With `password` returning `None` for a user, the
/// error names every such variable (no partial file).
pub fn file(
    topology: &Topology,
    password: impl Fn(&str) -> Option<String>,
) -> Result<String, MissingPasswords> {
    let mut out = String::new();
    let mut missing = MissingPasswords {
        users: Vec::new(),
        variables: Vec::new(),
    };
    for user in users(topology) {
        let var = user.password_env();
        match password(&var).filter(|p| !p.is_empty()) {
            Some(p) if p.chars().all(|c| c.is_ascii_graphic()) => {
                out.push_str(&user.line(Some(&p)));
                out.push('\n');
            }
            _ => {
                missing.users.push(user.name.clone());
                missing.variables.push(var);
            }
        }
    }
    if !missing.users.is_empty() {
        return Err(missing);
    }
    out.push_str(DEFAULT_USER);
    Ok(out)
}

/// The rules without passwords, every user `off`: for review or a diff.
pub fn rules_only(topology: &Topology) -> String {
    let mut out: String = users(topology)
        .iter()
        .map(|u| u.line(None) + "\n")
        .collect();
    out.push_str(DEFAULT_USER);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

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

    #[test]
    fn the_file_needs_every_password_and_turns_default_off() {
        let err = file(&topology(), |v| {
            (v != "CHORUS_ACL_PASSWORD_ROUTER").then(|| "pw".to_owned())
        })
        .expect_err("missing");
        assert_eq!(err.variables, ["CHORUS_ACL_PASSWORD_ROUTER"]);
        assert!(!err.to_string().contains("pw"), "{err}");
        let text = file(&topology(), |v| Some(format!("secret-{}", v.len()))).expect("file");
        assert!(text.starts_with("user chief on >secret-"), "{text}");
        assert!(text.ends_with(DEFAULT_USER));
        assert!(DEFAULT_USER.contains(" off "), "nothing logs in as default");
        assert_eq!(text.lines().count(), 10);
        let review = rules_only(&topology());
        assert!(!review.contains('>'), "{review}");
        assert!(review.contains("user pool-date off"), "{review}");
    }
}
