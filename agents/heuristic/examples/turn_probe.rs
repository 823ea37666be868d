//! Plans every turn of a corpus file's conversations (`@session`) with `plan_turn`, the
//! earlier turns' expected answers standing for what Chorus answered, and prints each
//! plan with its arithmetic worked out (dates left to the date server). A quick look at
//! follow-ups without the whole system:
//! `cargo run -p chorus-heuristic --example turn_probe -- tests/corpus/followups.txt`.

use std::collections::HashMap;

use chorus_bus::{Arg, TaskContext};
use chorus_heuristic::{Capabilities, Conversation, PlanOutcome, plan_turn};

/// The value of a math step, when every argument is known.
fn eval(tool: &str, args: &HashMap<String, f64>) -> Option<f64> {
    let a = |k: &str| args.get(k).copied();
    Some(match tool {
        "sum" => a("a")? + a("b")?,
        "subtract" => a("a")? - a("b")?,
        "multiply" => a("a")? * a("b")?,
        "divide" => a("a")? / a("b")?,
        "percent" => a("percent")? * a("of")? / 100.0,
        "power" => a("base")?.powf(a("exponent")?),
        "sqrt" => a("x")?.sqrt(),
        "max" => a("a")?.max(a("b")?),
        "min" => a("a")?.min(a("b")?),
        _ => return None,
    })
}

fn main() {
    let tools = Capabilities::default_tools();
    let mut sessions: HashMap<String, (Vec<String>, Vec<String>)> = HashMap::new();
    let mut session: Option<String> = None;
    for file in std::env::args().skip(1) {
        let text = std::fs::read_to_string(&file).expect("a readable file");
        for (n, raw) in text.lines().enumerate() {
            let line = raw.trim();
            if let Some(d) = line.strip_prefix("@session ") {
                let name = d.split(" # ").next().unwrap_or(d).trim();
                session = (name != "none").then(|| name.to_owned());
                continue;
            }
            let Some(name) = &session else { continue };
            let Some((query, expected)) = line.split_once(" => ") else {
                continue;
            };
            let expected = expected.split(" # ").next().unwrap_or("").trim();
            let (answers, questions) = sessions.entry(name.clone()).or_default();
            let conversation = Conversation {
                session: true,
                answers: answers.clone(),
            };
            let outcome = plan_turn(
                query,
                &TaskContext::default(),
                &tools,
                &conversation,
                questions,
            );
            println!("{file}:{} {query:?} expects {expected}", n + 1);
            // The request as understood (its one part), as the session records it.
            let mut asked = query.to_owned();
            match outcome {
                PlanOutcome::Planned {
                    plan, unplanned, ..
                } => {
                    let mut parts: Vec<&str> = plan.steps.iter().map(|s| s.part.as_str()).collect();
                    parts.dedup();
                    if let [part] = parts.as_slice() {
                        asked = (*part).to_owned();
                    }
                    let mut values: HashMap<String, f64> = HashMap::new();
                    for s in &plan.steps {
                        let mut args = HashMap::new();
                        let mut shown = Vec::new();
                        for (k, v) in &s.arguments {
                            let value = match v {
                                Arg::Ref { step } => values.get(&step.to_string()).copied(),
                                Arg::Value(v) => v
                                    .as_str()
                                    .and_then(|s| s.parse().ok())
                                    .or_else(|| v.as_f64()),
                            };
                            if let Some(x) = value {
                                args.insert(k.clone(), x);
                            }
                            shown.push(match v {
                                Arg::Ref { step } => format!("{k}=${step}"),
                                Arg::Value(v) => format!("{k}={v}"),
                            });
                        }
                        let got = (s.pool == "math").then(|| eval(&s.tool, &args)).flatten();
                        if let Some(x) = got {
                            values.insert(s.id.to_string(), x);
                        }
                        println!(
                            "    {} {}/{} {}{} = {}  part={:?}",
                            s.id,
                            s.pool,
                            s.tool,
                            shown.join(" "),
                            if s.output { " *" } else { "" },
                            got.map(|x| x.to_string()).unwrap_or_default(),
                            s.part
                        );
                    }
                    if let Some(u) = unplanned {
                        println!("    unplanned: {u}");
                    }
                }
                PlanOutcome::Question { question, .. } => {
                    println!("    asks: {}", question.text)
                }
                PlanOutcome::Unplannable { message, .. } => {
                    println!("    refused: {}", message.lines().next().unwrap_or(""))
                }
                PlanOutcome::Capabilities { .. } => println!("    help"),
            }
            if !expected.starts_with("asks:") && !expected.starts_with("refused:") {
                let answers_now: Vec<String> =
                    expected.split(" | ").map(|s| s.trim().to_owned()).collect();
                answers.extend(answers_now);
                let keep = answers.len().saturating_sub(6);
                answers.drain(..keep);
            }
            questions.push(asked);
            let keep = questions.len().saturating_sub(3);
            questions.drain(..keep);
        }
    }
}
