//! The change tests, compiled under #[cfg(test)] only (build.rs, which stops at that
//! mark, learns no word from them).

use super::*;
use crate::lexer::lex;

fn read(src: &str) -> Option<Expr> {
    parse(&lex(src))
}

fn n(s: &str) -> Expr {
    Expr::Num(s.into())
}

fn minus(a: &str, b: &str) -> Expr {
    Expr::bin(MathOp::Subtract, n(a), n(b))
}

fn pct(a: &str, b: &str, base: &str) -> Expr {
    Expr::bin(
        MathOp::Divide,
        Expr::bin(MathOp::Multiply, minus(a, b), n("100")),
        n(base),
    )
}

#[test]
fn what_was_bought_against_what_it_is_worth_now() {
    assert_eq!(
        read("bought at 25000 now it's 28500, what % gain"),
        Some(pct("28500", "25000", "25000"))
    );
}

#[test]
fn a_time_beside_each_amount_places_it_in_either_order() {
    assert_eq!(
        read("electric bill was 120 last month and 150 this month, how much more"),
        Some(minus("150", "120"))
    );
    assert_eq!(
        read("tiền điện tháng này 856000, tháng trước 740000, tăng bao nhiêu tiền"),
        Some(minus("856000", "740000"))
    );
    assert_eq!(
        read("năm ngoái bán 500 cái, năm nay 420 cái, giảm bao nhiêu"),
        Some(minus("500", "420"))
    );
}

#[test]
fn without_separators_each_time_goes_with_its_own_amount() {
    assert_eq!(
        read("tien dien tháng này 856000 d tháng trước 740000 d thi tăng bao nhieu"),
        Some(minus("856000", "740000"))
    );
    assert_eq!(
        read("sold 420 this year vs 500 last year how much less"),
        Some(minus("500", "420"))
    );
    // Both times before both amounts: which is which is not said.
    assert_eq!(
        read("last month and this month: 120 150, how much more"),
        None
    );
}

#[test]
fn a_percentage_is_of_the_earlier_amount() {
    assert_eq!(
        read("salary 12000000 last month, 13500000 this month, what % increase"),
        Some(pct("13500000", "12000000", "12000000"))
    );
    assert_eq!(
        read("lương tháng trước 12000000, tháng này 13500000, tăng bao nhiêu phần trăm"),
        Some(pct("13500000", "12000000", "12000000"))
    );
    // A percent change keeps its sign.
    assert_eq!(
        read("visits 900 last week and 720 this week, percent change?"),
        Some(pct("720", "900", "900"))
    );
}

#[test]
fn from_and_to_place_the_amounts() {
    assert_eq!(
        read("rent went from 1200 to 1350, how much more is it"),
        Some(minus("1350", "1200"))
    );
    assert_eq!(
        read("giá xăng từ 25000 xuống 23500, giảm bao nhiêu"),
        Some(minus("25000", "23500"))
    );
}

#[test]
fn anything_else_is_left_to_the_other_readers() {
    // No change asked.
    assert_eq!(read("120 last month and 150 this month"), None);
    // A total.
    assert_eq!(read("120 last month and 150 this month, total?"), None);
    // Both amounts at one time, or one unplaced.
    assert_eq!(read("120 and 150 this month, how much more"), None);
    // A percentage given, three numbers.
    assert_eq!(read("from 80 to 92, up 15%?"), None);
    assert_eq!(
        read("120 last month, 150 this month, 170 now, how much more"),
        None
    );
}

#[test]
fn months_by_name_or_number_and_buying_and_selling_place_the_amounts() {
    assert_eq!(
        read("tiền nước tháng 3 là 200000, tháng 4 là 260000, tăng mấy phần trăm"),
        Some(pct("260000", "200000", "200000"))
    );
    assert_eq!(
        read("december sales 900, january 750, how much less"),
        Some(minus("900", "750"))
    );
    assert_eq!(
        read("I buy them at 40 and sell at 55, what's my profit on each"),
        Some(minus("55", "40"))
    );
    assert_eq!(
        read("nhập 150000 bán 195000 thì lời bao nhiêu phần trăm"),
        Some(pct("195000", "150000", "150000"))
    );
    // Without selling, `lãi` is interest: another question.
    assert_eq!(read("gửi 1000 lãi 50, tăng bao nhiêu"), None);
}
