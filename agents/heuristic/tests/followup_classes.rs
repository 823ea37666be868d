//! Follow-ups by class (issue 28): a part of the last question replaced (a count, a
//! percentage, a base, a date, a day and month, a fraction), a count changed relative
//! to the one before, a list extended or asked about again, the date a weekday answer
//! was about — each in both languages, with and without Vietnamese marks — and, for each
//! form, the wrong reading that must never come out (replace vs apply again, the
//! question's date vs its weekday answer, `d/m` vs a division).

mod common;
use chorus_bus::TaskContext;
use chorus_heuristic::{Capabilities, Conversation, PlanOutcome, plan_turn, recall};
use common::line;

/// The outcome of `query` after a turn that asked `question` and answered `answers`.
fn outcome(query: &str, question: &str, answers: &[&str]) -> PlanOutcome {
    plan_turn(
        query,
        &TaskContext::default(),
        &Capabilities::default_tools(),
        &Conversation {
            session: true,
            answers: answers.iter().map(|a| a.to_string()).collect(),
        },
        &[question.to_owned()],
    )
}

/// The one-line steps `query` plans to after `question` answered `answers`; panics
/// when it does not plan whole.
fn turn(query: &str, question: &str, answers: &[&str]) -> Vec<String> {
    match outcome(query, question, answers) {
        PlanOutcome::Planned {
            plan,
            unplanned: None,
            ..
        } => plan.steps.iter().map(line).collect(),
        other => panic!("{query:?} after {question:?}: {other:?}"),
    }
}

/// The steps, or nothing when `query` is not planned whole (asked or refused).
fn steps_of(query: &str, question: &str, answers: &[&str]) -> Vec<String> {
    match outcome(query, question, answers) {
        PlanOutcome::Planned {
            plan,
            unplanned: None,
            ..
        } => plan.steps.iter().map(line).collect(),
        _ => Vec::new(),
    }
}

#[test]
fn another_count_of_people_replaces_the_count() {
    let split = [r#"s1 math/divide a="300" b="7" *"#];
    for q in [
        "and for 7 friends?",
        "what about 7 people",
        "ok and if its 7 ppl",
        "and if there were 7 of us",
    ] {
        assert_eq!(turn(q, "split 300 between 5 people", &["60"]), split, "{q}");
    }
    for q in [
        "nếu chỉ có 3 người thì sao",
        "neu chi co 3 nguoi thi sao",
        "còn 3 người?",
    ] {
        assert_eq!(
            turn(q, "tiền ăn 900000 chia đều cho 4 người", &["225000"]),
            [r#"s1 math/divide a="900000" b="3" *"#],
            "{q}"
        );
    }
}

#[test]
fn a_count_more_or_fewer_than_before_is_counted_on() {
    for q in ["and with 2 more people?", "what if 2 more friends"] {
        assert_eq!(
            turn(q, "dinner was 480 for 4 people, how much each", &["120"]),
            [r#"s1 math/divide a="480" b="6" *"#],
            "{q}"
        );
    }
    for q in [
        "nếu thêm 2 người nữa thì sao",
        "neu them 2 nguoi nua thi sao",
    ] {
        assert_eq!(
            turn(q, "hóa đơn 900000 chia 4 người", &["225000"]),
            [r#"s1 math/divide a="900000" b="6" *"#],
            "{q}"
        );
    }
    assert_eq!(
        turn(
            "and with 1 fewer person?",
            "split 90 between 3 people",
            &["30"]
        ),
        [r#"s1 math/divide a="90" b="2" *"#]
    );
}

#[test]
fn another_percentage_replaces_the_percentage_never_applies_again() {
    let off = |p: &str| {
        vec![
            format!(r#"s1 math/percent of="350000" percent="{p}""#),
            r#"s2 math/subtract a="350000" b=$s1 *"#.to_owned(),
        ]
    };
    for q in [
        "nếu giảm 40% thì sao",
        "neu giam 40% thi sao",
        "còn giảm 40%?",
    ] {
        assert_eq!(
            turn(q, "áo giá 350000 giảm 20% còn bao nhiêu", &["280000"]),
            off("40"),
            "{q}"
        );
    }
    assert_eq!(
        turn("and if it were 25% off?", "80 with 15% off", &["68"]),
        [
            r#"s1 math/percent of="80" percent="25""#,
            r#"s2 math/subtract a="80" b=$s1 *"#
        ]
    );
    // The percentage of a plain percent question, and its base.
    assert_eq!(
        turn("and 8 percent?", "what is 12% of 850", &["102"]),
        [r#"s1 math/percent of="850" percent="8" *"#]
    );
    assert_eq!(
        turn("same rate but of 300", "what is 12% of 850", &["102"]),
        [r#"s1 math/percent of="300" percent="12" *"#]
    );
}

#[test]
fn a_further_change_goes_on_from_the_answer_never_replaces() {
    // "giảm thêm 10% nữa" (a further 10%) and "tăng 30%" (not the question's own
    // operation) are no replacement of the 20%: never 350000 − 10% or 350000 − 30%.
    for q in ["giảm thêm 10% nữa", "tăng 30% thì sao", "nhân thêm 3 nữa"] {
        let steps = steps_of(q, "áo giá 350000 giảm 20% còn bao nhiêu", &["280000"]);
        assert!(
            !steps.iter().any(|s| s.contains(r#"of="350000""#)),
            "{q}: {steps:?}"
        );
    }
    // A count is never read as an amount, nor an amount as a count.
    let steps = steps_of("and 500?", "split 300 between 5 people", &["60"]);
    assert!(!steps.iter().any(|s| s.contains(r#"b="500""#)), "{steps:?}");
}

#[test]
fn another_birth_date_replaces_the_date_in_words_or_digits() {
    for q in [
        "and born 5 feb 1985?",
        "and my sister? she was born 5 February 1985",
    ] {
        assert_eq!(
            turn(q, "how old is someone born 2 july 1970", &["56"]),
            [r#"s1 date/age born="1985-02-05" *"#],
            "{q}"
        );
    }
    for q in [
        "còn bố tôi sinh ngày 5 tháng 2 năm 1985 thì sao",
        "con bo toi sinh 5/2/1985 thi sao",
    ] {
        assert_eq!(
            turn(
                q,
                "tôi sinh ngày 1/7/1970 năm nay tôi bao nhiêu tuổi",
                &["56"]
            ),
            [r#"s1 date/age born="1985-02-05" *"#],
            "{q}"
        );
    }
}

#[test]
fn a_day_and_month_after_a_date_question_is_a_date_never_a_division() {
    for q in ["thế còn 2/9?", "the con 2/9", "còn 2/9 thì sao"] {
        let steps = turn(q, "còn bao nhiêu ngày nữa đến 25/12/2027", &["762"]);
        assert_eq!(
            steps,
            [
                r#"s1 date/next_date day=2 month=9"#,
                r#"s2 date/days_until date=$s1 *"#
            ],
            "{q}"
        );
    }
    // Month first in English only where the day cannot be a month.
    assert_eq!(
        turn("and 4/30?", "how many days until 2027-01-31", &["69"])[0],
        r#"s1 date/next_date day=30 month=4"#
    );
    let steps = steps_of("and 3/4?", "how many days until 2027-01-31", &["69"]);
    assert!(!steps.iter().any(|s| s.contains("divide")), "{steps:?}");
}

#[test]
fn a_fraction_replaces_the_fraction() {
    assert_eq!(
        recall::ellipses("còn 45/50", &["42/50 là bao nhiêu phần trăm".to_owned()]),
        ["45/50 là bao nhiêu phần trăm"]
    );
    assert_eq!(
        recall::ellipses("and 18/20?", &["what percent is 17/20".to_owned()]),
        ["what percent is 18/20"]
    );
}

#[test]
fn a_weekday_answer_stands_for_the_date_it_was_asked_of() {
    let days = [r#"s1 date/days_until date="2027-03-14" *"#];
    for (q, asked) in [
        (
            "how many days until that date",
            "what weekday is 14 March 2027",
        ),
        (
            "and how many days until then?",
            "what weekday is 2027-03-14",
        ),
        (
            "còn bao nhiêu ngày nữa đến ngày đó",
            "ngày 14 tháng 3 năm 2027 là thứ mấy",
        ),
        ("con bao nhieu ngay nua den ngay do", "14/3/2027 la thu may"),
    ] {
        let steps = steps_of(q, asked, &["Sunday"]);
        // Never the next Sunday from today.
        assert!(
            !steps.iter().any(|s| s.contains("find_weekday")),
            "{q}: {steps:?}"
        );
        if !steps.is_empty() {
            assert_eq!(steps, days, "{q}");
        }
    }
    for (q, asked) in [
        (
            "còn bao nhiêu ngày nữa đến ngày đó",
            "ngày 14 tháng 3 năm 2027 là thứ mấy",
        ),
        (
            "how many days until that date",
            "what weekday is 2027-03-14",
        ),
        ("add 0 days to that", "what weekday is 14 March 2027"),
    ] {
        let steps = turn(q, asked, &["Sunday"]);
        assert!(steps[0].contains(r#"date="2027-03-14""#), "{q}: {steps:?}");
    }
    // With two dates asked about, which one the weekday was of cannot be told: never
    // one of them guessed.
    let steps = steps_of(
        "how many days until that date",
        "days between 2027-01-01 and 2027-03-14, and what weekday is 2027-05-01",
        &["72", "Saturday"],
    );
    assert!(!steps.iter().any(|s| s.contains("2027-0")), "{steps:?}");
}

#[test]
fn a_list_is_extended_only_when_an_item_is_added() {
    // `add 5` after an average goes on from the answer; `2+4 and 3*5` is no list.
    let steps = steps_of("add 5", "average of 2, 4", &["3"]);
    assert_eq!(steps, [r#"s1 math/sum a="3" b="5" *"#]);
    assert!(
        recall::ellipses("what's the biggest of those", &["2+4 and 3*5".to_owned()]).is_empty()
    );
}

#[test]
fn a_list_is_extended_or_asked_about_again() {
    let mean5 = turn("and if I add a 50?", "average of 10, 20, 30, 40", &["25"]);
    assert_eq!(mean5.len(), 5, "{mean5:?}");
    assert_eq!(mean5[4], r#"s5 math/divide a=$s4 b="5" *"#);
    assert!(mean5[3].contains(r#"b="50""#), "{mean5:?}");
    let max = turn("whats the smallest of those", "sum of 3, 9, 4", &["16"]);
    assert_eq!(
        max,
        [r#"s1 math/min a="3" b="9""#, r#"s2 math/min a=$s1 b="4" *"#]
    );
    let vi = turn(
        "số lớn nhất trong các số đó là số nào",
        "trung bình cộng của 4, 6 và 8",
        &["6"],
    );
    assert_eq!(
        vi.last().map(String::as_str),
        Some(r#"s2 math/max a=$s1 b="8" *"#)
    );
}

#[test]
fn an_acknowledgement_before_a_follow_up_is_read_past() {
    assert_eq!(
        turn("ok add that to the 40", "2+3", &["5"]),
        [r#"s1 math/sum a="40" b="5" *"#]
    );
    assert_eq!(
        turn("alright, multiply it by 3", "2+3", &["5"]),
        [r#"s1 math/multiply a="5" b="3" *"#]
    );
}

#[test]
fn a_percentage_on_the_last_answer_is_taken_off_or_added() {
    for q in [
        "minus 20% tax",
        "less 20% commission",
        "trừ 20% thuế",
        "tru 20% thue",
    ] {
        assert_eq!(
            turn(q, "60 * 25", &["1500"]),
            [
                r#"s1 math/percent of="1500" percent="20""#,
                r#"s2 math/subtract a="1500" b=$s1 *"#
            ],
            "{q}"
        );
    }
    for q in [
        "and with 10% VAT on top of that",
        "plus 10% service charge",
        "cộng thêm 10% phí",
    ] {
        assert_eq!(
            turn(q, "60 * 25", &["1500"]),
            [
                r#"s1 math/percent of="1500" percent="10""#,
                r#"s2 math/sum a="1500" b=$s1 *"#
            ],
            "{q}"
        );
    }
}

#[test]
fn a_total_over_periods_and_the_change_go_on_from_the_last_answer() {
    for q in [
        "6 tháng thì tổng bao nhiêu",
        "total for 6 months",
        "6 thang thi tong la bao nhieu",
    ] {
        assert_eq!(
            turn(q, "lãi mỗi tháng 250000", &["250000"]),
            [r#"s1 math/multiply a="250000" b="6" *"#],
            "{q}"
        );
    }
    for q in [
        "khách đưa 200000 thì thối lại bao nhiêu",
        "khach dua 200k thoi lai bao nhieu",
        "I pay with 200000, how much change",
    ] {
        assert_eq!(
            turn(q, "3 * 45000", &["135000"]),
            [r#"s1 math/subtract a="200000" b="135000" *"#],
            "{q}"
        );
    }
}

#[test]
fn an_operation_more_or_at_a_rate_goes_on_from_the_last_answer() {
    for (q, op) in [
        ("nhân thêm 4 nữa", "multiply"),
        ("nhan them 4 nua", "multiply"),
        ("times 4 an hour", "multiply"),
        ("chia thêm 4 nữa", "divide"),
    ] {
        assert_eq!(
            turn(q, "10 + 2", &["12"]),
            [format!(r#"s1 math/{op} a="12" b="4" *"#)],
            "{q}"
        );
    }
}

#[test]
fn another_weekday_of_a_week_replaces_the_weekday() {
    for q in [
        "còn thứ 6 tuần sau?",
        "con thu 6 tuan sau",
        "and friday next week?",
    ] {
        let steps = turn(q, "thứ 6 tuần này là ngày mấy", &["2026-11-27"]);
        assert_eq!(
            steps,
            [
                r#"s1 date/find_weekday direction="last" weekday="Sunday""#,
                r#"s2 date/add_duration amount=12 date=$s1 unit="days" *"#
            ],
            "{q}"
        );
    }
}

#[test]
fn a_question_about_the_birth_date_asked_before_takes_that_date() {
    for q in [
        "what day of the week was she born?",
        "and which weekday was he born on",
    ] {
        assert_eq!(
            turn(q, "how old is someone born 14 July 1985", &["41"]),
            [r#"s1 date/weekday date="1985-07-14" *"#],
            "{q}"
        );
    }
}

#[test]
fn a_count_of_days_is_asked_again_in_weeks() {
    for q in [
        "how many weeks is that?",
        "and in weeks?",
        "vậy là bao nhiêu tuần",
        "vay la may tuan",
    ] {
        assert_eq!(
            turn(q, "how many days until 2027-03-01", &["98"]),
            [r#"s1 math/divide a="98" b="7" *"#],
            "{q}"
        );
    }
    // Not a count of days: no weeks of it.
    let steps = steps_of("how many weeks is that?", "what is 7 times 14", &["98"]);
    assert!(!steps.iter().any(|s| s.contains(r#"b="7""#)), "{steps:?}");
}

#[test]
fn the_same_list_is_asked_another_question_by_its_head() {
    assert_eq!(
        turn("and the smallest?", "sum of 4, 9, 2", &["15"]),
        [r#"s1 math/min a="4" b="9""#, r#"s2 math/min a=$s1 b="2" *"#]
    );
    let vi = turn("còn số nhỏ nhất?", "tổng của 4, 9 và 2", &["15"]);
    assert_eq!(
        vi.last().map(String::as_str),
        Some(r#"s2 math/min a=$s1 b="2" *"#)
    );
    let mean = turn("now include 7 too", "mean of 3, 5, 10", &["6"]);
    assert_eq!(
        mean.last().map(String::as_str),
        Some(r#"s4 math/divide a=$s3 b="4" *"#)
    );
}

#[test]
fn a_new_count_after_a_split_replaces_the_count_never_divides_the_share() {
    for q in [
        "nếu có 7 người thì mỗi người bao nhiêu",
        "neu co 7 nguoi thi moi nguoi bao nhieu",
        "còn 7 người thì sao?",
    ] {
        let steps = steps_of(q, "chia 1.400.000 đồng cho 5 người", &["280000"]);
        assert!(
            !steps.iter().any(|s| s.contains("280000")),
            "{q}: {steps:?}"
        );
        assert_eq!(steps, [r#"s1 math/divide a="1400000" b="7" *"#], "{q}");
    }
    // Never the share divided again, in English either.
    for q in ["and between 7 of us instead?", "ok and for 7 people"] {
        let steps = steps_of(q, "split $350 five ways", &["70"]);
        assert!(
            !steps.iter().any(|s| s.contains(r#"a="70""#)),
            "{q}: {steps:?}"
        );
    }
}

#[test]
fn a_percentage_first_goes_before_the_last_questions_step() {
    for q in [
        "and if we add a 20% tip first?",
        "what if we add a 20% tip first",
    ] {
        let steps = turn(q, "the bill was $250, split between 5", &["50"]);
        assert_eq!(steps.len(), 3, "{q}: {steps:?}");
        assert!(
            steps[0].contains(r#"of="250" percent="20""#),
            "{q}: {steps:?}"
        );
        assert!(steps[2].contains(r#"b="5""#), "{q}: {steps:?}");
        assert!(
            !steps.iter().any(|s| s.contains(r#""50""#)),
            "{q}: {steps:?}"
        );
    }
}

#[test]
fn the_total_with_a_percentage_is_the_amount_with_it_not_the_part_raised() {
    for q in [
        "so whats the total with the 18% tip",
        "and the total with a 18% tip?",
    ] {
        let steps = turn(q, "12% tip on 150", &["18"]);
        assert!(
            steps[0].contains(r#"of="150" percent="18""#),
            "{q}: {steps:?}"
        );
        assert!(
            !steps.iter().any(|s| s.contains(r#"of="18""#)),
            "{q}: {steps:?}"
        );
    }
}

#[test]
fn more_time_goes_on_from_the_last_date_answer_never_from_today() {
    for q in [
        "thêm 2 tuần nữa thì là ngày nào",
        "them 2 tuan nua thi la ngay nao",
        "and 2 more weeks?",
        "what about another 2 weeks",
    ] {
        let steps = turn(q, "30 ngày nữa là ngày nào", &["2027-03-10"]);
        assert_eq!(
            steps,
            [r#"s1 date/add_duration amount=2 date="2027-03-10" unit="weeks" *"#],
            "{q}"
        );
    }
}

#[test]
fn more_added_to_a_total_is_never_answered_as_the_added_part_alone() {
    let question = "mua 2 cai ao moi cai 90 nghin het bao nhieu";
    for q in [
        "them 4 cai ly 50 nghin 1 cai nua thi tong bn",
        "thêm 4 cái ly 50 nghìn một cái nữa thì tổng bao nhiêu",
    ] {
        assert_eq!(
            turn(q, question, &["180000"]),
            [
                r#"s1 math/multiply a="4" b="50000""#,
                r#"s2 math/sum a="180000" b=$s1 *"#
            ],
            "{q}"
        );
    }
    // Answered with the last total or not at all: never the added part alone.
    let steps = steps_of(
        "add 4 more hats at 50 each, whats the total",
        question,
        &["180000"],
    );
    assert!(
        steps.is_empty() || steps.iter().any(|s| s.contains(r#"a="180000""#)),
        "{steps:?}"
    );
}

#[test]
fn a_reference_to_the_day_takes_the_last_date_answer() {
    for q in [
        "hôm đó là thứ mấy",
        "hom do la thu may",
        "hôm ấy là thứ mấy?",
    ] {
        assert_eq!(
            turn(q, "45 ngày nữa là ngày nào", &["2027-01-07"]),
            [r#"s1 date/weekday date="2027-01-07" *"#],
            "{q}"
        );
    }
}

#[test]
fn it_after_a_count_of_days_is_the_date_counted_to() {
    let question = "how many days until my exam on march 3 2027";
    assert_eq!(
        turn("what weekday is it", question, &["100"]),
        [r#"s1 date/weekday date="2027-03-03" *"#]
    );
    for q in [
        "if i push it back 3 days whats the new date",
        "what if we postpone it by 3 days",
    ] {
        assert_eq!(
            turn(q, question, &["100"]),
            [r#"s1 date/add_duration amount=3 date="2027-03-03" unit="days" *"#],
            "{q}"
        );
    }
    // A count of the days stays a number to compute with.
    assert_eq!(
        turn("how many weeks is that", question, &["100"]),
        [r#"s1 math/divide a="100" b="7" *"#]
    );
}

#[test]
fn a_day_and_month_after_ngay_replaces_the_date() {
    for q in ["Còn ngày 1/5 thì sao?", "con ngay 1/5 thi sao"] {
        let steps = turn(q, "Ngày 20/12/2026 là thứ mấy?", &["Sunday"]);
        assert_eq!(steps, [r#"s1 date/weekday date="2026-05-01" *"#], "{q}");
        assert!(
            !steps.iter().any(|s| s.contains("divide")),
            "{q}: {steps:?}"
        );
    }
}

#[test]
fn the_two_results_added_or_multiplied() {
    let conversation = Conversation {
        session: true,
        answers: vec!["120".into(), "75".into()],
    };
    for (q, op) in [
        ("cộng hai kết quả đó lại giúp mình", "sum"),
        ("cong hai ket qua do lai", "sum"),
        ("add the two results together", "sum"),
        ("nhân hai kết quả đó với nhau", "multiply"),
        ("multiply the two answers", "multiply"),
    ] {
        let outcome = plan_turn(
            q,
            &TaskContext::default(),
            &Capabilities::default_tools(),
            &conversation,
            &["what is 15 times 5".to_owned()],
        );
        let PlanOutcome::Planned { plan, .. } = outcome else {
            panic!("{q}: {outcome:?}");
        };
        let steps: Vec<String> = plan.steps.iter().map(line).collect();
        assert_eq!(steps, [format!(r#"s1 math/{op} a="120" b="75" *"#)], "{q}");
    }
    assert_eq!(
        recall::two_answers("cộng hai kết quả đó rồi chia 3", &conversation),
        None
    );
}

#[test]
fn going_on_with_tiep_and_a_percentage_added_to_it() {
    assert_eq!(
        turn("chia tiếp cho 4", "2 mũ 6 bằng bao nhiêu", &["64"]),
        [r#"s1 math/divide a="64" b="4" *"#]
    );
    assert_eq!(
        turn("chia tiep cho 4", "2 mu 6 bang bao nhieu", &["64"]),
        [r#"s1 math/divide a="64" b="4" *"#]
    );
    let steps = turn("now add 20% to it", "divide 600 by 5", &["120"]);
    assert!(steps[0].contains(r#"of="120" percent="20""#), "{steps:?}");
}

#[test]
fn an_item_added_to_the_list_asks_the_lists_question_again() {
    let question = "average of 4, 8 and 9";
    for q in [
        "add 3 to the list, whats the new average",
        "add 3 to the list",
        "and if we add a 3?",
    ] {
        let steps = turn(q, question, &["7"]);
        assert!(
            steps.last().unwrap().contains(r#"b="4" *"#),
            "{q}: {steps:?}"
        );
        assert!(
            steps.iter().any(|s| s.contains(r#"b="3""#)),
            "{q}: {steps:?}"
        );
    }
    // Another head is another question: never the average answered for it.
    let steps = steps_of("add 3 to the list, whats the new max", question, &["7"]);
    assert!(!steps.iter().any(|s| s.contains("divide")), "{steps:?}");
}

#[test]
fn a_day_and_month_keeps_the_year_of_the_date_it_replaces() {
    for q in [
        "Còn ngày 1/5 thì sao?",
        "con ngay 1/5 thi sao",
        "thế còn 1/5?",
    ] {
        assert_eq!(
            turn(q, "Ngày 20/12/2027 là thứ mấy?", &["Monday"]),
            [r#"s1 date/weekday date="2027-05-01" *"#],
            "{q}"
        );
    }
    // 29/2 in a year without it: no year kept, never a wrong day.
    let steps = steps_of(
        "còn 29/2 thì sao",
        "ngày 20/12/2027 là thứ mấy",
        &["Monday"],
    );
    assert!(
        !steps
            .iter()
            .any(|s| s.contains("2027-02-29") || s.contains("2027-03-01")),
        "{steps:?}"
    );
}

#[test]
fn the_days_between_the_dates_of_the_last_two_questions() {
    let conversation = Conversation {
        session: true,
        answers: vec!["36".into(), "33".into()],
    };
    let questions = [
        "how old is someone born on 1990-03-01".to_owned(),
        "how old is someone born on 1993-06-15".to_owned(),
    ];
    for q in [
        "how many days between the two birth dates",
        "and how many days apart are the two dates?",
        "hai ngày sinh cách nhau bao nhiêu ngày",
        "hai ngay sinh cach nhau bao nhieu ngay",
    ] {
        let outcome = plan_turn(
            q,
            &TaskContext::default(),
            &Capabilities::default_tools(),
            &conversation,
            &questions,
        );
        let PlanOutcome::Planned { plan, .. } = outcome else {
            panic!("{q}: {outcome:?}");
        };
        let steps: Vec<String> = plan.steps.iter().map(line).collect();
        assert_eq!(
            steps,
            [r#"s1 date/difference from="1990-03-01" to="1993-06-15" *"#],
            "{q}"
        );
    }
    // In weeks: not the days.
    assert_eq!(
        recall::between_question_dates("how many weeks between the two dates", &questions),
        None
    );
}

#[test]
fn a_whole_request_of_the_same_kind_after_what_about() {
    let question = "if it's 9am in london what time is it in sydney";
    for q in [
        "what about 6pm london time in sydney",
        "and 6pm london time in sydney?",
    ] {
        let steps = turn(q, question, &["20:00"]);
        assert_eq!(
            steps,
            [r#"s1 date/convert_time from="london" time="18:00" to="sydney" *"#],
            "{q}"
        );
    }
    // Another kind after the lead is not read alone: `còn 30/4?` is no division.
    let steps = steps_of(
        "còn 30/4?",
        "còn bao nhiêu ngày nữa đến 25/12/2027",
        &["762"],
    );
    assert!(!steps.iter().any(|s| s.contains("divide")), "{steps:?}");
}

#[test]
fn a_number_put_into_the_list_extends_it() {
    for q in [
        "thêm số 5 vào thì sao",
        "them so 5 vao thi sao",
        "thêm 5 vào nữa",
    ] {
        let steps = turn(q, "trung bình cộng của 2, 3 và 4", &["3"]);
        assert!(
            steps.last().unwrap().contains(r#"b="4" *"#),
            "{q}: {steps:?}"
        );
        assert!(
            steps.iter().any(|s| s.contains(r#"b="5""#)),
            "{q}: {steps:?}"
        );
    }
}

#[test]
fn numbers_added_to_the_last_list_extend_it() {
    let mean = "trung bình của 6 7 8 9 là bao nhiêu";
    for q in [
        "thêm số 10 vào thì sao",
        "them so 10 vao thi sao",
        "còn nếu thêm 10 nữa",
    ] {
        let steps = turn(q, mean, &["7.5"]);
        assert!(
            steps.iter().any(|s| s.contains(r#"b="10""#)),
            "{q}: {steps:?}"
        );
        assert!(steps.last().unwrap().contains(r#"b="5""#), "{q}: {steps:?}");
    }
    let steps = turn("what if i add 12", "average of 4, 8, 9", &["7"]);
    assert!(steps.last().unwrap().contains(r#"b="4""#), "{steps:?}");
}

#[test]
fn another_named_day_asks_the_same_of_it() {
    assert_eq!(
        turn("and new year?", "how many days until christmas", &["32"]),
        vec![
            "s1 date/next_date day=1 month=1",
            "s2 date/days_until date=$s1 *"
        ]
    );
    assert_eq!(
        turn(
            "còn giáng sinh?",
            "còn mấy ngày nữa là tết dương lịch",
            &["39"]
        ),
        vec![
            "s1 date/next_date day=25 month=12",
            "s2 date/days_until date=$s1 *"
        ]
    );
}

#[test]
fn an_amount_split_into_a_count_is_shared() {
    assert_eq!(
        turn(
            "split that into 3 monthly payments",
            "now add 8% tax to that",
            &["728.19"]
        ),
        vec![r#"s1 math/divide a="728.19" b="3" *"#]
    );
}

#[test]
fn both_answers_are_the_last_two() {
    let steps = turn("sum of both", "now 25% of 2400000", &["360000", "600000"]);
    assert_eq!(steps, vec![r#"s1 math/sum a="360000" b="600000" *"#]);
}

#[test]
fn another_divisor_replaces_the_divisor_or_divides_the_answer() {
    // After a division the divisor is replaced; after anything else the answer is
    // divided.
    for q in [
        "còn nếu chia cho 6 thì sao",
        "thế chia 6 thì sao",
        "con neu chia cho 6 thi sao",
    ] {
        assert_eq!(
            turn(q, "2 triệu 4 chia 3 bằng bao nhiêu", &["800000"]),
            vec![r#"s1 math/divide a="2400000" b="6" *"#],
            "{q}"
        );
    }
    assert_eq!(
        turn(
            "còn nếu chia cho 5 thì sao",
            "tổng 250k, 310k và 140k",
            &["700000"]
        ),
        vec![r#"s1 math/divide a="700000" b="5" *"#]
    );
}

#[test]
fn rounding_to_places_without_to_rounds_the_answer() {
    // `làm tròn 2 số thập phân` once rounded the number 2.
    for q in [
        "làm tròn 2 số thập phân",
        "lam tron 2 so thap phan",
        "round 2 decimal places",
    ] {
        assert_eq!(
            turn(q, "chia 3 thì sao", &["333.3333333333333333333333333"]),
            vec![r#"s1 math/round places="2" x="333.3333333333333333333333333" *"#],
            "{q}"
        );
    }
}

#[test]
fn splitting_it_again_replaces_the_count_never_splits_the_share() {
    // `split it 4 ways instead` after a split of 240 between 6: 240 ÷ 4, never 40 ÷ 4.
    let question = "lunch came to 240, split 6 ways";
    assert_eq!(
        turn("split it 4 ways instead", question, &["40"]),
        vec![r#"s1 math/divide a="240" b="4" *"#]
    );
    // People who left, and "it": no amount of its own — never 2 ÷ 4.
    let steps = steps_of(
        "actually 2 left early, split it 4 ways instead",
        question,
        &["40"],
    );
    assert!(!steps.iter().any(|s| s.contains(r#"a="2""#)), "{steps:?}");
}

/// The language `query` is answered in after `question`.
fn language_of(query: &str, question: &str, answers: &[&str]) -> chorus_bus::Language {
    match outcome(query, question, answers) {
        PlanOutcome::Planned { language, .. } | PlanOutcome::Unplannable { language, .. } => {
            language
        }
        PlanOutcome::Question { language, .. } => language,
        other => panic!("{query:?}: {other:?}"),
    }
}

#[test]
fn a_follow_up_with_no_language_of_its_own_keeps_the_conversations() {
    // (Session 30, of the class conversations 6 found; phrasings of our own.)
    assert_eq!(language_of("48 / 6", "tinh giup 12 nhan 4", &["48"]), "vi");
    assert_eq!(language_of("48 / 6", "what is 12 times 4", &["48"]), "en");
    // A follow-up in English stays English.
    assert_eq!(
        language_of("and divide that by 6", "tinh giup 12 nhan 4", &["48"]),
        "en"
    );
    // Words of both languages, or a name, keep the conversation's.
    assert_eq!(
        language_of("con noel", "tet duong lich con bao nhieu ngay", &["39"]),
        "vi"
    );
}

#[test]
fn a_reference_after_a_count_to_a_day_and_month_is_that_day() {
    assert_eq!(
        turn(
            "and what weekday is that",
            "the recital is on march 9, how many days to go",
            &["106"]
        ),
        [
            "s1 date/next_date day=9 month=3",
            "s2 date/weekday date=$s1 *"
        ]
    );
    // A question of its own with a reference reads before an ellipsis of the last one.
    assert_eq!(
        turn(
            "and how many days from that to 2027-03-01",
            "what weekday is 2027-02-10",
            &["Wednesday"]
        ),
        [r#"s1 date/difference from="2027-02-10" to="2027-03-01" *"#]
    );
    assert_eq!(
        turn(
            "what weekday is that one",
            "what's 2 weeks after 2027-01-04",
            &["2027-01-18"]
        ),
        [r#"s1 date/weekday date="2027-01-18" *"#]
    );
}

#[test]
fn the_last_answer_shared_or_totalled_for_a_purpose() {
    for (q, by) in [
        ("ok and split it between me and my brother", "2"),
        ("chia đều cho 6 tháng thì mỗi tháng bao nhiêu", "6"),
        ("chia tra gop 3 ky thi moi ky bao nhieu", "3"),
    ] {
        assert_eq!(
            turn(q, "48 x 25", &["1200"]),
            [format!(r#"s1 math/divide a="1200" b="{by}" *"#)],
            "{q}"
        );
    }
    assert_eq!(
        turn("and times 4 for the month?", "18.5 x 3", &["55.5"]),
        [r#"s1 math/multiply a="55.5" b="4" *"#]
    );
}

#[test]
fn a_count_in_the_same_unit_or_a_new_price_replaces_it() {
    assert_eq!(
        turn(
            "còn nếu mua 7 thùng thì sao",
            "mua 3 thùng bia giá 320000 một thùng hết bao nhiêu",
            &["960000"]
        ),
        [r#"s1 math/multiply a="7" b="320000" *"#]
    );
    assert_eq!(
        turn(
            "nếu giá tăng lên 21000 thì sao",
            "gạo giá 18000 một ký, mua 25 ký hết bao nhiêu",
            &["450000"]
        ),
        [r#"s1 math/multiply a="25" b="21000" *"#]
    );
    // The same percentage of another base, and another percentage of the same base.
    assert_eq!(
        turn("now 30% of the same", "what's 12% of 450", &["54"]),
        [r#"s1 math/percent of="450" percent="30" *"#]
    );
}

#[test]
fn the_difference_of_the_last_two_answers() {
    let conversation = Conversation {
        session: true,
        answers: vec!["450000".into(), "525000".into()],
    };
    for q in ["chenh lech bao nhieu", "what's the difference"] {
        assert_eq!(
            recall::two_answers(q, &conversation).as_deref(),
            Some(if q.starts_with('c') {
                "525000 trừ 450000"
            } else {
                "525000 - 450000"
            }),
            "{q}"
        );
    }
}

#[test]
fn session_30_replacements_a_count_for_a_divisor_a_day_a_time_a_place_a_labelled_unit() {
    // A count of sharers in place of a written divisor, and a divisor in place of one.
    assert_eq!(
        turn("and for 6 people?", "312.5 / 4", &["78.125"]),
        [r#"s1 math/divide a="312.5" b="6" *"#]
    );
    assert_eq!(
        turn(
            "chia 5 thì bao nhiêu",
            "chia 1500000 cho 3 nhà",
            &["500000"]
        ),
        [r#"s1 math/divide a="1500000" b="5" *"#]
    );
    // The same unit, named anew (`the kitchen`), or a pronoun before it.
    assert_eq!(
        turn(
            "and the hallway, 6 m2?",
            "bedroom is 12 m2 and paint is 8 a m2, how much",
            &["96"]
        ),
        [r#"s1 math/multiply a="6" b="8" *"#]
    );
    assert_eq!(
        turn(
            "what if she's 30 kg",
            "child is 20 kg, dose is 5 mg/kg, how many mg",
            &["100"]
        ),
        [r#"s1 math/multiply a="30" b="5" *"#]
    );
    // Another day and month, a time, a place after `bên`.
    assert_eq!(
        turn(
            "and the dentist one on feb 3?",
            "how many days till my eye appointment on jan 20",
            &["58"]
        )[0],
        "s1 date/next_date day=3 month=2"
    );
    assert_eq!(
        turn(
            "con 8h toi",
            "7h sang o Ha Noi la may gio o Tokyo",
            &["09:00"]
        ),
        [r#"s1 date/convert_time from="Hà Nội" time="20:00" to="Tokyo" *"#]
    );
    assert_eq!(
        turn(
            "còn bên Seoul?",
            "Bây giờ bên Paris mấy giờ rồi?",
            &["10:00"]
        ),
        [r#"s1 date/time_in place="Seoul" *"#]
    );
}

#[test]
fn a_name_before_a_number_in_the_same_unit_never_hides_a_change_of_question() {
    // `8 weeks before today` after `8 weeks from today` is another question, never the
    // same one with its number replaced by itself.
    let steps = steps_of(
        "and 8 weeks before today?",
        "what's the date 8 weeks from today",
        &["2027-01-18"],
    );
    assert!(
        !steps.iter().any(|s| s.contains("add_duration")),
        "{steps:?}"
    );
}

#[test]
fn a_change_per_the_period_a_rate_was_given_in_goes_on_from_that_amount() {
    // (Session 30: had raised the year's total by the percentage.)
    assert_eq!(
        turn(
            "nếu mỗi tháng tăng 20% thì mỗi tháng bao nhiêu",
            "lương 8 triệu một tháng, một năm bao nhiêu",
            &["96000000"]
        ),
        [
            r#"s1 math/percent of="8000000" percent="20""#,
            r#"s2 math/sum a="8000000" b=$s1 *"#
        ]
    );
    // A tax added without marks (`cong`) is added, never the tax alone.
    assert_eq!(
        turn("roi cong thue 10%", "12 x 50000", &["600000"]),
        [
            r#"s1 math/percent of="600000" percent="10""#,
            r#"s2 math/sum a="600000" b=$s1 *"#
        ]
    );
    // A weight with a percentage off is no price: not read alone.
    assert!(steps_of("mua 3 ký thì sao, vẫn giảm 10%", "2 + 2", &["4"]).is_empty());
}

#[test]
fn there_is_the_place_the_last_question_asked_about() {
    assert_eq!(
        turn(
            "9am there is what time in paris",
            "what time is it in chicago",
            &["03:00"]
        ),
        [r#"s1 date/convert_time from="chicago" time="09:00" to="paris" *"#]
    );
    assert_eq!(
        turn(
            "8 giờ tối bên đó là mấy giờ ở Hà Nội",
            "bây giờ ở Seoul mấy giờ",
            &["18:00"]
        ),
        [r#"s1 date/convert_time from="Seoul" time="20:00" to="Hà Nội" *"#]
    );
}

#[test]
fn another_term_or_more_days_replace_the_term_or_the_days() {
    assert_eq!(
        turn(
            "còn gửi 9 tháng thì sao",
            "gửi 100000000, lãi 6%/năm, một năm được bao nhiêu tiền lãi",
            &["6000000"]
        )
        .last()
        .unwrap(),
        r#"s3 math/divide a=$s2 b="12" *"#
    );
    let steps = turn(
        "còn nếu làm thêm 2 ngày nữa thì sao",
        "3 người làm 10 ngày, mỗi người 200000/ngày, tổng bao nhiêu",
        &["6000000"],
    );
    assert!(steps[0].contains(r#"b="12""#), "{steps:?}");
}

#[test]
fn an_amount_a_month_asked_for_a_year() {
    assert_eq!(
        turn(
            "vậy 1 năm được bao nhiêu",
            "lương tháng 10 triệu, trừ 10% bảo hiểm còn bao nhiêu",
            &["9000000"]
        ),
        [r#"s1 math/multiply a="9000000" b="12" *"#]
    );
    // A count of days is no amount a year.
    let steps = steps_of(
        "how many days in a year",
        "rent is 900 a month after tax, how much",
        &["900"],
    );
    assert!(!steps.iter().any(|s| s.contains(r#"b="12""#)), "{steps:?}");
}

#[test]
fn a_rate_for_one_period_taken_for_a_count_of_periods() {
    let times = |n: &str| vec![format!(r#"s1 math/multiply a="18" b="{n}" *"#)];
    for (q, n) in [
        ("and for 12 hrs?", "12"),
        ("i worked 9 hours on sunday so total?", "9"),
        ("còn 3 tháng thì bao nhiêu", "3"),
    ] {
        assert_eq!(
            turn(
                q,
                "wage is 12/hr, overtime is 1.5x, my overtime hourly?",
                &["18"]
            ),
            times(n),
            "{q}"
        );
    }
    // The answer was already for many periods: never taken again.
    let steps = steps_of(
        "what if it is 2 months",
        "rent is 1500 a month, for the year?",
        &["18000"],
    );
    assert!(
        !steps.iter().any(|s| s.contains(r#"a="18000" b="2""#)),
        "{steps:?}"
    );
}

#[test]
fn the_weekday_of_the_date_just_answered() {
    let weekday = vec![r#"s1 date/weekday date="2027-01-15" *"#.to_owned()];
    for q in [
        "thứ mấy?",
        "Còn thứ mấy vậy con",
        "thu may",
        "vay ngay do thu may",
    ] {
        assert_eq!(
            turn(q, "50 ngày nữa là ngày nào", &["2027-01-15"]),
            weekday,
            "{q}"
        );
    }
    // After a number, `thứ mấy` alone has no date to be about.
    assert!(
        !steps_of("thu may", "5 + 3", &["8"])
            .iter()
            .any(|s| s.contains("2027"))
    );
}

#[test]
fn more_sold_leaves_less() {
    let steps = turn(
        "Mai bán thêm 10 chai nữa thì còn?",
        "kho co 6 thung, moi thung 24 chai, ban 50 chai, con bao nhieu",
        &["94"],
    );
    assert_eq!(
        steps,
        vec![r#"s1 math/subtract a="94" b="10" *"#.to_owned()]
    );
}

#[test]
fn what_is_left_of_a_whole_once_a_share_is_taken() {
    for q in ["còn lại bao nhiêu", "so whats left", "con lai bn"] {
        let steps = turn(q, "hop dong 200tr, dat coc 25%", &["50000000"]);
        assert_eq!(
            steps,
            vec![r#"s1 math/subtract a="200000000" b="50000000" *"#.to_owned()],
            "{q}"
        );
    }
    // Split as well: not the rest alone.
    let steps = steps_of(
        "and the rest split between my 2 brothers",
        "hop dong 200tr, dat coc 25%",
        &["50000000"],
    );
    assert_ne!(
        steps,
        vec![r#"s1 math/subtract a="200000000" b="50000000" *"#.to_owned()]
    );
}

#[test]
fn the_change_from_a_note_after_a_price() {
    let steps = turn(
        "she paid with 500k, change?",
        "2kg of prawns at 180k",
        &["360000"],
    );
    assert_eq!(
        steps,
        vec![r#"s1 math/subtract a="500000" b="360000" *"#.to_owned()]
    );
}

#[test]
fn a_levy_named_and_taken_off_outright() {
    let steps = turn(
        "minus the 5% tax they keep",
        "40 hours at 25 an hour",
        &["1000"],
    );
    assert_eq!(
        steps.last().map(String::as_str),
        Some(r#"s2 math/subtract a="1000" b=$s1 *"#)
    );
}

#[test]
fn the_weekday_of_a_date_the_last_request_said() {
    let steps = turn(
        "thu may",
        "sinh nhat me ngay 14/3/2027 con bao nhieu ngay",
        &["111"],
    );
    assert_eq!(
        steps,
        vec![r#"s1 date/weekday date="2027-03-14" *"#.to_owned()]
    );
}

#[test]
fn another_count_of_periods_beside_a_rate_for_one() {
    let steps = turn(
        "con 10 thang thi sao",
        "1 thang tra gop 1tr5, 24 thang tong bao nhieu",
        &["36000000"],
    );
    assert_eq!(
        steps,
        vec![r#"s1 math/multiply a="1500000" b="10" *"#.to_owned()]
    );
}
