//! `chorus ask` when the task asks back (issue 13): a question answered on a terminal
//! (a real pseudo-terminal), with `--answer`, or left open (exit 3, the question and the
//! ways to answer printed, then answered with `redis-cli XADD` and traced hop by hop);
//! an answer typed too late (the `unanswered` report); conversations (`--session`) whose
//! follow-ups use the last answer, in English and Vietnamese. Against Redis with every
//! role its own process, and in `--local` mode (one process: no Redis needed).

use std::io::{Read, Write};
use std::process::{Command, Output, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use chorus_bus::{Payload, Topic};
use chorus_e2e::{Cluster, ClusterOptions, bin, wait_on};

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// What a command printed in a terminal, and how it exited.
struct TerminalRun {
    code: Option<i32>,
    /// Everything the terminal showed (stdout and stderr, the typed answers echoed).
    screen: String,
}

/// A command that runs `chorus ARGS…` in a new pseudo-terminal and relays it: Python's
/// `pty.spawn` (the exit code passed on), or `script -qec` when there is no python3.
fn terminal_command(args: &[&str]) -> Command {
    let chorus = bin("chorus");
    let has_python = Command::new("python3")
        .args(["-c", "import pty"])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if has_python {
        let mut cmd = Command::new("python3");
        cmd.arg("-c")
            .arg(
                "import os, pty, sys; sys.exit(os.waitstatus_to_exitcode(pty.spawn(sys.argv[1:])))",
            )
            .arg(&chorus)
            .args(args);
        return cmd;
    }
    let quote = |s: &str| format!("'{}'", s.replace('\'', r"'\''"));
    let line: Vec<String> = std::iter::once(chorus.to_string_lossy().into_owned())
        .chain(args.iter().map(|a| (*a).to_owned()))
        .map(|a| quote(&a))
        .collect();
    let mut cmd = Command::new("script");
    cmd.args(["-qec", &line.join(" "), "/dev/null"]);
    cmd
}

/// Runs `cmd` (from [`terminal_command`]), typing `answer` and Enter each time `prompt`
/// shows up on the screen (at most `times`), until it exits (60 s at most).
fn in_terminal(cmd: Command, prompt: &str, answer: &str, times: usize) -> TerminalRun {
    in_terminal_after(cmd, prompt, answer, times, Duration::ZERO)
}

/// Like [`in_terminal`], typing each answer `think` after its prompt shows.
fn in_terminal_after(
    mut cmd: Command,
    prompt: &str,
    answer: &str,
    times: usize,
    think: Duration,
) -> TerminalRun {
    let mut child = cmd
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("start chorus in a pseudo-terminal");
    let mut stdin = child.stdin.take().expect("stdin");
    let mut stdout = child.stdout.take().expect("stdout");
    let (tx, rx) = mpsc::channel::<Vec<u8>>();
    let reader = std::thread::spawn(move || {
        let mut buf = [0u8; 4096];
        while let Ok(n) = stdout.read(&mut buf) {
            if n == 0 || tx.send(buf[..n].to_vec()).is_err() {
                break;
            }
        }
    });
    let mut screen = Vec::new();
    let (mut typed, mut seen) = (0, 0);
    let started = Instant::now();
    while started.elapsed() < Duration::from_secs(60) {
        match rx.recv_timeout(Duration::from_millis(100)) {
            Ok(chunk) => screen.extend(chunk),
            Err(mpsc::RecvTimeoutError::Timeout) => {}
            Err(mpsc::RecvTimeoutError::Disconnected) => break,
        }
        let shown = text(&screen);
        if typed < times
            && let Some(at) = shown[seen..].find(prompt)
        {
            seen += at + prompt.len();
            std::thread::sleep(think);
            stdin
                .write_all(format!("{answer}\n").as_bytes())
                .and_then(|()| stdin.flush())
                .expect("type the answer");
            typed += 1;
        }
    }
    drop(stdin);
    if started.elapsed() >= Duration::from_secs(60) {
        let _ = child.kill();
    }
    let status = child.wait().expect("wait for the terminal");
    let _ = reader.join();
    TerminalRun {
        code: status.code(),
        screen: text(&screen),
    }
}

/// `chorus ask --local ARGS…` with no Redis configured, stdin not a terminal.
fn ask_local(args: &[&str]) -> Output {
    Command::new(bin("chorus"))
        .arg("ask")
        .arg("--local")
        .args(args)
        .env_remove("CHORUS__BUS__REDIS_URL")
        .env_remove("CHORUS_CONFIG")
        .env("CHORUS_LOG", "error")
        .stdin(Stdio::null())
        .output()
        .expect("run chorus ask --local")
}

/// `chorus ask --redis ARGS…` on the cluster, stdin not a terminal.
fn ask(cluster: &Cluster, args: &[&str]) -> Output {
    cluster
        .chorus()
        .args(["ask", "--redis"])
        .args(args)
        .output()
        .expect("run chorus ask --redis")
}

/// Asserts that `out` exited `code`; shows both streams when not.
fn exited(out: &Output, code: i32) -> (String, String) {
    let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
    assert_eq!(
        out.status.code(),
        Some(code),
        "stdout:\n{stdout}\nstderr:\n{stderr}"
    );
    (stdout, stderr)
}

#[test]
fn in_local_mode_a_question_is_asked_on_the_terminal_and_the_typed_answer_completes_the_task() {
    let mut cmd = terminal_command(&["ask", "--local", "divide 10 by"]);
    cmd.env_remove("CHORUS__BUS__REDIS_URL")
        .env_remove("CHORUS_CONFIG")
        .env("CHORUS_LOG", "error");
    let run = in_terminal(cmd, "your answer", "4", 1);
    assert_eq!(run.code, Some(0), "{}", run.screen);
    assert!(
        run.screen
            .contains("\"divide 10 by\" is missing a number: which number?"),
        "{}",
        run.screen
    );
    assert!(run.screen.contains("10 ÷ 4 = 2.5"), "{}", run.screen);
    assert!(run.screen.contains("Completed"), "{}", run.screen);

    // A question with options: numbered on the screen, answered with words of one.
    let mut cmd = terminal_command(&["ask", "--local", "what weekday is 03/04/2026"]);
    cmd.env_remove("CHORUS__BUS__REDIS_URL")
        .env_remove("CHORUS_CONFIG")
        .env("CHORUS_LOG", "error");
    let run = in_terminal(cmd, "your answer", "April", 1);
    assert_eq!(run.code, Some(0), "{}", run.screen);
    assert!(run.screen.contains("1) 3 April 2026"), "{}", run.screen);
    assert!(run.screen.contains("2) 4 March 2026"), "{}", run.screen);
    assert!(run.screen.contains("Friday"), "{}", run.screen);
}

#[test]
fn an_answer_typed_after_the_answer_timeout_shows_the_unanswered_report() {
    let mut cmd = terminal_command(&["ask", "--local", "divide 10 by"]);
    cmd.env_remove("CHORUS__BUS__REDIS_URL")
        .env_remove("CHORUS_CONFIG")
        .env("CHORUS_LOG", "error")
        .env("CHORUS__AGENTS__ANSWER_TIMEOUT_MS", "300");
    let run = in_terminal_after(cmd, "your answer", "4", 1, Duration::from_millis(1500));
    assert_eq!(run.code, Some(1), "{}", run.screen);
    assert!(
        run.screen.contains("No answer came to my question"),
        "{}",
        run.screen
    );
    assert!(run.screen.contains("Unanswered"), "{}", run.screen);
}

#[test]
fn in_local_mode_answers_come_from_the_command_line_or_the_question_is_printed_with_exit_3() {
    let out = ask_local(&["--answer", "4", "divide 10 by"]);
    let (stdout, stderr) = exited(&out, 0);
    assert!(stdout.contains("10 ÷ 4 = 2.5"), "{stdout}");
    assert!(stderr.contains("> 4"), "{stderr}");

    let out = ask_local(&["divide 10 by"]);
    let (stdout, stderr) = exited(&out, 3);
    assert_eq!(
        stdout.trim(),
        "\"divide 10 by\" is missing a number: which number?"
    );
    assert!(
        stderr.contains("waiting for the answer to question 1"),
        "{stderr}"
    );
    assert!(stderr.contains("--answer"), "{stderr}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn against_redis_a_question_is_answered_on_a_terminal_by_answer_or_later_on_the_bus() {
    let cluster = Cluster::start(ClusterOptions::default());

    // On a terminal: the question, the typed answer, the report.
    let mut cmd = terminal_command(&["ask", "--redis", "divide 10 by"]);
    cmd.envs(cluster.env()).env("CHORUS_LOG", "error");
    let run = in_terminal(cmd, "your answer", "4", 1);
    assert_eq!(run.code, Some(0), "{}", run.screen);
    assert!(run.screen.contains("which number?"), "{}", run.screen);
    assert!(run.screen.contains("10 ÷ 4 = 2.5"), "{}", run.screen);

    // With --answer, no terminal: one answer per question, the option by its number.
    let out = ask(&cluster, &["--answer", "4", "divide 10 by"]);
    let (stdout, _) = exited(&out, 0);
    assert!(stdout.contains("10 ÷ 4 = 2.5"), "{stdout}");
    let out = ask(
        &cluster,
        &["--answer", "2", "--json", "what weekday is 03/04/2026"],
    );
    let (stdout, _) = exited(&out, 0);
    let report: serde_json::Value = serde_json::from_str(&stdout).expect("JSON report");
    assert_eq!(report["status"], "completed");
    assert_eq!(report["steps"][0]["arguments"]["date"], "2026-03-04");
    assert_eq!(report["steps"][0]["outcome"]["value"], "Wednesday");
    // --day-first settles it: nothing is asked.
    let out = ask(&cluster, &["--day-first", "what weekday is 03/04/2026"]);
    let (stdout, _) = exited(&out, 0);
    assert!(stdout.contains("Friday"), "{stdout}");

    // Neither: the question on stdout, the ways to answer on stderr, exit 3. Meanwhile
    // `chorus watch` shows the question and the answer as hops.
    let mut watch = cluster
        .chorus()
        .args([
            "watch",
            "--topic",
            "clarification_needed",
            "--topic",
            "clarification_answer",
            "--count",
            "3",
            "--timeout",
            "30",
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start chorus watch");
    let mut watch_err = watch.stderr.take().expect("stderr");
    let mut ready = [0u8; 8];
    watch_err.read_exact(&mut ready).expect("watch ready line");
    assert_eq!(&ready, b"watching");
    let mut watch_out = watch.stdout.take().expect("stdout");

    let out = ask(&cluster, &["divide 10 by"]);
    let (stdout, stderr) = exited(&out, 3);
    assert_eq!(
        stdout.trim(),
        "\"divide 10 by\" is missing a number: which number?"
    );
    let task_id = stderr
        .split("(task ")
        .nth(1)
        .and_then(|s| s.split(',').next())
        .expect("the task id on stderr")
        .to_owned();
    let xadd = format!(
        "redis-cli XADD clarification_answer '*' data '{{\"task_id\":\"{task_id}\",\"answer\":\"<answer>\"}}'"
    );
    assert!(stderr.contains(&xadd), "{stderr}");
    assert!(
        stderr.contains(&format!("/tasks/{task_id}/answer")),
        "{stderr}"
    );

    // The task waits; answered as printed, it goes on to its report.
    let data = format!(r#"{{"task_id":"{task_id}","answer":"4"}}"#);
    cluster
        .redis
        .cli(&["XADD", "clarification_answer", "*", "data", &data]);
    let bus = cluster.bus().await;
    let reports = wait_on(
        &bus,
        &Topic::final_report(),
        &task_id,
        Duration::from_secs(20),
    )
    .await;
    let Some(Payload::FinalReport(report)) = reports.first().map(|m| m.payload.clone()) else {
        panic!("no report for {task_id}");
    };
    assert_eq!(report.answers(), vec!["2.5"]);

    let mut watched = String::new();
    watch_out
        .read_to_string(&mut watched)
        .expect("watch output");
    assert!(watch.wait().expect("wait for chorus watch").success());
    let lines: Vec<&str> = watched.lines().collect();
    assert_eq!(lines.len(), 3, "{watched}");
    assert!(lines[0].contains("clarification_needed"), "{watched}");
    assert!(
        lines[0].contains("→ clients") && lines[0].contains("question 1: \"divide 10 by\""),
        "{watched}"
    );
    assert!(lines[1].contains("client → chief"), "{watched}");
    assert!(lines[1].contains("answer: \"4\""), "{watched}");
    assert!(lines[2].contains("chief/"), "{watched}");
    assert!(
        lines[2].contains("→ planner") && lines[2].contains("answer to 1: \"4\""),
        "{watched}"
    );

    // The trace shows the same hops among the task's other messages.
    let out = cluster
        .chorus()
        .args(["trace", &task_id])
        .output()
        .expect("run chorus trace");
    let (table, _) = exited(&out, 0);
    let row = |topic: &str, hop: &str| table.lines().any(|l| l.contains(topic) && l.contains(hop));
    assert!(row("task_available", "client → planner"), "{table}");
    assert!(row("clarification_needed", "→ clients"), "{table}");
    assert!(row("clarification_answer", "client → chief"), "{table}");
    assert!(row("clarification_answer", "→ planner"), "{table}");
    assert!(row("final_report", "completed"), "{table}");
    let order: Vec<&str> = table
        .lines()
        .skip(2)
        .filter_map(|l| l.split_whitespace().nth(3))
        .filter(|t| t.starts_with("clarification") || *t == "plan_ready")
        .collect();
    assert_eq!(
        order,
        vec![
            "clarification_needed",
            "clarification_answer",
            "clarification_answer",
            "plan_ready"
        ],
        "{table}"
    );
    let out = cluster
        .chorus()
        .args(["trace", &task_id, "--mermaid"])
        .output()
        .expect("run chorus trace --mermaid");
    let (diagram, _) = exited(&out, 0);
    for arrow in [
        "planner->>clients: clarification_needed question 1",
        "client->>chief: clarification_answer answer",
        "chief->>planner: clarification_answer answer to 1",
    ] {
        assert!(diagram.contains(arrow), "{arrow:?} missing:\n{diagram}");
    }

    // --json: the question as JSON, with its task id and options, exit 3.
    let out = ask(&cluster, &["--json", "what weekday is 03/04/2026"]);
    let (stdout, _) = exited(&out, 3);
    let q: serde_json::Value = serde_json::from_str(&stdout).expect("JSON question");
    assert!(q["task_id"].as_str().is_some_and(|t| !t.is_empty()), "{q}");
    assert_eq!(q["number"], 1);
    assert_eq!(q["options"][0]["label"], "3 April 2026");
    assert_eq!(q["options"][1]["value"], "2026-03-04");
}

#[test]
fn in_a_session_a_follow_up_uses_the_last_answer_in_english_and_vietnamese() {
    let cluster = Cluster::start(ClusterOptions::default());

    let out = ask(&cluster, &["--session", "s1", "2+4"]);
    let (stdout, _) = exited(&out, 0);
    assert!(stdout.contains('6'), "{stdout}");
    let out = ask(&cluster, &["--session", "s1", "now multiply that by 3"]);
    let (stdout, _) = exited(&out, 0);
    assert!(stdout.contains("18"), "{stdout}");
    assert!(stdout.contains("6 (your last answer)"), "{stdout}");

    // The answer to a question counts too: 10 ÷ 4, then that × 2.
    let out = ask(
        &cluster,
        &["--session", "s2", "--answer", "4", "divide 10 by"],
    );
    let (stdout, _) = exited(&out, 0);
    assert!(stdout.contains("2.5"), "{stdout}");
    let out = ask(&cluster, &["--session", "s2", "multiply that by 2"]);
    let (stdout, _) = exited(&out, 0);
    assert!(stdout.contains("2.5 (your last answer)"), "{stdout}");
    assert!(stdout.contains('5'), "{stdout}");

    // Vietnamese.
    let out = ask(&cluster, &["--session", "s-vi", "tính 2+4"]);
    let (stdout, _) = exited(&out, 0);
    assert!(stdout.contains('6'), "{stdout}");
    let out = ask(&cluster, &["--session", "s-vi", "nhân kết quả đó với 3"]);
    let (stdout, _) = exited(&out, 0);
    assert!(stdout.contains("18"), "{stdout}");
    assert!(stdout.contains("câu trả lời trước của bạn"), "{stdout}");

    // No session: "that" has nothing to refer to, so Chorus asks which number.
    let out = ask(&cluster, &["now multiply that by 3"]);
    let (stdout, _) = exited(&out, 3);
    assert!(stdout.contains("\"that\""), "{stdout}");
    // Another session does not see s1's answers.
    let out = ask(
        &cluster,
        &["--session", "s3", "--answer", "7", "now multiply that by 3"],
    );
    let (stdout, _) = exited(&out, 0);
    assert!(stdout.contains("21"), "{stdout}");
}
