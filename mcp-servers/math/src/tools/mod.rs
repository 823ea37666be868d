//! The math tools, one per file. Each file has the tool's definition (`def`),
//! its argument handling (`run`) and a pure function doing the arithmetic.

use std::sync::OnceLock;

use bigdecimal::BigDecimal;
use chorus_mcp_common::{ToolDef, ToolReply, args::Args, tool::result_output_schema};
use serde_json::{Value, json};

use crate::{MathError, decimal::format};

pub mod abs;
mod binary;
pub mod divide;
pub mod max;
pub mod min;
pub mod modulo;
pub mod multiply;
pub mod percent;
pub mod power;
pub mod root;
pub mod round;
pub mod sqrt;
pub mod subtract;
pub mod sum;

/// A tool's argument handling: arguments in, reply or error out.
pub type Runner = Box<dyn Fn(&Args<'_>) -> Result<ToolReply, MathError> + Send + Sync>;

/// Every math tool with its runner, in listing order.
pub fn registry() -> &'static [(ToolDef, Runner)] {
    static REGISTRY: OnceLock<Vec<(ToolDef, Runner)>> = OnceLock::new();
    REGISTRY.get_or_init(|| {
        let [sum, subtract, multiply, divide, modulo, percent, min, max] =
            binary::tools().map(binary::Binary::entry);
        let single = |def: ToolDef, run: fn(&Args<'_>) -> Result<ToolReply, MathError>| {
            (def, Box::new(run) as Runner)
        };
        vec![
            sum,
            subtract,
            multiply,
            divide,
            single(power::def(), power::run),
            single(sqrt::def(), sqrt::run),
            single(root::def(), root::run),
            modulo,
            single(abs::def(), abs::run),
            single(round::def(), round::run),
            percent,
            min,
            max,
        ]
    })
}

/// Schema of one decimal operand: a JSON number or a decimal string.
pub(crate) fn operand_schema(description: &str) -> Value {
    json!({
        "type": ["number", "string"],
        "description": format!("{description}. A JSON number or a decimal string such as \"0.1\" or \"-3\" (strings are exact)."),
    })
}

/// An object schema with `properties`, `required`, and no other properties.
pub(crate) fn object_schema(properties: Value, required: &[&str]) -> Value {
    json!({
        "type": "object",
        "properties": properties,
        "required": required,
        "additionalProperties": false,
    })
}

/// Output schema shared by all math tools: `{"result": "<decimal string>"}`.
pub(crate) fn output_schema() -> Value {
    result_output_schema("string", json!({}))
}

/// A definition for a tool with the common output schema.
pub(crate) fn def(name: &'static str, description: &'static str, input_schema: Value) -> ToolDef {
    ToolDef {
        name,
        description,
        input_schema,
        output_schema: Some(output_schema()),
    }
}

/// The reply for a decimal result: `{"result": "6"}` and text `6`.
pub(crate) fn decimal_reply(value: &BigDecimal) -> ToolReply {
    let text = format(value);
    ToolReply::result(text.clone(), text)
}
