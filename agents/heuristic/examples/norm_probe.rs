//! Prints each stdin line as the planner's normalisation leaves it (for probing).
use std::io::BufRead;

fn main() {
    for line in std::io::stdin().lock().lines().map_while(Result::ok) {
        let n = chorus_heuristic::normalise::normalise(&line, None);
        println!("{line}\n  → {}", n.text);
    }
}
