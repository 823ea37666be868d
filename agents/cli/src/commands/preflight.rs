//! What `chorus ask`, `watch` and `trace` check before they wait: that the Redis
//! answers (one line naming the URL and the cause when it does not) and, for `ask` and
//! `watch`, that the live registry has the roles an answer needs — instead of waiting
//! a whole timeout for a report nobody will write.

use chorus_core::registry::{Registry, missing_roles};
use chorus_core::settings::Settings;
use chorus_core::state::TaskState;
use chorus_core::system::Infra;
use chorus_core::topology::{Role, Topology};

use crate::compose;

/// How to get a running system.
pub const HINT: &str = "start one with `deploy/run-local.sh REDIS_URL` or \
`docker-compose -f deploy/docker-compose.yml up`, or drop the Redis URL \
(CHORUS__BUS__REDIS_URL, --config) to run every role in this process with `chorus ask --local`";

/// A check failed; the text is the one line to print.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct NotReady(pub String);

/// Connects to the Redis at `bus.redis_url` (or the primary the sentinels name), or says
/// in one line why it cannot.
pub async fn connect(settings: &Settings) -> Result<Infra, NotReady> {
    match compose::connect_redis(settings).await {
        Ok((_, infra)) => Ok(infra),
        Err(e) => {
            let cause = e.root_cause().to_string();
            Err(NotReady(format!(
                "cannot reach Redis at {}: {cause}; {HINT}",
                settings.bus.redis_target()
            )))
        }
    }
}

/// Checks the live registry: no live Planner, Router or Synthesizer, or no live agent
/// for any pool, is fatal; other missing roles (the Chief, some pools) only warn, on
/// stderr, since the answer can still come (the Planner says which pool is down).
pub async fn require_live(infra: &Infra, settings: &Settings) -> Result<(), NotReady> {
    let topology = Topology::new(&settings.pool_names());
    let state = TaskState::for_settings(infra.store.clone(), settings);
    let live = Registry::new(state)
        .live()
        .await
        .map_err(|e| NotReady(format!("cannot read the live registry: {e}; {HINT}")))?;
    let missing = missing_roles(&live, &topology);
    if missing.is_empty() {
        return Ok(());
    }
    let names: Vec<String> = missing.iter().map(Role::group).collect();
    let pools_missing = missing
        .iter()
        .filter(|r| matches!(r, Role::Pool(_)))
        .count();
    let fatal = missing
        .iter()
        .any(|r| matches!(r, Role::Planner | Role::Router | Role::Synthesizer))
        || (pools_missing > 0 && pools_missing == topology.pools().len());
    let line = format!(
        "no live {} on {}",
        names.join(", "),
        settings.bus.redis_target()
    );
    if fatal {
        return Err(NotReady(format!("{line}: nothing would answer; {HINT}")));
    }
    eprintln!("chorus: warning: {}", crate::view::safe::line(&line));
    Ok(())
}
