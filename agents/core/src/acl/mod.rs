//! Least privilege on Redis: one ACL user per role, built from the topology table.
//! `chorus acl` prints these users as a file for `redis-server --aclfile`; each process
//! connects as its role's user (`bus.redis_user`, password from the variable
//! `bus.redis_password_env` names). docs/security.md explains what each can and cannot do.
//!
//! A role may read (with its consumer group: XREADGROUP, XACK, XCLAIM, XPENDING, XGROUP)
//! the streams it reads in the table, append to the streams it writes (and mirror them
//! on the channel of the same name), write `dead_letter` and `agent_heartbeat`, and touch
//! the state keys its job needs. A pool agent reads its own pool's stream only and
//! writes its results and tool events: it cannot publish a plan or a report.
//!
//! Appends go through a selector of their own (Redis 7 ACL selectors): a user's root
//! rules hold the commands that read and the keys of the streams it reads, and one
//! selector holds the appending commands (`XADD`, `ZADD`, and `EVAL`/`EVALSHA` for the
//! once-scripts) with the streams it writes. Redis asks read *and* write permission for
//! the keys a script declares, so the streams a role writes through the once-scripts
//! need `~` (not `%W~`); in the selector, `~` lets only those commands at them, and a
//! script's own commands are checked one by one against the root and the selector. So a
//! role cannot read (XREAD, XRANGE, XREADGROUP, XCLAIM, …) a stream it only writes, nor
//! append to one it only reads. In the registry each role writes its own group's hash
//! only (`chorus:registry:<group>`) and may add its group to the index (`ZADD`).
//!
//! The parts: which commands each kind of user runs (`commands`), a user's rules as
//! Redis reads them (`rule`), the users the topology table makes (`users`), and the
//! ACL file with its passwords (`file`).

mod commands;
mod file;
mod rule;
mod users;

pub use file::{DEFAULT_USER, MissingPasswords, file, rules_only};
pub use rule::{AclUser, PASSWORD_ENV_PREFIX, Selector, password_env};
pub use users::{CLIENT_USER, WATCHER_USER, client_user, role_user, user_of, users, watcher_user};
