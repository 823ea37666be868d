//! The Chief's HTTP server against slow clients on a real socket (header limit 300 ms,
//! body 600 ms, idle 1.2 s): a request whose headers never finish is closed unanswered
//! at the header limit; one whose body never finishes (`Content-Length: 100`, one byte
//! sent) gets 408 `body_timeout` and is closed at the body limit; a kept-alive
//! connection lives past the header limit and is closed at the idle limit; and
//! shutdown still ends the server with a connection open.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};

use chorus_bus::memory::MemoryBus;
use chorus_core::state::TaskState;
use chorus_core::system::Infra;
use chorus_gateway::{ApiState, serve_on};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::oneshot;
use tokio::task::JoinHandle;

/// A bare gateway served on a free port: its address, the shutdown trigger, the task.
async fn serve() -> (
    SocketAddr,
    oneshot::Sender<()>,
    JoinHandle<std::io::Result<()>>,
) {
    let mut settings = chorus_core::settings::Settings::default();
    settings.http.header_timeout_ms = 300;
    settings.http.body_timeout_ms = 600;
    settings.http.idle_timeout_ms = 1_200;
    let bus = MemoryBus::new(settings.bus.clone());
    let store = Arc::new(bus.store());
    let infra = Infra {
        bus: Arc::new(bus),
        store,
    };
    let state = TaskState::for_settings(infra.store.clone(), &settings);
    let api = ApiState::new(infra, state, &settings);
    let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let addr = listener.local_addr().expect("addr");
    let (stop, stopped) = oneshot::channel::<()>();
    let task = tokio::spawn(serve_on(listener, api, async move {
        let _ = stopped.await;
    }));
    (addr, stop, task)
}

/// Reads until the server closes (or 5 s pass): what came and when it closed.
async fn read_to_close(stream: &mut TcpStream, start: Instant) -> (String, Duration) {
    let mut got = Vec::new();
    let read = tokio::time::timeout(Duration::from_secs(5), async {
        let mut buf = [0u8; 4096];
        loop {
            match stream.read(&mut buf).await {
                Ok(0) | Err(_) => break,
                Ok(n) => got.extend_from_slice(&buf[..n]),
            }
        }
    })
    .await;
    assert!(read.is_ok(), "the server kept the connection open for 5 s");
    (String::from_utf8_lossy(&got).into_owned(), start.elapsed())
}

async fn send_and_wait(addr: SocketAddr, bytes: &str) -> (String, Duration) {
    let mut stream = TcpStream::connect(addr).await.expect("connect");
    let start = Instant::now();
    stream.write_all(bytes.as_bytes()).await.expect("write");
    read_to_close(&mut stream, start).await
}

#[tokio::test]
async fn headers_that_never_finish_are_closed_at_the_header_limit() {
    let (addr, _stop, _task) = serve().await;
    let (got, took) = send_and_wait(addr, "POST /tasks HTTP/1.1\r\nHost: x\r\nContent-Len").await;
    assert_eq!(got, "", "nothing answered to half a request");
    assert!(
        took >= Duration::from_millis(250) && took < Duration::from_millis(1_500),
        "{took:?}"
    );
}

#[tokio::test]
async fn a_body_that_never_finishes_gets_408_and_is_closed_at_the_body_limit() {
    let (addr, _stop, _task) = serve().await;
    let (got, took) = send_and_wait(
        addr,
        "POST /tasks HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n\
         Content-Length: 100\r\n\r\n{",
    )
    .await;
    assert!(got.starts_with("HTTP/1.1 408"), "{got}");
    assert!(
        got.to_ascii_lowercase().contains("connection: close"),
        "{got}"
    );
    assert!(got.contains(r#""code":"body_timeout""#), "{got}");
    assert!(
        took >= Duration::from_millis(550) && took < Duration::from_millis(2_000),
        "{took:?}"
    );
}

#[tokio::test]
async fn a_kept_alive_connection_is_closed_at_the_idle_limit_not_the_header_limit() {
    let (addr, _stop, _task) = serve().await;
    let mut stream = TcpStream::connect(addr).await.expect("connect");
    let mut buf = [0u8; 4096];
    for _ in 0..2 {
        let request = "GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n";
        stream.write_all(request.as_bytes()).await.expect("write");
        let n = stream.read(&mut buf).await.expect("read");
        let text = String::from_utf8_lossy(&buf[..n]);
        assert!(text.starts_with("HTTP/1.1 "), "{text}");
        tokio::time::sleep(Duration::from_millis(500)).await;
    }
    let (got, took) = read_to_close(&mut stream, Instant::now()).await;
    assert_eq!(got, "");
    let idle = took + Duration::from_millis(500);
    assert!(
        idle >= Duration::from_millis(1_100) && idle < Duration::from_millis(2_500),
        "{idle:?}"
    );
}

#[tokio::test]
async fn shutdown_ends_the_server_and_its_idle_connections() {
    let (addr, stop, task) = serve().await;
    let mut stream = TcpStream::connect(addr).await.expect("connect");
    let request = "GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n";
    stream.write_all(request.as_bytes()).await.expect("write");
    let mut buf = [0u8; 4096];
    assert!(stream.read(&mut buf).await.expect("read") > 0);
    let start = Instant::now();
    stop.send(()).expect("stop");
    let ended = tokio::time::timeout(Duration::from_secs(1), task).await;
    assert!(matches!(ended, Ok(Ok(Ok(())))), "{ended:?}");
    let (_, took) = read_to_close(&mut stream, start).await;
    assert!(took < Duration::from_millis(500), "{took:?}");
}
