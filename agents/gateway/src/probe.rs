//! `chorus probe URL`: a plain HTTP/1.1 GET for container healthchecks (the runtime
//! image has no curl).

use std::time::Duration;

use tokio::io::{AsyncReadExt, AsyncWriteExt};

/// Whether `GET url` answers 200 within `timeout`. Only `http://host[:port]/path`.
pub async fn probe(url: &str, timeout: Duration) -> bool {
    tokio::time::timeout(timeout, get_status(url))
        .await
        .ok()
        .flatten()
        == Some(200)
}

async fn get_status(url: &str) -> Option<u16> {
    let rest = url.strip_prefix("http://")?;
    let (authority, path) = match rest.find('/') {
        Some(i) => (&rest[..i], &rest[i..]),
        None => (rest, "/"),
    };
    let addr = if authority.contains(':') {
        authority.to_owned()
    } else {
        format!("{authority}:80")
    };
    let mut stream = tokio::net::TcpStream::connect(addr).await.ok()?;
    let request = format!("GET {path} HTTP/1.1\r\nHost: {authority}\r\nConnection: close\r\n\r\n");
    stream.write_all(request.as_bytes()).await.ok()?;
    let mut head = [0u8; 64];
    let n = stream.read(&mut head).await.ok()?;
    let line = std::str::from_utf8(&head[..n]).ok()?;
    line.split_whitespace().nth(1)?.parse().ok()
}
