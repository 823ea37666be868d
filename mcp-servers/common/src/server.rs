//! [`crate::tool_server!`]: the rmcp handler every Chorus tool server shares — it lists the
//! tools of a registry and dispatches calls to them, turning failures into tool errors
//! (`isError`). A server crate names its handler type, its instructions and its
//! registry; the handling itself is written once, here.

/// Defines `pub struct $name` implementing `rmcp::ServerHandler` over `$registry()`, a
/// `fn() -> &'static [(ToolDef, fn(&Args) -> Result<ToolReply, E>)]`.
#[macro_export]
macro_rules! tool_server {
    ($(#[$meta:meta])* $name:ident, server_name: $server_name:expr, instructions: $instructions:expr, registry: $registry:path $(,)?) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, Default)]
        pub struct $name;

        impl $name {
            /// A new server.
            pub fn new() -> Self {
                Self
            }

            /// The tools this server offers.
            pub fn tools(&self) -> Vec<rmcp::model::Tool> {
                $registry().iter().map(|(def, _)| def.to_tool()).collect()
            }

            /// Runs tool `name` on `arguments`; failures are tool errors (`isError`).
            pub fn call(
                &self,
                name: &str,
                arguments: &rmcp::model::JsonObject,
            ) -> rmcp::model::CallToolResult {
                let started = std::time::Instant::now();
                let result = match $registry().iter().find(|(def, _)| def.name == name) {
                    Some((_, run)) => {
                        $crate::into_call_result(run(&$crate::args::Args::new(arguments)))
                    }
                    None => {
                        let defs: Vec<_> = $registry().iter().map(|(def, _)| def.clone()).collect();
                        $crate::tool::unknown_tool_result(name, &defs)
                    }
                };
                $crate::metrics::served($server_name, $registry(), name, &result, started);
                result
            }
        }

        impl $crate::http::DirectCall for $name {
            fn call_directly(
                &self,
                request: &rmcp::model::CallToolRequestParams,
                id: &rmcp::model::RequestId,
                traceparent: Option<&str>,
            ) -> rmcp::model::CallToolResult {
                // Traces on: a SERVER span continuing the caller's trace.
                let span = $crate::trace_context::direct_call_span(request, id, traceparent);
                let empty = rmcp::model::JsonObject::new();
                let arguments = request.arguments.as_ref().unwrap_or(&empty);
                let result = span.in_scope(|| self.call(&request.name, arguments));
                if result.is_error == Some(true) {
                    $crate::trace_context::tool_failed(&span);
                }
                result
            }
        }

        impl rmcp::ServerHandler for $name {
            fn get_info(&self) -> rmcp::model::ServerConfig {
                rmcp::model::ServerConfig::new(
                    rmcp::model::ServerCapabilities::builder().enable_tools().build(),
                )
                .with_server_info(rmcp::model::Implementation::new(
                    $server_name,
                    env!("CARGO_PKG_VERSION"),
                ))
                .with_instructions($instructions)
            }

            async fn list_tools(
                &self,
                _request: Option<rmcp::model::PaginatedRequestParams>,
                _context: rmcp::service::RequestContext<rmcp::RoleServer>,
            ) -> Result<rmcp::model::ListToolsResult, rmcp::ErrorData> {
                Ok(rmcp::model::ListToolsResult::with_all_items(self.tools()))
            }

            async fn call_tool(
                &self,
                request: rmcp::model::CallToolRequestParams,
                context: rmcp::service::RequestContext<rmcp::RoleServer>,
            ) -> Result<rmcp::model::CallToolResponse, rmcp::ErrorData> {
                // Traces on: a SERVER span continuing the caller's trace.
                let span = $crate::trace_context::tool_call_span(&request, &context);
                let empty = rmcp::model::JsonObject::new();
                let arguments = request.arguments.as_ref().unwrap_or(&empty);
                let result = span.in_scope(|| self.call(&request.name, arguments));
                if result.is_error == Some(true) {
                    $crate::trace_context::tool_failed(&span);
                }
                Ok(result.into())
            }

            fn get_tool(&self, name: &str) -> Option<rmcp::model::Tool> {
                $registry()
                    .iter()
                    .find(|(def, _)| def.name == name)
                    .map(|(def, _)| def.to_tool())
            }
        }
    };
}
