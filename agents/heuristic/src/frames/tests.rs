//! The frames' tests, in phrasings of our own.

use super::*;
use crate::expr::MathOp;
use crate::lexer::lex;

fn read(q: &str) -> Option<Vec<String>> {
    let n = crate::normalise::normalise(q, None);
    parse(&lex(&n.text)).map(|es| es.iter().map(|e| format!("{e:?}")).collect())
}

fn value(e: &Expr) -> f64 {
    match e {
        Expr::Num(n) => n.parse().unwrap(),
        Expr::Op(op, a) => {
            let x = |k: usize| value(&a[k]);
            match op {
                MathOp::Sum => x(0) + x(1),
                MathOp::Subtract => x(0) - x(1),
                MathOp::Multiply => x(0) * x(1),
                MathOp::Divide => x(0) / x(1),
                MathOp::Power => x(0).powf(x(1)),
                MathOp::Percent => x(0) * x(1) / 100.0,
                MathOp::Modulo => x(0) % x(1),
                MathOp::Min => x(0).min(x(1)),
                MathOp::Max => x(0).max(x(1)),
                MathOp::RoundUp if a[2] == Expr::Num(Expr::DOWN.into()) => x(0).floor(),
                MathOp::RoundUp => x(0).ceil(),
                _ => panic!("{op:?}"),
            }
        }
    }
}

fn values(q: &str) -> Option<Vec<f64>> {
    let n = crate::normalise::normalise(q, None);
    parse(&lex(&n.text)).map(|es| es.iter().map(value).collect())
}

#[test]
fn a_rate_times_its_counts() {
    assert_eq!(
        values("the caterer charges 900k per head for 40 guests, total?"),
        Some(vec![36_000_000.0])
    );
    assert_eq!(
        values("bữa trưa 60.000đ một khách, 4 khách ăn 2 buổi, tổng bao nhiêu"),
        Some(vec![480_000.0])
    );
    assert_eq!(
        values("hotel is 95 per night for 3 nights"),
        Some(vec![285.0])
    );
    assert_eq!(values("lunch 12 staff x 45k"), Some(vec![540_000.0]));
    assert_eq!(
        values("ban 2 ta ca phe gia 90.000d/kg dc bn tien"),
        Some(vec![18_000_000.0])
    );
}

#[test]
fn percentages_by_their_cue() {
    assert_eq!(
        values("dinner for 6 ppl at 30 each plus 10% tip on top, total"),
        Some(vec![198.0])
    );
    assert_eq!(
        values("phí dịch vụ 8% trên 50 triệu"),
        Some(vec![4_000_000.0])
    );
    assert_eq!(
        values("grab takes 20% commission on 300k, how much do i keep"),
        Some(vec![240_000.0])
    );
    assert_eq!(
        values("the supplier wants a 30% deposit on 12,000,000"),
        Some(vec![3_600_000.0])
    );
}

#[test]
fn shared_groups_and_parts() {
    assert_eq!(
        values("the tips came to 2,400,000, split evenly among 12 staff"),
        Some(vec![200_000.0])
    );
    assert_eq!(
        values("95 guests, tables of 8, how many tables"),
        Some(vec![12.0])
    );
    assert_eq!(
        values("khach 61 nguoi, ban 6 nguoi, can bao nhieu ban"),
        Some(vec![11.0])
    );
    assert_eq!(
        values("61 guests at 6 per table, how many full tables and how many left over"),
        Some(vec![10.0, 1.0])
    );
    assert_eq!(
        values("3 of our 12 rooms are empty, what percent"),
        Some(vec![25.0])
    );
}

fn after(value: &str, q: &str) -> Option<Vec<f64>> {
    let n = crate::normalise::normalise(q, None);
    parse_after(value, &lex(&n.text)).map(|es| es.iter().map(super::tests::value).collect())
}

#[test]
fn a_follow_up_on_the_last_answer() {
    assert_eq!(
        after("2340000", "minus the platform's 15%"),
        Some(vec![1_989_000.0])
    );
    assert_eq!(after("600000", "add 10% service"), Some(vec![660_000.0]));
    assert_eq!(
        after("900", "split that between the 3 families"),
        Some(vec![300.0])
    );
    // A follow-up with an amount of its own is no follow-up of this kind.
    assert_eq!(after("900", "and 40 split between 3 people"), None);
    assert_eq!(after("900", "thanks"), None);
}

fn on(value: &str, q: &str) -> Option<f64> {
    let n = crate::normalise::normalise(q, None);
    go_on(value, &lex(&n.text)).map(|e| super::tests::value(&e))
}

#[test]
fn going_on_from_the_last_answer() {
    assert_eq!(on("12", "times 15,480 won"), Some(185_760.0));
    assert_eq!(
        on("175680000", "minus the 150 million my dad owes the bank"),
        Some(25_680_000.0)
    );
    assert_eq!(
        on("230650000", "then halve it, half goes to savings"),
        Some(115_325_000.0)
    );
    assert_eq!(
        on(
            "3750000",
            "trừ tiền sữa với đá hết 420k nữa là còn bao nhiêu"
        ),
        Some(3_330_000.0)
    );
    assert_eq!(
        on("252000", "add my base pay 1,848,000 to that"),
        Some(2_100_000.0)
    );
    // People added, a percentage, two operations, the answer second: no reading.
    assert_eq!(on("30000000", "them 3 nguoi nua thi bn"), None);
    assert_eq!(on("100", "add 10%"), None);
    assert_eq!(on("100", "add 5 and times 3"), None);
    assert_eq!(on("100", "subtract that from 500"), None);
}

#[test]
fn both_answers_summed() {
    let asks = |q: &str| asks_both_summed(&lex(&crate::normalise::normalise(q, None).text));
    assert!(asks("Cộng tiền công hai đứa lại giùm chị"));
    assert!(asks("tong 2 lan bn"));
    assert!(asks("add both up"));
    assert!(!asks("tong 3 lan bn"));
    assert!(!asks("add 2 and 5"));
}

#[test]
fn lists_with_their_operation() {
    assert_eq!(
        values("my marks this term: 6, 8, 7, 9. whats my gpa"),
        Some(vec![7.5])
    );
    assert_eq!(
        values("quotes from 3 shops: 40k, 35k, 38k a box. which is cheapest"),
        Some(vec![35_000.0])
    );
    assert_eq!(
        values("tests out of 10: 7 8 9 10, average?"),
        Some(vec![8.5])
    );
    assert_eq!(values("overtime this week 2.5 + 3 + 1.5"), Some(vec![7.0]));
    assert_eq!(
        values("cộng giúp tôi 3 hóa đơn: 1tr2; 300k; 450.000đ"),
        Some(vec![1_950_000.0])
    );
    // Two operations asked, or a percentage: no list frame.
    assert_eq!(read("4, 5, 6: the lowest and the highest"), None);
    assert_eq!(read("4, 5 and 10% total"), None);
    // Priced items are no list of amounts.
    assert_eq!(
        read("tips: 12 cooks 100k each plus 3 chefs 300k each, total?"),
        None
    );
}

fn items(q: &str) -> Option<f64> {
    let n = crate::normalise::normalise(q, None);
    priced_items(&lex(&n.text)).map(|e| super::tests::value(&e))
}

#[test]
fn priced_items_summed() {
    assert_eq!(
        items("2 ly cam 30k với 3 ly chanh 20k, tổng bao nhiêu"),
        Some(120_000.0)
    );
    assert_eq!(
        items("tips: 10 cooks 100k each plus 2 chefs 300k each, total?"),
        Some(1_600_000.0)
    );
    assert_eq!(
        items("tien cong 3 ng x 200k x 5 ngay, 2 ng x 250k x 4 ngay, tong bn"),
        Some(5_000_000.0)
    );
    // One item, an item with two prices, or no total asked: no reading.
    assert_eq!(items("2 ly cam 30k, tổng bao nhiêu"), None);
    assert_eq!(items("2 ly cam 30k 40k với 3 ly chanh 20k, tổng"), None);
    assert_eq!(items("2 ly cam 30k với 3 ly chanh 20k"), None);
    // A price for one unit is a rate, no item: never the counts plus the rate.
    assert_eq!(
        items("tuần này làm 5 ca mỗi ca 6 tiếng, lương 30k 1 giờ, được bao nhiêu"),
        None
    );
}

#[test]
fn never_a_guess() {
    // A number no role explains, a date, an operator, another question.
    assert_eq!(
        read("room 700k a night, 3 nights, 2 rooms, 5 bottles"),
        None
    );
    assert_eq!(read("she was born in 1990 and has 3 kids, how old"), None);
    assert_eq!(read("5 + 3 guests"), None);
    assert_eq!(read("bought 100 shares at 25, sold at 30"), None);
    assert_eq!(read("10% of what"), None);
    // A percentage said in words is a percentage, never a part of a whole.
    assert_eq!(read("what's 15 percent of 80"), None);
    // Two cues for one percentage.
    assert_eq!(read("200k with 10% discount and tip"), None);
}

#[test]
fn a_calculation_with_labels_on_its_numbers() {
    assert_eq!(values("giong lua 12 bao x 450k"), Some(vec![5_400_000.0]));
    assert_eq!(
        values("300kg / 25kg per sack = how many sacks"),
        Some(vec![12.0])
    );
    assert_eq!(
        values("ban lua dc 420tr tru von 250tr tru luong 30tr con lai bn"),
        Some(vec![140_000_000.0])
    );
    // A slash before a word ties a price to what it is for: no division.
    assert_eq!(
        values("ve 90k/nguoi, doan 6 khach, dc bn"),
        Some(vec![540_000.0])
    );
    // Numbers alone are the arithmetic readers'.
    assert_eq!(read("14 x 685"), None);
}

#[test]
fn the_difference_of_two_amounts_asked() {
    assert_eq!(
        values("khach dua 200k, hoa don 135k, thoi lai bao nhieu"),
        Some(vec![65_000.0])
    );
    assert_eq!(
        values("i have $1,200, the laptop is $1,450, how much more do i need"),
        Some(vec![250.0])
    );
    assert_eq!(
        values("gia hom qua 52.000 hom nay 49.500 giam bao nhieu"),
        Some(vec![2_500.0])
    );
    // No cue: no difference.
    assert_eq!(values("gia hom qua 52.000 hom nay 49.500"), None);
}

#[test]
fn simple_interest_for_its_periods() {
    assert_eq!(
        values("vay 50tr lai 1%/thang, 1 thang lai bn"),
        Some(vec![500_000.0])
    );
    assert_eq!(
        values("vay 50tr lai 1%/thang, 6 thang lai bn"),
        Some(vec![3_000_000.0])
    );
    assert_eq!(
        values("gửi 100 triệu lãi 5%/năm, 2 năm tổng cộng bao nhiêu"),
        Some(vec![110_000_000.0])
    );
    // Compounded: the amount times (1 + rate) to the periods.
    assert_eq!(
        values("gửi 100 triệu lãi 5%/năm, lãi nhập gốc, 2 năm được bao nhiêu")
            .map(|v| v.iter().map(|x| x.round()).collect::<Vec<_>>()),
        Some(vec![110_250_000.0])
    );
    assert_eq!(
        values("gửi 100 triệu lãi 5%/năm, lãi nhập gốc, 2 năm tiền lãi bao nhiêu")
            .map(|v| v.iter().map(|x| x.round()).collect::<Vec<_>>()),
        Some(vec![10_250_000.0])
    );
    // A rate with no period said is a year's.
    assert_eq!(
        values("1000 at 5% interest compounded for 2 years").map(|v| v
            .iter()
            .map(|x| (x * 1000.0).round() / 1000.0)
            .collect::<Vec<_>>()),
        Some(vec![1102.5])
    );
    assert_eq!(
        values("2000 at 6% a year compounded monthly for 1 year")
            .map(|v| v.iter().map(|x| x.round()).collect::<Vec<_>>()),
        Some(vec![2123.0])
    );
    // A rate per month compounded over years: not told apart, not guessed.
    assert_eq!(
        values("gửi 100 triệu lãi 0,5%/tháng, lãi nhập gốc, 2 năm được bao nhiêu"),
        None
    );
}

#[test]
fn how_many_of_a_thing_a_total_takes() {
    assert_eq!(
        values("xe cho dc 7 nguoi, co 30 nguoi, can may chuyen"),
        Some(vec![5.0])
    );
    assert_eq!(
        values("the course is 120 hrs in 6hr sessions, how many sessions"),
        Some(vec![20.0])
    );
}

#[test]
fn a_levy_taken_off_what_is_left() {
    assert_eq!(
        values("pay is 1,000 and they take 10% for tax, what do i actually get"),
        Some(vec![900.0])
    );
}

#[test]
fn what_is_left_once_some_is_taken_off() {
    assert_eq!(
        values("kho co 6 thung, moi thung 24 chai, hom nay ban 50 chai, con lai bao nhieu"),
        Some(vec![94.0])
    );
    assert_eq!(
        values("moi ngay 4 chuyen moi chuyen 6 khach 100k, tru dau 300k con lai bn"),
        Some(vec![2_100_000.0])
    );
    assert_eq!(
        values("lương buổi 300k, tháng này làm 20 buổi, trừ ứng 2 triệu thì còn bao nhiêu"),
        Some(vec![4_000_000.0])
    );
    // A date's day and year are never a price and its count.
    assert_eq!(
        values("I moved here on 3 March 2015, how many days ago"),
        None
    );
}

#[test]
fn how_long_a_supply_lasts() {
    assert_eq!(
        values("Lọ này 4 vỉ, mỗi vỉ 10 viên, ngày uống 2 viên thì được mấy ngày?"),
        Some(vec![20.0])
    );
}

#[test]
fn what_each_one_needs_for_every_one() {
    assert_eq!(
        values("we planted 250 trees and each one needs 2.5 litres of water, how many litres"),
        Some(vec![625.0])
    );
}

#[test]
fn prices_by_kind_for_counts_of_each_kind() {
    assert_eq!(
        values("ve nguoi lon 200k, tre em 120k. doan nay 4 nguoi lon 2 tre em, tong bn"),
        Some(vec![1_040_000.0])
    );
    // A kind counted with no price: no total.
    assert_eq!(
        values("ve nguoi lon 200k, tre em 120k. doan nay 4 nguoi lon 2 sinh vien, tong bn"),
        None
    );
}

#[test]
fn how_many_periods_or_pieces_reach_a_target() {
    assert_eq!(
        values("i knit 3 rows an hour, how many hours for 45 rows"),
        Some(vec![15.0])
    );
    assert_eq!(
        values("moi thang de danh 2tr, xe gia 30tr thi mat bao nhieu thang"),
        Some(vec![15.0])
    );
    assert_eq!(
        values("already saved 1.5m, the bike is 6m, putting away 500k a month, how many months"),
        Some(vec![9.0])
    );
    assert_eq!(
        values("Mỗi cái lời 7k, muốn đủ 100.000 thì bán ít nhất bao nhiêu cái? Làm tròn lên"),
        Some(vec![15.0])
    );
}

#[test]
fn the_profit_of_a_lot_sold_by_the_unit() {
    assert_eq!(
        values("nhập 50 ký cá giá 4tr, bán lẻ 110 nghìn một ký, bán hết thì lời bao nhiêu"),
        Some(vec![1_500_000.0])
    );
    assert_eq!(
        values(
            "he buys 200kg of squid for 24,000,000 and sells it at 150k a kg, whats his profit per kg"
        ),
        Some(vec![30_000.0])
    );
}

#[test]
fn a_multiplier_of_a_rate() {
    assert_eq!(
        values("base is 20/hr and the night loading is 1.25x, how much is 1 night hour"),
        Some(vec![25.0])
    );
}

#[test]
fn what_is_still_owed_or_earned() {
    assert_eq!(
        values("don hang 3.200.000, da tra truoc 1 trieu, con no bao nhieu"),
        Some(vec![2_200_000.0])
    );
    assert_eq!(
        values("Tháng này thu 30 triệu, chi 18 triệu, lãi bao nhiêu?"),
        Some(vec![12_000_000.0])
    );
    // A percentage asked is another question: the profit on what was paid (session
    // 36's change_percent), never the difference.
    assert_eq!(
        values("Bán 300.000đ, vốn 200.000đ, lãi bao nhiêu phần trăm?"),
        Some(vec![50.0])
    );
    assert_eq!(
        values("Chia đều 900.000đ cho 3 thợ, mỗi người bao nhiêu"),
        Some(vec![300_000.0])
    );
}

#[test]
fn the_price_of_one_from_a_pack() {
    assert_eq!(
        values("hộp thuốc 30 viên giá 150k, 1 viên bao nhiêu tiền"),
        Some(vec![5_000.0])
    );
    // No one asked: not this frame's.
    assert_ne!(
        values("hộp thuốc 30 viên giá 150k, bao nhiêu tiền"),
        Some(vec![5_000.0])
    );
}

#[test]
fn labels_of_a_written_calculation_may_name_anything() {
    // (`broker` names a request outside the tools, `insurance` a levy: with the
    // operators written out and no percentage, both only label a number.)
    assert_eq!(
        values("31900 minus 2500 dorm minus 1800 broker minus 1062 health insurance"),
        Some(vec![26538.0])
    );
    assert_eq!(values("31900 minus 2500 dorm minus 9% insurance"), None);
}

#[test]
fn an_amount_for_one_period_asked_for_a_longer_one() {
    assert_eq!(
        values("nursery is £68.50 a day and she goes 3 days a week. how much is that a fortnight"),
        Some(vec![411.0])
    );
    assert_eq!(
        values("tiền gửi trẻ 150.000 một ngày, tuần đi 5 ngày, cả năm hết bao nhiêu"),
        Some(vec![39_000_000.0])
    );
}

#[test]
fn a_share_and_the_rest_asked_outright() {
    assert_eq!(
        values("salary 2,340€ gross, tax 21.5%. how much tax and what's left"),
        Some(vec![503.1, 1836.9])
    );
    assert_eq!(
        values("tax is 15% of 34,200 gross. how much tax and whats my net"),
        Some(vec![5130.0, 29070.0])
    );
    assert_eq!(
        values(
            "gửi 50 triệu lãi suất 6%/năm, 1 năm được bao nhiêu tiền lãi, tổng cả gốc lẫn lãi là bao nhiêu"
        ),
        Some(vec![3_000_000.0, 53_000_000.0])
    );
}

#[test]
fn change_from_money_handed_over() {
    assert_eq!(
        values("bought 3 bottles of fish sauce for 185k each, paid with 600k, how much change"),
        Some(vec![45000.0])
    );
}
#[test]
fn so_many_bought_and_sold_at_a_price_each() {
    assert_eq!(
        values("áo nhập 150k bán 210k, bán được 30 cái thì lãi bao nhiêu"),
        Some(vec![1_800_000.0])
    );
    assert_eq!(
        values("nhap 12 cai den 400k 1 cai ban 550k, lai bao nhieu"),
        Some(vec![1_800_000.0])
    );
}

#[test]
fn a_thing_priced_before_it_is_counted() {
    assert_eq!(
        values("ticket 685, buy 2 tickets how much"),
        Some(vec![1370.0])
    );
    assert_eq!(
        values("áo 385k, mua 3 cái hết bao nhiêu"),
        Some(vec![1_155_000.0])
    );
    // A pack priced, one of it asked: never the pack's price times one.
    assert_ne!(
        values("hộp vitamin 20 viên giá 100k, 1 viên bao nhiêu tiền"),
        Some(vec![100_000.0])
    );
}

#[test]
fn a_day_and_month_named_in_words_make_no_quantities() {
    // (Had been 2 × 20: the pay's period and the day of the month multiplied.)
    assert_eq!(
        read("pay is every 2 weeks, last one was fri 20 nov, when's the next"),
        None
    );
}
