//! Property tests of the calendar arithmetic.

use chorus_mcp_date::{
    context::Clock,
    parse::When,
    tools::{
        add_duration::{DurationUnit, add_duration},
        difference::difference,
        subtract_duration::subtract_duration,
    },
};
use jiff::civil::{Date, date};
use proptest::prelude::*;

fn any_date() -> impl Strategy<Value = Date> {
    (1900i16..2200, 1i8..=12, 1i8..=28).prop_map(|(y, m, d)| date(y, m, d))
}

fn clock() -> Clock {
    Clock::fixed(date(2026, 11, 22).in_tz("UTC").expect("utc midnight"))
}

fn as_date(when: When) -> Date {
    match when {
        When::Date(date) => date,
        When::DateTime(zoned) => panic!("expected a date, got {zoned}"),
    }
}

proptest! {
    #[test]
    fn adding_then_subtracting_days_returns_the_date(start in any_date(), n in -100_000i64..100_000) {
        let clock = clock();
        let later = add_duration(&When::Date(start), n, DurationUnit::Days, &clock).expect("in range");
        let back = subtract_duration(&later, n, DurationUnit::Days, &clock).expect("in range");
        prop_assert_eq!(as_date(back), start);
    }

    #[test]
    fn difference_after_adding_days_is_the_amount(start in any_date(), n in -100_000i64..100_000) {
        let end = as_date(add_duration(&When::Date(start), n, DurationUnit::Days, &clock()).expect("in range"));
        prop_assert_eq!(difference(start, end).expect("in range").total_days, n);
    }

    #[test]
    fn adding_weeks_moves_seven_days_and_keeps_the_weekday(start in any_date(), n in -1000i64..1000) {
        let end = as_date(add_duration(&When::Date(start), n, DurationUnit::Weeks, &clock()).expect("in range"));
        prop_assert_eq!(end.weekday(), start.weekday());
        prop_assert_eq!(difference(start, end).expect("in range").total_days, 7 * n);
    }

    #[test]
    fn working_days_skip_weekends_and_count_only_weekdays(start in any_date(), n in -400i64..400) {
        use jiff::civil::Weekday::{Saturday, Sunday};
        let end = as_date(add_duration(&When::Date(start), n, DurationUnit::WorkingDays, &clock()).expect("in range"));
        if n != 0 {
            prop_assert!(!matches!(end.weekday(), Saturday | Sunday), "{end} is a weekend day");
        }
        // The weekdays strictly after the start up to the end (or back) are n.
        let (lo, hi) = if n >= 0 { (start, end) } else { (end, start) };
        let mut count = 0i64;
        let mut day = lo;
        while day < hi {
            day = day.tomorrow().expect("in range");
            let counted = if n >= 0 { day } else { day.yesterday().expect("in range") };
            if !matches!(counted.weekday(), Saturday | Sunday) {
                count += 1;
            }
        }
        prop_assert_eq!(count, n.abs());
    }
}

#[test]
fn working_days_from_a_monday() {
    let monday = date(2026, 11, 23);
    let after = |n: i64| {
        as_date(
            add_duration(&When::Date(monday), n, DurationUnit::WorkingDays, &clock())
                .expect("in range"),
        )
    };
    assert_eq!(after(5), date(2026, 11, 30));
    assert_eq!(after(15), date(2026, 12, 14));
    assert_eq!(after(-1), date(2026, 11, 20));
    assert_eq!(
        DurationUnit::parse("working_days").expect("a unit"),
        DurationUnit::WorkingDays
    );
    assert_eq!(
        DurationUnit::parse("Business days").expect("a unit"),
        DurationUnit::WorkingDays
    );
}
