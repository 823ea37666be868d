//! The ACL file `chorus acl` writes for `redis-server --aclfile`: every user with its
//! password, then the `default` user turned off; and the same rules without passwords,
//! for review.

use super::users::users;
use crate::topology::Topology;

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
