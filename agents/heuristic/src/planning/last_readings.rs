//! The last reading of a request before it is asked about or refused: an everyday
//! problem read as one quantity frame (`frames/`), alone or going on from the last
//! answer.

use chorus_bus::Language;

use super::Planning;
use super::understanding::Understanding;
use crate::{PlanOutcome, compound, frames, lexer, recall, scope};

impl Planning<'_> {
    /// `query` (lexed as `toks`), not read alone (`reading`), read as an everyday
    /// problem: the request as typed, then going on from the last answer.
    pub(super) fn last_readings(
        &self,
        toks: &[lexer::Token],
        query: &str,
        reading: &Understanding,
        language: Language,
    ) -> Option<PlanOutcome> {
        // The last reading of an everyday problem before asking or refusing: every
        // number given one role, the roles fitting one frame (`frames/`) — the request
        // as typed, and then, in a conversation, as a follow-up of the last answer
        // (`add 10% service`, `times 15,480 won`), after every reading of its own. A
        // part outside every tool is named, never read into a frame.
        // (A booking is refused by its verb before: `flight … is 5,890` only names what
        // was paid for, as the everyday readers take it.)
        // (Two prices given are a calculation, whatever is priced: `mua 1.000 cổ phiếu
        // giá 25.400, bây giờ giá lên 28.194, lãi bao nhiêu phần trăm`.)
        let outside = scope::outside_tools(query, Language::En)
            .is_some_and(|kind| kind != scope::BOOKINGS)
            && !crate::frames::labelled_calculation(toks)
            && !prices_given(toks);
        if reading.misses() > 0 && !outside {
            if let Some(parsed) = compound::frames_reading_each(toks, query)
                && let found @ Understanding::Plan(..) = self.lower(parsed)
            {
                return Some(self.outcome(found, language));
            }
            let last = self
                .conversation
                .answers
                .iter()
                .rev()
                .find(|v| !recall::is_weekday(v))
                .filter(|_| self.continuations);
            // `con lai bao nhieu` after a share of a whole: the whole less the share;
            // `and for 16 hrs?` after a rate for one hour: that rate times the count.
            if let Some(value) = last
                && let Some(earlier) = self.last_question()
            {
                let rest =
                    frames::rest_of(toks, &earlier).map(|whole| format!("{whole} - {value}"));
                let periods =
                    frames::for_periods(toks, &earlier).map(|count| format!("{value} * {count}"));
                for text in [rest, periods].into_iter().flatten() {
                    if let Some(found) = self.on_answers(&text, &[value], query, language) {
                        return Some(found);
                    }
                }
            }
            if let Some(value) = last
                && let Some(parsed) = compound::frames_after(toks, query, value)
                && let Understanding::Plan(mut plan, failed) = self.lower(parsed)
            {
                recall::mark(&mut plan, value, query);
                return Some(self.outcome(Understanding::Plan(plan, failed), language));
            }
        }
        None
    }
}

/// Whether two numbers or more are each said as a price (`giá 25.400`, `lên 28.194`,
/// `bought at 40`, `sold for 52`).
fn prices_given(toks: &[lexer::Token]) -> bool {
    const PRICE: &[&str] = &[
        "giá", "lên", "xuống", "vốn", "price", "at", "for", "bought", "sold", "paid",
    ];
    lexer::number_positions(toks)
        .into_iter()
        .filter(|&k| k > 0 && toks[k - 1].word().is_some_and(|w| PRICE.contains(&w)))
        .count()
        >= 2
}
