//! The exchange tests, compiled under #[cfg(test)] only (build.rs, which stops at that
//! mark, learns no word from them).

use super::*;
use crate::lexer::lex;

fn times(a: &str, b: &str) -> Option<Expr> {
    Some(Expr::bin(
        MathOp::Multiply,
        Expr::Num(a.into()),
        Expr::Num(b.into()),
    ))
}

#[test]
fn an_amount_at_the_rate_stated() {
    let read = |q: &str| parse(&lex(q));
    assert_eq!(
        read("if 1 aud = 17150 vnd how much is 250 in dong"),
        times("250", "17150")
    );
    assert_eq!(
        read("đổi 1500 đô sang tiền Việt, tỷ giá 25420"),
        times("1500", "25420")
    );
    assert_eq!(
        read("hd 980 eur tỷ giá 27500 ra bn vnd"),
        times("980", "27500")
    );
    assert_eq!(
        read("take 230.4, then ok and in vnd at 25400"),
        times("230.4", "25400")
    );
    // A rate per one of a currency reads its direction from what is asked.
    assert_eq!(
        read("sending a$ 200, rate 17000 vnd to the dollar, how many dong does she get"),
        times("200", "17000")
    );
    let divided = |a: &str, b: &str| {
        Some(Expr::bin(
            MathOp::Divide,
            Expr::Num(a.into()),
            Expr::Num(b.into()),
        ))
    };
    assert_eq!(
        read("mum sent 5000000, rate is 17000 vnd per aud, how much aud is that"),
        divided("5000000", "17000")
    );
}

#[test]
fn a_rate_answered_after_the_currency_asked() {
    let read = |q: &str| parse(&lex(q));
    assert_eq!(
        read("convert 1850 usd to vnd 25350"),
        times("1850", "25350")
    );
    assert!(asks_rate(&lex(
        "Please convert 1850 USD to VND for my reimbursement form."
    )));
    assert!(asks_rate(&lex("đổi 500 euro sang tiền việt giúp mình với")));
    assert!(!asks_rate(&lex(
        "đổi 500 euro sang tiền việt, tỷ giá 27000"
    )));
    assert!(!asks_rate(&lex("what is 500 plus 20")));
    assert!(!asks_rate(&lex("who won the world cup in 2022")));
    assert!(!asks_rate(&lex("convert 250 usd to euros at today's rate")));
}

#[test]
fn without_a_rate_or_a_currency_it_is_another_question() {
    let read = |q: &str| parse(&lex(q));
    assert_eq!(read("convert 100 usd to vnd"), None);
    assert_eq!(read("3 apples at 2 each"), None);
    assert_eq!(read("1500 usd, 25420 and 100 eur at 27000"), None);
}
