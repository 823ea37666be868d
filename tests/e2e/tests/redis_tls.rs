//! TLS to Redis: `rediss://` with the CA file of `bus.tls_ca_file`. The whole pipeline
//! answers over TLS (every role, and the client), and a server certificate that does
//! not verify against the configured CA is named plainly (the URL and the CA file).

use std::path::{Path, PathBuf};
use std::process::Command;

use chorus_bus::{BusSettings, ReportStatus};
use chorus_bus_redis::RedisBus;
use chorus_e2e::{Cluster, ClusterOptions, answers, ask_for};
use chorus_testkit::{RedisOptions, RedisServer, free_port};

/// Runs openssl with `args` in `dir`.
fn openssl(dir: &Path, args: &[&str]) {
    let out = Command::new("openssl")
        .args(args)
        .current_dir(dir)
        .output()
        .expect("run openssl");
    assert!(
        out.status.success(),
        "openssl {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// A CA (`<name>-ca.pem`) and a server certificate for 127.0.0.1 signed by it.
fn make_ca_and_server(dir: &Path, name: &str) -> (PathBuf, PathBuf, PathBuf) {
    let ca_key = format!("{name}-ca.key");
    let ca = format!("{name}-ca.pem");
    let key = format!("{name}-server.key");
    let csr = format!("{name}-server.csr");
    let cert = format!("{name}-server.pem");
    let ext = format!("{name}-ext.cnf");
    std::fs::write(
        dir.join(&ext),
        "subjectAltName=IP:127.0.0.1,DNS:localhost\n",
    )
    .expect("ext");
    openssl(dir, &["genrsa", "-out", &ca_key, "2048"]);
    openssl(
        dir,
        &[
            "req",
            "-x509",
            "-new",
            "-key",
            &ca_key,
            "-days",
            "2",
            "-subj",
            &format!("/CN={name} test CA"),
            "-out",
            &ca,
        ],
    );
    openssl(dir, &["genrsa", "-out", &key, "2048"]);
    openssl(
        dir,
        &[
            "req",
            "-new",
            "-key",
            &key,
            "-subj",
            "/CN=127.0.0.1",
            "-out",
            &csr,
        ],
    );
    openssl(
        dir,
        &[
            "x509",
            "-req",
            "-in",
            &csr,
            "-CA",
            &ca,
            "-CAkey",
            &ca_key,
            "-CAcreateserial",
            "-days",
            "2",
            "-extfile",
            &ext,
            "-out",
            &cert,
        ],
    );
    (dir.join(ca), dir.join(cert), dir.join(key))
}

/// A client certificate and key signed by `<name>-ca`.
fn make_client(dir: &Path, name: &str) -> (PathBuf, PathBuf) {
    let ca_key = format!("{name}-ca.key");
    let ca = format!("{name}-ca.pem");
    let key = format!("{name}-client.key");
    let csr = format!("{name}-client.csr");
    let cert = format!("{name}-client.pem");
    let ext = format!("{name}-client-ext.cnf");
    std::fs::write(dir.join(&ext), "extendedKeyUsage=clientAuth\n").expect("ext");
    openssl(dir, &["genrsa", "-out", &key, "2048"]);
    openssl(
        dir,
        &[
            "req",
            "-new",
            "-key",
            &key,
            "-subj",
            "/CN=chorus",
            "-out",
            &csr,
        ],
    );
    openssl(
        dir,
        &[
            "x509",
            "-req",
            "-in",
            &csr,
            "-CA",
            &ca,
            "-CAkey",
            &ca_key,
            "-CAcreateserial",
            "-days",
            "2",
            "-extfile",
            &ext,
            "-out",
            &cert,
        ],
    );
    (dir.join(cert), dir.join(key))
}

fn path(p: &Path) -> String {
    p.to_string_lossy().into_owned()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_pipeline_runs_over_tls_and_an_untrusted_certificate_is_named() {
    let dir = tempfile::tempdir().expect("tempdir");
    let (ca, cert, key) = make_ca_and_server(dir.path(), "good");
    let (other_ca, _, _) = make_ca_and_server(dir.path(), "other");
    let tls_port = free_port();
    let url = format!("rediss://127.0.0.1:{tls_port}");
    let cluster = Cluster::start(ClusterOptions {
        redis: RedisOptions {
            extra_args: vec![
                "--tls-port".into(),
                tls_port.to_string(),
                "--tls-cert-file".into(),
                path(&cert),
                "--tls-key-file".into(),
                path(&key),
                "--tls-ca-cert-file".into(),
                path(&ca),
                "--tls-auth-clients".into(),
                "no".into(),
            ],
            ..RedisOptions::default()
        },
        env: [
            ("CHORUS__BUS__REDIS_URL".to_owned(), url.clone()),
            ("CHORUS__BUS__TLS_CA_FILE".to_owned(), path(&ca)),
        ]
        .into(),
        ..ClusterOptions::default()
    });
    // Every role is connected over TLS: the plain port sees no client but the test's.
    let bus = RedisBus::connect(BusSettings {
        redis_url: url.clone(),
        tls_ca_file: Some(path(&ca)),
        ..BusSettings::default()
    })
    .await
    .expect("connect over TLS");
    let (_, r) = ask_for(&bus, "(2+4)*3 and the weekday of 2026-12-25").await;
    assert_eq!(r.status, ReportStatus::Completed, "{}", r.text);
    assert_eq!(answers(&r), vec!["18", "Friday"]);
    let clients = cluster.redis.cli(&["CLIENT", "LIST"]);
    let plain_port = format!("laddr=127.0.0.1:{} ", cluster.redis.port());
    let tls_laddr = format!("laddr=127.0.0.1:{tls_port} ");
    assert!(
        clients.lines().filter(|l| l.contains(&tls_laddr)).count() >= 7,
        "{clients}"
    );
    assert!(
        clients.lines().filter(|l| l.contains(&plain_port)).count() <= 1,
        "{clients}"
    );

    // A CA that did not sign the server's certificate: the error names the URL and
    // the CA file.
    let err = RedisBus::connect(BusSettings {
        redis_url: url.clone(),
        tls_ca_file: Some(path(&other_ca)),
        ..BusSettings::default()
    })
    .await
    .expect_err("untrusted certificate");
    let text = err.to_string();
    assert!(text.contains(&url), "{text}");
    assert!(text.contains(&path(&other_ca)), "{text}");
    assert!(text.contains("certificate"), "{text}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_certificate_is_sent_when_redis_asks_for_one() {
    let dir = tempfile::tempdir().expect("tempdir");
    let (ca, cert, key) = make_ca_and_server(dir.path(), "good");
    let (client_cert, client_key) = make_client(dir.path(), "good");
    let tls_port = free_port();
    let _redis = RedisServer::start_with(RedisOptions {
        extra_args: vec![
            "--tls-port".into(),
            tls_port.to_string(),
            "--tls-cert-file".into(),
            path(&cert),
            "--tls-key-file".into(),
            path(&key),
            "--tls-ca-cert-file".into(),
            path(&ca),
            "--tls-auth-clients".into(),
            "yes".into(),
        ],
        ..RedisOptions::default()
    });
    let url = format!("rediss://127.0.0.1:{tls_port}");
    let settings = BusSettings {
        redis_url: url.clone(),
        tls_ca_file: Some(path(&ca)),
        connect_timeout_ms: 1000,
        ..BusSettings::default()
    };
    let err = RedisBus::connect(settings.clone())
        .await
        .expect_err("no client certificate");
    assert!(err.to_string().contains(&url), "{err}");
    let bus = RedisBus::connect(BusSettings {
        tls_cert_file: Some(path(&client_cert)),
        tls_key_file: Some(path(&client_key)),
        ..settings
    })
    .await
    .expect("connect with a client certificate");
    let mut conn = bus.connection();
    let pong: String = redis::cmd("PING")
        .query_async(&mut conn)
        .await
        .expect("ping");
    assert_eq!(pong, "PONG");
}
