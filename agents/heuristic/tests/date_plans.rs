//! Date questions in English and Vietnamese, each asserted as the exact plan.

mod common;
use common::steps;

#[test]
fn today_in_both_languages() {
    assert_eq!(steps("what's today's date"), vec!["s1 date/today *"]);
    assert_eq!(steps("What is the date today?"), vec!["s1 date/today *"]);
    assert_eq!(steps("hôm nay là ngày mấy"), vec!["s1 date/today *"]);
}

#[test]
fn the_weekday_of_today_chains_today_into_weekday() {
    // (The weekday answers; today's date is a step.)
    assert_eq!(
        steps("hôm nay là thứ mấy"),
        vec!["s1 date/today", "s2 date/weekday date=$s1 *"]
    );
    assert_eq!(
        steps("what day of the week is it today"),
        vec!["s1 date/today", "s2 date/weekday date=$s1 *"]
    );
}

#[test]
fn what_day_in_n_days_adds_then_asks_the_weekday() {
    let expected = vec![
        r#"s1 date/add_duration amount=10 unit="days" *"#,
        "s2 date/weekday date=$s1 *",
    ];
    assert_eq!(steps("what day is it in 10 days"), expected);
    assert_eq!(steps("10 ngày nữa là ngày gì"), expected);
    assert_eq!(steps("what day will it be in ten days?"), expected);
}

#[test]
fn in_n_units_is_add_duration_only() {
    assert_eq!(
        steps("in 3 weeks"),
        vec![r#"s1 date/add_duration amount=3 unit="weeks" *"#]
    );
    assert_eq!(
        steps("what's the date in 2 months"),
        vec![r#"s1 date/add_duration amount=2 unit="months" *"#]
    );
    assert_eq!(
        steps("5 năm nữa"),
        vec![r#"s1 date/add_duration amount=5 unit="years" *"#]
    );
    assert_eq!(
        steps("sau 3 tuần"),
        vec![r#"s1 date/add_duration amount=3 unit="weeks" *"#]
    );
    assert_eq!(
        steps("in 90 minutes"),
        vec![r#"s1 date/add_duration amount=90 unit="minutes" *"#]
    );
    assert_eq!(
        steps("a week from now"),
        vec![r#"s1 date/add_duration amount=1 unit="weeks" *"#]
    );
}

#[test]
fn ago_is_subtract_duration() {
    assert_eq!(
        steps("5 days ago"),
        vec![r#"s1 date/subtract_duration amount=5 unit="days" *"#]
    );
    assert_eq!(
        steps("cách đây 2 tháng"),
        vec![r#"s1 date/subtract_duration amount=2 unit="months" *"#]
    );
    assert_eq!(
        steps("3 ngày trước"),
        vec![r#"s1 date/subtract_duration amount=3 unit="days" *"#]
    );
}

#[test]
fn a_duration_from_a_given_date_passes_the_date() {
    assert_eq!(
        steps("10 days after 2026-01-01"),
        vec![r#"s1 date/add_duration amount=10 date="2026-01-01" unit="days" *"#]
    );
    assert_eq!(
        steps("2 weeks before 25/12/2026"),
        vec![r#"s1 date/subtract_duration amount=2 date="2026-12-25" unit="weeks" *"#]
    );
}

#[test]
fn tomorrow_and_yesterday_shift_by_one_day() {
    assert_eq!(
        steps("tomorrow's date"),
        vec![r#"s1 date/add_duration amount=1 unit="days" *"#]
    );
    assert_eq!(
        steps("ngày mai là thứ mấy"),
        vec![
            r#"s1 date/add_duration amount=1 unit="days" *"#,
            "s2 date/weekday date=$s1 *"
        ]
    );
    assert_eq!(
        steps("what was the date yesterday"),
        vec![r#"s1 date/subtract_duration amount=1 unit="days" *"#]
    );
}

#[test]
fn days_between_two_dates_is_difference() {
    assert_eq!(
        steps("days between 2026-01-01 and 2026-03-01"),
        vec![r#"s1 date/difference from="2026-01-01" to="2026-03-01" *"#]
    );
    assert_eq!(
        steps("how many days from 1/1/2026 to 31/3/2026?"),
        vec![r#"s1 date/difference from="2026-01-01" to="2026-03-31" *"#]
    );
    assert_eq!(
        steps("số ngày giữa 2026-01-01 và 2026-03-01"),
        vec![r#"s1 date/difference from="2026-01-01" to="2026-03-01" *"#]
    );
}

#[test]
fn weekday_of_a_date_in_every_form() {
    let expected = vec![r#"s1 date/weekday date="2026-12-25" *"#];
    assert_eq!(steps("weekday of 2026-12-25"), expected);
    assert_eq!(steps("2026-12-25 là thứ mấy"), expected);
    assert_eq!(steps("what day of the week is 25/12/2026"), expected);
    assert_eq!(steps("ngày 25/12/2026 là thứ mấy?"), expected);
    assert_eq!(steps("what day is 2026-12-25"), expected);
}

#[test]
fn days_until_a_date() {
    let expected = vec![r#"s1 date/days_until date="2026-12-25" *"#];
    assert_eq!(steps("how many days until 2026-12-25"), expected);
    assert_eq!(steps("còn bao nhiêu ngày đến 25/12/2026"), expected);
    assert_eq!(steps("days left till 25/12/2026?"), expected);
    assert_eq!(steps("days between today and 2026-12-25"), expected);
}

#[test]
fn now_is_the_time_here() {
    // (A clock time, `16:00`, as the time in a place is: not the instant with its offset.)
    let expected = vec![r#"s1 date/time_in place="here" *"#];
    assert_eq!(steps("what time is it"), expected);
    assert_eq!(steps("bây giờ là mấy giờ"), expected);
}

#[test]
fn the_vietnamese_written_date_form_is_a_date() {
    assert_eq!(
        steps("ngày 25 tháng 12 năm 2026 là thứ mấy"),
        vec![r#"s1 date/weekday date="2026-12-25" *"#]
    );
}

#[test]
fn counting_in_weeks_is_days_over_seven_and_in_months_is_not_answered_in_days() {
    // (Session 31: weeks are days ÷ 7; months, of varying length, are still refused.)
    assert_eq!(
        steps("how many weeks until 2026-12-25"),
        vec![
            r#"s1 date/days_until date="2026-12-25""#,
            r#"s2 math/divide a=$s1 b="7" *"#,
        ]
    );
    assert_eq!(
        steps("how many weeks between September 7, 2026 and January 11, 2027"),
        vec![
            r#"s1 date/difference from="2026-09-07" to="2027-01-11""#,
            r#"s2 math/divide a=$s1 b="7" *"#,
        ]
    );
    assert!(common::refusal("còn bao nhiêu tháng đến 25/12/2026").starts_with("Tôi không hiểu"));
}

#[test]
fn dot_dates_are_day_first_too() {
    assert_eq!(
        steps("25.12.2026 là thứ mấy"),
        vec![r#"s1 date/weekday date="2026-12-25" *"#]
    );
}

#[test]
fn named_days_become_dates_with_next_date() {
    for (q, want) in [
        (
            "what weekday is christmas",
            vec![
                r#"s1 date/next_date day=25 month=12 *"#,
                r#"s2 date/weekday date=$s1 *"#,
            ],
        ),
        (
            "how many days until christmas",
            vec![
                r#"s1 date/next_date day=25 month=12"#,
                r#"s2 date/days_until date=$s1 *"#,
            ],
        ),
        (
            "how many sleeps until halloween",
            vec![
                r#"s1 date/next_date day=31 month=10"#,
                r#"s2 date/days_until date=$s1 *"#,
            ],
        ),
        (
            "when is new year's day",
            vec![r#"s1 date/next_date day=1 month=1 *"#],
        ),
        (
            "what day is halloween",
            vec![
                r#"s1 date/next_date day=31 month=10 *"#,
                r#"s2 date/weekday date=$s1 *"#,
            ],
        ),
        (
            "valentine's day is on what weekday",
            vec![
                r#"s1 date/next_date day=14 month=2 *"#,
                r#"s2 date/weekday date=$s1 *"#,
            ],
        ),
        (
            "Giáng sinh là thứ mấy",
            vec![
                r#"s1 date/next_date day=25 month=12 *"#,
                r#"s2 date/weekday date=$s1 *"#,
            ],
        ),
        (
            // "ngày nào" asks which date; "thứ mấy" the weekday.
            "tết dương lịch là ngày nào",
            vec![r#"s1 date/next_date day=1 month=1 *"#],
        ),
        (
            "tết dương lịch là thứ mấy",
            vec![
                r#"s1 date/next_date day=1 month=1 *"#,
                r#"s2 date/weekday date=$s1 *"#,
            ],
        ),
        (
            "còn bao nhiêu ngày nữa đến noel",
            vec![
                // (The count answers; the date found is a step.)
                r#"s1 date/next_date day=25 month=12"#,
                r#"s2 date/days_until date=$s1 *"#,
            ],
        ),
    ] {
        assert_eq!(steps(q), want, "{q}");
    }
}

#[test]
fn two_days_either_way() {
    assert_eq!(
        steps("the day after tomorrow"),
        vec![r#"s1 date/add_duration amount=2 unit="days" *"#]
    );
    assert_eq!(
        steps("ngày kia là thứ mấy"),
        vec![
            r#"s1 date/add_duration amount=2 unit="days" *"#,
            r#"s2 date/weekday date=$s1 *"#
        ]
    );
    assert_eq!(
        steps("what was the date the day before yesterday"),
        vec![r#"s1 date/subtract_duration amount=2 unit="days" *"#]
    );
    assert_eq!(
        steps("hôm kia"),
        vec![r#"s1 date/subtract_duration amount=2 unit="days" *"#]
    );
}

#[test]
fn day_of_year_and_iso_week_of_a_date_or_today() {
    // "day of the year" used to be read as the weekday.
    assert_eq!(
        steps("what day of the year is 2026-12-25"),
        vec![r#"s1 date/day_of_year date="2026-12-25" *"#]
    );
    assert_eq!(
        steps("hôm nay là ngày thứ mấy trong năm"),
        vec![r#"s1 date/day_of_year *"#]
    );
    assert_eq!(
        steps("iso week number of 2026-12-25"),
        vec![r#"s1 date/iso_week date="2026-12-25" *"#]
    );
    assert_eq!(
        steps("what week of the year is it"),
        vec![r#"s1 date/iso_week *"#]
    );
    assert_eq!(
        steps("25/12/2026 thuộc tuần thứ mấy"),
        vec![r#"s1 date/iso_week date="2026-12-25" *"#]
    );
    assert_eq!(
        steps("what day of the year is christmas"),
        vec![
            r#"s1 date/next_date day=25 month=12 *"#,
            r#"s2 date/day_of_year date=$s1 *"#
        ]
    );
}

#[test]
fn next_and_last_weekdays_with_find_weekday() {
    let next_friday = vec![r#"s1 date/find_weekday direction="next" weekday="Friday" *"#];
    assert_eq!(steps("when is next friday"), next_friday);
    assert_eq!(steps("what's the date this coming Friday?"), next_friday);
    assert_eq!(steps("thứ sáu tới là ngày nào"), next_friday);
    // `thứ 6 tuần sau` is Friday of next week, never the coming Friday of this week:
    // twelve days after the last Sunday (weeks start on Monday).
    let of_week = |tool: &str, days: u32| {
        vec![
            r#"s1 date/find_weekday direction="last" weekday="Sunday""#.to_owned(),
            format!(r#"s2 date/{tool} amount={days} date=$s1 unit="days" *"#),
        ]
    };
    for q in [
        "thứ 6 tuần sau là ngày mấy",
        "thu 6 tuan sau la ngay may",
        "thứ sáu tuần tới là ngày nào",
        "what's the date friday next week",
    ] {
        assert_eq!(steps(q), of_week("add_duration", 12), "{q}");
    }
    for q in [
        "thứ 6 tuần này là ngày mấy",
        "thu 6 tuan nay la ngay may",
        "friday this week",
    ] {
        assert_eq!(steps(q), of_week("add_duration", 5), "{q}");
    }
    assert_eq!(steps("thứ hai tuần trước"), of_week("subtract_duration", 6));
    assert_eq!(
        steps("what was the date last monday"),
        vec![r#"s1 date/find_weekday direction="last" weekday="Monday" *"#]
    );
    assert_eq!(
        steps("chủ nhật tuần trước là ngày bao nhiêu"),
        vec![r#"s1 date/find_weekday direction="last" weekday="Sunday" *"#]
    );
    assert_eq!(
        steps("how many days until friday"),
        vec![
            r#"s1 date/find_weekday direction="next" weekday="Friday""#,
            r#"s2 date/days_until date=$s1 *"#
        ]
    );
    // "friday" alone reads two ways (the coming one or the last one): asked about, in
    // tests/questions.rs.
}

#[test]
fn the_end_of_the_month_and_an_age() {
    assert_eq!(
        steps("when is the end of the month"),
        vec![r#"s1 date/end_of_month *"#]
    );
    assert_eq!(
        steps("how many days until the end of this month"),
        vec![
            // (The days left answer; the month's last day is a step.)
            r#"s1 date/end_of_month"#,
            r#"s2 date/days_until date=$s1 *"#
        ]
    );
    assert_eq!(
        steps("ngày cuối tháng này là thứ mấy"),
        vec![r#"s1 date/end_of_month *"#, r#"s2 date/weekday date=$s1 *"#]
    );
    let age = vec![r#"s1 date/age born="1990-05-15" *"#];
    assert_eq!(steps("how old is someone born on 1990-05-15"), age);
    assert_eq!(steps("how old am I if I was born on 15/05/1990?"), age);
    assert_eq!(steps("người sinh ngày 15/05/1990 bao nhiêu tuổi"), age);
    assert!(common::refusal("how old is the universe").contains("could not understand"));
}

#[test]
fn the_time_at_places() {
    assert_eq!(
        steps("what time is it in Tokyo"),
        vec![r#"s1 date/time_in place="Tokyo" *"#]
    );
    assert_eq!(
        steps("mấy giờ rồi ở New York"),
        vec![r#"s1 date/time_in place="New York" *"#]
    );
    assert_eq!(
        steps("convert 09:00 Hanoi time to London time"),
        vec![r#"s1 date/convert_time from="Hanoi" time="09:00" to="London" *"#]
    );
    // Two parts: a place time and arithmetic.
    assert_eq!(steps("what time is it in Tokyo and what is 2+4").len(), 2);
}

#[test]
fn days_since_a_past_date_count_up_to_today() {
    let since = |q: &str| common::steps(q);
    for q in [
        "how many days since 2026-03-01",
        "how long ago was 1 March 2026",
        "từ 1/3/2026 đến nay là bao nhiêu ngày",
        "tu 1/3/2026 den nay bao nhieu ngay",
        "days between 2026-03-01 and today",
    ] {
        assert_eq!(
            since(q),
            vec![
                "s1 date/today".to_owned(),
                r#"s2 date/difference from="2026-03-01" to=$s1 *"#.to_owned(),
            ],
            "{q}"
        );
    }
}

#[test]
fn from_now_until_a_date_and_now_as_bay_h() {
    assert_eq!(
        common::steps("tu nay den 1/6/2027 con bao nhieu ngay"),
        vec![r#"s1 date/days_until date="2027-06-01" *"#]
    );
    let steps = common::steps("toi sinh 2/2/2002 thi bay h bao nhieu tuoi");
    assert_eq!(steps, vec![r#"s1 date/age born="2002-02-02" *"#]);
}

#[test]
fn a_named_day_with_its_year_is_that_years_date() {
    let in_2027 = vec![
        "s1 date/next_date day=25 month=12 year=2027 *",
        "s2 date/weekday date=$s1 *",
    ];
    assert_eq!(steps("what day does christmas 2027 fall on"), in_2027);
    assert_eq!(steps("giáng sinh năm 2027 là thứ mấy"), in_2027);
    let next_year = vec![
        "s1 date/next_date day=25 month=12 year_offset=1 *",
        "s2 date/weekday date=$s1 *",
    ];
    // Next year's, never the coming one (which is this year's until it passes).
    assert_eq!(steps("giang sinh nam sau la thu may"), next_year);
    assert_eq!(steps("next year's christmas is what day"), next_year);
    assert_eq!(steps("christmas next year weekday"), next_year);
    assert_eq!(
        steps("what weekday is new year's day 2028"),
        vec![
            "s1 date/next_date day=1 month=1 year=2028 *",
            "s2 date/weekday date=$s1 *"
        ]
    );
    // A holiday and its date restated are one day.
    assert_eq!(
        steps("ngay nha giao 20/11 nam sau la thu may"),
        vec![
            "s1 date/next_date day=20 month=11 year_offset=1 *",
            "s2 date/weekday date=$s1 *"
        ]
    );
}

#[test]
fn a_day_and_month_with_a_slash_is_a_date_only_where_a_date_is_asked() {
    assert_eq!(
        steps("20/11 là thứ mấy"),
        vec![
            // (The user wrote the date: the weekday is the answer, the date a step.)
            "s1 date/next_date day=20 month=11",
            "s2 date/weekday date=$s1 *"
        ]
    );
    // Day first in Vietnamese; a number above 12 shows the order in English.
    assert_eq!(
        steps("3/4 là thứ mấy")[0],
        "s1 date/next_date day=3 month=4"
    );
    assert_eq!(
        steps("12/25 is what day")[0],
        "s1 date/next_date day=25 month=12"
    );
    // Otherwise a division.
    assert_eq!(
        steps("what is 20/11"),
        vec![r#"s1 math/divide a="20" b="11" *"#]
    );
}

#[test]
fn days_left_in_a_month_or_the_year_count_to_its_last_day() {
    // (The days left answer; the last day is a step.)
    let to_month_end = vec!["s1 date/end_of_month", "s2 date/days_until date=$s1 *"];
    assert_eq!(steps("how many days are left in this month"), to_month_end);
    assert_eq!(steps("còn bao nhiêu ngày nữa là hết tháng"), to_month_end);
    let to_november_end = vec![
        "s1 date/next_date day=30 month=11",
        "s2 date/days_until date=$s1 *",
    ];
    assert_eq!(steps("how many days left in november"), to_november_end);
    assert_eq!(steps("con may ngay nua het thang 11"), to_november_end);
    let to_year_end = vec![
        "s1 date/next_date day=31 month=12",
        "s2 date/days_until date=$s1 *",
    ];
    assert_eq!(steps("how many days left in the year"), to_year_end);
    assert_eq!(steps("còn mấy ngày nữa là hết năm"), to_year_end);
    assert_eq!(
        steps("how many days until the end of december"),
        to_year_end
    );
    // February's last day depends on the year: not read as a fixed day.
    assert!(matches!(
        chorus_heuristic::plan(
            "days left in february",
            &Default::default(),
            &chorus_heuristic::Capabilities::default_tools()
        ),
        chorus_heuristic::PlanOutcome::Question { .. }
            | chorus_heuristic::PlanOutcome::Unplannable { .. }
    ));
}

#[test]
fn the_week_may_be_said_before_its_weekday() {
    let next_friday = steps("thứ 6 tuần sau là ngày bao nhiêu");
    for q in [
        "tuần sau thứ 6 là ngày bao nhiêu",
        "tuan sau thu 6 la ngay bao nhieu",
        "next week friday what date",
    ] {
        assert_eq!(steps(q), next_friday, "{q}");
    }
}

#[test]
fn days_since_a_named_day_count_from_its_last_one() {
    assert_eq!(
        steps("how many days since christmas"),
        vec![
            r#"s1 date/next_date day=25 direction="last" month=12"#,
            "s2 date/today",
            "s3 date/difference from=$s1 to=$s2 *",
        ]
    );
    // Never the next one (a date to come, and no count).
    assert_eq!(
        steps("how many days since jan 1")[0],
        r#"s1 date/next_date day=1 direction="last" month=1"#
    );
}

#[test]
fn the_days_until_a_date_stated_among_other_words() {
    // (Phrasings of our own, of the class batches 6 and 7 found.)
    // (The user wrote the date: the count is the answer, the date a step.)
    let until_dec_28 = vec![
        "s1 date/next_date day=28 month=12",
        "s2 date/days_until date=$s1 *",
    ];
    for q in [
        "ngày 28/12 họp lớp ở quê, còn mấy ngày nữa",
        "sinh nhat ban gai 28/12, con bao nhieu ngay",
    ] {
        assert_eq!(steps(q), until_dec_28, "{q}");
    }
    // A month by its name is the user's date too (a day the calendar names, as
    // christmas or the 4th of july, lists the date found first).
    assert_eq!(
        steps("my sister's wedding is on december 28, how many days left"),
        vec![
            "s1 date/next_date day=28 month=12",
            "s2 date/days_until date=$s1 *"
        ]
    );
    assert_eq!(
        steps("we move house on 2027-01-09, how many days from now is that"),
        vec![r#"s1 date/days_until date="2027-01-09" *"#]
    );
    // Another question of the date, or another number: not this reading.
    assert!(
        !steps("my exam is on december 28, what weekday is it")
            .iter()
            .any(|s| s.contains("days_until"))
    );
}

#[test]
fn a_date_among_other_words_answers_since_or_an_age() {
    // (Phrasings of our own, of the classes batches 6 and 7 found: session 30.)
    for q in [
        "how many days since we moved into the new flat on march 3rd",
        "how many days since march 3 (moving day)",
    ] {
        assert_eq!(
            steps(q),
            vec![
                r#"s1 date/next_date day=3 direction="last" month=3"#,
                "s2 date/today",
                "s3 date/difference from=$s1 to=$s2 *"
            ],
            "{q}"
        );
    }
    for (q, born) in [
        (
            "ông ngoại sinh ngày 5/5/1950, năm nay ông mấy tuổi",
            "1950-05-05",
        ),
        (
            "chau toi sinh ngay 2/9/2015, gio chau bao nhieu tuoi",
            "2015-09-02",
        ),
        (
            "my nephew was born 11/23/2015 lol how old is the little guy",
            "2015-11-23",
        ),
    ] {
        assert_eq!(
            steps(q),
            vec![format!(r#"s1 date/age born="{born}" *"#)],
            "{q}"
        );
    }
}

#[test]
fn the_weekday_of_a_date_counted_to_is_asked_with_it() {
    assert_eq!(
        steps("how many days until march 3 and what day of the week is that"),
        vec![
            "s1 date/next_date day=3 month=3",
            "s2 date/days_until date=$s1 *",
            "s3 date/weekday date=$s1 *"
        ]
    );
    assert_eq!(
        steps("days until 2027-05-01 and what weekday is it"),
        vec![
            r#"s1 date/days_until date="2027-05-01" *"#,
            r#"s2 date/weekday date="2027-05-01" *"#
        ]
    );
}

#[test]
fn session_30_times_stated_before_and_birthdays_from_a_birth_date() {
    // (Phrasings of our own, of the classes batches 8 and 9 found.)
    assert_eq!(
        steps("trận đấu bắt đầu 20h ở Bangkok, ở Paris là mấy giờ"),
        vec![r#"s1 date/convert_time from="Bangkok" time="20:00" to="Paris" *"#]
    );
    assert_eq!(
        steps("my sister in sydney wants a call at 7pm her time, what time is that in london"),
        vec![r#"s1 date/convert_time from="sydney" time="19:00" to="london" *"#]
    );
    // A time stated and not understood never lets the time now answer the question.
    let message =
        common::refusal("the dentist in oslo said something about 9am, what time is it in rome");
    assert!(message.contains("understand"), "{message}");
    // The days until the next birthday, never until the birth date.
    assert_eq!(
        steps("em sinh 2/10/2010, còn mấy ngày nữa là sinh nhật em"),
        vec![
            "s1 date/next_date day=2 month=10",
            "s2 date/days_until date=$s1 *"
        ]
    );
}

#[test]
fn whole_years_since_a_date_and_asides_in_brackets() {
    // (Session 30, of the classes batches 8 and 9 found; phrasings of our own.)
    assert_eq!(
        steps("bố mẹ cưới nhau ngày 3/5/1990, đến nay bao nhiêu năm rồi"),
        vec![r#"s1 date/age born="1990-05-03" *"#]
    );
    assert_eq!(
        steps("how many years have we lived here if we moved in on 2015-08-01"),
        vec![r#"s1 date/age born="2015-08-01" *"#]
    );
    assert_eq!(
        steps("square root of 200 (for my homework, pls)"),
        vec![r#"s1 math/sqrt x="200" *"#]
    );
    assert_eq!(
        steps("hôm nay ngày mấy, thứ mấy"),
        vec!["s1 date/today *", "s2 date/weekday date=$s1 *"]
    );
}

#[test]
fn a_time_with_its_place_said_before_it_a_date_before_at_and_here() {
    // (Session 30, phrasings of our own.)
    assert_eq!(
        steps("the shop in paris opens at 9am, what time is that for my aunt in chicago"),
        vec![r#"s1 date/convert_time from="paris" time="09:00" to="chicago" *"#]
    );
    assert_eq!(
        steps("the match is on sunday dec 6 at 18:00 madrid time, what time is that in lima"),
        vec![r#"s1 date/convert_time from="madrid" time="18:00" to="lima" *"#]
    );
    assert_eq!(
        steps("7:15pm here in Hanoi is what time in Berlin?"),
        vec![r#"s1 date/convert_time from="Hanoi" time="19:15" to="Berlin" *"#]
    );
}

#[test]
fn a_shift_from_a_day_found_and_a_day_and_month_in_the_other_dates_year() {
    // (Session 30, phrasings of our own.)
    assert_eq!(
        steps("30 days after march 3 is what date, and what weekday"),
        vec![
            "s1 date/next_date day=3 month=3",
            r#"s2 date/add_duration amount=30 date=$s1 unit="days" *"#,
            "s3 date/weekday date=$s2 *"
        ]
    );
    assert_eq!(
        steps("2 weeks before christmas"),
        vec![
            "s1 date/next_date day=25 month=12",
            r#"s2 date/subtract_duration amount=2 date=$s1 unit="weeks" *"#
        ]
    );
    assert_eq!(
        steps("how many days between feb 1 and april 10 2027"),
        vec![r#"s1 date/difference from="2027-02-01" to="2027-04-10" *"#]
    );
}

#[test]
fn a_start_a_duration_and_the_end_asked_across_sentences() {
    assert_eq!(
        steps("renovation starts march 2, 10 weeks of work, when does it finish"),
        vec![
            "s1 date/next_date day=2 month=3",
            r#"s2 date/add_duration amount=10 date=$s1 unit="weeks" *"#
        ]
    );
    assert_eq!(
        steps("thuê nhà từ 15/1/2027, hợp đồng 12 tháng, ngày nào hết hạn"),
        vec![r#"s1 date/add_duration amount=12 date="2027-01-15" unit="months" *"#]
    );
}

#[test]
fn a_duration_from_today_with_the_end_and_its_weekday_asked() {
    assert_eq!(
        steps("hạn chót là 2 tuần nữa kể từ hôm nay, là ngày nào, thứ mấy"),
        vec![
            r#"s1 date/add_duration amount=2 unit="weeks" *"#,
            "s2 date/weekday date=$s1 *"
        ]
    );
}

#[test]
fn a_lunar_day_named_beside_its_date_in_full() {
    // (`mùng 1` names the day the full date gives; `năm sau` its year.)
    assert_eq!(
        steps("rằm tháng giêng năm sau là mùng 15, tức 20/2/2027, còn bao nhiêu ngày nữa"),
        vec![r#"s1 date/days_until date="2027-02-20" *"#]
    );
}

#[test]
fn working_days_are_counted_by_the_date_tool() {
    // (Session 31, phrasings of our own.)
    assert_eq!(
        common::steps("what date is 8 business days from now"),
        vec![r#"s1 date/add_duration amount=8 unit="working_days" *"#]
    );
    assert_eq!(
        common::steps("12 ngày làm việc nữa là ngày nào"),
        vec![r#"s1 date/add_duration amount=12 unit="working_days" *"#]
    );
    assert_eq!(
        common::steps("date in 20 days, not counting weekends"),
        vec![r#"s1 date/add_duration amount=20 unit="working_days" *"#]
    );
}

#[test]
fn the_days_between_two_days_without_a_year() {
    // (Session 31, phrasings of our own.)
    let s = common::steps("arrive dec 20 leave jan 2, how many nights is that");
    assert_eq!(s.len(), 3, "{s:?}");
    assert!(
        s[0].contains("next_date") && s[0].contains("day=20"),
        "{s:?}"
    );
    assert!(
        s[1].contains("next_date") && s[1].contains("day=2 "),
        "{s:?}"
    );
    assert_eq!(s[2], "s3 date/difference from=$s1 to=$s2 *", "{s:?}");
    // A day and month before a full date is in the year that keeps it before.
    assert_eq!(
        common::steps("từ 20/12 đến 10/1/2027 là bao nhiêu ngày"),
        vec![r#"s1 date/difference from="2026-12-20" to="2027-01-10" *"#]
    );
}

#[test]
fn an_hour_in_the_morning_and_a_bday_are_read() {
    // (Session 31, phrasings of our own.)
    assert_eq!(
        steps("when it's 8 in the evening in Tokyo what time is it in London"),
        vec![r#"s1 date/convert_time from="Tokyo" time="20:00" to="London" *"#]
    );
    assert_eq!(
        steps("how old is she, bday 3 March 2012"),
        vec![r#"s1 date/age born="2012-03-03" *"#]
    );
}

#[test]
fn the_hours_between_two_places_clocks() {
    // (Session 31, phrasings of our own.)
    assert_eq!(
        steps("how many hours ahead of london is tokyo"),
        vec![r#"s1 date/time_difference from="london" to="tokyo" *"#]
    );
    assert_eq!(
        steps("time difference between Chicago and Hanoi?"),
        vec![
            r#"s1 date/time_difference from="Chicago" to="Hanoi""#,
            r#"s2 math/abs x=$s1 *"#,
        ]
    );
}

#[test]
fn stays_counted_in_nights_and_times_said_with_their_day() {
    // (Session 31, phrasings of our own.)
    assert_eq!(
        steps("they check in on feb 3 for 4 nights, whats the checkout date"),
        vec![
            "s1 date/next_date day=3 month=2",
            r#"s2 date/add_duration amount=4 date=$s1 unit="days" *"#,
        ]
    );
    assert_eq!(
        steps("if its 6pm in paris tomorrow what time is it in tokyo"),
        vec![r#"s1 date/convert_time from="paris" time="18:00" to="tokyo" *"#]
    );
    assert_eq!(
        steps("8 gio toi nay o ha noi thi o paris la may gio"),
        vec![r#"s1 date/convert_time from="hà nội" time="20:00" to="paris" *"#]
    );
}

#[test]
fn a_time_with_one_place_is_converted_from_or_to_here() {
    assert_eq!(
        steps("my class ends at 10:15pm, what time is that in lisbon"),
        vec![r#"s1 date/convert_time from="here" time="22:15" to="lisbon" *"#]
    );
    assert_eq!(
        steps("dad wants to talk at 6am hanoi time, what time is that for me"),
        vec![r#"s1 date/convert_time from="hanoi" time="06:00" to="here" *"#]
    );
    // Someone else's place (`for them`, `there`): never here.
    for q in [
        "cousins want a call at 9pm hanoi time, what time is that for them",
        "if i ring oslo at 8pm hanoi time what time is it there",
    ] {
        let plan = chorus_heuristic::plan(
            q,
            &chorus_bus::TaskContext::default(),
            &chorus_heuristic::Capabilities::default_tools(),
        );
        assert!(!format!("{plan:?}").contains("\"here\""), "{q}: {plan:?}");
    }
}
