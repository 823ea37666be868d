//! Number words and operator words in English and Vietnamese, and the verb forms
//! (`subtract 7 from 10`), each asserted as the exact plan.

mod common;
use common::steps;

#[test]
fn english_words_with_precedence() {
    assert_eq!(
        steps("ten minus three"),
        vec![r#"s1 math/subtract a="10" b="3" *"#]
    );
    assert_eq!(
        steps("two plus four times three"),
        vec![
            r#"s1 math/multiply a="4" b="3""#,
            r#"s2 math/sum a="2" b=$s1 *"#
        ]
    );
    assert_eq!(
        steps("what is twenty one divided by seven?"),
        vec![r#"s1 math/divide a="21" b="7" *"#]
    );
    assert_eq!(
        steps("six multiplied by seven"),
        vec![r#"s1 math/multiply a="6" b="7" *"#]
    );
    assert_eq!(
        steps("two to the power of ten"),
        vec![r#"s1 math/power base="2" exponent="10" *"#]
    );
    assert_eq!(
        steps("minus five plus two"),
        vec![r#"s1 math/sum a="-5" b="2" *"#]
    );
}

#[test]
fn english_number_words_with_and_and_scales() {
    assert_eq!(
        steps("one hundred and five plus one"),
        vec![r#"s1 math/sum a="105" b="1" *"#]
    );
    assert_eq!(
        steps("two million three hundred thousand minus one"),
        vec![r#"s1 math/subtract a="2300000" b="1" *"#]
    );
    assert_eq!(
        steps("twenty-one times 2"),
        vec![r#"s1 math/multiply a="21" b="2" *"#]
    );
}

#[test]
fn subtract_from_puts_the_second_operand_first() {
    assert_eq!(
        steps("subtract 7 from 10"),
        vec![r#"s1 math/subtract a="10" b="7" *"#]
    );
}

#[test]
fn english_verb_forms() {
    assert_eq!(steps("add 3 and 5"), vec![r#"s1 math/sum a="3" b="5" *"#]);
    assert_eq!(steps("add 3 to 5"), vec![r#"s1 math/sum a="5" b="3" *"#]);
    assert_eq!(
        steps("multiply 6 by 7"),
        vec![r#"s1 math/multiply a="6" b="7" *"#]
    );
    assert_eq!(
        steps("divide 10 by 4"),
        vec![r#"s1 math/divide a="10" b="4" *"#]
    );
    assert_eq!(
        steps("what is the sum of 3 and 5"),
        vec![r#"s1 math/sum a="3" b="5" *"#]
    );
    assert_eq!(
        steps("the product of 6 and 7"),
        vec![r#"s1 math/multiply a="6" b="7" *"#]
    );
    assert_eq!(
        steps("add three and five"),
        vec![r#"s1 math/sum a="3" b="5" *"#]
    );
    assert_eq!(
        steps("add (1+2) and 5"),
        vec![r#"s1 math/sum a="1" b="2""#, r#"s2 math/sum a=$s1 b="5" *"#]
    );
}

#[test]
fn vietnamese_operator_words_with_precedence() {
    assert_eq!(
        steps("2 cộng 4 nhân 3"),
        vec![
            r#"s1 math/multiply a="4" b="3""#,
            r#"s2 math/sum a="2" b=$s1 *"#
        ]
    );
    assert_eq!(
        steps("10 trừ 3"),
        vec![r#"s1 math/subtract a="10" b="3" *"#]
    );
    assert_eq!(steps("10 chia 4"), vec![r#"s1 math/divide a="10" b="4" *"#]);
    assert_eq!(
        steps("10 chia cho 4"),
        vec![r#"s1 math/divide a="10" b="4" *"#]
    );
    assert_eq!(
        steps("6 nhân với 7"),
        vec![r#"s1 math/multiply a="6" b="7" *"#]
    );
    assert_eq!(
        steps("2 mũ 10"),
        vec![r#"s1 math/power base="2" exponent="10" *"#]
    );
    assert_eq!(steps("tinh 2 cong 4"), vec![r#"s1 math/sum a="2" b="4" *"#]);
}

#[test]
fn vietnamese_number_words_in_arithmetic() {
    assert_eq!(
        steps("mười lăm cộng hai mươi mốt"),
        vec![r#"s1 math/sum a="15" b="21" *"#]
    );
    assert_eq!(
        steps("tính năm nhân sáu"),
        vec![r#"s1 math/multiply a="5" b="6" *"#]
    );
    assert_eq!(
        steps("một trăm linh năm trừ năm"),
        vec![r#"s1 math/subtract a="105" b="5" *"#]
    );
    assert_eq!(
        steps("hai nghìn chia cho mười"),
        vec![r#"s1 math/divide a="2000" b="10" *"#]
    );
    assert_eq!(
        steps("một triệu trừ một"),
        vec![r#"s1 math/subtract a="1000000" b="1" *"#]
    );
}

#[test]
fn vietnamese_verb_forms() {
    assert_eq!(
        steps("tổng của 3 và 5"),
        vec![r#"s1 math/sum a="3" b="5" *"#]
    );
    assert_eq!(
        steps("hiệu của 10 và 4"),
        vec![r#"s1 math/subtract a="10" b="4" *"#]
    );
    assert_eq!(
        steps("lấy 10 trừ 7"),
        vec![r#"s1 math/subtract a="10" b="7" *"#]
    );
}

#[test]
fn words_and_symbols_mix() {
    assert_eq!(
        steps("(two plus 4) x three"),
        vec![
            r#"s1 math/sum a="2" b="4""#,
            r#"s2 math/multiply a=$s1 b="3" *"#
        ]
    );
}

#[test]
fn quotient_and_vietnamese_products_and_squares() {
    assert_eq!(
        steps("the quotient of 10 and 2"),
        vec![r#"s1 math/divide a="10" b="2" *"#]
    );
    assert_eq!(
        steps("tích của 6 và 7"),
        vec![r#"s1 math/multiply a="6" b="7" *"#]
    );
    assert_eq!(
        steps("5 bình phương"),
        vec![r#"s1 math/power base="5" exponent="2" *"#]
    );
    assert_eq!(
        steps("round 2.5"),
        vec![r#"s1 math/round places="0" x="2.5" *"#]
    );
}

#[test]
fn x_of_n_forms_apply_their_tool() {
    for (query, step) in [
        ("sqrt of 49", r#"s1 math/sqrt x="49" *"#),
        ("what is the square root of 81", r#"s1 math/sqrt x="81" *"#),
        (
            "the square of 12",
            r#"s1 math/power base="12" exponent="2" *"#,
        ),
        ("cube of 3", r#"s1 math/power base="3" exponent="3" *"#),
        ("half of 90", r#"s1 math/divide a="90" b="2" *"#),
        ("a quarter of 100", r#"s1 math/divide a="100" b="4" *"#),
        ("one half of 9", r#"s1 math/divide a="9" b="2" *"#),
        ("double 21", r#"s1 math/multiply a="21" b="2" *"#),
        ("triple seven", r#"s1 math/multiply a="7" b="3" *"#),
        ("the absolute value of -7", r#"s1 math/abs x="-7" *"#),
        ("căn của 49", r#"s1 math/sqrt x="49" *"#),
        (
            "bình phương của 12",
            r#"s1 math/power base="12" exponent="2" *"#,
        ),
        ("một nửa của 90", r#"s1 math/divide a="90" b="2" *"#),
        ("gấp đôi 21", r#"s1 math/multiply a="21" b="2" *"#),
    ] {
        assert_eq!(steps(query), vec![step], "{query}");
    }
    // They compose like any operand: half of 90, plus 5.
    assert_eq!(
        steps("half of 90 plus 5"),
        vec![
            r#"s1 math/divide a="90" b="2""#,
            r#"s2 math/sum a=$s1 b="5" *"#
        ]
    );
}

#[test]
fn lists_sum_multiply_and_average_their_items() {
    assert_eq!(
        steps("sum of 1, 2 and 3"),
        vec![r#"s1 math/sum a="1" b="2""#, r#"s2 math/sum a=$s1 b="3" *"#]
    );
    assert_eq!(
        steps("product of 2, 3, and 4"),
        vec![
            r#"s1 math/multiply a="2" b="3""#,
            r#"s2 math/multiply a=$s1 b="4" *"#
        ]
    );
    assert_eq!(
        steps("what is the mean of 3, 5 and 10?"),
        vec![
            r#"s1 math/sum a="3" b="5""#,
            r#"s2 math/sum a=$s1 b="10""#,
            r#"s3 math/divide a=$s2 b="3" *"#
        ]
    );
    assert_eq!(
        steps("average of 4 and 6"),
        vec![
            r#"s1 math/sum a="4" b="6""#,
            r#"s2 math/divide a=$s1 b="2" *"#
        ]
    );
    assert_eq!(
        steps("tổng của 1, 2 và 3"),
        vec![r#"s1 math/sum a="1" b="2""#, r#"s2 math/sum a=$s1 b="3" *"#]
    );
    assert_eq!(
        steps("trung bình cộng của 4, 6 và 8"),
        vec![
            r#"s1 math/sum a="4" b="6""#,
            r#"s2 math/sum a=$s1 b="8""#,
            r#"s3 math/divide a=$s2 b="3" *"#
        ]
    );
    // Without a list head a comma still splits the request into parts.
    assert_eq!(steps("2+4, 3*5").len(), 2);
}

#[test]
fn the_largest_and_smallest_of_a_list_are_pairwise_max_and_min() {
    let max3 = vec![r#"s1 math/max a="4" b="9""#, r#"s2 math/max a=$s1 b="2" *"#];
    assert_eq!(steps("the largest of 4, 9 and 2"), max3);
    assert_eq!(steps("what is the maximum of 4, 9, and 2?"), max3);
    assert_eq!(steps("số lớn nhất trong 4, 9 và 2"), max3);
    assert_eq!(
        steps("smallest of 7, -3 and 2.5"),
        vec![
            r#"s1 math/min a="7" b="-3""#,
            r#"s2 math/min a=$s1 b="2.5" *"#
        ]
    );
    // Two items need no comma; a choice may be joined by "or"/"hay".
    assert_eq!(
        steps("the larger of 3 and 8"),
        vec![r#"s1 math/max a="3" b="8" *"#]
    );
    assert_eq!(
        steps("which is smaller: 3.5 or 2"),
        vec![r#"s1 math/min a="3.5" b="2" *"#]
    );
    assert_eq!(
        steps("số nào nhỏ hơn, 7 hay 5"),
        vec![r#"s1 math/min a="7" b="5" *"#]
    );
    // Items may be expressions.
    assert_eq!(
        steps("max of 2*3 and 5"),
        vec![
            r#"s1 math/multiply a="2" b="3""#,
            r#"s2 math/max a=$s1 b="5" *"#
        ]
    );
}

#[test]
fn a_sequence_takes_the_previous_result() {
    assert_eq!(
        steps("multiply 6 by 7 and then subtract 2"),
        vec![
            r#"s1 math/multiply a="6" b="7""#,
            r#"s2 math/subtract a=$s1 b="2" *"#
        ]
    );
    assert_eq!(
        steps("take 100, halve it, then add 7"),
        vec![
            r#"s1 math/divide a="100" b="2""#,
            r#"s2 math/sum a=$s1 b="7" *"#
        ]
    );
    assert_eq!(
        // (A step naming the result asks both answers.)
        steps("2+4, then divide the result by 4"),
        vec![
            r#"s1 math/sum a="2" b="4" *"#,
            r#"s2 math/divide a=$s1 b="4" *"#
        ]
    );
    assert_eq!(
        steps("lấy 20 chia 4 rồi nhân 3"),
        vec![
            r#"s1 math/divide a="20" b="4""#,
            r#"s2 math/multiply a=$s1 b="3" *"#
        ]
    );
    assert_eq!(
        steps("tính 10 cộng 5, sau đó trừ đi 1"),
        vec![
            r#"s1 math/sum a="10" b="5""#,
            r#"s2 math/subtract a=$s1 b="1" *"#
        ]
    );
    assert_eq!(
        steps("5 squared, then minus 5, then double it"),
        vec![
            r#"s1 math/power base="5" exponent="2""#,
            r#"s2 math/subtract a=$s1 b="5""#,
            r#"s3 math/multiply a=$s2 b="2" *"#
        ]
    );
    assert_eq!(
        steps("2+4, plus 3"),
        vec![r#"s1 math/sum a="2" b="4""#, r#"s2 math/sum a=$s1 b="3" *"#]
    );
    // Two parts that do not refer back stay two parts.
    assert_eq!(steps("2+4 and 3*5").len(), 2);
    // A number words sentence is still one number.
    assert_eq!(
        steps("one hundred and five plus one"),
        vec![r#"s1 math/sum a="105" b="1" *"#]
    );
}
