//! The amounts tests, compiled under #[cfg(test)] only.

use super::*;
use crate::normalise::unicode::pieces;

fn canon(s: &str, r: Reading) -> String {
    canonical(pieces(s), r)
        .iter()
        .map(|p| p.text.as_str())
        .collect()
}

#[test]
fn money_signs_and_words_are_dropped() {
    assert_eq!(
        canon("split $84.60 between 3", Reading::English),
        "split 84.60 between 3"
    );
    assert_eq!(canon("12 dollars", Reading::English), "12");
    assert_eq!(canon("450.000đ", Reading::Vietnamese), "450000");
    assert_eq!(canon("3.500 đồng", Reading::Vietnamese), "3500");
    // (A sign glued to the next amount is that amount's: the two stay apart.)
    assert_eq!(
        canon("¥64,000 ¥71,500 ¥58,800", Reading::English),
        "64000 71500 58800"
    );
}

#[test]
fn two_currencies_are_kept_for_the_refusal() {
    assert_eq!(
        canon("convert 250 dollars to euros", Reading::English),
        "convert 250 dollars to euros"
    );
}

#[test]
fn scales_multiply_exactly() {
    assert_eq!(
        canon("375k split 5 ways", Reading::English),
        "375000 split 5 ways"
    );
    assert_eq!(canon("2 trieu", Reading::Vietnamese), "2000000");
    assert_eq!(canon("2.5 million", Reading::English), "2500000");
    assert_eq!(canon("1,5 tr", Reading::Vietnamese), "1500000");
    assert_eq!(canon("10 tr 2", Reading::Vietnamese), "10200000");
    assert_eq!(
        canon("1tr2, tip 10%", Reading::Vietnamese),
        "1200000, tip 10%"
    );
    assert_eq!(
        canon("2 triệu 4 chia 3", Reading::Vietnamese),
        "2400000 chia 3"
    );
    assert_eq!(canon("2 trieu ruoi", Reading::Vietnamese), "2500000");
    assert_eq!(canon("3 nghìn rưỡi", Reading::Vietnamese), "3500");
    // `dong` before a number is the verb `đóng`, no currency.
    assert_eq!(
        canon("mỗi đợt 3tr150, dong 4 đợt", Reading::Vietnamese),
        "mỗi đợt 3150000, dong 4 đợt"
    );
    // `m` after a number is a million among money, a metre among measures.
    assert_eq!(
        canon("mon 820k, fri 1.02m", Reading::English),
        "mon 820000, fri 1020000"
    );
    assert_eq!(canon("4.8m x 3.6m", Reading::English), "4.8m x 3.6m");
    assert_eq!(
        canon("cake 4.2 mil, mc 6 mil", Reading::English),
        "cake 4200000, mc 6000000"
    );
    assert_eq!(
        canon("what is 1 mil 1", Reading::English),
        "what is 1 mil 1"
    );
    assert_eq!(
        canon("18.5 m2 of tile @ $42.80/m2", Reading::English),
        "18.5 m2 of tile @ 42.80/m2"
    );
    // A unit and a half.
    assert_eq!(canon("lấy 3 ký rưỡi", Reading::Vietnamese), "lấy 3.5 ký");
    assert_eq!(canon("do 4 lit ruoi", Reading::Vietnamese), "do 4.5 lit");
    assert_eq!(canon("45k 1kg", Reading::Vietnamese), "45000 1kg");
    assert_eq!(
        canon("2 triệu 4 người", Reading::Vietnamese),
        "2000000 4 người"
    );
}

#[test]
fn separators_follow_the_language() {
    assert_eq!(canon("1.500.000", Reading::Vietnamese), "1500000");
    assert_eq!(canon("1.500.000", Reading::English), "1500000");
    assert_eq!(canon("7,5", Reading::Vietnamese), "7.5");
    assert_eq!(canon("7,456", Reading::Vietnamese), "7456");
    assert_eq!(
        canon("làm tròn 7,456", Reading::Vietnamese),
        "làm tròn 7.456"
    );
    assert_eq!(canon("1,000", Reading::Vietnamese), "1000");
    assert_eq!(canon("1,250", Reading::English), "1250");
    assert_eq!(canon("1,2,3", Reading::English), "1, 2, 3");
    assert_eq!(canon("2,5", Reading::English), "2, 5");
    assert_eq!(canon("1,250.50", Reading::English), "1250.50");
    assert_eq!(canon("1.250,5", Reading::Vietnamese), "1250.5");
    assert_eq!(canon("0.125", Reading::Vietnamese), "0.125");
    assert_eq!(canon("25.12.2026", Reading::Vietnamese), "25.12.2026");
}

#[test]
fn exact_decimal_arithmetic() {
    assert_eq!(shift("1.25", 3), "1250");
    assert_eq!(shift("0.0005", 3), "0.5");
    assert_eq!(add("2000000", "500000"), "2500000");
    assert_eq!(add("0.5", "0.75"), "1.25");
}

#[test]
fn hundreds_scale_only_a_word_counted_after_them() {
    assert_eq!(canon("2 trăm trái", Reading::Vietnamese), "200 trái");
    // (A number or a scale after `trăm` goes on from it; no word after, no scale.)
    assert_eq!(canon("3 trăm 5", Reading::Vietnamese), "3 trăm 5");
    assert_eq!(canon("2 trăm nghìn", Reading::Vietnamese), "2 trăm nghìn");
    assert_eq!(canon("2 trăm rưỡi", Reading::Vietnamese), "2 trăm rưỡi");
    assert_eq!(canon("3 trăm: 35k", Reading::Vietnamese), "3 trăm: 35000");
}
