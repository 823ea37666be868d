//! One ACL user as Redis reads it: its commands, key and channel patterns and
//! selectors, written as a rule or an ACL file's line; the variable holding its
//! password; the permission prefixes of a key pattern.

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

/// The prefix of the environment variables holding the users' passwords:
/// `CHORUS_ACL_PASSWORD_PLANNER`, `CHORUS_ACL_PASSWORD_POOL_MATH`, …
pub const PASSWORD_ENV_PREFIX: &str = "CHORUS_ACL_PASSWORD_";

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

/// Full access (`~`) to `pattern`.
pub(super) fn rw(pattern: &str) -> String {
    format!("~{pattern}")
}

/// Read-only access to `pattern`.
pub(super) fn ro(pattern: &str) -> String {
    format!("%R~{pattern}")
}

/// Write-only access to `pattern`.
pub(super) fn wo(pattern: &str) -> String {
    format!("%W~{pattern}")
}
