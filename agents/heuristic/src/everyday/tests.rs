//! The everyday tests, compiled under #[cfg(test)] only (build.rs, which stops at that
//! mark, learns no word from them).

use chorus_bus::Language;

use super::read::{answer_unit, parse};
use super::units::undecorated;
use crate::expr::{Expr, MathOp};
use crate::lexer::lex;

fn read(src: &str) -> Option<Expr> {
    parse(&lex(src), src)
}

fn n(s: &str) -> Expr {
    Expr::Num(s.into())
}

fn bin(op: MathOp, a: Expr, b: Expr) -> Expr {
    Expr::bin(op, a, b)
}

#[test]
fn units_of_time_and_people_decorate_numbers_joined_by_symbols() {
    let undecorated = |q: &str| undecorated(&lex(q)).and_then(|t| crate::arith::parse(&t));
    assert_eq!(
        undecorated("4 shifts x 12.5 hrs"),
        Some(bin(MathOp::Multiply, n("4"), n("12.5")))
    );
    assert_eq!(
        undecorated("12 / 4 people"),
        Some(bin(MathOp::Divide, n("12"), n("4")))
    );
    assert_eq!(
        undecorated("3 days + 4 days"),
        Some(bin(MathOp::Sum, n("3"), n("4")))
    );
    // Times in different units do not add up; without symbols a unit of time
    // makes a date question.
    assert_eq!(undecorated("2 hours + 30 minutes"), None);
    assert_eq!(undecorated("3 days and 4 hours"), None);
}

#[test]
fn a_bill_is_split_among_the_people_in_both_languages() {
    let want = Some(bin(MathOp::Divide, n("84.6"), n("3")));
    for q in [
        "split 84.60 between 3 people",
        "84.60 split 3 ways",
        "84.60 for 3 of us, how much each",
        "chia đều 84.60 cho 3 người",
        "84.60, 3 người chia đều thì mỗi người bao nhiêu",
    ] {
        assert_eq!(read(q), want, "{q}");
    }
}

#[test]
fn tips_discounts_and_raises_are_percentages_of_the_amount() {
    let share = || bin(MathOp::Percent, n("15"), n("48.6"));
    assert_eq!(read("a 15% tip on 48.60"), Some(share()));
    assert_eq!(
        read("48.60 plus a 15% tip"),
        Some(bin(MathOp::Sum, n("48.6"), share()))
    );
    assert_eq!(
        read("48.60 with 15% off"),
        Some(bin(MathOp::Subtract, n("48.6"), share()))
    );
    assert_eq!(
        read("increase 48.60 by 15%"),
        Some(bin(MathOp::Sum, n("48.6"), share()))
    );
    assert_eq!(
        read("48.60 giảm 15%"),
        Some(bin(MathOp::Subtract, n("48.6"), share()))
    );
    assert_eq!(
        read("48.60 tăng 15 phần trăm"),
        Some(bin(MathOp::Sum, n("48.6"), share()))
    );
}

#[test]
fn what_percent_reads_either_order() {
    let want = Some(bin(
        MathOp::Divide,
        bin(MathOp::Multiply, n("30"), n("100")),
        n("120"),
    ));
    assert_eq!(read("30 is what percent of 120"), want);
    assert_eq!(read("what percent of 120 is 30"), want);
    assert_eq!(read("30 là bao nhiêu phần trăm của 120"), want);
}

#[test]
fn dozens_prices_and_rates() {
    let dozen = || bin(MathOp::Multiply, n("7"), n("12"));
    assert_eq!(read("how many eggs in 7 dozen"), Some(dozen()));
    assert_eq!(
        read("7 dozen at 1.25 each"),
        Some(bin(MathOp::Multiply, dozen(), n("1.25")))
    );
    assert_eq!(
        read("5 tickets at 12 each"),
        Some(bin(MathOp::Multiply, n("5"), n("12")))
    );
    assert_eq!(
        read("342 miles on 9 gallons, miles per gallon"),
        Some(bin(MathOp::Divide, n("342"), n("9")))
    );
}

#[test]
fn unit_words_after_numbers_are_dropped_and_operators_kept() {
    let text = |src: &str| {
        undecorated(&lex(src)).map(|t| {
            t.iter()
                .map(|t| src[t.start..t.end].to_owned())
                .collect::<Vec<_>>()
                .join(" ")
        })
    };
    assert_eq!(
        text("19.99, 5.49 and 12 dollars").as_deref(),
        Some("19.99 , 5.49 and 12")
    );
    assert_eq!(text("3 apples plus 4 pears").as_deref(), Some("3 plus 4"));
    assert_eq!(text("2 plus 4"), None);
    assert_eq!(text("3 days plus 4"), None);
}

#[test]
fn a_share_and_a_percentage_say_what_the_number_is() {
    assert_eq!(answer_unit("375 split 5 ways", Language::En), " each");
    assert_eq!(
        answer_unit("chia đều 375 cho 5 người", Language::Vi),
        " mỗi người"
    );
    assert_eq!(answer_unit("45 is what percent of 180", Language::En), "%");
    assert_eq!(
        answer_unit("342 miles on 9 gallons, miles per gallon", Language::En),
        ""
    );
    assert_eq!(answer_unit("10 / 4", Language::En), "");
}

#[test]
fn a_percent_change_between_two_amounts() {
    let rise = |a: &str, b: &str, base: &str| {
        Some(bin(
            MathOp::Divide,
            bin(
                MathOp::Multiply,
                bin(MathOp::Subtract, n(a), n(b)),
                n("100"),
            ),
            n(base),
        ))
    };
    assert_eq!(
        read("the rent went from 1200 to 1500, what percent increase is that"),
        rise("1500", "1200", "1200")
    );
    assert_eq!(
        read("it fell from 40 to 30, percent change"),
        rise("30", "40", "40")
    );
    assert_eq!(
        read("from 40 down to 30 by what percent did it drop"),
        rise("40", "30", "40")
    );
    assert_eq!(
        read("lương từ 10 lên 12 là tăng bao nhiêu phần trăm"),
        rise("12", "10", "10")
    );
}

#[test]
fn a_price_per_unit_meets_a_quantity_in_that_unit() {
    assert_eq!(
        read("diesel is 2.10 a liter, i need 30 litres"),
        Some(bin(MathOp::Multiply, n("30"), n("2.1")))
    );
    assert_eq!(
        read("mua 3 ký cam, mỗi ký 40000"),
        Some(bin(MathOp::Multiply, n("3"), n("40000")))
    );
    assert_eq!(
        read("dose 2 mg/kg for a 15 kg child"),
        Some(bin(MathOp::Multiply, n("15"), n("2")))
    );
    assert_eq!(
        read("parts 300 plus 4 hours at 80/hour total"),
        Some(bin(
            MathOp::Sum,
            n("300"),
            bin(MathOp::Multiply, n("4"), n("80"))
        ))
    );
    assert_eq!(
        read("2kg thịt 120000 1kg"),
        Some(bin(MathOp::Multiply, n("2"), n("120000")))
    );
    // `A/B là bao nhiêu phần trăm`: a part of a whole.
    assert_eq!(
        read("17/20 là bao nhiêu phần trăm"),
        Some(bin(
            MathOp::Divide,
            bin(MathOp::Multiply, n("17"), n("100")),
            n("20")
        ))
    );
    // A period only says how often: no price.
    assert_eq!(
        read("i make 3000 a month and 25% goes on food"),
        Some(bin(MathOp::Percent, n("25"), n("3000")))
    );
}

#[test]
fn amounts_added_then_shared_taxed_or_compounded() {
    assert_eq!(
        read("3 of us paid 90 for tickets plus 30 parking, how much each"),
        Some(bin(
            MathOp::Divide,
            bin(MathOp::Sum, n("90"), n("30")),
            n("3")
        ))
    );
    assert_eq!(
        read("80 + 5% vat"),
        Some(bin(
            MathOp::Sum,
            n("80"),
            bin(MathOp::Percent, n("5"), n("80"))
        ))
    );
    // (Interest that compounds is the quantity frames' to read: frames/interest.rs.)
    assert_eq!(read("1000 at 5% interest compounded for 2 years"), None);
    assert_eq!(
        read("vay 20000000 lãi 2% một tháng"),
        Some(bin(MathOp::Percent, n("2"), n("20000000")))
    );
    // `how much each` after the amounts asks for a share, it prices nothing.
    assert_eq!(read("90 plus 30, how much each"), None);
}

#[test]
fn several_items_each_priced_are_added_up() {
    assert_eq!(
        read("2 pizzas at 12 each and 3 drinks at 2.5 each, how much altogether"),
        Some(bin(
            MathOp::Sum,
            bin(MathOp::Multiply, n("2"), n("12")),
            bin(MathOp::Multiply, n("3"), n("2.5"))
        ))
    );
    assert_eq!(
        read("mua 2 ly trà 15000 một ly và 3 cái bánh 10000 một cái"),
        Some(bin(
            MathOp::Sum,
            bin(MathOp::Multiply, n("2"), n("15000")),
            bin(MathOp::Multiply, n("3"), n("10000"))
        ))
    );
    // A number neither a quantity nor a price: no reading.
    assert_eq!(
        read("2 pizzas at 12 each and 3 drinks at 2.5 each for 4 people 7"),
        None
    );
    // Amounts with `total` asked are added up.
    assert_eq!(
        read("shoes 300 and socks 20, total?"),
        Some(bin(MathOp::Sum, n("300"), n("20")))
    );
}

#[test]
fn other_questions_are_left_alone() {
    for q in [
        "2 + 4",
        "15 dollars",
        "split the difference",
        "weather for 3 people",
        "3 days between 2 people",
        "10% and 20% off 50",
        "split 90",
        "90 for 3 people",
    ] {
        assert_eq!(read(q), None, "{q}");
    }
}

#[test]
fn sales_levies_and_prices_per_unit_asked_in_session_30_phrasings() {
    let pct = |p: &str, of: &str| bin(MathOp::Percent, n(p), n(of));
    // A sale lowers; a sales tax is a tax.
    assert_eq!(
        read("ao khoac 450000 dang sale 20% thi con bao nhieu"),
        Some(bin(MathOp::Subtract, n("450000"), pct("20", "450000")))
    );
    assert_eq!(read("6% sales tax on 50"), Some(pct("6", "50")));
    // A levy on a salary is its share; taken off with `trừ`.
    assert_eq!(
        read("thu nhập 20000000, bảo hiểm 8% là bao nhiêu"),
        Some(pct("8", "20000000"))
    );
    assert_eq!(
        read("lương tháng 20000000 trừ 8% bảo hiểm còn bao nhiêu"),
        Some(bin(MathOp::Subtract, n("20000000"), pct("8", "20000000")))
    );
    // `mỗi <unit>` with no price after it asks the price of one.
    assert_eq!(
        read("hộp 30 viên giá 90000, mỗi viên bao nhiêu"),
        Some(bin(MathOp::Divide, n("90000"), n("30")))
    );
    // `ppl` is people (once normalised).
    let typed = crate::normalise::normalise("lunch was 90 for 4 ppl, how much each", None);
    assert_eq!(
        read(&typed.text),
        Some(bin(MathOp::Divide, n("90"), n("4")))
    );
}

#[test]
fn a_term_in_months_at_a_yearly_rate_and_amounts_per_head() {
    let pct = |p: &str, of: &str| bin(MathOp::Percent, n(p), n(of));
    // Nine months at 6% a year: nine twelfths of a year's interest.
    assert_eq!(
        read("gửi 50000000 kỳ hạn 9 tháng lãi suất 6%/năm, được bao nhiêu tiền lãi"),
        Some(bin(
            MathOp::Divide,
            bin(MathOp::Multiply, pct("6", "50000000"), n("9")),
            n("12")
        ))
    );
    // Same period: as before.
    assert_eq!(
        read("interest on 5000 at 4% a year for 3 years"),
        Some(bin(MathOp::Multiply, pct("4", "5000"), n("3")))
    );
    // The people counted times what each gets.
    assert_eq!(
        read("lì xì 4 đứa, mỗi đứa 100000, hết bao nhiêu"),
        Some(bin(MathOp::Multiply, n("4"), n("100000")))
    );
    // What is left after a share, and sales taxes by their names.
    assert_eq!(
        read("salary 5000 and 20% goes to tax, what's my take home"),
        Some(bin(MathOp::Subtract, n("5000"), pct("20", "5000")))
    );
    assert_eq!(
        read("200 plus 13% hst"),
        Some(bin(MathOp::Sum, n("200"), pct("13", "200")))
    );
}

#[test]
fn areas_periods_worked_doses_and_who_shares_in_session_30_phrasings() {
    let times = |a: &str, b: &str| Some(bin(MathOp::Multiply, n(a), n(b)));
    let split = |a: &str, b: &str| Some(bin(MathOp::Divide, n(a), n(b)));
    // A price per m² times an area; per day times the days worked.
    assert_eq!(
        read("sơn tường 60000/m2, tường 30 m2, hết bao nhiêu"),
        times("30", "60000")
    );
    assert_eq!(read("paint job 12 m2 @ 15/m2, total?"), times("12", "15"));
    assert_eq!(
        read("phụ hồ 300000/ngày, làm 9 ngày, trả bao nhiêu"),
        times("9", "300000")
    );
    // A dose per kg for a patient (`bệnh nhân` multiplies nothing).
    assert_eq!(
        read("bệnh nhân 50kg, liều 3mg/kg, bao nhiêu mg"),
        times("50", "3")
    );
    // Households, instalments and `each one`.
    assert_eq!(
        read("900000 chia đều 3 hộ, mỗi hộ bao nhiêu"),
        split("900000", "3")
    );
    assert_eq!(
        read("pay 2400 in 4 installments, each one?"),
        split("2400", "4")
    );
}

#[test]
fn people_days_and_a_rate_each_earns_multiply() {
    let product = |a: &str, b: &str, c: &str| {
        Some(bin(
            MathOp::Multiply,
            bin(MathOp::Multiply, n(a), n(b)),
            n(c),
        ))
    };
    assert_eq!(
        read("hired 2 workers for 3 days at 150/day each, total?"),
        product("2", "3", "150")
    );
    assert_eq!(
        read("4 người làm 5 ngày, mỗi người 300000/ngày, tổng bao nhiêu"),
        product("4", "5", "300000")
    );
    // Written multiplication is arithmetic's, never a split among workers.
    assert_eq!(read("2 workers x 150/day x 3 days"), None);
}

#[test]
fn what_whole_groups_leave_over_and_an_amount_over_hours_per_hour() {
    assert_eq!(
        read("50 eggs packed in boxes of 6, how many are left over"),
        Some(bin(MathOp::Modulo, n("50"), n("6")))
    );
    assert_eq!(
        read("500 mL over 4 hours, how many mL per hour"),
        Some(bin(MathOp::Divide, n("500"), n("4")))
    );
    // Over hours with no rate asked is no rate.
    assert_eq!(read("500 mL over 4 hours"), None);
}

#[test]
fn what_was_paid_for_may_be_a_flight_or_a_hotel() {
    assert_eq!(
        read("train tickets came to 90 for 3 of us, how much each"),
        Some(bin(MathOp::Divide, n("90"), n("3")))
    );
    assert_eq!(
        read("the hotel is 2 nights at 120/night plus 10% tax, total?"),
        Some(bin(
            MathOp::Sum,
            bin(MathOp::Multiply, n("2"), n("120")),
            bin(
                MathOp::Percent,
                n("10"),
                bin(MathOp::Multiply, n("2"), n("120"))
            )
        ))
    );
}

#[test]
fn a_kilo_typed_without_marks_is_a_kilo() {
    // (`ky` is `ký` unmarked: a price per kg meets it.)
    assert_eq!(
        read("mua 3 ky thit gia 150000/kg"),
        Some(bin(MathOp::Multiply, n("3"), n("150000")))
    );
}

#[test]
fn counts_of_one_unit_at_one_rate_are_tallied_then_priced() {
    let tally = |counts: &[&str], rate: &str| {
        let sum = Expr::chain(MathOp::Sum, counts.iter().map(|c| n(c))).unwrap();
        Some(bin(MathOp::Multiply, sum, n(rate)))
    };
    assert_eq!(
        read("3 workers: 5 days, 4 days and 6 days at 320 a day, total pay?"),
        tally(&["5", "4", "6"], "320")
    );
    assert_eq!(
        read("anh Hai 5 ngày, chú Tư 6 ngày, 320000 1 ngày. tổng?"),
        tally(&["5", "6"], "320000")
    );
    assert_eq!(
        read("paid 3 helpers for 2, 3 and 4 days at 150 a day"),
        tally(&["2", "3", "4"], "150")
    );
    // A day off is no day worked; amounts listed are no counts; each one asked is no
    // tally.
    assert_ne!(
        read("tuần này nghỉ 1 ngày, làm 6 ngày mỗi ngày 400000, cả tuần được bao nhiêu"),
        tally(&["1", "6"], "400000")
    );
    assert_ne!(
        read("registration 450, flight 1320.50 and hotel 4 nights at 189 per night, total?"),
        tally(&["450", "1320.50", "4"], "189")
    );
    assert_eq!(
        read("2 nights, 3 nights at 700 a night, how much each room"),
        None
    );
}

#[test]
fn a_rectangles_area_or_perimeter_is_read_from_its_two_sides() {
    assert_eq!(
        read("mảnh đất dài 20m rộng 5m, diện tích bao nhiêu"),
        Some(bin(MathOp::Multiply, n("20"), n("5")))
    );
    assert_eq!(
        read("perimeter of a yard 12 m by 8 m"),
        Some(bin(
            MathOp::Multiply,
            n("2"),
            bin(MathOp::Sum, n("12"), n("8"))
        ))
    );
    // Rooms counted as well: not the area of one.
    assert_ne!(
        read("3 phòng dài 4m rộng 3m, tổng diện tích"),
        Some(bin(MathOp::Multiply, n("4"), n("3")))
    );
}
