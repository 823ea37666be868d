//! Follow-ups in a conversation (issue 28, class 7): a continuation of the last answer
//! (`then halve it`, `còn nhân 3 thì sao`) and an ellipsis of the last question with one
//! part replaced (`and in Lima?`, `and 15%?`, `and the year after?`,
//! `còn ở Paris?`), through [`plan_in`] and [`plan_turn`].

mod common;
use chorus_bus::TaskContext;
use chorus_heuristic::{Capabilities, Conversation, PlanOutcome, plan_in, plan_turn};
use common::line;

fn after(answers: &[&str]) -> Conversation {
    Conversation {
        session: true,
        answers: answers.iter().map(|a| a.to_string()).collect(),
    }
}

/// The one-line steps `query` plans to after a turn asking `question` and answering
/// `answers`.
fn turn(query: &str, question: &str, answers: &[&str]) -> Vec<String> {
    let outcome = plan_turn(
        query,
        &TaskContext::default(),
        &Capabilities::default_tools(),
        &after(answers),
        &[question.to_owned()],
    );
    match outcome {
        PlanOutcome::Planned {
            plan,
            unplanned: None,
            ..
        } => plan.steps.iter().map(line).collect(),
        other => panic!("{query:?} after {question:?}: {other:?}"),
    }
}

#[test]
fn a_continuation_takes_the_last_answer_in_both_languages() {
    for (q, tool, b) in [
        ("then halve it", "divide", "2"),
        ("what about times 3", "multiply", "3"),
        ("và chia kết quả cho 2", "divide", "2"),
        ("còn nhân 3 thì sao", "multiply", "3"),
        ("cộng thêm 5 nữa", "sum", "5"),
        ("trừ đi 4", "subtract", "4"),
    ] {
        let outcome = plan_in(
            q,
            &TaskContext::default(),
            &Capabilities::default_tools(),
            &after(&["6"]),
        );
        let PlanOutcome::Planned {
            plan,
            unplanned: None,
            ..
        } = outcome
        else {
            panic!("{q:?}: {outcome:?}");
        };
        let steps: Vec<String> = plan.steps.iter().map(line).collect();
        assert_eq!(
            steps,
            vec![format!(r#"s1 math/{tool} a="6" b="{b}" *"#)],
            "{q}"
        );
        assert_eq!(plan.steps[0].recalled, vec!["a".to_owned()], "{q}");
    }
}

#[test]
fn a_new_question_is_not_a_follow_up() {
    assert_eq!(
        turn("2+4", "what time is it in Rome", &["10:00"]),
        vec![r#"s1 math/sum a="2" b="4" *"#]
    );
}

#[test]
fn another_place_replaces_the_place_asked_about() {
    for q in ["and in Lima?", "how about Lima", "what about Lima?"] {
        assert_eq!(
            turn(q, "what time is it in Rome", &["10:00"]),
            vec![r#"s1 date/time_in place="Lima" *"#],
            "{q}"
        );
    }
    assert_eq!(
        turn("còn ở Paris?", "bây giờ ở Tokyo mấy giờ", &["18:00"]),
        vec![r#"s1 date/time_in place="Paris" *"#]
    );
    assert_eq!(
        turn(
            "and in Tokyo?",
            "if it's 10am in New York what time is it in Paris",
            &["16:00"]
        ),
        vec![r#"s1 date/convert_time from="New York" time="10:00" to="Tokyo" *"#]
    );
}

#[test]
fn another_number_replaces_the_number_of_its_kind() {
    assert_eq!(
        turn("and 15%?", "what's 12% of 850", &["102"]),
        vec![r#"s1 math/percent of="850" percent="15" *"#]
    );
    assert_eq!(
        turn(
            "còn 25% thì sao",
            "15% của 1200000 là bao nhiêu",
            &["180000"]
        ),
        vec![r#"s1 math/percent of="1200000" percent="25" *"#]
    );
    assert_eq!(
        turn(
            "and if it's 6 people?",
            "dinner was 156 for 4 people, how much each?",
            &["39"]
        ),
        vec![r#"s1 math/divide a="156" b="6" *"#]
    );
}

#[test]
fn another_date_or_the_year_after_replaces_the_date() {
    assert_eq!(
        turn(
            "and someone born 2000-12-25?",
            "how old is someone born on 1990-08-30",
            &["36"]
        ),
        vec![r#"s1 date/age born="2000-12-25" *"#]
    );
    assert_eq!(
        turn(
            "and the year after?",
            "what day of the week is 14 March 2027",
            &["Sunday"]
        ),
        vec![r#"s1 date/weekday date="2028-03-14" *"#]
    );
    assert_eq!(
        turn(
            "còn năm sau thì sao?",
            "ngày 20/11/2027 là thứ mấy",
            &["Saturday"]
        ),
        vec![r#"s1 date/weekday date="2028-11-20" *"#]
    );
}
