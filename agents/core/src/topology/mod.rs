//! The topology table: for each role, its consumer group, the topics it reads and the
//! topics it writes. This is the one place that says who talks to whom. Roles subscribe
//! from it, `chorus watch`/`trace` draw "from → to" from it, the benchmark names its
//! hops from it, and the table in docs/topics.md is generated from it (a test fails
//! when the doc is stale). Adding a role or a pool touches this table and the role's
//! own file only.

use std::fmt;

use chorus_bus::Topic;

/// A role a process can run.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Role {
    /// The front door and deadline keeper.
    Chief,
    /// Query → plan.
    Planner,
    /// Plan → steps dispatched when ready.
    Router,
    /// Results → the verdict and the final report.
    Synthesizer,
    /// Verdict REITERATE → a re-plan request.
    Verifier,
    /// A pool agent for the named pool.
    Pool(PoolName),
}

/// A set of topics in a row of the table: one fixed topic, or a pool topic for every
/// configured pool, or the role's own pool's.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Topics {
    /// One fixed topic.
    One(&'static str),
    /// `<pool>_task` of every configured pool.
    EveryPoolTask,
    /// `<pool>_result` of every configured pool.
    EveryPoolResult,
    /// `<pool>_task` of the row's own pool.
    OwnPoolTask,
    /// `<pool>_result` of the row's own pool.
    OwnPoolResult,
}

use Topics::{EveryPoolResult, EveryPoolTask, One, OwnPoolResult, OwnPoolTask};
use chorus_bus::PoolName;

impl Topics {
    /// Whether both stand for the same kind of topic, whatever the pools: a fixed topic
    /// is its own kind, and every pool's tasks (or results) are one kind.
    fn same_kind(&self, other: &Topics) -> bool {
        match (self, other) {
            (One(a), One(b)) => a == b,
            (EveryPoolTask | OwnPoolTask, EveryPoolTask | OwnPoolTask) => true,
            (EveryPoolResult | OwnPoolResult, EveryPoolResult | OwnPoolResult) => true,
            _ => false,
        }
    }
}

/// One row: a role, what it reads, what it writes, and its job in a few words.
struct Row {
    /// The role's name on the command line (`chorus agent NAME`).
    name: &'static str,
    /// Topics it reads through its consumer group.
    reads: &'static [Topics],
    /// Topics it writes.
    writes: &'static [Topics],
    /// Whether it takes bare client requests (`{"query": …}`) on `task_available`;
    /// roles that do not never see them.
    takes_bare: bool,
    /// What it does.
    job: &'static str,
}

/// The table. Every role heartbeats on `agent_heartbeat` as well (not listed).
const TABLE: &[Row] = &[
    Row {
        name: "chief",
        reads: &[
            One(Topic::TASK_AVAILABLE),
            One(Topic::FINAL_REPORT),
            One(Topic::CLARIFICATION_ANSWER),
            One(Topic::TASK_CANCEL),
        ],
        writes: &[
            One(Topic::TASK_AVAILABLE),
            One(Topic::FINAL_REPORT),
            One(Topic::CLARIFICATION_ANSWER),
            One(Topic::CLARIFICATION_NEEDED),
        ],
        takes_bare: true,
        job: "front door: accepts bare requests, answers, cancellations and the PUBLISH ingress through the one way in, keeps deadlines (paused while a task waits for an answer) and writes the report when one passes, no answer comes or the task is canceled; at a paused task's deadline, sends its stored question if the Planner's never went out",
    },
    Row {
        name: "planner",
        reads: &[
            One(Topic::TASK_AVAILABLE),
            One(Topic::RENAVIGATE_REQUEST),
            One(Topic::CLARIFICATION_ANSWER),
        ],
        writes: &[
            One(Topic::PLAN_READY),
            EveryPoolTask,
            One(Topic::CLARIFICATION_NEEDED),
        ],
        takes_bare: false,
        job: "turns a request into a plan and sends its first wave of steps, or asks a question and plans once it is answered; re-plans what failed for a reason that can pass",
    },
    Row {
        name: "router",
        reads: &[One(Topic::PLAN_READY), EveryPoolResult],
        writes: &[EveryPoolTask],
        takes_bare: false,
        job: "dispatches every later step when its inputs are ready",
    },
    Row {
        name: "synthesizer",
        reads: &[One(Topic::PLAN_READY), EveryPoolResult],
        writes: &[One(Topic::FINAL_REPORT), One(Topic::VERIFICATION_DONE)],
        takes_bare: false,
        job: "fan-in: when every step is final, the verdict; with FINISHED the one report, the verdict announced on the channel only",
    },
    Row {
        name: "verifier",
        reads: &[One(Topic::VERIFICATION_DONE)],
        writes: &[One(Topic::RENAVIGATE_REQUEST)],
        takes_bare: false,
        job: "turns a verdict REITERATE into one re-plan request",
    },
    Row {
        name: "pool",
        reads: &[OwnPoolTask],
        writes: &[
            OwnPoolResult,
            One(Topic::TOOL_REQUEST),
            One(Topic::TOOL_RESPONSE),
        ],
        takes_bare: false,
        job: "calls the step's tool on its pool's MCP server",
    },
];

/// Readers outside the roles: who a message on a topic no role reads is for.
const OUTSIDE_READERS: &[(&str, &str)] = &[
    (Topic::TOOL_REQUEST, "mcp"),
    (Topic::TOOL_RESPONSE, "watchers"),
    (Topic::FINAL_REPORT, "clients"),
    (Topic::DEAD_LETTER, "operators"),
    (Topic::AGENT_HEARTBEAT, "registry"),
    (Topic::CLARIFICATION_NEEDED, "clients"),
];

impl Role {
    /// The role named on the command line (`chorus agent ROLE [--pool NAME]`).
    pub fn parse(role: &str, pool: Option<&str>) -> Result<Role, UnknownRole> {
        let known = TABLE.iter().map(|r| r.name).collect::<Vec<_>>().join(", ");
        match (role, pool) {
            ("chief", _) => Ok(Role::Chief),
            ("planner", _) => Ok(Role::Planner),
            ("router", _) => Ok(Role::Router),
            ("synthesizer", _) => Ok(Role::Synthesizer),
            ("verifier", _) => Ok(Role::Verifier),
            ("pool", Some(p)) if chorus_bus::topic::is_pool_name(p) => Ok(Role::Pool(p.into())),
            ("pool", Some(p)) => Err(UnknownRole(format!(
                "{p:?} is not a pool name (lowercase letters, digits and '-')"
            ))),
            ("pool", None) => Err(UnknownRole("`chorus agent pool` needs --pool NAME".into())),
            (other, _) => Err(UnknownRole(format!(
                "unknown role {other:?}: use one of {known}"
            ))),
        }
    }

    /// The role's name in the table (`pool` for every pool).
    pub fn name(&self) -> &'static str {
        match self {
            Role::Chief => "chief",
            Role::Planner => "planner",
            Role::Router => "router",
            Role::Synthesizer => "synthesizer",
            Role::Verifier => "verifier",
            Role::Pool(_) => "pool",
        }
    }

    /// The role's consumer-group name (`pool-<pool>` for a pool's agents), which is
    /// also the prefix of its instance names.
    pub fn group(&self) -> String {
        match self {
            Role::Pool(p) => format!("pool-{p}"),
            other => other.name().to_owned(),
        }
    }

    /// The role whose consumer group is `group` (`pool-math` → the math pool's agents).
    pub fn from_group(group: &str) -> Option<Role> {
        match group.strip_prefix("pool-") {
            Some(pool) if chorus_bus::topic::is_pool_name(pool) => Some(Role::Pool(pool.into())),
            Some(_) => None,
            None => Role::parse(group, None).ok(),
        }
    }

    /// Its row in the table.
    fn row(&self) -> &'static Row {
        let name = self.name();
        TABLE.iter().find(|r| r.name == name).unwrap_or(&TABLE[0])
    }

    /// Whether bare client requests reach this role.
    pub fn takes_bare(&self) -> bool {
        self.row().takes_bare
    }

    /// What the role does.
    pub fn job(&self) -> &'static str {
        self.row().job
    }
}

impl fmt::Display for Role {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.group())
    }
}

/// A role name that is not in the table.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct UnknownRole(String);

/// The table for a set of configured pools.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Topology {
    pools: Vec<PoolName>,
}

impl Topology {
    /// The topology with `pools` configured.
    pub fn new(pools: &[PoolName]) -> Self {
        Topology {
            pools: pools.to_vec(),
        }
    }

    /// The configured pools.
    pub fn pools(&self) -> &[PoolName] {
        &self.pools
    }

    /// Every role of a system with these pools: the fixed roles, then one per pool.
    pub fn roles(&self) -> Vec<Role> {
        let mut roles = vec![
            Role::Chief,
            Role::Planner,
            Role::Router,
            Role::Synthesizer,
            Role::Verifier,
        ];
        roles.extend(self.pools.iter().cloned().map(Role::Pool));
        roles
    }

    /// The topics `role` reads through its consumer group.
    pub fn reads(&self, role: &Role) -> Vec<Topic> {
        self.expand(role, role.row().reads)
    }

    /// The topics `role` writes.
    pub fn writes(&self, role: &Role) -> Vec<Topic> {
        self.expand(role, role.row().writes)
    }

    /// The consumer groups that read `topic`, in table order.
    pub fn readers(&self, topic: &Topic) -> Vec<Role> {
        self.roles()
            .into_iter()
            .filter(|r| self.reads(r).contains(topic))
            .collect()
    }

    /// The roles that write `topic`, in table order.
    pub fn writers(&self, topic: &Topic) -> Vec<Role> {
        self.roles()
            .into_iter()
            .filter(|r| self.writes(r).contains(topic))
            .collect()
    }

    /// Who a message on `topic` from `sender` is for, main receiver first: the roles
    /// reading it, except those that write it too (the Chief reads the requests and
    /// reports it may write itself: it keeps books on them, it is not their receiver);
    /// a receiver whose writes overlap the sender's (a peer) comes after the others.
    /// Bare requests are for the roles that take them.
    pub fn receivers(&self, topic: &Topic, sender: Option<&Role>, bare: bool) -> Vec<Role> {
        if bare {
            return self
                .readers(topic)
                .into_iter()
                .filter(Role::takes_bare)
                .collect();
        }
        let peer = |r: &Role| {
            sender.is_some_and(|s| {
                let theirs = s.row().writes;
                r.row()
                    .writes
                    .iter()
                    .any(|w| theirs.iter().any(|t| t.same_kind(w)))
            })
        };
        let (peers, others): (Vec<Role>, Vec<Role>) = self
            .readers(topic)
            .into_iter()
            .filter(|r| !self.writes(r).contains(topic))
            .partition(peer);
        others.into_iter().chain(peers).collect()
    }

    /// Who reads `topic` when no role does (`mcp`, `operators`, …), if anyone.
    pub fn outside_reader(topic: &Topic) -> Option<&'static str> {
        OUTSIDE_READERS
            .iter()
            .find(|(t, _)| *t == topic.as_str())
            .map(|(_, who)| *who)
    }

    /// Every topic of a system with these pools: the fixed ones, then each pool's pair.
    pub fn topics(&self) -> Vec<Topic> {
        let mut out: Vec<Topic> = Topic::FIXED
            .iter()
            .filter_map(|t| Topic::parse(t).ok())
            .collect();
        for pool in &self.pools {
            out.push(Topic::pool_task(pool));
            out.push(Topic::pool_result(pool));
        }
        out
    }

    fn expand(&self, role: &Role, sets: &[Topics]) -> Vec<Topic> {
        let own = match role {
            Role::Pool(p) => Some(p.as_str()),
            _ => None,
        };
        let mut out = Vec::new();
        for set in sets {
            match set {
                One(name) => out.extend(Topic::parse(name).ok()),
                EveryPoolTask => out.extend(self.pools.iter().map(|p| Topic::pool_task(p))),
                EveryPoolResult => out.extend(self.pools.iter().map(|p| Topic::pool_result(p))),
                OwnPoolTask => out.extend(own.map(Topic::pool_task)),
                OwnPoolResult => out.extend(own.map(Topic::pool_result)),
            }
        }
        out
    }

    /// The Markdown table of docs/topics.md ("who reads and writes what"), one row per
    /// role, with `<pool>` standing for any pool.
    pub fn markdown() -> String {
        let pool = Topology::new(&["<pool>".into()]);
        let names = |topics: Vec<Topic>| -> String {
            topics
                .iter()
                .map(|t| format!("`{t}`"))
                .collect::<Vec<_>>()
                .join(", ")
        };
        let mut out = String::from(
            "| role | consumer group | reads | writes | takes bare requests | job |\n|---|---|---|---|---|---|\n",
        );
        for role in pool.roles() {
            let bare = if role.takes_bare() { "yes" } else { "no" };
            out.push_str(&format!(
                "| {} | `{}` | {} | {} | {bare} | {} |\n",
                role.name(),
                role.group(),
                names(pool.reads(&role)),
                names(pool.writes(&role)),
                role.job()
            ));
        }
        out
    }
}

#[cfg(test)]
mod tests;
