//! The time-at-places tests, compiled under #[cfg(test)] only (build.rs, which stops at
//! that mark, learns no word from them).

use super::difference::{time_difference, time_named};
use super::parse;
use super::pronouns::pronoun_place;
use crate::dates::DateQuery;

#[test]
fn a_pronoun_is_the_one_place_named() {
    let text = |q: &str| pronoun_place(&lex(q), q);
    assert_eq!(
        text("my sister is in Lima, what time is it over there").as_deref(),
        Some("what time is it in Lima")
    );
    assert_eq!(
        text("flying in from Oslo on friday, what time is it there").as_deref(),
        Some("what time is it in Oslo")
    );
    // (Where someone is goes once the question names the place; a number before it is
    // kept, as it may be asked about.)
    assert_eq!(
        text("gf is in osaka what time is it there").as_deref(),
        Some("what time is it in osaka")
    );
    assert_eq!(
        text("meeting at 9 with the team in Oslo, what time is it there").as_deref(),
        Some("meeting at 9 with the team in Oslo, what time is it in Oslo")
    );
    assert_eq!(
        text("khách bay từ Sydney qua, bên đó mấy giờ").as_deref(),
        Some("khách bay từ Sydney qua, ở Sydney mấy giờ")
    );
    // Two places named: which one `there` is cannot be told; `there` in a sentence
    // that asks no time is context.
    assert_eq!(text("in Lima or in Quito, time there"), None);
    assert_eq!(text("what time is it in Lima? my cousin lives there"), None);
    // No pronoun: nothing to rewrite.
    assert_eq!(text("time in Lima"), None);
}

use crate::lexer::lex;

fn q(s: &str) -> Option<DateQuery> {
    parse(&lex(s), s)
}

fn time_in(place: &str) -> Option<DateQuery> {
    Some(DateQuery::TimeIn {
        place: place.into(),
    })
}

fn convert(time: &str, from: &str, to: &str) -> Option<DateQuery> {
    Some(DateQuery::ConvertTime {
        time: time.into(),
        from: from.into(),
        to: to.into(),
    })
}

#[test]
fn the_time_at_a_place_named_without_a_preposition() {
    let named = |q: &str| time_named(&lex(q), q);
    let at = |p: &str| Some(DateQuery::TimeIn { place: p.into() });
    assert_eq!(named("giờ chicago mấy giờ rồi"), at("chicago"));
    assert_eq!(named("giờ singapore bây giờ là mấy giờ"), at("singapore"));
    assert_eq!(named("singapore time now?"), at("singapore"));
    assert_eq!(named("what time now?"), None);
    assert_eq!(named("giờ là mấy giờ"), None);
    // The place first, then the question.
    assert_eq!(named("dubai bây giờ mấy giờ"), at("dubai"));
    assert_eq!(named("ở tokyo mấy giờ rồi"), at("tokyo"));
    assert_eq!(named("bên đó bây giờ mấy giờ"), None);
    assert_eq!(named("hôm nay bây giờ mấy giờ"), None);
}

#[test]
fn hours_between_two_places_clocks() {
    let diff = |q: &str| time_difference(&lex(q), q);
    let signed = |from: &str, to: &str| {
        Some(DateQuery::TimeDifference {
            from: from.into(),
            to: to.into(),
            absolute: false,
        })
    };
    assert_eq!(
        diff("how many hours ahead of hanoi is seoul"),
        signed("hanoi", "seoul")
    );
    assert_eq!(
        diff("how many hours ahead of saigon is melbourne rn"),
        signed("saigon", "melbourne")
    );
    assert_eq!(
        diff("how many hours is Paris behind Hanoi?"),
        signed("Paris", "Hanoi")
    );
    assert_eq!(
        diff("Sydney is how many hours ahead of Paris"),
        signed("Paris", "Sydney")
    );
    assert_eq!(
        diff("Seoul nhanh hơn Hà Nội mấy tiếng"),
        signed("Hà Nội", "Seoul")
    );
    assert_eq!(
        diff("what's the time difference between Hanoi and Paris"),
        Some(DateQuery::TimeDifference {
            from: "Hanoi".into(),
            to: "Paris".into(),
            absolute: true
        })
    );
    assert_eq!(diff("how many hours until 5pm"), None);
}

#[test]
fn the_time_at_a_place_in_both_languages() {
    assert_eq!(q("what time is it in Tokyo"), time_in("Tokyo"));
    assert_eq!(
        q("What time is it in New York right now?"),
        time_in("New York")
    );
    assert_eq!(q("current time in São Paulo"), time_in("São Paulo"));
    assert_eq!(q("mấy giờ rồi ở New York"), time_in("New York"));
    assert_eq!(q("bây giờ ở Tokyo là mấy giờ"), time_in("Tokyo"));
    assert_eq!(q("giờ ở Hà Nội"), time_in("Hà Nội"));
    // Not a time question, or no place.
    assert_eq!(q("what day is it in 10 days"), None);
    assert_eq!(q("what time is it"), None);
    assert_eq!(q("the weather in Paris"), None);
}

#[test]
fn what_happens_at_the_time_may_be_said_before_it() {
    assert_eq!(
        q("flight leaves at 23:15 in hanoi, what time is that in paris"),
        convert("23:15", "hanoi", "paris")
    );
    assert_eq!(
        q("the match kicks off at 8pm in london, what time in hanoi"),
        convert("20:00", "london", "hanoi")
    );
    assert_eq!(
        q("whats 3pm london time in new york"),
        convert("15:00", "london", "new york")
    );
}

#[test]
fn who_asks_and_what_happens_around_a_conversion_do_not_change_it() {
    // (Phrasings of our own, of the classes batch 7 found.)
    assert_eq!(
        q("standup is at 09:30 in Berlin, what's that in Tokyo for my team"),
        convert("09:30", "Berlin", "Tokyo")
    );
    assert_eq!(
        q("class starts 6pm london time, what time is that for me in hanoi"),
        convert("18:00", "london", "hanoi")
    );
    assert_eq!(
        q("if we call home at 8pm Paris time, what time will it be in Seoul"),
        convert("20:00", "Paris", "Seoul")
    );
    assert_eq!(
        q("if its 7am in Denver whats the time in Singapore"),
        convert("07:00", "Denver", "Singapore")
    );
}

#[test]
fn the_place_may_come_before_its_time() {
    assert_eq!(
        q("Nếu ở Hà Nội là 8 giờ tối thì ở New York là mấy giờ"),
        convert("20:00", "Hà Nội", "New York")
    );
    assert_eq!(
        q("in Tokyo it's 9am, what time is it in London"),
        convert("09:00", "Tokyo", "London")
    );
    assert_eq!(
        q("if in London it is 3pm what time is it in Hanoi"),
        convert("15:00", "London", "Hanoi")
    );
    // A place and no stated time is the time there now.
    assert_eq!(q("in Tokyo what time is it"), time_in("Tokyo"));
}

#[test]
fn a_time_at_one_place_converted_to_another() {
    assert_eq!(
        q("convert 09:00 Hanoi time to London time"),
        convert("09:00", "Hanoi", "London")
    );
    // What happens at the time may be named first.
    assert_eq!(
        q("the meeting is at 4pm Berlin time, what time is that in Denver"),
        convert("16:00", "Berlin", "Denver")
    );
    assert_eq!(q("the weather at 4pm in Berlin in Denver"), None);
    assert_eq!(
        q("7 giờ tối ở Hà Nội thì bên Sydney là mấy giờ"),
        convert("19:00", "Hà Nội", "Sydney")
    );
    assert_eq!(
        q("what is 9am in Tokyo in London time?"),
        convert("09:00", "Tokyo", "London")
    );
    assert_eq!(
        q("9:30 pm New York time is what time in Tokyo"),
        convert("21:30", "New York", "Tokyo")
    );
    assert_eq!(
        q("9 giờ sáng ở Hà Nội là mấy giờ ở London"),
        convert("09:00", "Hà Nội", "London")
    );
    assert_eq!(
        q("đổi 3 giờ chiều giờ Tokyo sang giờ Hà Nội"),
        convert("15:00", "Tokyo", "Hà Nội")
    );
    assert_eq!(
        q("if it's 3pm in London, what time is it in Sydney"),
        convert("15:00", "London", "Sydney")
    );
    assert_eq!(
        q("when it is 9:30 am in Paris what time is it in Seoul?"),
        convert("09:30", "Paris", "Seoul")
    );
    assert_eq!(
        q("nếu 8 giờ sáng ở Hà Nội thì ở New York là mấy giờ"),
        convert("08:00", "Hà Nội", "New York")
    );
    assert_eq!(q("if it's 3pm in London"), None);
    assert_eq!(q("convert 25:00 Hanoi time to London time"), None);
    assert_eq!(q("convert 9 Hanoi to London"), None);
}

#[test]
fn a_conversion_told_loosely() {
    // (As the planner reads them: normalised.)
    let read = |q: &str| {
        let q = crate::normalise::normalise(q, None).text;
        super::loose_convert(&lex(&q), &q)
    };
    assert_eq!(
        read("khach tokyo bay luc 22h30 toi nay gio vn, luc do ben tokyo may gio"),
        Some(DateQuery::ConvertTime {
            time: "22:30".into(),
            from: "vn".into(),
            to: "tokyo".into(),
        })
    );
    // (`them`: the place of the people named before.)
    assert_eq!(
        read("berlin team wants a call at 6pm vietnam time, what time is that for them"),
        Some(DateQuery::ConvertTime {
            time: "18:00".into(),
            from: "vietnam".into(),
            to: "berlin".into(),
        })
    );
    // No zone for the time and no `that`: the time now is asked, no conversion.
    assert_eq!(
        read("the dentist in oslo said 9am, what time is it in rome"),
        None
    );
}
