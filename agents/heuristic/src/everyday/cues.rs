//! The cue words of everyday problems and what each says, with the words around them
//! that say nothing (occasions money is for, verbs with `up` that raise nothing).

/// What a cue word says.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Cue {
    /// Share an amount: `split`, `share`, `chia đều`.
    Split,
    /// The count after it is of sharers: `between`, `among`, `cho`.
    Among,
    /// The number before it counts sharers: `people`, `friends`, `of us`, `ways`, `người`.
    People,
    /// `each`, `apiece`, `a litre`, `/hr` right after a number: that number is a
    /// unit price.
    Each,
    /// `mỗi` (`mỗi ký 185 nghìn`): the number after it is a unit price, else a share.
    EachLead,
    /// `mỗi người 200k`, `each person 20`: the number after it is what each of the
    /// people counted gets or pays; the total is asked.
    PerHead,
    /// `each` away from any number (`…, how much each`): a share is asked.
    EachOne,
    /// `from` (a percent change: from A to B).
    From,
    /// `to`, `lên`, `xuống` (a percent change: from A to B).
    To,
    /// `percent` or `phần trăm` with no number before it (`the % increase`).
    PercentWord,
    /// `change` (a signed percent change).
    Change,
    /// Interest for one period: `interest`, `lãi`.
    Interest,
    /// `compound`, `compounded`: interest on interest.
    Compound,
    /// A tax or a fee added on: `tax`, `gst`, `vat`, `thuế`.
    Tax,
    /// The amount taken off is asked: `how much off`, `save`, `bớt bao nhiêu`.
    OffAsked,
    /// `at` a price.
    At,
    /// A tip.
    Tip,
    /// Added on top: `+`, `plus`, `add`, `on top`, `total`, `including`.
    Plus,
    /// Lowered by: `off`, `discount`, `down`, `giảm`.
    Less,
    /// Raised by: `up`, `increase`, `tăng`.
    More,
    /// `of`, `của`, `on` (the base of a percentage).
    Of,
    /// `what percent`, `bao nhiêu phần trăm`.
    WhatPercent,
    /// A multiple: `dozen` (12), `pair` (2), `chục` (10).
    Times(&'static str),
    /// A rate: `per`.
    Per,
}

/// Cue phrases, longest first within a shared start.
pub(super) const CUES: &[(&[&str], Cue)] = &[
    (&["what", "percent"], Cue::WhatPercent),
    (&["what", "percentage"], Cue::WhatPercent),
    (&["how", "many", "percent"], Cue::WhatPercent),
    (&["bao", "nhiêu", "phần", "trăm"], Cue::WhatPercent),
    (&["mấy", "phần", "trăm"], Cue::WhatPercent),
    // `rent 3450 + bills 410, split by 4`.
    (&["split", "by"], Cue::Among),
    (&["split"], Cue::Split),
    (&["splitting"], Cue::Split),
    (&["share"], Cue::Split),
    // `tip pool $1,236 shared by 9 crew`.
    (&["shared", "by"], Cue::Among),
    (&["shared"], Cue::Split),
    (&["chia", "đều"], Cue::Split),
    (&["chia", "ra"], Cue::Split),
    (&["chia"], Cue::Split),
    (&["between"], Cue::Among),
    (&["among"], Cue::Among),
    (&["amongst"], Cue::Among),
    // `split 728.19 into 3 payments`.
    (&["into"], Cue::Among),
    (&["giữa"], Cue::Among),
    (&["ways"], Cue::People),
    (&["people"], Cue::People),
    (&["nhà"], Cue::People),
    (&["phòng"], Cue::People),
    (&["hộ"], Cue::People),
    (&["tenants"], Cue::People),
    (&["guys"], Cue::People),
    (&["workers"], Cue::People),
    (&["families"], Cue::People),
    (&["households"], Cue::People),
    (&["kids"], Cue::People),
    (&["installments"], Cue::People),
    (&["instalments"], Cue::People),
    (&["payments"], Cue::People),
    (&["persons"], Cue::People),
    (&["friends"], Cue::People),
    (&["guests"], Cue::People),
    (&["roommates"], Cue::People),
    (&["housemates"], Cue::People),
    (&["flatmates"], Cue::People),
    (&["colleagues"], Cue::People),
    (&["coworkers"], Cue::People),
    (&["mates"], Cue::People),
    (&["buddies"], Cue::People),
    (&["others"], Cue::People),
    (&["of", "us"], Cue::People),
    (&["of", "them"], Cue::People),
    (&["người"], Cue::People),
    (&["đứa"], Cue::People),
    (&["bạn"], Cue::People),
    (&["each", "person"], Cue::Each),
    (&["per", "person"], Cue::Each),
    (&["per", "head"], Cue::Each),
    (&["mỗi", "người"], Cue::Each),
    (&["mỗi", "đứa"], Cue::Each),
    (&["each"], Cue::Each),
    (&["apiece"], Cue::Each),
    // (`mỗi cái`, `mỗi ly` also teach how `moi cai` reads folded: each, not `mới`.)
    (&["mỗi", "cái"], Cue::EachLead),
    (&["mỗi", "ly"], Cue::EachLead),
    (&["mỗi"], Cue::EachLead),
    (&["at"], Cue::At),
    (&["tiền", "tip"], Cue::Tip),
    (&["tiền", "boa"], Cue::Tip),
    (&["tip"], Cue::Tip),
    // (`paid $65 for a gel set and tipped 20%`.)
    (&["tipped"], Cue::Tip),
    (&["tips"], Cue::Tip),
    (&["gratuity"], Cue::Tip),
    (&["boa"], Cue::Tip),
    (&["on", "top"], Cue::Plus),
    (&["plus"], Cue::Plus),
    (&["add"], Cue::Plus),
    (&["added"], Cue::Plus),
    (&["including"], Cue::Plus),
    (&["with"], Cue::Plus),
    (&["total"], Cue::Plus),
    (&["kèm"], Cue::Plus),
    (&["thêm"], Cue::Plus),
    // A markup added to a cost (`cộng lãi 30%`, `lấy lãi 25%`): the selling price.
    (&["cộng", "lãi"], Cue::More),
    (&["lấy", "lãi"], Cue::More),
    (&["markup"], Cue::More),
    (&["mark", "up"], Cue::More),
    (&["cộng"], Cue::Plus),
    (&["how", "much", "off"], Cue::OffAsked),
    (&["save"], Cue::OffAsked),
    (&["saved"], Cue::OffAsked),
    (&["saving"], Cue::OffAsked),
    (&["savings"], Cue::OffAsked),
    (&["bớt", "bao", "nhiêu"], Cue::OffAsked),
    (&["giảm", "bao", "nhiêu"], Cue::OffAsked),
    (&["bớt", "được", "bao", "nhiêu"], Cue::OffAsked),
    (&["giảm", "được", "bao", "nhiêu"], Cue::OffAsked),
    (&["how", "much", "is", "the", "discount"], Cue::OffAsked),
    (&["how", "much", "discount"], Cue::OffAsked),
    (&["tiết", "kiệm"], Cue::OffAsked),
    (&["tổng"], Cue::Plus),
    (&["off"], Cue::Less),
    // `22% goes to tax, what do I take home`: what is left.
    (&["take", "home"], Cue::Less),
    (&["net"], Cue::Less),
    // `giày 890k sale 25%`, `on sale 30%` (a sales tax is a tax).
    (&["sales", "tax"], Cue::Tax),
    (&["sale", "tax"], Cue::Tax),
    (&["sale"], Cue::Less),
    // `lương 9tr5 trừ 10,5% bảo hiểm còn bao nhiêu`.
    (&["trừ"], Cue::Less),
    (&["discount"], Cue::Less),
    (&["discounted"], Cue::Less),
    (&["decrease"], Cue::Less),
    (&["decreased"], Cue::Less),
    (&["reduce"], Cue::Less),
    (&["reduced"], Cue::Less),
    (&["lower"], Cue::Less),
    (&["lowered"], Cue::Less),
    (&["down"], Cue::Less),
    (&["drops"], Cue::Less),
    (&["cut"], Cue::Less),
    (&["less"], Cue::Less),
    (&["giảm", "giá"], Cue::Less),
    (&["giảm"], Cue::Less),
    (&["bớt"], Cue::Less),
    (&["increase"], Cue::More),
    (&["increased"], Cue::More),
    (&["raise"], Cue::More),
    (&["raised"], Cue::More),
    (&["up"], Cue::More),
    (&["rises"], Cue::More),
    (&["grows"], Cue::More),
    (&["more"], Cue::More),
    (&["tăng", "thêm"], Cue::More),
    (&["tăng"], Cue::More),
    (&["of"], Cue::Of),
    (&["on"], Cue::Of),
    // `30% goes on rent`, `bảo hiểm 10,5% thì mất bao nhiêu`: a share of the amount (not
    // `đóng`: as a literal it would fold `dong`, the currency, into it).
    (&["goes"], Cue::Of),
    // `cọc trước 30%`: a deposit is a share of the amount.
    (&["cọc"], Cue::Of),
    (&["spend"], Cue::Of),
    // `sending 60% home`: the share sent.
    (&["sending"], Cue::Of),
    (&["send"], Cue::Of),
    (&["spent"], Cue::Of),
    (&["nộp"], Cue::Of),
    (&["mất"], Cue::Of),
    // `… 10% tax, what do I pay`: the total.
    (&["pay"], Cue::Plus),
    (&["trả"], Cue::Plus),
    (&["của"], Cue::Of),
    (&["trên"], Cue::Of),
    (&["dozen"], Cue::Times("12")),
    (&["dozens"], Cue::Times("12")),
    (&["pairs"], Cue::Times("2")),
    (&["pair"], Cue::Times("2")),
    (&["chục"], Cue::Times("10")),
    (&["tá"], Cue::Times("12")),
    (&["cặp"], Cue::Times("2")),
    (&["đôi"], Cue::Times("2")),
    (&["per"], Cue::Per),
    (&["from"], Cue::From),
    (&["từ"], Cue::From),
    (&["to"], Cue::To),
    (&["lên"], Cue::To),
    (&["xuống"], Cue::To),
    (&["đến"], Cue::To),
    (&["percent"], Cue::PercentWord),
    (&["percentage"], Cue::PercentWord),
    (&["phần", "trăm"], Cue::PercentWord),
    (&["change"], Cue::Change),
    // (Before `lãi`: `lãi kép`, `lãi nhập gốc` compound.)
    (&["lãi", "kép"], Cue::Compound),
    (&["lãi", "nhập", "gốc"], Cue::Compound),
    (&["nhập", "gốc"], Cue::Compound),
    (&["interest"], Cue::Interest),
    (&["tiền", "lãi"], Cue::Interest),
    (&["lãi", "suất"], Cue::Interest),
    (&["lãi"], Cue::Interest),
    // (`vốn 8.400.000 lời 12%`: the profit on it, as `lãi`.)
    (&["lời"], Cue::Interest),
    (&["compounded"], Cue::Compound),
    (&["compound"], Cue::Compound),
    (&["compounding"], Cue::Compound),
    (&["tax"], Cue::Tax),
    (&["taxes"], Cue::Tax),
    (&["gst"], Cue::Tax),
    (&["hst"], Cue::Tax),
    (&["pst"], Cue::Tax),
    (&["vat"], Cue::Tax),
    (&["thuế"], Cue::Tax),
    // `lương 15 triệu, đóng bảo hiểm 10,5% thì là bao nhiêu tiền`: a levy, as a tax.
    (&["bảo", "hiểm"], Cue::Tax),
    (&["insurance"], Cue::Tax),
    // `grab takes 20% commission, he made 1,380,000, how much does he keep`: kept
    // back from the amount, like a discount — by `takes`, `keep`, `trừ`; a commission
    // alone is the share itself (`my commission is 55% of 1,840, how much do i get`).
    (&["takes"], Cue::Less),
    // (`the app keeps 25% commission on 840k`: kept back by someone else.)
    (&["keeps"], Cue::Less),
    (&["commission"], Cue::Of),
    // `công ty hoàn lại 70%, được hoàn bao nhiêu`: the share refunded.
    (&["hoàn", "lại"], Cue::Of),
    (&["refund"], Cue::Of),
    (&["refunds"], Cue::Of),
    (&["surcharge"], Cue::More),
    (&["withhold"], Cue::Less),
    // `10% of 4,860 gets withheld, how much is that`: the share withheld.
    (&["withheld"], Cue::Of),
    (&["withholds"], Cue::Less),
    (&["hoa", "hồng"], Cue::Less),
    (&["chiết", "khấu"], Cue::Less),
    (&["dropped"], Cue::Less),
    (&["drop"], Cue::Less),
    (&["fell"], Cue::Less),
    (&["went", "down"], Cue::Less),
    (&["went", "up"], Cue::More),
    (&["goes", "up"], Cue::More),
    (&["go", "up"], Cue::More),
    (&["rose"], Cue::More),
];

/// Occasions money is for: they only name it.
pub(super) const OCCASIONS: &[&[&str]] = &[
    &["đám", "giỗ"],
    &["đám", "cưới"],
    &["đám", "hỏi"],
    &["sinh", "nhật"],
];

/// Names of an amount made of cue words, that only decorate it (`tip pool $1,236
/// shared by 9 crew`: the tips pooled, no tip to add).
pub(super) const NAMED_AMOUNTS: &[&[&str]] = &[
    &["tip", "pool"],
    &["tips", "pool"],
    &["tip", "jar"],
    &["tips", "jar"],
];

/// Verbs with `up` that raise nothing (`up` alone is a rise: `went up 4%`).
pub(super) const VERBS_WITH_UP: &[&[&str]] = &[
    &["filled", "up"],
    &["fill", "up"],
    &["filling", "up"],
    &["topped", "up"],
    &["top", "up"],
    &["drove", "up"],
    &["picked", "up"],
    &["pick", "up"],
    &["add", "up"],
    &["adds", "up"],
    &["came", "up"],
    &["comes", "up"],
];
