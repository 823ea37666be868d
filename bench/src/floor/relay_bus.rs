//! Floor (a): a role that does no work, on the real bus and the real runtime loop.
//!
//! Each relay subscribes as its role does (the role's consumer group on the topics the
//! topology table gives it, `chorus_core::runtime::run_loop` with its permits, lingering
//! acks and keep-alives) and writes what the role writes on the happy path of a one-step
//! task, through the same calls, with the envelopes a real run wrote
//! ([`super::envelopes`]):
//!
//! - chief: on a request, opens the task for the deadline watch (`TaskState::open`); on
//!   the report, retires the task (`TaskState::finish`);
//! - planner: stores the plan and publishes it with its first step, under the plan's
//!   guard and their once-keys (`Bus::publish_guarded`);
//! - router: nothing (a one-step plan's result is no step's input);
//! - pool agent: publishes `tool_request` while it calls the tool (a POST, no work on
//!   either side: [`super::mcp`]), then the response and the result under one once-key
//!   (`Bus::publish_all_once`);
//! - synthesizer: on the plan, opens the task unless the Chief did
//!   (`TaskState::open_unless_known`); on the result, publishes the report once
//!   (`Bus::publish_once`) and announces FINISHED (`Bus::announce`).
//!
//! What it leaves out is the roles' own work: planning, building and checking payloads,
//! reading the MCP answer, metrics of their own, logs, heartbeats, the deadline watch's
//! polling.

use std::sync::Arc;

use async_trait::async_trait;
use chorus_bus::keys::once;
use chorus_bus::{Bus, BusError, Deadline, Delivery, Payload, StepId, Subscription, TaskRequest};
use chorus_bus_redis::RedisBus;
use chorus_core::runtime::{HandleError, Handler, Shutdown, run_loop};
use chorus_core::settings::Settings;
use chorus_core::state::TaskState;
use chorus_core::topology::{Role, Topology};

use super::super::BenchError;
use super::envelopes::{Envelopes, answer};
use super::mcp::Poster;

/// One relay: its role, and what it needs to write what that role writes.
struct Relay {
    role: Role,
    me: String,
    bus: Arc<dyn Bus>,
    state: TaskState,
    envelopes: Envelopes,
    /// The plan as the Planner stores it (its JSON, made once).
    plan_json: String,
    step: (StepId, u32),
    poster: Option<Poster>,
    /// The task deadline when an envelope carries none (`agents.deadline_ms`).
    deadline: std::time::Duration,
}

/// Runs the relay of `role` (`chief`, `planner`, `router`, `pool`, `synthesizer`) with
/// the settings every role loads (`CHORUS__…` variables), until the process is stopped.
pub async fn run(role: &str, mcp_url: &str) -> Result<(), BenchError> {
    let settings = Settings::load(None).map_err(|e| BenchError::Args(e.to_string()))?;
    let role = Role::parse(role, (role == "pool").then_some("math"))
        .map_err(|e| BenchError::Args(e.to_string()))?;
    let redis = RedisBus::connect(settings.bus.clone()).await?;
    let state = TaskState::for_settings(Arc::new(redis.store()), &settings);
    let bus: Arc<dyn Bus> = Arc::new(redis);
    let envelopes = Envelopes::load()?;
    let plan_json = match &envelopes.plan_ready.payload {
        Payload::PlanReady(p) => serde_json::to_string(p).unwrap_or_default(),
        _ => String::new(),
    };
    let poster = match role {
        Role::Pool(_) => Some(Poster::new(mcp_url, envelopes.call_params())?),
        _ => None,
    };
    let group = role.group();
    let relay = Relay {
        me: format!("{group}-{}", uuid::Uuid::now_v7()),
        role: role.clone(),
        bus: bus.clone(),
        state,
        step: envelopes.step(),
        envelopes,
        plan_json,
        poster,
        deadline: settings.deadline(),
    };
    let topics = Topology::new(&settings.pool_names()).reads(&role);
    let takes_bare = role.takes_bare();
    let sub = Subscription::new(group, topics).as_door(takes_bare);
    // The trigger is kept: dropping it would stop the loop. SIGTERM ends the process.
    let (_trigger, shutdown) = Shutdown::new();
    run_loop(
        bus,
        sub,
        Arc::new(relay),
        settings.agents.max_in_flight,
        takes_bare,
        shutdown,
    )
    .await?;
    Ok(())
}

#[async_trait]
impl Handler for Relay {
    async fn handle(&self, delivery: &Delivery) -> Result<(), HandleError> {
        let msg = &delivery.message;
        let task = &msg.task_id;
        let ttl = self.state.ttl();
        let e = &self.envelopes;
        match (&self.role, &msg.payload) {
            (Role::Chief, Payload::TaskAvailable(request)) => {
                let deadline = msg
                    .deadline_ms
                    .unwrap_or_else(|| Deadline::after(self.deadline));
                self.state.open(task, request, deadline).await?;
            }
            (Role::Chief, Payload::FinalReport(report)) => {
                self.state.finish(task, report).await?;
            }
            (Role::Planner, Payload::TaskAvailable(_)) => {
                let plan = answer(msg, &e.plan_ready, &self.me);
                let step = answer(msg, &e.pool_task, &self.me);
                let (step_id, iteration) = &self.step;
                let batch = [
                    (once::planned(task), plan),
                    (once::dispatched(task, step_id, *iteration), step),
                ];
                self.bus
                    .publish_guarded(&chorus_bus::keys::plan(task), &self.plan_json, &batch, ttl)
                    .await?;
            }
            (Role::Pool(_), Payload::StepTask(_)) => {
                let request = answer(msg, &e.tool_request, &self.me);
                let call = async {
                    match &self.poster {
                        Some(p) => p.call().await,
                        None => Ok(0),
                    }
                };
                let (announced, called) = tokio::join!(self.bus.publish(&request), call);
                announced?;
                called
                    .map_err(|reason| BusError::Transport(format!("MCP call: {reason}").into()))?;
                let out = [
                    answer(msg, &e.tool_response, &self.me),
                    answer(msg, &e.pool_result, &self.me),
                ];
                let (step_id, iteration) = &self.step;
                self.bus
                    .publish_all_once(&once::result(task, step_id, *iteration), ttl, &out)
                    .await?;
            }
            (Role::Synthesizer, Payload::PlanReady(plan)) => {
                let deadline = msg
                    .deadline_ms
                    .unwrap_or_else(|| Deadline::after(self.deadline));
                let request = TaskRequest {
                    query: plan.query.clone(),
                    context: plan.context.clone(),
                };
                self.state
                    .open_unless_known(task, &request, deadline)
                    .await?;
            }
            (Role::Synthesizer, Payload::StepResult(_)) => {
                let report = answer(msg, &e.final_report, &self.me);
                if self
                    .bus
                    .publish_once(&once::reported(task), ttl, &report)
                    .await?
                {
                    let finished = answer(msg, &e.finished, &self.me);
                    let _ = self.bus.announce(&finished).await;
                }
            }
            // The Router (a one-step plan), and whatever else a role reads: read, acked.
            _ => {}
        }
        Ok(())
    }
}
