//! What a percentage taken from an amount asks: the share itself, or what is left.
//! `kiwisaver takes 3% of my gross 2,150, how much is that` asks the 3% (a levy asked by
//! itself); `grab takes 20% commission, how much does he keep` what is left. And a share
//! someone else pays (`the kommune pays 75% of it, what do i pay myself`) leaves the
//! rest to the one asking.

use crate::lexer::Token;
use crate::normalise::fold::fold;

/// What a request taking a percentage from an amount asks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Asked {
    /// The percentage's share of the amount.
    Share,
    /// The amount less the share.
    Rest,
}

/// Words of a levy taken: a deduction, never a discount. (Not `commission` alone: `my
/// commission is 40% of 2,000` is earned.) (Every list here is compared
/// folded, without marks, and written with them: a word without its marks would be
/// taught to the normaliser as English.)
const LEVY: &[&[&str]] = &[
    &["takes"],
    &["take"],
    &["hoa", "hồng"],
    &["withhold"],
    &["withholds"],
    &["keeps"],
    &["contribution"],
    // (`10.5% goes to social insurance`: a share paid away.)
    &["goes", "to"],
    // (`tipped out 15% of my $240 tips`: a share of the tips paid to the others.)
    &["tipped", "out"],
    &["tip", "out"],
];

/// Words of a discount, or of taking off said outright: what is asked is the price.
const DISCOUNT: &[&[&str]] = &[
    &["off"],
    &["discount"],
    &["sale"],
    &["giảm"],
    &["bớt"],
    &["chiết", "khấu"],
    // (An operation said outright: `số đó trừ 15% hoa hồng`.)
    &["trừ"],
    &["minus"],
    &["less"],
    &["deduct"],
];

/// Words asking what is left.
const LEFT: &[&[&str]] = &[
    &["left"],
    &["keep"],
    &["keeps"],
    &["get"],
    &["gets"],
    &["net"],
    &["remaining"],
    &["actually"],
    &["take", "home"],
    &["after"],
    &["còn"],
    &["lại"],
    &["nhận"],
    &["về", "tay"],
];

/// Words of someone else paying a share.
const PAID_BY_OTHERS: &[&[&str]] = &[
    &["pays"],
    &["covers"],
    &["subsidises"],
    &["subsidizes"],
    &["chịu"],
    &["hỗ", "trợ"],
];

/// Words asking what the one asking pays.
const I_PAY: &[&[&str]] = &[
    &["do", "i", "pay"],
    &["i", "pay"],
    &["i", "have", "to", "pay"],
    &["my", "share"],
    &["myself"],
    &["mình", "trả"],
    &["tôi", "trả"],
    &["em", "trả"],
    &["mình", "phải", "trả"],
    &["tôi", "phải", "trả"],
];

/// What `toks` ask of one percentage taken from an amount, when their words tell.
pub fn asked(toks: &[Token]) -> Option<Asked> {
    let words = folded_words(toks);
    let says = |phrases: &[&[&str]]| says_any(&words, phrases);
    // (`booking ăn 15% trên 4tr5`: a cut taken — `ăn` only with its marks, before a
    // percentage; folded it is also English `an`.)
    let cut = (0..toks.len()).any(|i| {
        toks[i].word() == Some("ăn")
            && toks.get(i + 1).is_some_and(|t| t.number().is_some())
            && toks.get(i + 2).is_some_and(|t| t.is_sym('%'))
    });
    // (`app lấy 20%, mình được bao nhiêu`: a cut taken, what is got asked — `được`
    // only after a cut, never after a commission, which is what is earned.)
    let taken = cut || says(&[&["lấy"]]);
    let levy = (says(LEVY) || taken) && !says(DISCOUNT);
    if says(PAID_BY_OTHERS) && says(I_PAY) || levy && (says(LEFT) || taken && says(&[&["được"]]))
    {
        return Some(Asked::Rest);
    }
    levy.then_some(Asked::Share)
}

/// Names of what is kept, said to be a percentage (`net is 77% of gross`).
const KEPT_IS: &[&[&str]] = &[
    &["net", "is"],
    &["net", "pay", "is"],
    &["take", "home", "is"],
    &["thực", "nhận", "là"],
];

/// Whether `toks` say what is kept is a percentage of the amount (`net is 77% of gross,
/// gross 1620, how much net`): that share is the answer, nothing taken off.
pub fn kept_is_share(toks: &[Token]) -> bool {
    (0..toks.len()).any(|k| {
        toks[k].number().is_some()
            && toks.get(k + 1).is_some_and(|t| t.is_sym('%'))
            && KEPT_IS
                .iter()
                .any(|p| k >= p.len() && crate::lexer::words_at(toks, k - p.len(), p))
    })
}

/// Words that open a request naming the discount itself as what is asked (`chiết khấu
/// 25% trên 1tr2 là bao nhiêu`: a trade discount is an amount the buyer is given).
const DISCOUNT_NAMED: &[&[&str]] = &[&["chiết", "khấu"], &["tiền", "chiết", "khấu"]];

/// Whether `toks` open with the discount's name and ask nothing left: the amount taken
/// off is asked, not the price after it (`giá 1tr2 chiết khấu 25% còn bao nhiêu` asks
/// the price).
pub fn discount_named_first(toks: &[Token]) -> bool {
    let words = folded_words(toks);
    let opens =
        toks.first().is_some_and(|t| t.word().is_some()) && opens_with(&words, DISCOUNT_NAMED);
    opens && !says_any(&words, LEFT)
}

/// Words asking what is left, whatever was taken (`how much is left after 10% tax`):
/// never `after` alone, which a price with its tax says too.
const LEFT_OVER: &[&[&str]] = &[
    &["left"],
    // (`tax 15% of 1,284.60 - how much do i actually keep`)
    &["keep"],
    &["remaining"],
    &["take", "home"],
    &["còn", "lại"],
];

/// Whether `toks` ask what is left of an amount in so many words.
pub fn asks_left_over(toks: &[Token]) -> bool {
    says_any(&folded_words(toks), LEFT_OVER)
}

/// The words of `toks`, lowercase and folded (without marks).
fn folded_words(toks: &[Token]) -> Vec<String> {
    toks.iter()
        .filter_map(Token::word)
        .map(|w| fold(&w.to_lowercase()))
        .collect()
}

/// Whether `words` (folded) say one of `phrases` anywhere.
fn says_any(words: &[String], phrases: &[&[&str]]) -> bool {
    (0..words.len()).any(|i| opens_with(&words[i..], phrases))
}

/// Whether `words` (folded) open with one of `phrases`.
fn opens_with(words: &[String], phrases: &[&[&str]]) -> bool {
    phrases.iter().any(|p| {
        p.iter()
            .enumerate()
            .all(|(k, w)| words.get(k).is_some_and(|x| *x == fold(w)))
    })
}
