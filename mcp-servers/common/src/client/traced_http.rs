//! The Streamable HTTP client pool agents use while traces are on: rmcp's reqwest
//! client, plus a `traceparent` header on every `tools/call` whose `_meta` carries one
//! (what [`super::McpClient::call`] puts there), so proxies and HTTP-level tracing see
//! the caller's context as the MCP server does. Everything else is reqwest's.

use std::collections::HashMap;
use std::sync::Arc;

use futures::stream::BoxStream;
use reqwest::header::{HeaderName, HeaderValue};
use rmcp::model::{ClientJsonRpcMessage, ClientRequest, JsonRpcMessage, RequestParamsMeta as _};
use rmcp::transport::streamable_http_client::{
    SseError, StreamableHttpClient, StreamableHttpError, StreamableHttpPostResponse,
};
use sse_stream::Sse;

/// The W3C trace context header.
const TRACEPARENT: HeaderName = HeaderName::from_static("traceparent");

/// rmcp's reqwest client adding `traceparent` headers (see the module's documentation).
#[derive(Clone)]
pub(crate) struct TracedHttp(pub(crate) reqwest::Client);

/// Adds the `traceparent` of `message`'s `_meta` to `headers`, when it has one.
fn with_traceparent(
    message: &ClientJsonRpcMessage,
    mut headers: HashMap<HeaderName, HeaderValue>,
) -> HashMap<HeaderName, HeaderValue> {
    if let JsonRpcMessage::Request(request) = message
        && let ClientRequest::CallToolRequest(call) = &request.request
        && let Some(value) = call.params.traceparent()
        && let Ok(value) = HeaderValue::from_str(value)
    {
        headers.insert(TRACEPARENT, value);
    }
    headers
}

impl StreamableHttpClient for TracedHttp {
    type Error = reqwest::Error;

    async fn post_message(
        &self,
        uri: Arc<str>,
        message: ClientJsonRpcMessage,
        session_id: Option<Arc<str>>,
        auth_header: Option<String>,
        custom_headers: HashMap<HeaderName, HeaderValue>,
    ) -> Result<StreamableHttpPostResponse, StreamableHttpError<Self::Error>> {
        let headers = with_traceparent(&message, custom_headers);
        self.0
            .post_message(uri, message, session_id, auth_header, headers)
            .await
    }

    async fn post_message_with_max_sse_event_size(
        &self,
        uri: Arc<str>,
        message: ClientJsonRpcMessage,
        session_id: Option<Arc<str>>,
        auth_header: Option<String>,
        custom_headers: HashMap<HeaderName, HeaderValue>,
        max_sse_event_size: usize,
    ) -> Result<StreamableHttpPostResponse, StreamableHttpError<Self::Error>> {
        let headers = with_traceparent(&message, custom_headers);
        self.0
            .post_message_with_max_sse_event_size(
                uri,
                message,
                session_id,
                auth_header,
                headers,
                max_sse_event_size,
            )
            .await
    }

    async fn delete_session(
        &self,
        uri: Arc<str>,
        session_id: Arc<str>,
        auth_header: Option<String>,
        custom_headers: HashMap<HeaderName, HeaderValue>,
    ) -> Result<(), StreamableHttpError<Self::Error>> {
        self.0
            .delete_session(uri, session_id, auth_header, custom_headers)
            .await
    }

    async fn get_stream(
        &self,
        uri: Arc<str>,
        session_id: Option<Arc<str>>,
        last_event_id: Option<String>,
        auth_header: Option<String>,
        custom_headers: HashMap<HeaderName, HeaderValue>,
    ) -> Result<BoxStream<'static, Result<Sse, SseError>>, StreamableHttpError<Self::Error>> {
        self.0
            .get_stream(uri, session_id, last_event_id, auth_header, custom_headers)
            .await
    }

    async fn get_stream_with_max_sse_event_size(
        &self,
        uri: Arc<str>,
        session_id: Option<Arc<str>>,
        last_event_id: Option<String>,
        auth_header: Option<String>,
        custom_headers: HashMap<HeaderName, HeaderValue>,
        max_sse_event_size: usize,
    ) -> Result<BoxStream<'static, Result<Sse, SseError>>, StreamableHttpError<Self::Error>> {
        self.0
            .get_stream_with_max_sse_event_size(
                uri,
                session_id,
                last_event_id,
                auth_header,
                custom_headers,
                max_sse_event_size,
            )
            .await
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rmcp::model::{CallToolRequest, CallToolRequestParams, JsonRpcRequest, RequestId};

    fn call(traceparent: Option<&str>) -> ClientJsonRpcMessage {
        let mut params = CallToolRequestParams::new("add");
        if let Some(tp) = traceparent {
            params.set_traceparent(tp);
        }
        JsonRpcMessage::Request(JsonRpcRequest::new(
            RequestId::Number(1),
            ClientRequest::CallToolRequest(CallToolRequest::new(params)),
        ))
    }

    #[test]
    fn a_call_carrying_a_traceparent_sends_it_as_a_header() {
        let tp = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";
        let headers = with_traceparent(&call(Some(tp)), HashMap::new());
        assert_eq!(
            headers.get(&TRACEPARENT).and_then(|v| v.to_str().ok()),
            Some(tp)
        );
        assert!(with_traceparent(&call(None), HashMap::new()).is_empty());
    }
}
