//! Prints how `compound::parse_request` reads each line of stdin (normalised first):
//! the parts and the parts not understood.
use std::io::BufRead;

fn main() {
    for line in std::io::stdin().lock().lines().map_while(Result::ok) {
        let text = chorus_heuristic::normalise::normalise(&line, None).text;
        let toks = chorus_heuristic::lexer::lex(&text);
        println!("{line}\n  → {text}");
        match chorus_heuristic::compound::parse_request(&toks, &text) {
            Ok(p) => {
                for part in &p.parts {
                    println!("  part {:?}: {:?}", part.text, part.query);
                }
                for f in &p.failed {
                    println!("  failed {f:?}");
                }
            }
            Err(e) => println!("  error {e:?}"),
        }
    }
}
