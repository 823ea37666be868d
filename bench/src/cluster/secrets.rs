//! What the cluster is started with: the bench user, a random password, the TLS
//! certificates and the ACL file.

use std::collections::BTreeMap;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::Command;

use chorus_bus::PoolName;
use chorus_core::acl::{self, AclUser};
use chorus_core::topology::Topology;

use super::POOLS;
use crate::BenchError;

/// The user the benchmark's own client connects as when ACLs are on.
pub const BENCH_USER: &str = "bench";

/// The benchmark client's user: the `client` user's rights (submit requests, read
/// `final_report`), plus read access to every topic (the per-hop figures read each
/// stage's stream with `XREVRANGE`) and `INFO` (commands per task, Redis's CPU time).
/// No role's user has both; it is in the ACL file only the benchmark writes.
pub fn bench_user(topology: &Topology) -> AclUser {
    let mut user = acl::client_user();
    user.name = BENCH_USER.to_owned();
    user.commands.push("info");
    for t in topology.topics() {
        let t = t.as_str();
        if !user.keys.iter().any(|k| k.ends_with(&format!("~{t}"))) {
            user.keys.push(format!("%R~{t}"));
        }
        if !user.channels.iter().any(|c| c == t) {
            user.channels.push(t.to_owned());
        }
    }
    user
}

/// A random password (32 hex digits from /dev/urandom).
fn random_password() -> Result<String, BenchError> {
    let mut bytes = [0u8; 16];
    std::fs::File::open("/dev/urandom")
        .and_then(|mut f| f.read_exact(&mut bytes))
        .map_err(|e| BenchError::Spawn {
            what: "a password".into(),
            reason: e.to_string(),
        })?;
    Ok(bytes.iter().map(|b| format!("{b:02x}")).collect())
}

/// Runs `openssl args` in `dir`.
fn openssl(dir: &Path, args: &[&str]) -> Result<(), BenchError> {
    let fail = |reason: String| BenchError::Spawn {
        what: format!("openssl {}", args.first().copied().unwrap_or_default()),
        reason,
    };
    let out = Command::new("openssl")
        .args(args)
        .current_dir(dir)
        .output()
        .map_err(|e| fail(e.to_string()))?;
    if !out.status.success() {
        return Err(fail(String::from_utf8_lossy(&out.stderr).trim().to_owned()));
    }
    Ok(())
}

/// A CA (`ca.pem`) and a server certificate for 127.0.0.1 signed by it
/// (`server.pem`, `server.key`), in `dir`.
pub(super) fn make_certificates(dir: &Path) -> Result<(PathBuf, PathBuf, PathBuf), BenchError> {
    std::fs::write(
        dir.join("server-ext.cnf"),
        "subjectAltName=IP:127.0.0.1,DNS:localhost\n",
    )
    .map_err(|e| BenchError::Spawn {
        what: "the certificates".into(),
        reason: e.to_string(),
    })?;
    openssl(dir, &["genrsa", "-out", "ca.key", "2048"])?;
    openssl(
        dir,
        &[
            "req",
            "-x509",
            "-new",
            "-key",
            "ca.key",
            "-days",
            "2",
            "-subj",
            "/CN=chorus-bench CA",
            "-out",
            "ca.pem",
        ],
    )?;
    openssl(dir, &["genrsa", "-out", "server.key", "2048"])?;
    openssl(
        dir,
        &[
            "req",
            "-new",
            "-key",
            "server.key",
            "-subj",
            "/CN=127.0.0.1",
            "-out",
            "server.csr",
        ],
    )?;
    openssl(
        dir,
        &[
            "x509",
            "-req",
            "-in",
            "server.csr",
            "-CA",
            "ca.pem",
            "-CAkey",
            "ca.key",
            "-CAcreateserial",
            "-days",
            "2",
            "-extfile",
            "server-ext.cnf",
            "-out",
            "server.pem",
        ],
    )?;
    Ok((
        dir.join("ca.pem"),
        dir.join("server.pem"),
        dir.join("server.key"),
    ))
}

/// The ACL file (every user of `chorus acl`, plus [`bench_user`]) with a random
/// password per user, written to `dir/users.acl`; returns its path and the passwords by
/// variable name.
pub(super) fn write_acl_file(
    dir: &Path,
) -> Result<(PathBuf, BTreeMap<String, String>), BenchError> {
    let pools: Vec<PoolName> = POOLS.iter().map(|p| PoolName::from(*p)).collect();
    let topology = Topology::new(&pools);
    let bench = bench_user(&topology);
    let mut passwords = BTreeMap::new();
    for user in acl::users(&topology).iter().chain([&bench]) {
        passwords.insert(user.password_env(), random_password()?);
    }
    let mut text =
        acl::file(&topology, |var| passwords.get(var).cloned()).map_err(|e| BenchError::Spawn {
            what: "the ACL file".into(),
            reason: e.to_string(),
        })?;
    text.push_str(&bench.line(passwords.get(&bench.password_env()).map(String::as_str)));
    text.push('\n');
    let path = dir.join("users.acl");
    std::fs::write(&path, text).map_err(|e| BenchError::Spawn {
        what: "the ACL file".into(),
        reason: e.to_string(),
    })?;
    Ok((path, passwords))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_bench_user_is_the_client_plus_reading_every_topic_and_info() {
        let topology = Topology::new(&["math".into(), "date".into()]);
        let user = bench_user(&topology);
        assert_eq!(user.name, BENCH_USER);
        assert!(user.commands.contains(&"info"));
        assert!(user.commands.contains(&"xrevrange"));
        for read in [
            "%R~math_task",
            "%R~date_result",
            "%R~tool_request",
            "%R~final_report",
        ] {
            assert!(user.keys.contains(&read.to_owned()), "{read}: {user:?}");
        }
        // The client submits through its append selector, and the bench reads every
        // topic, the requests too.
        assert!(
            user.selectors
                .iter()
                .any(|s| s.keys.contains(&"~task_available".to_owned())),
            "{user:?}"
        );
        assert!(
            user.keys.contains(&"%R~task_available".to_owned()),
            "{user:?}"
        );
        for never in ["flushall", "config", "keys", "acl", "xgroup|create", "del"] {
            assert!(!user.commands.contains(&never), "{never}");
        }
        let tasks = format!("~{}", chorus_bus::keys::patterns::TASKS);
        assert!(!user.keys.iter().any(|k| *k == tasks || k == "~*"));
    }
}
