//! The rewrites of a request that read it again: tokens that name no amount or say
//! nothing to compute rewritten, or a new text written with what one part said for
//! another.

use super::parse_request;
use crate::compound::context::{condition_last, with_labels, without_asides, without_when_paid};
use crate::compound::{Parsed, PartError};
use crate::lexer::Token;

/// The request `toks` (lexed from `src`) read again once rewritten, when a rewrite
/// applies (each one changes the request, so reading it again ends).
pub(super) fn read_rewritten(toks: &[Token], src: &str) -> Option<Result<Parsed, PartError>> {
    // `cube root of 50 (hw question, need the decimal)`: an aside in brackets, words
    // only, says nothing to compute.
    // `tenant in unit 2 is behind 3 months`, `phòng 1 3tr5, phòng 2 4tr2`: a number
    // that names a unit or a room is part of its name, no amount.
    // `cá thu 220k một ký, mua 7 lạng`: a weight in its price's unit (0.7 ký).
    // `15 working days from today`, `5 ngày nữa, không tính t7 cn`: working days.
    if let Some(without) = without_asides(toks)
        .or_else(|| with_labels(toks))
        // `thưởng cuối năm 7tr2 trừ thuế 5%`: the time of year names the bonus.
        .or_else(|| without_when_paid(toks))
        .or_else(|| crate::weights::in_price_unit(toks))
        // `mỗi bao 50 ký, 3 tấn là mấy bao`: two weights in the smaller unit.
        .or_else(|| crate::weights::in_one_unit(toks))
        // `bao 50 ky thi …, la may bao`: what one sack holds, `mỗi` unsaid.
        .or_else(|| crate::coverage::container_named_first(toks))
        // `18 chục trứng, 36k 1 chục`: groups priced per group.
        .or_else(|| crate::dozens::priced_per_group(toks))
        // `2 textbooks $89.99 and $124.50`: a count announcing its items is no item.
        .or_else(|| crate::counted::without_item_count(toks))
        .or_else(|| crate::workdays::merged(toks))
        // `split 90 between me and my 2 brothers`: three people.
        .or_else(|| crate::frames::me_and_others(toks))
        // `21,500 over 60 months 0% interest`: no interest charged says nothing.
        .or_else(|| crate::filler::without_zero_interest(toks))
        // `Hôm nay là thứ mấy vậy con?`: the person spoken to asks nothing.
        .or_else(|| crate::filler::without_vocative(toks))
        // `i sold 14 today at 26 each, how much`: the day it happened asks nothing.
        .or_else(|| crate::filler::without_day_said(toks))
        // `chia đôi cho bố với mẹ`: halved, for whom says nothing more.
        .or_else(|| crate::filler::without_halves_recipients(toks))
        // `max temps … wats the average`: `max` names what is listed.
        .or_else(|| crate::filler::without_extreme_label(toks))
        // `bán 200kg tiêu giá 145k`: the price is a kilo's.
        .or_else(|| crate::frames::price_per_counted_unit(toks))
        // `2000 aud at 16,920 minus a 2% fee`: the conversion, then the fee off it.
        .or_else(|| crate::exchange::fee_apart(toks))
        // (Each rewrite changes the tokens, or reading them again would never end.)
        && without.as_slice() != toks
    {
        return Some(parse_request(&without, src));
    }
    // `my cousins in LA, what time is it there`: the one place named, for `there`;
    // `tet 2027 is feb 6`: the year with its day and month. (New texts, read again.)
    // `tháng này còn bao nhiêu ngày`: the days left, the period said first.
    if let Some(text) = crate::places::pronoun_place(toks, src)
        .or_else(|| crate::dates::year_said_apart(toks, src))
        // `sinh năm 1970 ngày 5/8`: a birth date said year first.
        .or_else(|| crate::dates::birth_year_first(toks, src))
        .or_else(|| crate::dates::period_left_said_first(toks))
        .or_else(|| crate::dates::apart_from_today(toks, src))
        // `days since i moved to perth on 14 july 2024`: the event's words dropped;
        // `what day does christmas fall on this year`: asked as `is`.
        .or_else(|| crate::dates::events_dropped(toks, src))
        .or_else(|| crate::dates::falls_on(toks, src))
        // `contract is 8 months starting 2 june 2026 when does it end`: the span after
        // its start.
        .or_else(|| crate::dates::span_end(toks))
        // `30 days from today what day of the week is that`: the weekday of the date said.
        .or_else(|| crate::dates::weekday_of_said(toks, src))
        // `what time is it in prague when its 8am in hanoi`: the condition first.
        .or_else(|| condition_last(toks, src))
        // `25% off then extra 10% member discount`: the two in turn.
        .or_else(|| crate::frames::percentages_in_turn(toks))
    {
        return Some(parse_request(&crate::lexer::lex(&text), &text));
    }
    None
}
