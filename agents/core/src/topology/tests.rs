//! The topology table's tests: what each role reads and writes, who receives a message
//! first, and which roles take bare requests.

use super::*;

fn names(topics: Vec<Topic>) -> Vec<String> {
    topics.into_iter().map(|t| t.to_string()).collect()
}

fn groups_of(roles: Vec<Role>) -> Vec<String> {
    roles.iter().map(Role::group).collect()
}

#[test]
fn every_role_reads_what_the_flow_needs() {
    let t = Topology::new(&["math".into(), "date".into()]);
    assert_eq!(
        names(t.reads(&Role::Chief)),
        [
            "task_available",
            "final_report",
            "clarification_answer",
            "task_cancel"
        ]
    );
    assert_eq!(
        names(t.reads(&Role::Planner)),
        [
            "task_available",
            "renavigate_request",
            "clarification_answer"
        ]
    );
    assert_eq!(
        names(t.reads(&Role::Router)),
        ["plan_ready", "math_result", "date_result"]
    );
    assert_eq!(names(t.reads(&Role::Pool("date".into()))), ["date_task"]);
    // The Chief sends a paused task's stored question at its deadline when the
    // Planner's never went out.
    assert_eq!(
        names(t.writes(&Role::Chief)),
        [
            "task_available",
            "final_report",
            "clarification_answer",
            "clarification_needed"
        ]
    );
    assert_eq!(
        groups_of(t.writers(&Topic::clarification_needed())),
        ["chief", "planner"]
    );
    assert_eq!(
        names(t.writes(&Role::Planner)),
        [
            "plan_ready",
            "math_task",
            "date_task",
            "clarification_needed"
        ]
    );
}

#[test]
fn readers_and_writers_of_a_topic_come_from_the_same_rows() {
    let t = Topology::new(&["math".into()]);
    let groups = |roles: Vec<Role>| roles.iter().map(Role::group).collect::<Vec<_>>();
    assert_eq!(
        groups(t.readers(&Topic::pool_result("math"))),
        ["router", "synthesizer"]
    );
    assert_eq!(
        groups(t.writers(&Topic::pool_task("math"))),
        ["planner", "router"]
    );
    assert_eq!(groups(t.readers(&Topic::pool_task("math"))), ["pool-math"]);
    assert!(t.readers(&Topic::tool_request()).is_empty());
    assert_eq!(
        Topology::outside_reader(&Topic::tool_request()),
        Some("mcp")
    );
}

#[test]
fn a_message_goes_first_to_the_receiver_that_is_not_the_senders_peer() {
    let t = Topology::new(&["math".into()]);
    let groups = |roles: Vec<Role>| roles.iter().map(Role::group).collect::<Vec<_>>();
    let plan = t.receivers(&Topic::plan_ready(), Some(&Role::Planner), false);
    assert_eq!(groups(plan), ["synthesizer", "router"]);
    let pool = Role::Pool("math".into());
    let result = t.receivers(&Topic::pool_result("math"), Some(&pool), false);
    assert_eq!(groups(result), ["router", "synthesizer"]);
    let no_pools = Topology::new(&[]);
    let plan = no_pools.receivers(&Topic::plan_ready(), Some(&Role::Planner), false);
    assert_eq!(groups(plan), ["synthesizer", "router"]);
    let request = t.receivers(&Topic::task_available(), None, false);
    assert_eq!(groups(request), ["planner"]);
    let bare = t.receivers(&Topic::task_available(), None, true);
    assert_eq!(groups(bare), ["chief"]);
    assert_eq!(Role::from_group("pool-math"), Some(pool));
    assert_eq!(Role::from_group("router"), Some(Role::Router));
    assert_eq!(Role::from_group("mcp-math"), None);
}

#[test]
fn only_the_chief_takes_bare_requests_and_unknown_roles_are_named() {
    let t = Topology::new(&["math".into()]);
    let bare: Vec<String> = t
        .roles()
        .iter()
        .filter(|r| r.takes_bare())
        .map(Role::group)
        .collect();
    assert_eq!(bare, ["chief"]);
    let err = Role::parse("planer", None).expect_err("unknown");
    assert!(err.to_string().contains("\"planer\""), "{err}");
    assert!(err.to_string().contains("synthesizer"), "{err}");
    assert_eq!(
        Role::parse("pool", Some("math")).expect("pool"),
        Role::Pool("math".into())
    );
}
