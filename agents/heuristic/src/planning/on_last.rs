//! Follow-ups that go on from the last answer with numbers of their own: a calculation
//! added to it or taken off (`plus sat 8 hrs at 42.75`), or an amount paid off it with
//! what is left asked (`chị trả 200k rồi, còn bao nhiêu`).

use chorus_bus::Language;

use super::Planning;
use crate::{PlanOutcome, lexer};

impl Planning<'_> {
    /// `chị trả 200k rồi, còn bao nhiêu`, `paid 200 already, how much is left`: one
    /// amount paid (a verb of paying, no other number), what is left asked — the last
    /// answer less it.
    pub(super) fn paid_off_last(
        &self,
        toks: &[lexer::Token],
        query: &str,
        language: Language,
    ) -> Option<PlanOutcome> {
        const PAID: &[&[&str]] = &[&["paid"], &["pays"], &["trả"], &["đã", "trả"]];
        let numbers: Vec<&str> = toks.iter().filter_map(lexer::Token::number).collect();
        let [paid] = numbers.as_slice() else {
            return None;
        };
        if toks.iter().any(|t| t.is_sym('%'))
            || !lexer::says(toks, PAID)
            || !lexer::says(toks, crate::paid::STILL_OWED)
        {
            return None;
        }
        let last = self
            .conversation
            .answers
            .last()
            .filter(|a| a.parse::<f64>().is_ok_and(|v| v > 0.0))?;
        self.on_answers(&format!("{last} - {paid}"), &[last], query, language)
    }

    /// `plus sat 8 hrs at 42.75`, `minus 3 days at 95`: an operation word, then a
    /// calculation of two numbers or more read alone — the last answer with it added or
    /// taken off.
    pub(super) fn last_answer_and(
        &self,
        toks: &[lexer::Token],
        query: &str,
        language: Language,
    ) -> Option<PlanOutcome> {
        use crate::compound::{Parsed, ParsedPart, PartQuery};
        use crate::expr::{Expr, MathOp};
        let op = match toks.first()?.word()? {
            "plus" | "add" => MathOp::Sum,
            "minus" | "less" => MathOp::Subtract,
            _ => return None,
        };
        let rest = &toks[1..];
        // (`add a 10% tip to the 312`, `add 48 for the wine and split 4 ways`: a share or
        // a place to add it to is another reading's.)
        let other = rest.iter().any(|t| {
            t.is_sym('%')
                || t.word().is_some_and(|w| {
                    matches!(
                        w,
                        "to" | "from"
                            | "of"
                            | "on"
                            | "split"
                            | "ways"
                            | "between"
                            | "among"
                            | "each"
                            | "per"
                            | "that"
                            | "it"
                    )
                })
        });
        if other || rest.iter().filter(|t| t.number().is_some()).count() < 2 {
            return None;
        }
        let last = self
            .conversation
            .answers
            .last()
            .filter(|a| a.parse::<f64>().is_ok())?;
        let Parsed { parts, failed } = crate::compound::parse_request(rest, query)
            .ok()
            .or_else(|| crate::compound::frames_reading(rest, query))?;
        let [
            ParsedPart {
                query: PartQuery::Math(e @ Expr::Op(..)),
                ..
            },
        ] = parts.as_slice()
        else {
            return None;
        };
        // (`add the night diff too, 3.75 x 12`: a name with no number only says what
        // is added.)
        let named_only = |f: &crate::PartError| {
            f.text()
                .is_some_and(|t| !t.chars().any(|c| c.is_ascii_digit()))
        };
        if !failed.iter().all(named_only) {
            return None;
        }
        let whole = Expr::bin(op, Expr::Num(last.clone()), e.clone());
        self.one_part(query, PartQuery::Math(whole), Some(last), language)
    }
}
