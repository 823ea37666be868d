//! Reading Server-Sent Events in tests: the one reader every test helper uses, whatever
//! client fetched the bytes (an in-process axum body, reqwest, a whole response text).
//! Events are split at blank lines; `event:` names an event (`message` when absent),
//! `data:` lines make its data (one leading space dropped, several lines joined by new
//! lines); an event without data (a keep-alive comment) is skipped. Production code
//! never parses Server-Sent Events: only tests read what the doors write.

/// One event: its name and its data.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SseEvent {
    /// The `event:` name, `message` when absent.
    pub name: String,
    /// The `data:` lines, joined by new lines.
    pub data: String,
}

/// Events read from bytes as they come.
#[derive(Debug, Default)]
pub struct SseReader {
    buffer: String,
}

impl SseReader {
    /// A reader with nothing read yet.
    pub fn new() -> Self {
        SseReader::default()
    }

    /// Adds bytes of the stream (any chunking).
    pub fn push(&mut self, bytes: &[u8]) {
        self.buffer.push_str(&String::from_utf8_lossy(bytes));
        if self.buffer.contains('\r') {
            self.buffer = self.buffer.replace("\r\n", "\n");
        }
    }

    /// The next complete event with data, if one was read whole.
    pub fn next_event(&mut self) -> Option<SseEvent> {
        while let Some(end) = self.buffer.find("\n\n") {
            let block: String = self.buffer.drain(..end + 2).collect();
            if let Some(event) = parse_block(&block) {
                return Some(event);
            }
        }
        None
    }

    /// What was read of an unfinished event so far.
    pub fn pending(&self) -> &str {
        &self.buffer
    }
}

/// Every event of a whole stream's text (a last event without its blank line too).
pub fn parse_all(text: &str) -> Vec<SseEvent> {
    let mut reader = SseReader::new();
    reader.push(text.as_bytes());
    reader.push(b"\n\n");
    std::iter::from_fn(|| reader.next_event()).collect()
}

/// One event's lines; `None` when it has no data.
fn parse_block(block: &str) -> Option<SseEvent> {
    let mut name = None;
    let mut data: Option<String> = None;
    for line in block.lines() {
        if let Some(v) = line.strip_prefix("event:") {
            name = Some(v.trim().to_owned());
        } else if let Some(v) = line.strip_prefix("data:") {
            let v = v.strip_prefix(' ').unwrap_or(v);
            match &mut data {
                Some(d) => {
                    d.push('\n');
                    d.push_str(v);
                }
                None => data = Some(v.to_owned()),
            }
        }
    }
    let data = data.filter(|d| !d.is_empty())?;
    Some(SseEvent {
        name: name.unwrap_or_else(|| "message".to_owned()),
        data,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn events_are_read_across_chunks_and_keep_alives_are_skipped() {
        let mut reader = SseReader::new();
        reader.push(b"event: accepted\ndata: {\"task_id\"");
        assert_eq!(reader.next_event(), None);
        reader.push(b":\"t\"}\n\n:\n\ndata: [DONE]\r\n\r\n");
        let accepted = reader.next_event().expect("accepted");
        assert_eq!(accepted.name, "accepted");
        assert_eq!(accepted.data, "{\"task_id\":\"t\"}");
        let done = reader.next_event().expect("done");
        assert_eq!(
            (done.name.as_str(), done.data.as_str()),
            ("message", "[DONE]")
        );
        assert_eq!(reader.next_event(), None);
    }

    #[test]
    fn a_whole_text_reads_as_its_events_with_multi_line_data_joined() {
        let events = parse_all("event: a\ndata: 1\ndata: 2\n\nevent: b\ndata:3");
        let read: Vec<(&str, &str)> = events
            .iter()
            .map(|e| (e.name.as_str(), e.data.as_str()))
            .collect();
        assert_eq!(read, [("a", "1\n2"), ("b", "3")]);
    }
}
