//! Prints the messages of a plan request as JSON, to measure them: `cargo run -p
//! chorus-llm --example plan_prompt -- TOOLS.json QUERY…`, with TOOLS.json an array of
//! `{"pool", "name", "description", "input_schema"}` (as the live registry lists them).

use chorus_bus::{Language, TaskContext};
use chorus_llm::prompt::plan_messages;
use chorus_llm::{PoolTool, Prompts};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let path = args.next().ok_or("usage: plan_prompt TOOLS.json QUERY…")?;
    let tools: Vec<PoolTool> = serde_json::from_str(&std::fs::read_to_string(path)?)?;
    let prompts = Prompts::builtin();
    for query in args {
        let messages = plan_messages(
            &prompts,
            &query,
            &TaskContext::default(),
            Language::En,
            &tools,
            &[],
        );
        println!("{}", serde_json::to_string(&messages)?);
    }
    Ok(())
}
