//! Who sent a message and who receives it, as roles: instance names like
//! `router-0192f0c27a3e7000…` become `router`, and a message with no `to_agent` goes to
//! the roles the topology table says read its topic.

use crate::topology::{Role, Topology};
use chorus_bus::{Message, PoolName, Topic, TopicKind};

use super::format::is_bare;

/// The role of an agent name: the instance name without its trailing `-<uuid>`
/// (`pool-math-0192…` → `pool-math`); `cli` (the `chorus ask` client) → `client`.
pub fn role_of(agent: &str) -> String {
    let base = match agent.rsplit_once('-') {
        Some((role, id)) if is_instance_id(id) && !role.is_empty() => role,
        _ => agent,
    };
    match base {
        "cli" => "client".to_owned(),
        other => other.to_owned(),
    }
}

/// A short name for one process: its role plus the last 4 hex digits of its instance id
/// (`pool-math/3f2a`), so replicas of a role can be told apart.
pub fn short_agent(agent: &str) -> String {
    match agent.rsplit_once('-') {
        Some((role, id)) if is_instance_id(id) && !role.is_empty() => {
            format!("{}/{}", role_of(role), &id[id.len() - 4..])
        }
        _ => role_of(agent),
    }
}

/// A UUID in its simple (32 hex digits) form, as instance names end with.
fn is_instance_id(s: &str) -> bool {
    s.len() == 32 && s.bytes().all(|b| b.is_ascii_hexdigit())
}

/// How a message is drawn: `from` sends to each of `to`; `reply` when it is the answer
/// of an MCP server to a pool agent (a dashed arrow in Mermaid).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Hop {
    /// The sending role (or `mcp-<pool>` for a tool response).
    pub from: String,
    /// The receiving roles, the main consumer first.
    pub to: Vec<String>,
    /// Whether this is an answer to an earlier hop.
    pub reply: bool,
}

/// The hop a message makes, with roles (not instances).
pub fn hop(msg: &Message) -> Hop {
    let from = role_of(&msg.from_agent);
    let kind = msg.topic.kind().ok();
    if kind == Some(TopicKind::ToolResponse) {
        return Hop {
            to: vec![from.clone()],
            from: mcp_of(&from),
            reply: true,
        };
    }
    let to = match &msg.to_agent {
        Some(to) => vec![receiver_role(&msg.topic, to)],
        None => consumers(msg, &from),
    };
    Hop {
        from,
        to,
        reply: false,
    }
}

/// The role a `to_agent` names: a pool name on a pool topic means that pool's agents.
fn receiver_role(topic: &Topic, to: &str) -> String {
    let role = role_of(to);
    match topic.pool() {
        Some(pool) if pool == role => format!("pool-{pool}"),
        _ => role,
    }
}

/// The MCP server behind a pool agent role (`pool-math` → `mcp-math`).
fn mcp_of(role: &str) -> String {
    match role.strip_prefix("pool-") {
        Some(pool) => format!("mcp-{pool}"),
        None => "mcp".to_owned(),
    }
}

/// The roles that receive a message with no `to_agent`, the main one first, from the
/// topology table; a topic no role reads goes to whoever reads it outside the roles
/// (the MCP server behind a pool agent, operators, the registry…).
fn consumers(msg: &Message, from: &str) -> Vec<String> {
    let pools: Vec<PoolName> = msg.topic.pool().map(PoolName::from).into_iter().collect();
    let topology = Topology::new(&pools);
    let sender = Role::from_group(from);
    let receivers = topology.receivers(&msg.topic, sender.as_ref(), is_bare(msg));
    if !receivers.is_empty() {
        return receivers.iter().map(Role::group).collect();
    }
    match Topology::outside_reader(&msg.topic) {
        Some("mcp") => vec![mcp_of(from)],
        Some(who) => vec![who.to_owned()],
        None => vec!["watchers".to_owned()],
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chorus_bus::{Payload, StepOutcome, ToolResponse};

    #[test]
    fn instance_names_map_to_their_role() {
        let id = "0192f0c27a3e70008000000000000001";
        assert_eq!(role_of(&format!("router-{id}")), "router");
        assert_eq!(role_of(&format!("pool-math-{id}")), "pool-math");
        assert_eq!(role_of("cli"), "client");
        assert_eq!(role_of("chief"), "chief");
        assert_eq!(role_of("pool-date"), "pool-date");
        assert_eq!(short_agent(&format!("pool-math-{id}")), "pool-math/0001");
        assert_eq!(short_agent("cli"), "client");
    }

    #[test]
    fn a_step_sent_to_a_pool_goes_to_that_pools_agents() {
        let msg = Message::new(
            "t",
            Topic::pool_task("math"),
            "router-0192f0c27a3e70008000000000000001",
            Payload::ToolResponse(ToolResponse {
                step_id: "s1".into(),
                tool: "sum".into(),
                outcome: StepOutcome::failed("x"),
                elapsed_us: 1,
            }),
        )
        .to("math");
        let h = hop(&msg);
        assert_eq!(h.from, "router");
        assert_eq!(h.to, vec!["pool-math"]);
    }

    #[test]
    fn a_question_goes_to_the_clients_and_an_answer_through_the_chief_to_the_planner() {
        use chorus_bus::{ClarificationAnswer, ClarificationNeeded};
        let planner = "planner-0192f0c27a3e70008000000000000001";
        let chief = "chief-0192f0c27a3e70008000000000000002";
        let asked = Message::new(
            "t",
            Topic::clarification_needed(),
            planner,
            Payload::ClarificationNeeded(ClarificationNeeded {
                question: "\"divide 10 by\" is missing a number: which number?".into(),
                options: Vec::new(),
                part: "divide 10 by".into(),
                language: chorus_bus::Language::En,
                number: 1,
                query: "divide 10 by".into(),
                session_id: None,
            }),
        );
        assert_eq!(hop(&asked).from, "planner");
        assert_eq!(hop(&asked).to, vec!["clients"]);
        let answer = |from: &str| {
            Message::new(
                "t",
                Topic::clarification_answer(),
                from,
                Payload::ClarificationAnswer(ClarificationAnswer {
                    answer: "4".into(),
                    question: Some(1),
                }),
            )
        };
        // `chorus ask` hands its answer to the one way in itself: straight to the Planner.
        assert_eq!(hop(&answer("cli")).from, "client");
        assert_eq!(hop(&answer("cli")).to, vec!["planner"]);
        // The Chief passes a bare answer on to the Planner.
        assert_eq!(hop(&answer(chief)).from, "chief");
        assert_eq!(hop(&answer(chief)).to, vec!["planner"]);
        // A bare answer as read from the stream goes to the Chief.
        let bare = Message::decode_on(
            &Topic::clarification_answer(),
            r#"{"task_id": "t-bare", "answer": "4"}"#,
            Some("1700000000000-0"),
        )
        .expect("bare answer")
        .into_message();
        assert!(is_bare(&bare));
        assert_eq!(hop(&bare).from, "client");
        assert_eq!(hop(&bare).to, vec!["chief"]);
    }

    #[test]
    fn a_tool_response_is_the_mcp_servers_reply_to_the_pool_agent() {
        let msg = Message::new(
            "t",
            Topic::tool_response(),
            "pool-date-0192f0c27a3e70008000000000000001",
            Payload::ToolResponse(ToolResponse {
                step_id: "s1".into(),
                tool: "weekday".into(),
                outcome: StepOutcome::failed("x"),
                elapsed_us: 1,
            }),
        );
        let h = hop(&msg);
        assert_eq!(
            h,
            Hop {
                from: "mcp-date".into(),
                to: vec!["pool-date".into()],
                reply: true
            }
        );
    }
}
