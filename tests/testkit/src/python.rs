//! The Python venv with the official client SDKs (MCP, OpenAI, A2A) and the
//! third-party MCP server `mcp-server-time`, made by `tests/python/venv.sh` from the
//! pinned `tests/python/requirements.txt`. Tests that drive Chorus with an independent
//! client call [`python`]; the venv is made (or brought up to date) once per test
//! process, under a file lock, so test binaries running at once do not race.

use std::path::PathBuf;
use std::process::Command;
use std::sync::OnceLock;

/// The repository's root (two levels above this crate).
fn repo_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The venv's directory: `$CHORUS_PY_VENV`, else `target/python-venv` (under
/// `$CARGO_TARGET_DIR` when set).
pub fn venv_dir() -> PathBuf {
    if let Some(dir) = std::env::var_os("CHORUS_PY_VENV") {
        return PathBuf::from(dir);
    }
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| repo_root().join("target"));
    target.join("python-venv")
}

/// The venv's `python`, the venv made first if needed. Panics with what to run when it
/// cannot be made (no `python3 -m venv`, no package index).
pub fn python() -> PathBuf {
    static READY: OnceLock<PathBuf> = OnceLock::new();
    READY
        .get_or_init(|| {
            let venv = venv_dir();
            if let Some(parent) = venv.parent() {
                std::fs::create_dir_all(parent).expect("venv's parent directory");
            }
            let lock = venv.with_extension("lock");
            let script = repo_root().join("tests/python/venv.sh");
            let out = Command::new("flock")
                .arg(&lock)
                .arg("bash")
                .arg(&script)
                .arg(&venv)
                .output()
                .expect("run flock bash tests/python/venv.sh");
            assert!(
                out.status.success(),
                "tests/python/venv.sh {} failed (python3-venv and the package index are needed):\n{}",
                venv.display(),
                String::from_utf8_lossy(&out.stderr)
            );
            venv.join("bin/python")
        })
        .clone()
}

/// A venv program (`mcp-server-time`, …), the venv made first if needed.
pub fn venv_bin(name: &str) -> PathBuf {
    python()
        .parent()
        .map(|bin| bin.join(name))
        .unwrap_or_else(|| PathBuf::from(name))
}
