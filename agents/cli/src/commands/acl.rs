//! `chorus acl`: prints the Redis ACL file (for `redis-server --aclfile`) with one user
//! per role, per configured pool, `client` and `watcher`, and `default` off. Each user's
//! password comes from `CHORUS_ACL_PASSWORD_<USER>` (`pool-math` →
//! `CHORUS_ACL_PASSWORD_POOL_MATH`); the file holds them, so it is printed only when
//! asked for. `--rules-only` prints every user `off` without a password, for review.

use chorus_core::acl;
use chorus_core::settings::Settings;
use chorus_core::topology::Topology;
use clap::Args;

/// Arguments of `chorus acl`.
#[derive(Debug, Clone, Args)]
pub struct AclArgs {
    /// Print the rules without passwords (every user `off`), e.g. to review or diff.
    #[arg(long)]
    pub rules_only: bool,
}

/// Prints the file; a missing password variable is an error naming every such variable.
pub fn run(args: AclArgs, settings: &Settings) -> anyhow::Result<()> {
    let topology = Topology::new(&settings.pool_names());
    if args.rules_only {
        print!("{}", acl::rules_only(&topology));
        return Ok(());
    }
    let text = acl::file(&topology, |var| std::env::var(var).ok())?;
    print!("{text}");
    Ok(())
}
