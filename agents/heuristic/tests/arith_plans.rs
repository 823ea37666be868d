//! Arithmetic with symbols: precedence, parentheses, decimals, negatives, powers,
//! functions, percentages and modulo, each asserted as the exact plan.

mod common;
use common::{parts, steps};

#[test]
fn a_simple_sum_is_one_output_step() {
    assert_eq!(steps("2+4"), vec![r#"s1 math/sum a="2" b="4" *"#]);
}

#[test]
fn vietnamese_compute_with_question_tail_is_a_sum() {
    assert_eq!(steps("tính 2+4 = ??"), vec![r#"s1 math/sum a="2" b="4" *"#]);
    assert_eq!(steps("2+4 bằng mấy?"), vec![r#"s1 math/sum a="2" b="4" *"#]);
    assert_eq!(
        steps("2 + 4 là bao nhiêu"),
        vec![r#"s1 math/sum a="2" b="4" *"#]
    );
    assert_eq!(parts("tính 2+4 = ??"), vec!["tính 2+4"]);
}

#[test]
fn parentheses_then_precedence_chain_through_references() {
    assert_eq!(
        steps("(2+4)*3 - 1"),
        vec![
            r#"s1 math/sum a="2" b="4""#,
            r#"s2 math/multiply a=$s1 b="3""#,
            r#"s3 math/subtract a=$s2 b="1" *"#,
        ]
    );
}

#[test]
fn independent_products_come_before_their_sum() {
    assert_eq!(
        steps("2*3 + 4*5"),
        vec![
            r#"s1 math/multiply a="2" b="3""#,
            r#"s2 math/multiply a="4" b="5""#,
            r#"s3 math/sum a=$s1 b=$s2 *"#,
        ]
    );
}

#[test]
fn unary_minus_folds_into_literals_and_negates_expressions() {
    assert_eq!(
        steps("-3 * -(2+1)"),
        vec![
            r#"s1 math/sum a="2" b="1""#,
            r#"s2 math/subtract a="0" b=$s1"#,
            r#"s3 math/multiply a="-3" b=$s2 *"#,
        ]
    );
    assert_eq!(
        steps("--3 - -2"),
        vec![r#"s1 math/subtract a="3" b="-2" *"#]
    );
}

#[test]
fn decimals_stay_decimal_strings() {
    assert_eq!(steps("0.1 + 0.2"), vec![r#"s1 math/sum a="0.1" b="0.2" *"#]);
    assert_eq!(
        steps(".5 * 2.50"),
        vec![r#"s1 math/multiply a="0.5" b="2.5" *"#]
    );
}

#[test]
fn left_associativity_of_subtraction_and_division() {
    assert_eq!(
        steps("10 - 4 - 3"),
        vec![
            r#"s1 math/subtract a="10" b="4""#,
            r#"s2 math/subtract a=$s1 b="3" *"#
        ]
    );
    assert_eq!(
        steps("100 / 10 / 2"),
        vec![
            r#"s1 math/divide a="100" b="10""#,
            r#"s2 math/divide a=$s1 b="2" *"#
        ]
    );
}

#[test]
fn caret_and_double_star_are_power() {
    assert_eq!(
        steps("2^10"),
        vec![r#"s1 math/power base="2" exponent="10" *"#]
    );
    assert_eq!(
        steps("2**10"),
        vec![r#"s1 math/power base="2" exponent="10" *"#]
    );
}

#[test]
fn power_is_right_associative_and_binds_tighter_than_unary_minus() {
    assert_eq!(
        steps("2^3^2"),
        vec![
            r#"s1 math/power base="3" exponent="2""#,
            r#"s2 math/power base="2" exponent=$s1 *"#,
        ]
    );
    assert_eq!(
        steps("-2^2"),
        vec![
            r#"s1 math/power base="2" exponent="2""#,
            r#"s2 math/subtract a="0" b=$s1 *"#
        ]
    );
}

#[test]
fn times_signs_x_and_division_signs_are_operators() {
    assert_eq!(steps("6 x 7"), vec![r#"s1 math/multiply a="6" b="7" *"#]);
    assert_eq!(steps("6×7"), vec![r#"s1 math/multiply a="6" b="7" *"#]);
    assert_eq!(steps("8 ÷ 2"), vec![r#"s1 math/divide a="8" b="2" *"#]);
    assert_eq!(steps("8 : 2"), vec![r#"s1 math/divide a="8" b="2" *"#]);
}

#[test]
fn square_roots_in_both_languages() {
    assert_eq!(steps("sqrt(16)"), vec![r#"s1 math/sqrt x="16" *"#]);
    assert_eq!(
        steps("căn bậc hai của 16"),
        vec![r#"s1 math/sqrt x="16" *"#]
    );
    assert_eq!(
        steps("what is the square root of 16?"),
        vec![r#"s1 math/sqrt x="16" *"#]
    );
    assert_eq!(
        steps("√16 + 1"),
        vec![r#"s1 math/sqrt x="16""#, r#"s2 math/sum a=$s1 b="1" *"#]
    );
}

#[test]
fn percent_of_is_the_percent_tool() {
    assert_eq!(
        steps("15% of 200"),
        vec![r#"s1 math/percent of="200" percent="15" *"#]
    );
    assert_eq!(
        steps("15 percent of 200"),
        vec![r#"s1 math/percent of="200" percent="15" *"#]
    );
    assert_eq!(
        steps("15 phần trăm của 200"),
        vec![r#"s1 math/percent of="200" percent="15" *"#]
    );
}

#[test]
fn mod_and_percent_sign_between_numbers_are_modulo() {
    assert_eq!(steps("10 mod 3"), vec![r#"s1 math/modulo a="10" b="3" *"#]);
    assert_eq!(steps("10 % 3"), vec![r#"s1 math/modulo a="10" b="3" *"#]);
    assert_eq!(
        steps("10 chia lấy dư 3"),
        vec![r#"s1 math/modulo a="10" b="3" *"#]
    );
}

#[test]
fn abs_round_and_power_calls() {
    assert_eq!(steps("abs(-5)"), vec![r#"s1 math/abs x="-5" *"#]);
    assert_eq!(
        steps("round(3.14159, 2)"),
        vec![r#"s1 math/round places="2" x="3.14159" *"#]
    );
    assert_eq!(
        steps("round 3.14159 to 2 decimal places"),
        vec![r#"s1 math/round places="2" x="3.14159" *"#]
    );
    assert_eq!(
        steps("power(2, 10)"),
        vec![r#"s1 math/power base="2" exponent="10" *"#]
    );
    assert_eq!(
        steps("5 squared"),
        vec![r#"s1 math/power base="5" exponent="2" *"#]
    );
}

#[test]
fn thousands_separators_and_leading_zeros_are_normalised() {
    assert_eq!(
        steps("1,000 + 007"),
        vec![r#"s1 math/sum a="1000" b="7" *"#]
    );
}

#[test]
fn rounding_as_a_second_operation_and_named_places() {
    assert_eq!(
        common::steps("500 divided by 9, rounded to 1 decimal place"),
        vec![
            r#"s1 math/divide a="500" b="9""#,
            r#"s2 math/round places="1" x=$s1 *"#,
        ]
    );
    assert_eq!(
        common::steps("20/6 làm tròn đến 2 chữ số thập phân"),
        vec![
            r#"s1 math/divide a="20" b="6""#,
            r#"s2 math/round places="2" x=$s1 *"#,
        ]
    );
    assert_eq!(
        common::steps("round 12.3456 to the nearest cent"),
        vec![r#"s1 math/round places="2" x="12.3456" *"#]
    );
    assert_eq!(
        common::steps("round 7.25 to the nearest tenth"),
        vec![r#"s1 math/round places="1" x="7.25" *"#]
    );
}

#[test]
fn a_mark_placed_either_way_is_one_word() {
    assert_eq!(
        common::steps("3 luy thua 5"),
        vec![r#"s1 math/power base="3" exponent="5" *"#]
    );
}

#[test]
fn a_fraction_of_an_amount_multiplies_first() {
    let three_quarters = vec![
        r#"s1 math/multiply a="3" b="120""#,
        r#"s2 math/divide a=$s1 b="4" *"#,
    ];
    assert_eq!(steps("how much is 3/4 of 120"), three_quarters);
    assert_eq!(steps("what is three quarters of 120"), three_quarters);
    assert_eq!(
        steps("2/3 của 90"),
        vec![
            r#"s1 math/multiply a="2" b="90""#,
            r#"s2 math/divide a=$s1 b="3" *"#
        ]
    );
    // A fraction alone stays a division.
    assert_eq!(steps("10/4"), vec![r#"s1 math/divide a="10" b="4" *"#]);
}

#[test]
fn a_remainder_asked_without_marks_and_millions_with_their_tail() {
    // (Session 30: `du` typed for `dư` had folded to `dự` and divided.)
    assert_eq!(
        common::steps("1000 chia 7 du bao nhieu"),
        vec![r#"s1 math/modulo a="1000" b="7" *"#]
    );
    // `6tr2 một tháng` is 6.2 million a month (had been 60000002).
    assert_eq!(
        common::steps("6tr2 một tháng, một năm bao nhiêu"),
        vec![r#"s1 math/multiply a="6200000" b="12" *"#]
    );
}
