//! The question tests, compiled under #[cfg(test)] only (build.rs, which stops at that
//! mark, learns no word from them).

use chorus_bus::{Language, TaskContext};

use super::answer::resume;
use super::dates::{day_first, two_way_dates, which_date};
use super::from_model;
use super::missing::{missing_count, missing_operand};
use crate::lexer::lex;

#[test]
fn a_missing_operand_goes_after_its_part() {
    let q = missing_operand("divide 10 by", Language::En);
    assert_eq!(
        resume("please divide 10 by?", &q, " 4 ").as_deref(),
        Ok("please divide 10 by 4?")
    );
    assert_eq!(
        resume("divide 10 by", &q, "two").as_deref(),
        Ok("divide 10 by 2")
    );
    assert!(resume("divide 10 by", &q, "banana").is_err());
}

#[test]
fn a_count_never_said_is_asked_and_goes_after_the_request() {
    // (Whether the trial reads better is the planner's test; here it always does.)
    let q = missing_count("rent is 4100 split it evenly", Language::En, |_| true).unwrap();
    assert_eq!(q.text, "How many people is it split between?");
    assert_eq!(
        resume("rent is 4100 split it evenly", &q, "3").as_deref(),
        Ok("rent is 4100 split it evenly between 3 people")
    );
    // Two numbers said, or no split asked: no such question.
    assert!(missing_count("split 4100 between 3", Language::En, |_| true).is_none());
    assert!(missing_count("rent is 4100", Language::En, |_| true).is_none());
    // Nothing asked when the count would not make it plannable.
    assert!(missing_count("rent is 4100 split it evenly", Language::En, |_| false).is_none());
}

#[test]
fn an_option_is_picked_by_number_ordinal_label_value_or_its_own_words() {
    let q = which_date("03/04/2026", "2026-04-03", "2026-03-04", Language::En);
    assert_eq!(q.options[0].label, "3 April 2026");
    let picks = [
        ("1", "2026-04-03"),
        ("2", "2026-03-04"),
        ("the second one", "2026-03-04"),
        ("3 April 2026", "2026-04-03"),
        ("2026-03-04", "2026-03-04"),
        ("March", "2026-03-04"),
        ("april please", "2026-04-03"),
    ];
    for (answer, iso) in picks {
        assert_eq!(
            resume("what weekday is 03/04/2026", &q, answer).as_deref(),
            Ok(format!("what weekday is {iso}").as_str()),
            "{answer}"
        );
    }
    for bad in ["3", "May", "both", ""] {
        assert!(
            resume("what weekday is 03/04/2026", &q, bad).is_err(),
            "{bad}"
        );
    }
}

#[test]
fn a_models_question_takes_any_answer_after_the_request() {
    let q = from_model(
        "split the bill",
        "Among how many people?",
        &["2".into(), "3".into()],
    );
    assert_eq!(
        resume("split the bill", &q, "the second").as_deref(),
        Ok("split the bill\n(answer to \"Among how many people?\": 3)")
    );
    assert_eq!(
        resume("split the bill", &q, "four of us").as_deref(),
        Ok("split the bill\n(answer to \"Among how many people?\": four of us)")
    );
}

#[test]
fn only_dates_whose_day_and_month_can_swap_read_two_ways() {
    let src = "03/04/2026 25/12/2026 2026-03-04 05/05/2026";
    let found = two_way_dates(&lex(src), src);
    assert_eq!(
        found,
        vec![(
            "03/04/2026".to_owned(),
            "2026-04-03".to_owned(),
            "2026-03-04".to_owned()
        )]
    );
}

#[test]
fn the_language_or_the_context_settles_the_order() {
    let ctx = |language: Option<&str>, day_first: Option<bool>| TaskContext {
        language: language.map(str::to_owned),
        day_first,
        ..TaskContext::default()
    };
    assert_eq!(day_first(&ctx(None, None), Language::En), None);
    assert_eq!(day_first(&ctx(None, None), Language::Vi), Some(true));
    assert_eq!(
        day_first(&ctx(Some("en-US"), None), Language::En),
        Some(false)
    );
    assert_eq!(
        day_first(&ctx(Some("en-GB"), None), Language::En),
        Some(true)
    );
    assert_eq!(
        day_first(&ctx(None, Some(false)), Language::Vi),
        Some(false)
    );
}
