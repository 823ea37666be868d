//! Least privilege on Redis: the ACL file of `chorus acl` loaded by a real redis-server,
//! every role on its own user. The whole pipeline answers; what a user must not do is
//! refused by Redis — reading a stream it only writes, writing another role's entries in
//! the registry; a wrong password is named by its user (never the password) and the role
//! keeps retrying.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::{Duration, Instant};

use chorus_bus::{AgentHeartbeat, BusSettings, PoolName, ReportStatus, ToolInfo, keys};
use chorus_bus_redis::RedisBus;
use chorus_core::acl;
use chorus_core::registry::Registry;
use chorus_core::state::TaskState;
use chorus_core::topology::Topology;
use chorus_e2e::{Cluster, ClusterOptions, answers, ask_for, bin};
use chorus_testkit::launcher::{self, Output, Proc};
use chorus_testkit::{RedisOptions, RedisServer};

const ADMIN: (&str, &str) = ("admin", "admin-pw");

/// One whole pipeline at a time (standalone, then Cluster) on the 2-core machine.
static TURN: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

fn password(var: &str) -> String {
    format!("pw-{}", var.to_ascii_lowercase())
}

/// The ACL file for the math and date pools, plus an admin user for the test's redis-cli.
fn acl_file(dir: &std::path::Path) -> std::path::PathBuf {
    let topology = Topology::new(&["math".into(), "date".into()]);
    let mut text = acl::file(&topology, |var| Some(password(var))).expect("acl file");
    text.push_str(&format!("user {} on >{} ~* &* +@all\n", ADMIN.0, ADMIN.1));
    let path = dir.join("users.acl");
    std::fs::write(&path, text).expect("write acl file");
    path
}

/// Each role's user, and the variable holding its password.
fn role_env() -> BTreeMap<String, BTreeMap<String, String>> {
    let topology = Topology::new(&["math".into(), "date".into()]);
    topology
        .roles()
        .iter()
        .map(|role| {
            let user = acl::user_of(role);
            let var = acl::password_env(&user);
            let env = BTreeMap::from([
                ("CHORUS__BUS__REDIS_USER".to_owned(), user.clone()),
                ("CHORUS__BUS__REDIS_PASSWORD_ENV".to_owned(), var.clone()),
                (var.clone(), password(&var)),
            ]);
            (user, env)
        })
        .collect()
}

/// A connection to the cluster's Redis as `user`.
async fn conn_as(cluster: &Cluster, user: &str) -> redis::aio::MultiplexedConnection {
    conn_on(&cluster.redis, user).await
}

/// The URL of `redis` as `user` (with its password).
fn url_as(redis: &RedisServer, user: &str) -> String {
    let pw = password(&acl::password_env(user));
    format!("redis://{user}:{pw}@127.0.0.1:{}", redis.port())
}

/// A connection to `redis` as `user`.
async fn conn_on(redis: &RedisServer, user: &str) -> redis::aio::MultiplexedConnection {
    let url = url_as(redis, user);
    redis::Client::open(url)
        .expect("client")
        .get_multiplexed_async_connection()
        .await
        .unwrap_or_else(|e| panic!("connect as {user}: {e}"))
}

/// Runs `args` as a command and returns Redis's error text (panics when it succeeds).
async fn refused(conn: &mut redis::aio::MultiplexedConnection, args: &[&str]) -> String {
    let mut cmd = redis::cmd(args[0]);
    for a in &args[1..] {
        cmd.arg(*a);
    }
    match cmd.query_async::<redis::Value>(conn).await {
        Ok(v) => panic!("{args:?} was allowed: {v:?}"),
        Err(e) => e.to_string(),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_role_on_its_own_user_answers_and_is_held_to_its_rights() {
    let _turn = TURN.lock().await;
    let dir = tempfile::tempdir().expect("tempdir");
    let path = acl_file(dir.path());
    let cluster = Cluster::start(ClusterOptions {
        redis: RedisOptions {
            extra_args: vec!["--aclfile".into(), path.to_string_lossy().into_owned()],
            cli_user: Some((ADMIN.0.into(), ADMIN.1.into())),
            ..RedisOptions::default()
        },
        role_env: role_env(),
        ..ClusterOptions::default()
    });

    // A client on the `client` user asks and gets its report.
    let client_pw = password(&acl::password_env(acl::CLIENT_USER));
    let bus = RedisBus::connect(BusSettings {
        redis_url: format!(
            "redis://{}:{client_pw}@127.0.0.1:{}",
            acl::CLIENT_USER,
            cluster.redis.port()
        ),
        ..BusSettings::default()
    })
    .await
    .expect("connect as client");
    let first = chorus_core::client::ask(
        &bus,
        "(2+4)*3 and the weekday of 2026-12-25",
        chorus_bus::TaskContext::default(),
        Duration::from_secs(20),
        |_| {},
    )
    .await;
    let (_, r) = first.unwrap_or_else(|e| {
        panic!(
            "first ask: {e}; ACL LOG: {}",
            cluster.redis.cli(&["ACL", "LOG"])
        )
    });
    assert_eq!(r.status, ReportStatus::Completed, "{}", r.text);
    assert_eq!(answers(&r), vec!["18", "Friday"]);
    let (task, r) = ask_for(&bus, "2+4").await;
    assert_eq!(answers(&r), vec!["6"]);

    // A question asked back is answered by the client too.
    let (asked, reply) = chorus_core::client::ask_turn(
        &bus,
        "what is 7 times?",
        chorus_bus::TaskContext::default(),
        Duration::from_secs(20),
        |_| {},
    )
    .await
    .expect("ask a question back");
    let chorus_core::client::Reply::Question(q) = reply else {
        panic!("no question: {reply:?}");
    };
    let state = chorus_core::state::TaskState::new(
        std::sync::Arc::new(bus.store()),
        Duration::from_secs(60),
    );
    let reply = chorus_core::client::answer(
        &bus,
        &state,
        &asked,
        q.number,
        "6",
        Duration::from_secs(20),
        |_| {},
    )
    .await
    .unwrap_or_else(|e| {
        panic!(
            "answer as the client: {e}; ACL LOG: {}",
            cluster.redis.cli(&["ACL", "LOG"])
        )
    });
    let chorus_core::client::Reply::Report(r) = reply else {
        panic!("no report: {reply:?}");
    };
    assert_eq!(answers(&r), vec!["42"], "{}", r.text);

    // The CLI: `chorus ask` and `chorus cancel` as the client, `chorus trace` and
    // `chorus watch` as the watcher.
    let as_user = |user: &str| {
        let var = acl::password_env(user);
        let mut cmd = cluster.chorus();
        cmd.env("CHORUS__BUS__REDIS_USER", user)
            .env("CHORUS__BUS__REDIS_PASSWORD_ENV", &var)
            .env(&var, password(&var));
        cmd
    };
    let out = as_user("client")
        .args(["ask", "--redis", "3*7"])
        .output()
        .expect("chorus ask");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "ask: {stdout} {stderr}");
    assert!(stdout.contains("21"), "{stdout}");
    let out = as_user("client")
        .args(["cancel", &task])
        .output()
        .expect("chorus cancel");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(
        out.status.code(),
        Some(1),
        "a finished task is refused: {stderr}"
    );
    assert!(!stderr.to_ascii_lowercase().contains("noperm"), "{stderr}");
    let out = as_user("watcher")
        .args(["trace", &task])
        .output()
        .expect("chorus trace");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "trace: {stdout} {stderr}");
    assert!(stdout.contains("final_report"), "{stdout}");
    let out = as_user("watcher")
        .args(["watch", "--count", "1", "--timeout", "5"])
        .output()
        .expect("chorus watch");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        !stderr.to_ascii_lowercase().contains("noperm"),
        "watch: {stderr}"
    );

    // The HTTP door, in the Chief's process on the chief user, streams a whole task.
    chorus_e2e::wait_for_port(cluster.http_port, Duration::from_secs(10));
    let response = reqwest::Client::new()
        .post(format!(
            "http://127.0.0.1:{}/chat/stream",
            cluster.http_port
        ))
        .header("content-type", "application/json")
        .body(r#"{"query": "(2+4)*3 - 1"}"#)
        .send()
        .await
        .expect("chat/stream");
    if response.status() != 200 {
        let status = response.status();
        let body = response.text().await.unwrap_or_default();
        panic!(
            "chat/stream: {status} {body}; ACL LOG: {}",
            cluster.redis.cli(&["ACL", "LOG"])
        );
    }
    let events = chorus_e2e::read_events(response).await;
    let last = events.last().expect("events");
    assert_eq!(last.0, "report", "{events:?}");
    assert_eq!(last.1["status"], "completed", "{events:?}");

    // Nothing any process did so far was refused (a missing right that a role would
    // only have logged shows here).
    let log = cluster.redis.cli(&["ACL", "LOG"]);
    assert!(log.is_empty(), "refused so far: {log}");

    let (plan, request) = (keys::plan(&"t1".into()), keys::request(&"t1".into()));
    // A pool agent: no plan, no report, no other pool's stream, no admin commands.
    let mut math = conn_as(&cluster, "pool-math").await;
    for args in [
        &["XADD", "plan_ready", "*", "data", "{}"][..],
        &["XADD", "final_report", "*", "data", "{}"],
        &["PUBLISH", "final_report", "{}"],
        &["XRANGE", "date_task", "-", "+"],
        &[
            "XREADGROUP",
            "GROUP",
            "pool-date",
            "x",
            "STREAMS",
            "date_task",
            ">",
        ],
        &["FLUSHALL"],
        &["CONFIG", "GET", "*"],
        &["KEYS", "*"],
        &["GET", &plan],
    ] {
        let e = refused(&mut math, args).await;
        assert!(e.to_ascii_lowercase().contains("noperm"), "{args:?}: {e}");
    }
    // The client cannot read task state; the watcher cannot write.
    let mut client = conn_as(&cluster, "client").await;
    for args in [
        &["GET", &plan][..],
        &["HGETALL", &request],
        &["XRANGE", "math_task", "-", "+"],
        &["XADD", "plan_ready", "*", "data", "{}"],
    ] {
        let e = refused(&mut client, args).await;
        assert!(e.to_ascii_lowercase().contains("noperm"), "{args:?}: {e}");
    }
    let mut watcher = conn_as(&cluster, "watcher").await;
    let _: redis::Value = redis::cmd("XRANGE")
        .arg("final_report")
        .arg("-")
        .arg("+")
        .query_async(&mut watcher)
        .await
        .expect("the watcher reads reports");
    for args in [
        &["XADD", "final_report", "*", "data", "{}"][..],
        &["SET", &plan, "x"],
        &["PUBLISH", "task_available", "{}"],
        &["DEL", keys::REGISTRY],
    ] {
        let e = refused(&mut watcher, args).await;
        assert!(e.to_ascii_lowercase().contains("noperm"), "{args:?}: {e}");
    }
    // The watcher may MONITOR (`redis-cli-as watcher MONITOR` in compose); a pool may not.
    let e = refused(&mut math, &["MONITOR"]).await;
    assert!(
        e.to_ascii_lowercase().contains("noperm"),
        "MONITOR as a pool: {e}"
    );
    let mut monitor = conn_as(&cluster, "watcher").await;
    let ok: String = redis::cmd("MONITOR")
        .query_async(&mut monitor)
        .await
        .expect("the watcher may MONITOR");
    assert_eq!(ok, "OK");
    drop(monitor);

    // A wrong password: the role names its user, not the password, and keeps trying.
    let log = dir.path().join("bad-planner.log");
    let mut cmd = launcher::role(&bin("chorus"), "planner", None, cluster.env(), "warn");
    cmd.envs(&role_env()["planner"]);
    cmd.env(acl::password_env("planner"), "not-the-password-42");
    let mut bad = Proc::spawn("bad-planner", cmd, Output::File(log.clone())).expect("spawn");
    let start = Instant::now();
    let text = loop {
        let text = std::fs::read_to_string(&log).unwrap_or_default();
        if text.matches("\"planner\"").count() >= 3 || start.elapsed() > Duration::from_secs(15) {
            break text;
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    };
    assert!(bad.is_running(), "the role gave up: {text}");
    assert!(text.contains("refused user \"planner\""), "{text}");
    assert!(
        text.matches("\"planner\"").count() >= 3,
        "no retries: {text}"
    );
    assert!(!text.contains("not-the-password-42"), "{text}");
    assert!(
        !text.contains(&password(&acl::password_env("planner"))),
        "{text}"
    );
    bad.kill();
}

/// Connects a bus to `redis` as `user` and returns the registry in its store.
async fn registry_as(redis: &RedisServer, user: &str) -> Registry {
    let bus = RedisBus::connect(BusSettings {
        redis_url: url_as(redis, user),
        ..BusSettings::default()
    })
    .await
    .unwrap_or_else(|e| panic!("connect as {user}: {e}"));
    Registry::new(TaskState::new(
        Arc::new(bus.store()),
        Duration::from_secs(60),
    ))
}

/// A heartbeat of `role` (a pool agent's when `pool` is given) listing `tools`.
fn heartbeat(role: &str, instance: &str, pool: Option<&str>, tools: &[&str]) -> AgentHeartbeat {
    AgentHeartbeat {
        role: role.into(),
        instance: instance.into(),
        pool: pool.map(PoolName::from),
        tools: tools
            .iter()
            .map(|t| ToolInfo {
                name: (*t).into(),
                description: String::new(),
                input_schema: serde_json::json!({"type": "object"}),
            })
            .collect(),
        ttl_ms: 60_000,
    }
}

/// The once-script's shape: SET NX the once-key, then XADD and PUBLISH on the stream.
const ONCE_LUA: &str = "if redis.call('SET', KEYS[1], '1', 'NX', 'PX', 60000) then \
    local id = redis.call('XADD', KEYS[2], '*', 'data', ARGV[1]) \
    redis.call('PUBLISH', KEYS[2], ARGV[1]) return id end return false";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_user_reads_no_stream_it_only_writes_and_writes_no_other_roles_registry_entries() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = acl_file(dir.path());
    let redis = tokio::task::spawn_blocking(move || {
        RedisServer::start_with(RedisOptions {
            extra_args: vec!["--aclfile".into(), path.to_string_lossy().into_owned()],
            cli_user: Some((ADMIN.0.into(), ADMIN.1.into())),
            ..RedisOptions::default()
        })
    })
    .await
    .expect("start redis");
    // What the pipeline leaves: every stream with its readers' groups and an entry
    // another user must not see.
    for (stream, group) in [
        ("task_available", "chief"),
        ("clarification_answer", "chief"),
        ("plan_ready", "router"),
        ("math_task", "pool-math"),
        ("math_result", "router"),
        ("final_report", "chief"),
        ("tool_response", "watchers"),
    ] {
        redis.cli(&["XGROUP", "CREATE", stream, group, "0", "MKSTREAM"]);
        redis.cli(&["XADD", stream, "*", "data", "secret-of-the-readers"]);
    }
    // Pending in the Router's group, as a result the Router is handling.
    redis.cli(&[
        "XREADGROUP",
        "GROUP",
        "router",
        "r1",
        "COUNT",
        "1",
        "STREAMS",
        "math_result",
        ">",
    ]);
    let result_id = redis
        .cli(&["XRANGE", "math_result", "-", "+", "COUNT", "1"])
        .lines()
        .next()
        .expect("an entry")
        .to_owned();

    // Each writer still appends, plainly and through the once-script.
    for (user, stream, once) in [
        (
            "pool-math",
            "math_result",
            keys::once::result(&"t1".into(), &"s1".into(), 1),
        ),
        ("planner", "plan_ready", keys::once::planned(&"t1".into())),
        (
            "client",
            "task_available",
            keys::once::accepted(&"t1".into()),
        ),
        (
            "synthesizer",
            "final_report",
            keys::once::reported(&"t1".into()),
        ),
        // The Chief sends a paused task's question the Planner's never got out.
        (
            "chief",
            "clarification_needed",
            keys::once::asked(&"t1".into(), 1),
        ),
    ] {
        let mut conn = conn_on(&redis, user).await;
        let id: String = redis::cmd("XADD")
            .arg(stream)
            .arg("*")
            .arg("data")
            .arg("{}")
            .query_async(&mut conn)
            .await
            .unwrap_or_else(|e| panic!("{user} XADD {stream}: {e}"));
        assert!(id.contains('-'), "{id}");
        let id: Option<String> = redis::cmd("EVAL")
            .arg(ONCE_LUA)
            .arg(2)
            .arg(&once)
            .arg(stream)
            .arg("{}")
            .query_async(&mut conn)
            .await
            .unwrap_or_else(|e| panic!("{user} publish-once on {stream}: {e}"));
        assert!(id.is_some(), "{user}: the once-key was new");
    }

    // Nobody reads a stream it only writes: not by XREAD/XRANGE, not with a group of
    // its own or another's (XREADGROUP, XCLAIM return entries), not inside a script.
    let read_script = "return redis.call('XRANGE', KEYS[1], '-', '+')";
    let cases: Vec<(&str, Vec<&str>)> = vec![
        ("planner", vec!["XRANGE", "plan_ready", "-", "+"]),
        ("planner", vec!["XREAD", "STREAMS", "plan_ready", "0"]),
        ("planner", vec!["XREVRANGE", "math_task", "+", "-"]),
        ("planner", vec!["EVAL", read_script, "1", "plan_ready"]),
        ("router", vec!["XRANGE", "math_task", "-", "+"]),
        ("synthesizer", vec!["XRANGE", "final_report", "-", "+"]),
        (
            "pool-math",
            vec![
                "XREADGROUP",
                "GROUP",
                "router",
                "spy",
                "STREAMS",
                "math_result",
                "0",
            ],
        ),
        (
            "pool-math",
            vec!["XCLAIM", "math_result", "router", "spy", "0", &result_id],
        ),
        (
            "pool-math",
            vec!["XGROUP", "CREATE", "math_result", "spy", "0"],
        ),
        ("pool-math", vec!["XPENDING", "math_result", "router"]),
        ("pool-math", vec!["XINFO", "GROUPS", "tool_response"]),
        ("pool-math", vec!["EVAL", read_script, "1", "math_result"]),
        ("client", vec!["XRANGE", "task_available", "-", "+"]),
        (
            "client",
            vec!["XREAD", "STREAMS", "clarification_answer", "0"],
        ),
        ("client", vec!["EVAL", read_script, "1", "task_available"]),
        // Nor appends to one it only reads.
        ("planner", vec!["XADD", "task_available", "*", "data", "{}"]),
        ("pool-math", vec!["XADD", "math_task", "*", "data", "{}"]),
        // Nor to one that is not its to write at all.
        (
            "synthesizer",
            vec!["XADD", "clarification_needed", "*", "data", "{}"],
        ),
    ];
    for (user, args) in &cases {
        let mut conn = conn_on(&redis, user).await;
        let e = refused(&mut conn, args).await.to_ascii_lowercase();
        // NOPERM, or inside a script "the user executing the script can't access …" /
        // "… can't run this command".
        assert!(
            e.contains("noperm") || e.contains("the user executing the script can't"),
            "{user} {args:?}: {e}"
        );
        assert!(!e.contains("secret"), "{user} {args:?}: {e}");
    }
    // The Router still has its entry pending: nobody claimed it away.
    let pending = redis.cli(&["XPENDING", "math_result", "router"]);
    assert!(pending.contains("r1"), "{pending}");

    // The registry: each role writes its own agents' entries, and reads everyone's.
    let date = registry_as(&redis, "pool-date").await;
    let real = heartbeat("pool-date", "pool-date-7", Some("date"), &["weekday"]);
    date.beat(&real).await.expect("the date agent beats");
    let planner = registry_as(&redis, "planner").await;
    planner
        .beat(&heartbeat("planner", "planner-1", None, &[]))
        .await
        .expect("the planner beats");
    // Another role's user cannot overwrite the date agent's entry (here: with no tools,
    // which would make the date pool count as down), nor announce an agent of its own
    // in another role's or pool's place.
    let math = registry_as(&redis, "pool-math").await;
    for (who, forged) in [
        (
            &math,
            heartbeat("pool-date", "pool-date-7", Some("date"), &[]),
        ),
        (
            &planner,
            heartbeat("pool-date", "pool-date-7", Some("date"), &[]),
        ),
        (&math, heartbeat("planner", "planner-1", None, &[])),
    ] {
        let e = who
            .beat(&forged)
            .await
            .expect_err("a forged registry entry was written");
        assert!(e.to_string().to_ascii_lowercase().contains("noperm"), "{e}");
    }
    math.beat(&heartbeat(
        "pool-math",
        "fake-date",
        Some("date"),
        &["weekday"],
    ))
    .await
    .expect("a pool writes its own hash");
    let live = planner
        .live()
        .await
        .expect("the planner reads the registry");
    let dates: Vec<(&str, usize)> = live
        .iter()
        .filter(|a| a.pool.as_deref() == Some("date"))
        .map(|a| (a.instance.as_str(), a.tools.len()))
        .collect();
    assert_eq!(dates, [("pool-date-7", 1)], "{live:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_role_on_its_own_user_answers_on_a_redis_cluster() {
    let _turn = TURN.lock().await;
    let dir = tempfile::tempdir().expect("tempdir");
    let path = acl_file(dir.path());
    let cluster = Cluster::start(ClusterOptions {
        redis_cluster: true,
        redis: RedisOptions {
            extra_args: vec!["--aclfile".into(), path.to_string_lossy().into_owned()],
            cli_user: Some((ADMIN.0.into(), ADMIN.1.into())),
            ..RedisOptions::default()
        },
        role_env: role_env(),
        // The partitions' streams and dedupe keys pass the same rules (`chorus acl`
        // grants them whatever `bus.partitions` is).
        env: [("CHORUS__BUS__PARTITIONS".to_owned(), "3".to_owned())].into(),
        ..ClusterOptions::default()
    });
    let nodes = cluster.redis_cluster.as_ref().expect("redis cluster");
    let acl_log = || -> String {
        nodes
            .nodes()
            .iter()
            .map(|n| n.cli(&["ACL", "LOG"]))
            .collect::<Vec<_>>()
            .join("\n")
            .trim()
            .to_owned()
    };

    // The client, on the `client` user, over the Cluster: the once-scripts' two steps
    // (claim in the task's slot, append in the stream's) pass its rules.
    let pw = password(&acl::password_env(acl::CLIENT_USER));
    let as_client = |url: &String| url.replacen("redis://", &format!("redis://client:{pw}@"), 1);
    let settings = cluster.bus_settings();
    let bus = RedisBus::connect(BusSettings {
        redis_url: as_client(&settings.redis_url),
        cluster_nodes: settings.cluster_nodes.iter().map(as_client).collect(),
        ..settings
    })
    .await
    .expect("connect as client");
    let asked = chorus_core::client::ask(
        &bus,
        "(2+4)*3 and the weekday of 2026-12-25",
        chorus_bus::TaskContext::default(),
        Duration::from_secs(20),
        |_| {},
    )
    .await;
    let (_, r) = asked.unwrap_or_else(|e| panic!("ask: {e}; ACL LOG: {}", acl_log()));
    assert_eq!(answers(&r), vec!["18", "Friday"], "{}", r.text);
    let (_, r) = ask_for(&bus, "2+4").await;
    assert_eq!(answers(&r), vec!["6"]);
    let log = acl_log();
    assert!(log.is_empty(), "refused on the Cluster: {log}");

    // A stream the Planner only writes (a partition of it), on the node that holds it.
    let stream = chorus_bus::keys::partition_stream("plan_ready", 1, 3);
    let port = nodes.primary_port_of(&stream).expect("the stream's node");
    let node = nodes
        .nodes()
        .iter()
        .find(|n| n.port() == port)
        .expect("a node");
    let mut planner = conn_on(node, "planner").await;
    let e = refused(&mut planner, &["XRANGE", &stream, "-", "+"]).await;
    assert!(e.to_ascii_lowercase().contains("noperm"), "{e}");
}
