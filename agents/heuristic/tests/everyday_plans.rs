//! Everyday problems, lists and laid-out compound requests as plans (issue 28, classes
//! 3–6): each form in both languages, as people write them once the normalisation stage
//! has made the text canonical (`$84.60` → `84.60`, `375k` → `375000`).

mod common;
use common::steps;

#[test]
fn a_bill_split_among_people_divides_by_the_count() {
    for q in [
        "split 84.60 between 3 people",
        "84.60 split 3 ways",
        "dinner came to 84.60 for 3 of us, how much does each person pay",
        "the bill was 84.60 for 3 friends. how much each?",
        "chia đều 84.60 cho 3 người",
        "ăn hết 84.60, 3 người chia đều thì mỗi người bao nhiêu",
    ] {
        assert_eq!(steps(q), vec![r#"s1 math/divide a="84.6" b="3" *"#], "{q}");
    }
}

#[test]
fn tips_discounts_and_raises_take_a_percentage_of_the_amount() {
    assert_eq!(
        steps("how much is a 15% tip on 48.60"),
        vec![r#"s1 math/percent of="48.6" percent="15" *"#]
    );
    let changed = |tool: &str| {
        vec![
            r#"s1 math/percent of="80" percent="25""#.to_owned(),
            format!(r#"s2 math/{tool} a="80" b=$s1 *"#),
        ]
    };
    assert_eq!(
        steps("jacket is 80 with 25% off, what's the sale price"),
        changed("subtract")
    );
    assert_eq!(
        steps("áo giá 80 giảm 25% còn bao nhiêu"),
        changed("subtract")
    );
    assert_eq!(steps("increase 80 by 25%"), changed("sum"));
    assert_eq!(
        steps("my rent is 80/month and it's going up 25%. whats the new rent"),
        changed("sum")
    );
    assert_eq!(
        steps("lương 80 tăng 25% thì được bao nhiêu"),
        changed("sum")
    );
    assert_eq!(steps("80 plus a 25% tip"), changed("sum"));
}

#[test]
fn a_tip_then_a_split_is_one_sum_in_several_sentences() {
    assert_eq!(
        steps("total bill 90 + 20% tip, split between 3 friends. how much each?"),
        vec![
            r#"s1 math/percent of="90" percent="20""#,
            r#"s2 math/sum a="90" b=$s1"#,
            r#"s3 math/divide a=$s2 b="3" *"#,
        ]
    );
}

#[test]
fn what_percent_one_amount_is_of_another() {
    let want = vec![
        r#"s1 math/multiply a="45" b="100""#,
        r#"s2 math/divide a=$s1 b="180" *"#,
    ];
    assert_eq!(steps("45 is what percent of 180"), want);
    assert_eq!(steps("what percent of 180 is 45"), want);
    assert_eq!(steps("45 là bao nhiêu phần trăm của 180"), want);
}

#[test]
fn dozens_pairs_prices_and_rates() {
    assert_eq!(
        steps("how many eggs in 7 dozen"),
        vec![r#"s1 math/multiply a="7" b="12" *"#]
    );
    assert_eq!(
        steps("3 dozen donuts at 1.25 each, total?"),
        vec![
            r#"s1 math/multiply a="3" b="12""#,
            r#"s2 math/multiply a=$s1 b="1.25" *"#,
        ]
    );
    assert_eq!(
        steps("mua 3 chục trứng, mỗi quả 3500 đồng thì hết bao nhiêu tiền"),
        vec![
            r#"s1 math/multiply a="3" b="10""#,
            r#"s2 math/multiply a=$s1 b="3500" *"#,
        ]
    );
    assert_eq!(
        steps("drove 342 miles on 9 gallons - how many miles per gallon?"),
        vec![r#"s1 math/divide a="342" b="9" *"#]
    );
}

#[test]
fn units_that_only_decorate_numbers_are_read_past() {
    assert_eq!(
        steps("add up 19.99, 5.49 and 12 dollars"),
        vec![
            r#"s1 math/sum a="19.99" b="5.49""#,
            r#"s2 math/sum a=$s1 b="12" *"#,
        ]
    );
}

#[test]
fn cube_and_nth_roots_use_the_root_tool() {
    for (q, x, n) in [
        ("cube root of 343", "343", "3"),
        ("what is the cube root of 343?", "343", "3"),
        ("the fourth root of 81", "81", "4"),
        ("5th root of 32", "32", "5"),
        ("căn bậc ba của 216", "216", "3"),
        ("căn bậc 4 của 81", "81", "4"),
        ("∛27", "27", "3"),
    ] {
        assert_eq!(
            steps(q),
            vec![format!(r#"s1 math/root n="{n}" x="{x}" *"#)],
            "{q}"
        );
    }
    // Degree two stays the square root.
    assert_eq!(
        steps("căn bậc hai của 196"),
        vec![r#"s1 math/sqrt x="196" *"#]
    );
}

#[test]
fn lists_in_any_punctuation() {
    let max = |a: &str, b: &str, c: &str| {
        vec![
            format!(r#"s1 math/max a="{a}" b="{b}""#),
            format!(r#"s2 math/max a=$s1 b="{c}" *"#),
        ]
    };
    assert_eq!(steps("largest: 4.5; -2; 3.75"), max("4.5", "-2", "3.75"));
    assert_eq!(
        steps("số lớn nhất trong 17; 23; 9 là số nào"),
        max("17", "23", "9")
    );
    assert_eq!(steps("the largest of 4, 9 & 2"), max("4", "9", "2"));
    assert_eq!(
        steps("which is smallest -4, -11, 0 or 2.5")
            .last()
            .map(String::as_str),
        Some(r#"s3 math/min a=$s2 b="2.5" *"#)
    );
    assert_eq!(
        steps("tổng của 1,5; 2,25 và 4"),
        vec![
            r#"s1 math/sum a="1.5" b="2.25""#,
            r#"s2 math/sum a=$s1 b="4" *"#,
        ]
    );
    // A semicolon after a list closed by `and` ends it.
    assert_eq!(steps("the largest of 4, 9 and 2; 7*8").len(), 3);
}

#[test]
fn parts_laid_out_with_numbers_letters_and_dashes() {
    assert_eq!(
        steps("1) 45*3 2) 200/8 3) sqrt 81"),
        vec![
            r#"s1 math/multiply a="45" b="3" *"#,
            r#"s2 math/divide a="200" b="8" *"#,
            r#"s3 math/sqrt x="81" *"#,
        ]
    );
    assert_eq!(
        steps("a) 15% of 80  b) 12 squared"),
        vec![
            r#"s1 math/percent of="80" percent="15" *"#,
            r#"s2 math/power base="12" exponent="2" *"#,
        ]
    );
    assert_eq!(
        steps("add 350 and 275 - also what day of the week is 2027-01-01"),
        vec![
            r#"s1 math/sum a="350" b="275" *"#,
            r#"s2 date/weekday date="2027-01-01" *"#,
        ]
    );
    // Numbered with dots, Vietnamese division with a colon.
    assert_eq!(
        steps("lam giup 1. 64:8  2. 9 x 6  3. 50 - 12"),
        vec![
            r#"s1 math/divide a="64" b="8" *"#,
            r#"s2 math/multiply a="9" b="6" *"#,
            r#"s3 math/subtract a="50" b="12" *"#,
        ]
    );
    assert_eq!(
        steps("1. 12 + 30 2. what weekday is 2027-05-01"),
        vec![
            r#"s1 math/sum a="12" b="30" *"#,
            r#"s2 date/weekday date="2027-05-01" *"#,
        ]
    );
    // A lead-in before a colon only announces the parts; an instruction is no lead-in.
    assert_eq!(
        steps("quick q: 81 split 3 ways"),
        vec![r#"s1 math/divide a="81" b="3" *"#]
    );
    assert_eq!(steps("largest: 4; 9; 2").len(), 2);
    // A decimal or a sentence's end is no marker.
    assert_eq!(steps("1.5 + 2. 3*4").len(), 2);
    // Parentheses still group.
    assert_eq!(steps("(2+4)*3").len(), 2);
}

#[test]
fn a_later_part_may_ask_about_the_date_an_earlier_part_wrote() {
    assert_eq!(
        steps("ngày 2 tháng 9 năm 2027 là thứ mấy, và còn bao nhiêu ngày nữa thì tới ngày đó"),
        vec![
            r#"s1 date/weekday date="2027-09-02" *"#,
            r#"s2 date/days_until date="2027-09-02" *"#,
        ]
    );
    assert_eq!(
        steps("how old is someone born 1985-07-14, and what day of the week were they born on"),
        vec![
            r#"s1 date/age born="1985-07-14" *"#,
            r#"s2 date/weekday date="1985-07-14" *"#,
        ]
    );
}

#[test]
fn ages_and_times_said_as_statements() {
    for q in [
        "I was born on 12 June 1994, how old am I",
        "born June 12th, 1994 - how old am I?",
        "tôi sinh ngày 12/6/1994, năm nay tôi bao nhiêu tuổi",
        "sinh ngày 12 tháng 6 năm 1994 thì năm nay bao nhiêu tuổi",
    ] {
        assert_eq!(steps(q), vec![r#"s1 date/age born="1994-06-12" *"#], "{q}");
    }
    for q in [
        "if it's 3pm in London what time is it in Sydney",
        "if it's 3pm in London, what time is it in Sydney?",
        "when it is 3 pm in London what's the time in Sydney",
    ] {
        assert_eq!(
            steps(q),
            vec![r#"s1 date/convert_time from="London" time="15:00" to="Sydney" *"#],
            "{q}"
        );
    }
    assert_eq!(
        steps("what day of the week is july 4 2027"),
        vec![r#"s1 date/weekday date="2027-07-04" *"#]
    );
}

#[test]
fn a_vietnamese_division_verb_takes_its_operands_in_order() {
    assert_eq!(
        steps("chia 1000000 cho 4"),
        vec![r#"s1 math/divide a="1000000" b="4" *"#]
    );
}

#[test]
fn a_years_interest_is_read_however_the_year_is_said() {
    for q in [
        "if i put $5,000 in savings at 4.5% a year, how much interest do i earn after one year",
        "how much interest on $5,000 at 4.5% for one year",
    ] {
        assert_eq!(
            steps(q),
            vec![r#"s1 math/percent of="5000" percent="4.5" *"#],
            "{q}"
        );
    }
    for q in [
        "gửi tiết kiệm 100 triệu lãi suất 6% một năm, sau 1 năm được bao nhiêu tiền lãi",
        "gui tiet kiem 100 trieu lai suat 6% mot nam, sau 1 nam duoc bao nhieu tien lai",
    ] {
        assert_eq!(
            steps(q),
            vec![r#"s1 math/percent of="100000000" percent="6" *"#],
            "{q}"
        );
    }
}

#[test]
fn two_amounts_compared_ask_their_difference_or_its_percentage() {
    assert_eq!(
        steps(
            "ba hoi chau: tien dien thang nay 856.000d thang truoc 740.000d thi tang bao nhieu tien"
        ),
        vec![r#"s1 math/subtract a="856000" b="740000" *"#]
    );
    assert_eq!(
        steps("electric bill was $120 last month and $150 this month, how much more"),
        vec![r#"s1 math/subtract a="150" b="120" *"#]
    );
    assert_eq!(
        steps("Lương tháng trước 12 triệu, tháng này 13,5 triệu, tăng bao nhiêu phần trăm?").len(),
        3
    );
}

#[test]
fn splitting_with_others_counts_the_one_asking_too() {
    for q in [
        "my rent is 1,450 and i split it with 2 roommates, whats my share",
        "chia 1.450 với 2 bạn mỗi người bao nhiêu",
    ] {
        assert_eq!(steps(q), vec![r#"s1 math/divide a="1450" b="3" *"#], "{q}");
    }
    // Between three: three.
    assert_eq!(
        steps("split 90 between 3 friends"),
        vec![r#"s1 math/divide a="90" b="3" *"#]
    );
}

#[test]
fn a_list_of_amounts_after_a_vietnamese_head_is_one_list() {
    // (Phrasings of our own, of the classes batch 6 found.)
    let min = steps("giá rẻ nhất: 45k, 38k, 52k, 41k");
    assert!(min.iter().all(|s| s.contains("math/min")), "{min:?}");
    assert_eq!(min.len(), 3, "{min:?}");
    let max = steps("doanh thu cao nhat la bao nhieu: 12tr, 15,5tr, 9,8tr");
    assert!(max.iter().all(|s| s.contains("math/max")), "{max:?}");
    // A scale after the last of bare numbers is their unit: never millions mixed
    // with units.
    let mean = steps("trung bình 120, 135, 142 triệu");
    assert!(mean.iter().any(|s| s.contains(r#"b="142""#)), "{mean:?}");
}

#[test]
fn decimal_commas_around_an_operator_typed_without_marks() {
    assert_eq!(
        steps("3,75 cong 2,5 bang may"),
        vec![r#"s1 math/sum a="3.75" b="2.5" *"#]
    );
}

#[test]
fn a_levy_asked_by_name_and_the_total_are_two_answers() {
    // (Session 30, phrasings of our own.)
    assert_eq!(
        common::steps("quote is 2,000 plus 10% VAT. what's the VAT and the total"),
        vec![
            r#"s1 math/percent of="2000" percent="10" *"#,
            r#"s2 math/sum a="2000" b=$s1 *"#
        ]
    );
    // The total alone when only the total is asked.
    assert_eq!(
        common::steps("2,000 plus 10% VAT, total?"),
        vec![
            r#"s1 math/percent of="2000" percent="10""#,
            r#"s2 math/sum a="2000" b=$s1 *"#
        ]
    );
}

#[test]
fn groups_of_people_priced_each_and_a_total_asked_in_a_word() {
    // (Session 30, phrasings of our own.)
    let s =
        common::steps("Tickets for us: 3 adults at 20 each and 2 kids at 12 each. Total please");
    assert_eq!(s.len(), 3, "{s:?}");
    assert_eq!(s[2], r#"s3 math/sum a=$s1 b=$s2 *"#, "{s:?}");
    assert!(
        s[0].contains(r#"a="3" b="20""#) && !s[0].ends_with('*'),
        "{s:?}"
    );
    // People priced each are a quantity; people sharing still share.
    assert_eq!(
        common::steps("4 kids at 7.50 each"),
        vec![r#"s1 math/multiply a="4" b="7.5" *"#]
    );
    assert_eq!(
        common::steps("split 60 between 4 kids"),
        vec![r#"s1 math/divide a="60" b="4" *"#]
    );
}

#[test]
fn items_priced_in_parts_and_the_total_asked_at_the_end() {
    let s = common::steps("táo 30k/kg mua 3 ký, cam 2 túi mỗi túi 15k, tổng cộng bao nhiêu?");
    assert_eq!(s.last().unwrap(), r#"s3 math/sum a=$s1 b=$s2 *"#, "{s:?}");
    assert!(!s[0].ends_with('*') && !s[1].ends_with('*'), "{s:?}");
}

#[test]
fn session_31_work_time_coverage_weights_deposits_and_rounding_sentences() {
    // (Session 31, phrasings of our own.)
    assert_eq!(
        steps("my shift runs from 10pm to 6:30am, how many hours"),
        vec![r#"s1 math/subtract a="30.5" b="22" *"#]
    );
    assert_eq!(
        steps("paid 18.40 an hour, overtime is time and a half, 5 hours of overtime, how much"),
        vec![
            r#"s1 math/multiply a="18.4" b="1.5""#,
            r#"s2 math/multiply a="5" b=$s1 *"#,
        ]
    );
    assert_eq!(
        steps("one tin of paint covers 12 m2, the room is 50 m2, how many tins"),
        vec![
            r#"s1 math/divide a="50" b="12""#,
            r#"s2 math/round mode="up" places="0" x=$s1 *"#,
        ]
    );
    assert_eq!(
        steps("sườn 180k một ký, lấy 5 lạng hết bao nhiêu"),
        vec![r#"s1 math/multiply a="0.5" b="180000" *"#]
    );
    assert_eq!(
        steps("rent is 3,100 and the deposit is 2 months rent, how much is the deposit"),
        vec![r#"s1 math/multiply a="2" b="3100" *"#]
    );
    assert_eq!(
        steps("apt 3 owes 2 months at 950/mo and paid 400, how much does she still owe"),
        vec![
            r#"s1 math/multiply a="2" b="950""#,
            r#"s2 math/subtract a=$s1 b="400" *"#,
        ]
    );
    // A commission kept back is taken off, like a discount.
    let s = steps("the app takes 15% commission on 600000, how much do I keep");
    assert_eq!(
        s.last().unwrap(),
        r#"s2 math/subtract a="600000" b=$s1 *"#,
        "{s:?}"
    );
    assert_eq!(
        steps("what is 100 divided by 7? 2 decimals is fine"),
        vec![
            r#"s1 math/divide a="100" b="7""#,
            r#"s2 math/round places="2" x=$s1 *"#,
        ]
    );
}

#[test]
fn session_31_halves_counts_as_percentages_proportions_and_stated_rates() {
    // (Session 31, phrasings of our own.)
    assert_eq!(
        steps("nho 60k một ký, lấy 2 ký rưỡi"),
        vec![r#"s1 math/multiply a="2.5" b="60000" *"#]
    );
    assert_eq!(
        steps("the team has 40 people and 30 came, what percent came"),
        vec![
            r#"s1 math/multiply a="30" b="100""#,
            r#"s2 math/divide a=$s1 b="40" *"#,
        ]
    );
    assert_eq!(
        steps("the van does 8 litres per 100 km, the trip is 350 km, how many litres"),
        vec![
            r#"s1 math/multiply a="8" b="350""#,
            r#"s2 math/divide a=$s1 b="100" *"#,
        ]
    );
    assert_eq!(
        steps("change 200 usd to vnd, rate is 25,100"),
        vec![r#"s1 math/multiply a="200" b="25100" *"#]
    );
    assert_eq!(
        steps("tiền học 9 triệu chia 3 đợt, mỗi đợt bao nhiêu"),
        vec![r#"s1 math/divide a="9000000" b="3" *"#]
    );
}

#[test]
fn session_31_saving_lots_occupancy_and_factors() {
    // (Session 31, phrasings of our own.)
    assert_eq!(
        steps("the bike is 30 triệu and I put away 2 triệu a month, how many months"),
        vec![
            r#"s1 math/divide a="30000000" b="2000000""#,
            r#"s2 math/round mode="up" places="0" x=$s1 *"#,
        ]
    );
    let s = steps("got 50 shares at 12.5 then 150 shares at 10.5, average price?");
    assert_eq!(
        s.last().unwrap(),
        r#"s5 math/divide a=$s3 b=$s4 *"#,
        "{s:?}"
    );
    assert_eq!(
        steps("12 out of 16 rooms are taken, occupancy?"),
        vec![
            r#"s1 math/multiply a="12" b="100""#,
            r#"s2 math/divide a=$s1 b="16" *"#,
        ]
    );
    assert_eq!(
        steps("20 miles in km, 1 mile = 1.609 km"),
        vec![r#"s1 math/multiply a="20" b="1.609" *"#]
    );
}

#[test]
fn session_31_lists_labelled_by_weekday_and_millions_among_money() {
    // (Session 31, phrasings of our own.)
    let s = steps("tips this week: mon 35, tue 42.5, wed off, thu 28. average?");
    assert_eq!(
        s.last().unwrap(),
        r#"s3 math/divide a=$s2 b="3" *"#,
        "{s:?}"
    );
    let s = steps("takings: fri 2.4m, sat 3.1m, sun 950k, total?");
    assert_eq!(
        s.last().unwrap(),
        r#"s2 math/sum a=$s1 b="950000" *"#,
        "{s:?}"
    );
    assert!(s[0].contains(r#"a="2400000" b="3100000""#), "{s:?}");
}

#[test]
fn session_31_context_before_a_question_is_left_aside() {
    // (Session 31, phrasings of our own.)
    assert_eq!(
        steps("chị Lan ở Tokyo giờ này mấy giờ rồi"),
        vec![r#"s1 date/time_in place="Tokyo" *"#]
    );
    // A trade's word before arithmetic only says what was done.
    assert_eq!(
        steps("dịch 30 trang 120k/trang bn"),
        vec![r#"s1 math/multiply a="30" b="120000" *"#]
    );
    // A question outside every tool is never answered by what is left of it.
    assert!(matches!(
        chorus_heuristic::plan(
            "giá vàng hôm nay bao nhiêu",
            &chorus_bus::TaskContext::default(),
            &chorus_heuristic::Capabilities::default_tools()
        ),
        chorus_heuristic::PlanOutcome::Unplannable { .. }
    ));
    assert!(matches!(
        chorus_heuristic::plan(
            "will it snow tomorrow?",
            &chorus_bus::TaskContext::default(),
            &chorus_heuristic::Capabilities::default_tools()
        ),
        chorus_heuristic::PlanOutcome::Unplannable { .. }
    ));
}

#[test]
fn session_31_totals_of_lots_and_of_averages() {
    // (Session 31, phrasings of our own.)
    assert_eq!(
        steps("bán 12 ký nho giá 90k, được bao nhiêu tiền"),
        vec![r#"s1 math/multiply a="12" b="90000" *"#]
    );
    assert_eq!(
        steps("served 40 tables averaging 350k each, total?"),
        vec![r#"s1 math/multiply a="40" b="350000" *"#]
    );
    let s = steps("ran 3, 4.5 and 6 km this week, how many km total");
    assert_eq!(s.last().unwrap(), r#"s2 math/sum a=$s1 b="6" *"#, "{s:?}");
}

#[test]
fn session_31_levies_alone_withheld_shares_and_instalments_over_periods() {
    // (Session 31, phrasings of our own.)
    assert_eq!(
        steps("paid 2,000 and super is 11% on top, how much super is that"),
        vec![r#"s1 math/percent of="2000" percent="11" *"#]
    );
    assert_eq!(
        steps("15% of 3,000 gets withheld, how much is that"),
        vec![r#"s1 math/percent of="3000" percent="15" *"#]
    );
    assert_eq!(
        steps("mỗi tháng góp 2tr, 10 tháng thì tổng bao nhiêu"),
        vec![r#"s1 math/multiply a="2000000" b="10" *"#]
    );
}

#[test]
fn session_31_what_is_left_once_a_share_is_paid() {
    // (Session 31, phrasings of our own.)
    assert_eq!(
        steps("they want 25% upfront on 80,000, how much is still owed after that"),
        vec![
            r#"s1 math/percent of="80000" percent="25""#,
            r#"s2 math/subtract a="80000" b=$s1 *"#,
        ]
    );
    assert_eq!(
        steps("20% của 500k là bao nhiêu, còn lại bao nhiêu"),
        vec![
            r#"s1 math/percent of="500000" percent="20" *"#,
            r#"s2 math/subtract a="500000" b=$s1 *"#,
        ]
    );
}

#[test]
fn a_last_part_that_adds_up_the_parts_before() {
    let got = steps("1) 12 hộp x 150000 2) 5 hộp x 300000 3) cộng lại");
    assert_eq!(
        got.last().map(String::as_str),
        Some(r#"s3 math/sum a=$s1 b=$s2 *"#),
        "{got:?}"
    );
    let got = steps("1. 1000 x 6  2. 1000 x 7.5  3. add both");
    assert_eq!(got.len(), 3, "{got:?}");
    // A last part that does more than add them up is not their sum.
    let got = steps("1. 1000 x 6  2. 1000 x 7.5  3. add both and halve it");
    assert_ne!(
        got.last().map(String::as_str),
        Some(r#"s3 math/sum a=$s1 b=$s2 *"#)
    );
}
