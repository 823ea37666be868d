//! Everyday problems as arithmetic: a bill split among people, a tip or a discount on
//! an amount, an amount raised or lowered by a percentage, "45 is what percent of
//! 180", dozens and pairs, a price times a count, a rate ("342 miles on 9 gallons,
//! miles per gallon"), in English and Vietnamese.
//!
//! The part is read as *cues* and *numbers*: cue words (`CUES`) say what is done,
//! numbers carry their role (a percentage, a count of people, a unit price, an amount),
//! and the other words only decorate (`eggs`, `dollars`, `friends`, `jacket`). A reading
//! is made only when the cues and numbers fit exactly one of the forms below, every
//! number is used, and no decorating word is one that asks something else (an
//! arithmetic operator, a date or time word, a request outside the tools): otherwise
//! the part is left to the other readers, and not understood rather than guessed.
//!
//! | form | cues | expression |
//! |---|---|---|
//! | split | `split`, `share`, `between/among N`, `N ways`, `each`, `chia đều`, `mỗi người` | A ÷ N |
//! | tip | `tip`, `tiền tip`, `boa` | P% of A; with `+`, `add`, `on top`, `total`: A + P% of A |
//! | lower | `off`, `discount`, `down`, `decrease`, `reduce`, `giảm` | A − P% of A |
//! | raise | `up`, `increase`, `raise`, `more`, `tăng` | A + P% of A |
//! | what percent | `what percent`, `bao nhiêu phần trăm` + `of`/`của` B | A × 100 ÷ B |
//! | dozens | `N dozen`, `N pairs`, `N chục`, `N cặp/đôi` | N × 12 (2, 10) |
//! | price | `at P each`, `P each`, `mỗi … P`, `P apiece` | count × P (dozens priced by the item, pairs by the pair) |
//! | rate | `per`, `mỗi` between two unit words | A ÷ B |
//! | rectangle | `diện tích`, `area`, `chu vi`, `perimeter` with two sides (`dài 20m rộng 5m`, `4m by 3.5m`) | A × B; 2 × (A + B) |
//! | tally | counts of one unit and one rate of it (`5 ngày, 4 ngày, 320k 1 ngày`) | (A + B) × R |

mod area;
mod asked;
mod cues;
mod guards;
mod items;
mod percents;
mod priced;
mod read;
mod tallied;
pub(crate) mod units;

pub use items::{changes_meaning, changes_operation, counts_guests, counts_people};
pub use read::{answer_unit, parse};
pub use units::undecorated;
pub(crate) use units::unit_of;

#[cfg(test)]
mod tests;
