//! Quantity frames: the last reading of an everyday problem before a request is asked
//! about or refused. Every number is given one role from the words beside it — a
//! percentage, a rate (`1,250,000 per head`, `700k/đêm`, `mỗi bàn 8tr9`), a count of
//! something (`180 guests`, `4 đêm`), the size of a group (`tables of 10`, `bàn 10
//! người`) or a bare amount — and the roles together must fit exactly one frame:
//!
//! - **a rate times its counts**, then any percentages said with a cue
//!   (`staff meal 25 staff x 80k, plus 10% tip on top, total`; `Ăn sáng 50.000đ một
//!   khách, 3 khách ăn 5 buổi sáng`), or one amount and its percentages alone (`phí
//!   phục vụ 5% trên 221 triệu`, `booking ăn 15% trên 4tr5 thì mình còn bao nhiêu`);
//! - **an amount shared by a count** (`tip pool is 4,500,000 split evenly among 18
//!   staff`, `12,600,000 from 18 room nights, avg per night`);
//! - **groups of a size for a count of people** (`137 guests, tables of 10, how many
//!   tables`, `khách 256 người, bàn 10 người, cần bao nhiêu bàn`), rounded up, or the
//!   full groups and who is left over when both are asked;
//! - **a part of a whole as a percentage** (`5 of our 8 rooms are booked, occupancy in
//!   %`, `168 đêm trên tổng số 240 đêm, bao nhiêu phần trăm`).
//!
//! Words are compared folded (without marks), so a word typed without its marks that
//! the normaliser could not settle still counts; for the same reason this file's words
//! are not taught to the normaliser (`build.rs` skips it). A number no role explains, an operator
//! between numbers, a date, a clock time or an age leave the request to be asked about
//! or refused: never a guess.

use crate::arith::{ListOp, list_expr};
use crate::expr::{Expr, MathOp};
use crate::lexer::{Tok, Token};
use crate::normalise::fold::fold;

/// Words that count people (folded and singular when compared).
const PEOPLE: &[&str] = &[
    "guest",
    "people",
    "person",
    "ppl",
    "pax",
    "head",
    "staff",
    "employee",
    "worker",
    "friend",
    "member",
    "kid",
    "child",
    "children",
    "student",
    "adult",
    "customer",
    "client",
    "tourist",
    "passenger",
    "người",
    "khách",
    "suất",
    "đứa",
    "ng",
    "nv",
    "nhân",
    "học",
];

/// What people sit or travel in: the groups of a size.
const GROUPS: &[&str] = &[
    "table", "room", "car", "van", "boat", "bus", "buse", "group", "team", "box", "boxe", "bag",
    "tray", "row", "taxi", "bàn", "mâm", "phòng", "xe", "thuyền", "nhóm", "đội", "hộp", "thùng",
    "khay",
];

/// Periods and occasions a rate is paid again for (`5 buổi sáng`, `4 nights`).
const PERIODS: &[&str] = &[
    "night", "day", "morning", "evening", "week", "month", "year", "time", "shift", "hour", "trip",
    "session", "meal", "lesson", "đêm", "ngày", "buổi", "tuần", "tháng", "năm", "lần", "ca", "giờ",
    "tiếng", "chuyến", "bữa", "hôm", "tối", "sáng",
];

/// Words for one and the same thing: a rate per one of them meets a count of another.
const SAME: &[&[&str]] = &[
    &["night", "đêm"],
    &["kg", "kilo", "kilogram", "ký", "kí", "cân"],
    &["day", "ngày", "hôm"],
    &["table", "bàn", "mâm"],
    &["room", "phòng"],
    &["week", "tuần"],
    &["month", "tháng"],
    &["hour", "giờ", "tiếng", "hr"],
    &["bottle", "chai"],
    &["cup", "ly", "cốc"],
    &["box", "boxe", "hộp", "thùng"],
    &["ticket", "vé"],
    &["morning", "buổi", "sáng"],
];

/// What an amount can be shared among besides people (`chia 2 nhà`, `2 families`).
const SHARERS: &[&str] = &[
    "way",
    "family",
    "familie",
    "household",
    "side",
    "part",
    "instalment",
    "installment",
    "nhà",
    "bên",
    "phần",
    "đợt",
    "kỳ",
    "gia",
    "hộ",
];

/// Words that tie a number to the one thing it is paid for (`per head`, `700k/đêm`).
const TIES: &[&str] = &["per", "a", "an", "every", "mỗi", "một", "1", "/"];

/// Words after a number that say it is paid for each one (`35k each`).
const EACH: &[&str] = &["each", "apiece", "ea"];

/// Words joining a count and a price (`25 staff x 80k`, `180 guests at 1,250,000`).
const TIMES: &[&str] = &["x", "*", "at", "@"];

/// Words that never name what a number counts.
const NOT_NOUNS: &[&str] = &[
    "and", "or", "to", "of", "at", "for", "in", "on", "the", "is", "are", "was", "from", "with",
    "so", "plus", "minus", "more", "then", "but", "now", "total", "tip", "each", "per", "x", "lol",
    "ok", "pls", "what", "whats", "how", "much", "và", "hay", "là", "thì", "trên", "còn", "nữa",
    "rồi", "thôi", "tổng", "mà", "cho", "với", "của", "bao", "nhiêu", "mấy", "split", "among",
    "between", "by", "off", "discount", "deposit", "extra", "more",
];

/// Cues for a levy (`10% tip`, `phí phục vụ 5%`): added when the whole is asked, else
/// the levy itself.
const UP: &[&[&str]] = &[
    &["tip"],
    &["tips"],
    &["service"],
    &["svc"],
    &["vat"],
    &["tax"],
    &["gst"],
    &["surcharge"],
    &["markup"],
    &["extra"],
    &["phụ", "thu"],
    &["phục", "vụ"],
    &["dịch", "vụ"],
    &["phí"],
    &["thuế"],
    &["boa"],
];

/// Cues that add a percentage whatever is asked (`add 10% service`, `thêm 5%`).
const ADD: &[&[&str]] = &[
    &["on", "top"],
    &["add"],
    &["plus"],
    &["thêm"],
    &["cộng"],
    &["tăng"],
];

/// Cues for a percentage taken off what is paid (`minus 15%`, `giảm 10%`).
const DOWN: &[&[&str]] = &[
    &["discount"],
    &["off"],
    &["minus"],
    &["less"],
    &["deduct"],
    &["giảm"],
    &["chiết", "khấu"],
    &["trừ"],
    &["bớt"],
];

/// Cues for a percentage someone takes (`15% commission`, `Booking lấy 15%`): the
/// share itself, unless what is left is asked.
const TAKEN: &[&[&str]] = &[
    &["commission"],
    &["fee"],
    &["hoa", "hồng"],
    &["ăn"],
    &["lấy"],
];

/// Cues for a percentage that is a share paid (`20% deposit`, `trả 55%`).
const SHARE: &[&[&str]] = &[
    &["deposit"],
    &["upfront"],
    &["down", "payment"],
    &["pay"],
    &["pays"],
    &["cọc"],
    &["trả"],
    &["chịu"],
];

/// Words asking the price before a levy that a price includes (`giá chưa thuế`,
/// `before tax`, `excluding GST`).
const BEFORE_LEVY: &[&[&str]] = &[
    &["before", "tax"],
    &["pre", "tax"],
    &["pretax"],
    &["excluding"],
    &["excl"],
    &["ex", "gst"],
    &["ex", "vat"],
    &["without", "tax"],
    &["without", "vat"],
    &["without", "gst"],
    &["chưa", "thuế"],
    &["chưa", "vat"],
    &["trước", "thuế"],
    &["chưa", "tính", "thuế"],
];

/// Words saying a price includes its levy (`đã gồm VAT`, `incl. GST`).
const INCLUDES: &[&[&str]] = &[
    &["including"],
    &["incl"],
    &["inclusive"],
    &["includes"],
    &["included"],
    &["with", "tax"],
    &["đã", "gồm"],
    &["bao", "gồm"],
    &["gồm"],
    &["đã", "có"],
];

/// Whether `toks` ask the price before a levy the price includes.
pub fn asks_before_levy(toks: &[Token]) -> bool {
    if !toks.iter().any(|t| t.is_sym('%')) {
        return false;
    }
    let w = Words::new(toks);
    w.says(BEFORE_LEVY) && w.says(INCLUDES)
}

/// Words asking what is left once a percentage is taken.
const LEFT: &[&[&str]] = &[
    &["left"],
    &["remaining"],
    &["remain"],
    &["keep"],
    &["net"],
    &["take", "home"],
    &["còn"],
    &["còn", "lại"],
    &["nhận", "được"],
];

/// Words asking the whole after a percentage (`final number`, `giá cuối tuần`).
const WHOLE: &[&[&str]] = &[
    &["total"],
    &["final"],
    &["altogether"],
    &["in", "all"],
    &["price"],
    &["bill"],
    &["new"],
    &["tổng"],
    &["hết"],
];

/// Cues for an amount shared by a count.
const SPLIT: &[&[&str]] = &[
    &["split"],
    &["divide"],
    &["divided"],
    &["among"],
    &["between"],
    &["evenly"],
    &["each"],
    &["avg"],
    &["average"],
    &["per"],
    &["chia"],
    &["đều"],
    &["mỗi"],
    &["trung", "bình"],
];

/// Words asking how many.
const HOW_MANY: &[&[&str]] = &[
    &["how", "many"],
    &["bao", "nhiêu"],
    &["mấy"],
    &["bn"],
    &["need"],
    &["cần"],
];

/// Words asking for the full groups (with who is left over).
const FULL: &[&[&str]] = &[&["full"], &["đủ"], &["chẵn"]];

/// Words asking who is left over.
const LEFT_OVER: &[&[&str]] = &[
    &["left", "over"],
    &["leftover"],
    &["left"],
    &["remainder"],
    &["dư"],
    &["lẻ"],
    &["thừa"],
];

/// Words saying a number is a percentage (`15 percent`, `20 phần trăm`).
const PERCENT_WORDS: &[&[&str]] = &[&["percent"], &["percentage"], &["pct"], &["phần", "trăm"]];

/// Words asking a percentage (besides the percentage words themselves).
const PERCENT_ASKED: &[&[&str]] = &[&["occupancy"], &["công", "suất"]];

/// Words that make the request another question (a date, an age, a time, a change).
const OTHER_QUESTION: &[&[&str]] = &[
    &["born"],
    &["age"],
    &["old"],
    &["weekday"],
    &["date"],
    &["sinh"],
    &["tuổi"],
    &["thứ", "mấy"],
    &["ngày", "mấy"],
    &["mấy", "giờ"],
    &["what", "time"],
    &["tỉ", "giá"],
    &["tỷ", "giá"],
    &["bought"],
    &["sold"],
    // (`lãi` alone folds like `lại`, again: only `lãi suất`, an interest rate.)
    &["lãi", "suất"],
    &["interest"],
    &["went"],
    &["exchange"],
    &["am"],
    &["pm"],
    &["tonight"],
    &["book", "me"],
    &["reserve"],
];

/// What a number is in the request.
#[derive(Debug, Clone, PartialEq)]
enum Role {
    /// `15%`.
    Percent,
    /// Paid for each one of `unit` (`None`: each of whatever is counted).
    Rate(Option<String>),
    /// A count of what the one or two words after it name (`18 room nights`).
    Count(Vec<String>),
    /// The size of a group of `group`.
    GroupSize(String),
    /// A bare amount.
    Amount,
}

/// One number and its role.
#[derive(Debug, Clone)]
struct Quantity {
    value: String,
    at: usize,
    role: Role,
}

/// The request's words, folded and singular, with the tokens' positions.
struct Words<'a> {
    toks: &'a [Token],
    keys: Vec<Option<String>>,
}

impl<'a> Words<'a> {
    fn new(toks: &'a [Token]) -> Self {
        let keys = toks
            .iter()
            .map(|t| match &t.tok {
                Tok::Word(w) => Some(key(w)),
                Tok::Sym(c) if matches!(c, '/' | '*' | '@') => Some(c.to_string()),
                _ => None,
            })
            .collect();
        Words { toks, keys }
    }

    fn word(&self, i: usize) -> Option<&str> {
        self.keys.get(i).and_then(|k| k.as_deref())
    }

    /// Whether the phrase `p` (compared folded) starts at `i`.
    fn at(&self, i: usize, p: &[&str]) -> bool {
        p.iter()
            .enumerate()
            .all(|(k, w)| self.word(i + k).is_some_and(|t| is_key(w, t)))
    }

    /// Whether any of `phrases` is said anywhere.
    fn says(&self, phrases: &[&[&str]]) -> bool {
        (0..self.toks.len()).any(|i| phrases.iter().any(|p| self.at(i, p)))
    }

    /// Whether any of `phrases` is said within `before` tokens before `i` or `after`
    /// tokens after it.
    fn near(&self, i: usize, before: usize, after: usize, phrases: &[&[&str]]) -> bool {
        let end = (i + after + 1).min(self.toks.len());
        (i.saturating_sub(before)..end).any(|k| k != i && phrases.iter().any(|p| self.at(k, p)))
    }
}

/// Whether the listed word `w` has the key `k`, with no allocation for a lowercase
/// ASCII word and one per thread for any other (planning stays in microseconds).
fn is_key(w: &str, k: &str) -> bool {
    if w.bytes()
        .all(|b| b.is_ascii_lowercase() || !b.is_ascii_alphabetic())
        && w.is_ascii()
    {
        return singular(w) == k;
    }
    thread_local! {
        static KEYS: std::cell::RefCell<std::collections::HashMap<Box<str>, Box<str>>> =
            Default::default();
    }
    KEYS.with(|keys| {
        if let Some(v) = keys.borrow().get(w) {
            return &**v == k;
        }
        let v = key(w);
        let same = v == k;
        keys.borrow_mut().insert(w.into(), v.into());
        same
    })
}

/// `f` without a plural's `s` (`guests` → `guest`; `plus`, `gas`, `this` kept).
fn singular(f: &str) -> &str {
    let keep = ["ss", "us", "is"].iter().any(|e| f.ends_with(e));
    if f.len() > 3 && f.ends_with('s') && !keep {
        &f[..f.len() - 1]
    } else {
        f
    }
}

/// `w` folded and singular (`guests` → `guest`, `khách` → `khach`).
fn key(w: &str) -> String {
    let f = fold(&w.to_lowercase());
    let keep = ["ss", "us", "is"].iter().any(|e| f.ends_with(e));
    if f.len() > 3 && f.ends_with('s') && !keep {
        f[..f.len() - 1].to_owned()
    } else {
        f
    }
}

fn is_in(list: &[&str], k: &str) -> bool {
    list.iter().any(|w| is_key(w, k))
}

fn is_person(k: &str) -> bool {
    is_in(PEOPLE, k)
}

fn is_group(k: &str) -> bool {
    is_in(GROUPS, k)
}

fn is_period(k: &str) -> bool {
    is_in(PERIODS, k)
}

/// Whether a rate per `unit` is paid for each of a count of `noun`.
fn same_thing(unit: &str, noun: &str) -> bool {
    unit == noun
        || (is_person(unit) && is_person(noun))
        || SAME.iter().any(|set| is_in(set, unit) && is_in(set, noun))
}

/// Whether a word can name what a number counts.
fn is_noun(k: &str) -> bool {
    !is_in(NOT_NOUNS, k) && !is_in(TIES, k) && k.chars().all(char::is_alphabetic)
}

/// The parts `toks` ask, read as one quantity frame; `None` unless exactly one fits.
pub fn parse(toks: &[Token]) -> Option<Vec<Expr>> {
    // (A weight in another unit than its price's is read in the price's unit first:
    // `3 tạ … 98.500đ/kg` is 300 kg.)
    let rewritten = crate::weights::in_price_unit(toks);
    let toks = rewritten.as_deref().unwrap_or(toks);
    let w = Words::new(toks);
    if toks.iter().any(|t| matches!(t.tok, Tok::Date(_)))
        || crate::lexer::has_clock_time(toks)
        || w.says(OTHER_QUESTION)
        || from_to(&w)
    {
        return None;
    }
    // (`9.5 + 12 + 7.5 + 11` among words: a list summed, the only frame an operator
    // between numbers may belong to.)
    if operator_between_numbers(toks) {
        return only_plus_between(toks)
            .then(|| roles(&w))
            .flatten()
            .and_then(|q| listed(&w, &q))
            .map(|e| vec![e]);
    }
    let quantities = roles(&w)?;
    if quantities.len() < 2 {
        return None;
    }
    if let Some(e) = listed(&w, &quantities) {
        return Some(vec![e]);
    }
    groups(&w, &quantities)
        .or_else(|| part_of_whole(&w, &quantities))
        .or_else(|| shared(&w, &quantities).map(|e| vec![e]))
        .or_else(|| priced(&w, &quantities).map(|e| vec![e]))
}

/// The parts a follow-up asks of the last answer `value`, read as one quantity frame
/// with `value` as its amount: `add 10% service`, `minus booking's 15%`, `split that
/// between the 2 families`. The follow-up itself gives no amount of its own.
pub fn parse_after(value: &str, toks: &[Token]) -> Option<Vec<Expr>> {
    let own = roles(&Words::new(toks))?;
    if own.is_empty() || own.iter().any(|q| q.role == Role::Amount) {
        return None;
    }
    let first = Token {
        tok: Tok::Num(value.to_owned()),
        start: 0,
        end: 0,
    };
    // (A comma after it: the answer is an amount, never a count of the next word.)
    let comma = Token {
        tok: Tok::Sym(','),
        start: 0,
        end: 0,
    };
    let with: Vec<Token> = [first, comma]
        .into_iter()
        .chain(toks.iter().cloned())
        .collect();
    parse(&with)
}

/// Words of an operation that goes on from the last answer with one amount (`times
/// 15,480 won`, `minus the 150 million dad owes`, `trừ tiền sữa 420k nữa`).
const GO_ON: &[(&[&str], MathOp)] = &[
    (&["times"], MathOp::Multiply),
    (&["multiply"], MathOp::Multiply),
    (&["multiplied"], MathOp::Multiply),
    (&["nhân"], MathOp::Multiply),
    (&["minus"], MathOp::Subtract),
    (&["subtract"], MathOp::Subtract),
    (&["take", "off"], MathOp::Subtract),
    (&["trừ"], MathOp::Subtract),
    (&["bớt"], MathOp::Subtract),
    (&["plus"], MathOp::Sum),
    (&["add"], MathOp::Sum),
    (&["cộng"], MathOp::Sum),
    (&["thêm"], MathOp::Sum),
    (&["divide"], MathOp::Divide),
    (&["divided"], MathOp::Divide),
    (&["chia"], MathOp::Divide),
];

/// Words that go on from the last answer with no amount: (phrase, operation, operand).
const BY_ITSELF: &[(&[&str], MathOp, &str)] = &[
    (&["halve"], MathOp::Divide, "2"),
    (&["half"], MathOp::Divide, "2"),
    (&["double"], MathOp::Multiply, "2"),
    (&["triple"], MathOp::Multiply, "3"),
    (&["chia", "đôi"], MathOp::Divide, "2"),
    (&["một", "nửa"], MathOp::Divide, "2"),
    (&["gấp", "đôi"], MathOp::Multiply, "2"),
    (&["gấp", "ba"], MathOp::Multiply, "3"),
];

/// Currency words: a number they follow is an amount, not a count of them.
const CURRENCY: &[&str] = &[
    "won", "dong", "đồng", "vnd", "usd", "dollar", "euro", "eur", "yen", "aud", "baht", "đô",
];

/// A follow-up that goes on from the last answer `value` by one operation and at most
/// one amount, whatever words name them (`times 15,480 won`, `add my base pay
/// 1,848,000 to that`, `then halve it, half goes to savings`). Two operations, a
/// count of something (`thêm 3 người nữa` adds people, not 3), a percentage, a date or
/// another question: no reading.
pub fn go_on(value: &str, toks: &[Token]) -> Option<Expr> {
    let w = Words::new(toks);
    if toks
        .iter()
        .any(|t| matches!(t.tok, Tok::Date(_)) || t.is_sym('%'))
        || crate::lexer::has_clock_time(toks)
        || w.says(OTHER_QUESTION)
        || operator_between_numbers(toks)
    {
        return None;
    }
    let ops: Vec<MathOp> = (0..toks.len())
        .filter_map(|i| GO_ON.iter().find(|(p, _)| w.at(i, p)).map(|(_, op)| *op))
        .collect();
    let alone: Vec<(MathOp, &str)> = (0..toks.len())
        .filter_map(|i| {
            BY_ITSELF
                .iter()
                .find(|(p, _, _)| w.at(i, p))
                .map(|(_, op, n)| (*op, *n))
        })
        .collect();
    let quantities = roles(&w)?;
    let last = Expr::Num(value.to_owned());
    match quantities.as_slice() {
        [] => {
            let (op, n) = *alone.first()?;
            let one_kind = alone.iter().all(|a| *a == (op, n)) && ops.iter().all(|o| *o == op);
            one_kind.then(|| Expr::bin(op, last, Expr::Num(n.to_owned())))
        }
        [q] => {
            let amount = match &q.role {
                Role::Amount => true,
                Role::Count(nouns) => big(&q.value) || nouns.iter().any(|n| is_in(CURRENCY, n)),
                _ => false,
            };
            let op = *ops.first()?;
            if !amount || !alone.is_empty() || ops.iter().any(|o| *o != op) {
                return None;
            }
            // (`subtract that from 500`, `divide 1000 by it`: the answer is not first.)
            let reversed = w.says(&[&["from"], &["into"], &["by", "that"], &["by", "it"]]);
            if reversed && matches!(op, MathOp::Subtract | MathOp::Divide) {
                return None;
            }
            let n = Expr::Num(q.value.clone());
            // (`add that to the 40`: the amount as said, after the answer named first.)
            let named_first = (0..q.at).any(|k| matches!(w.word(k), Some("that" | "it")));
            Some(match op {
                MathOp::Sum if named_first => Expr::bin(op, n, last),
                _ => Expr::bin(op, last, n),
            })
        }
        _ => None,
    }
}

/// Words asking a total.
const SUM_OF: &[&[&str]] = &[
    &["tổng"],
    &["cộng"],
    &["total"],
    &["add"],
    &["sum"],
    &["together"],
];

/// Words naming the last two answers (`both`, `cả hai`, `hai đứa`, `2 lần`).
const BOTH: &[&[&str]] = &[
    &["both"],
    &["cả", "hai"],
    &["hai", "đứa"],
    &["hai", "lần"],
    &["hai", "bên"],
];

/// Whether a follow-up asks the sum of the last two answers (`Cộng tiền công hai đứa
/// lại`, `tổng 2 lần bn`, `add both up`): no number but the two it names.
pub fn asks_both_summed(toks: &[Token]) -> bool {
    let w = Words::new(toks);
    let nums = crate::lexer::number_positions(toks);
    let two = match nums.as_slice() {
        [] => false,
        [k] => {
            toks[*k].number() == Some("2")
                && matches!(w.word(k + 1), Some("lan" | "dua" | "ben" | "khoan"))
        }
        _ => return false,
    };
    w.says(SUM_OF) && (two || w.says(BOTH)) && !w.says(OTHER_QUESTION)
}

/// List cues: (phrase, operation).
const LIST_CUES: &[(&[&str], ListOp)] = &[
    (&["total"], ListOp::Sum),
    (&["sum"], ListOp::Sum),
    (&["altogether"], ListOp::Sum),
    (&["add", "up"], ListOp::Sum),
    (&["tổng"], ListOp::Sum),
    (&["cộng"], ListOp::Sum),
    (&["average"], ListOp::Mean),
    (&["avg"], ListOp::Mean),
    (&["mean"], ListOp::Mean),
    (&["gpa"], ListOp::Mean),
    (&["trung", "bình"], ListOp::Mean),
    (&["cheapest"], ListOp::Min),
    (&["lowest"], ListOp::Min),
    (&["smallest"], ListOp::Min),
    (&["least"], ListOp::Min),
    (&["min"], ListOp::Min),
    (&["rẻ", "nhất"], ListOp::Min),
    (&["thấp", "nhất"], ListOp::Min),
    (&["nhỏ", "nhất"], ListOp::Min),
    (&["ít", "nhất"], ListOp::Min),
    (&["highest"], ListOp::Max),
    (&["biggest"], ListOp::Max),
    (&["largest"], ListOp::Max),
    (&["most"], ListOp::Max),
    (&["max"], ListOp::Max),
    (&["đắt", "nhất"], ListOp::Max),
    (&["cao", "nhất"], ListOp::Max),
    (&["lớn", "nhất"], ListOp::Max),
    (&["nhiều", "nhất"], ListOp::Max),
];

/// Whether every operator between two numbers is a `+`.
fn only_plus_between(toks: &[Token]) -> bool {
    toks.windows(3).all(|t| {
        !(t[0].number().is_some()
            && matches!(t[1].tok, Tok::Sym('-' | '^' | '=' | '*' | '/'))
            && t[2].number().is_some())
    }) && !toks
        .iter()
        .any(|t| matches!(t.tok, Tok::Sym('(' | ')' | '^' | '=')))
}

/// A list of three or more amounts with one list operation asked (`my grades this yr:
/// 6, 7, 5, 6, 7. whats my gpa`, `quotes from 4 shops: 640k, 615k, 655k, 620k a bag.
/// which one is cheapest`, `Cộng giúp chị 3 hóa đơn: 2,5 triệu; 1tr2; 875.000đ`), or
/// joined by `+` alone. A count of the items (`4 shops`, `3 hóa đơn`, `the last 4
/// months`) and a scale (`marks out of 20`) are no items; a percentage is another
/// question.
fn listed(w: &Words, q: &[Quantity]) -> Option<Expr> {
    if q.iter().any(|x| x.role == Role::Percent) {
        return None;
    }
    let scale = |x: &Quantity| {
        x.at >= 2 && w.word(x.at - 1) == Some("of") && w.word(x.at - 2) == Some("out")
    };
    let mut items: Vec<&Quantity> = q.iter().filter(|x| !scale(x)).collect();
    // The count of the items, said before or after them.
    let counted = |items: &[&Quantity], x: &Quantity| {
        matches!(x.role, Role::Count(_))
            && x.value.parse::<usize>().ok() == Some(items.len() - 1)
            && (x.at < items[1].at || x.at > items[items.len() - 2].at)
    };
    if items.len() >= 4
        && let Some(k) = items.iter().position(|x| counted(&items, x))
    {
        items.remove(k);
    }
    if items.len() < 3 {
        return None;
    }
    // Items are amounts (`5 đô`, `2.3m won`, the last one's `a bag` said of all), never
    // counts of people, groups or periods (`4 khách ăn 2 buổi` is a product).
    // (`14 waiters 200k each plus 2 captains 500k each` is priced items, no list.)
    let last = items.len() - 1;
    let first_noun = |x: &Quantity| match &x.role {
        Role::Count(nouns) => nouns.first().cloned(),
        _ => None,
    };
    let all_counted_alike = items
        .iter()
        .all(|x| first_noun(x).is_some() && first_noun(x) == first_noun(items[0]));
    let item = |(k, x): (usize, &&Quantity)| match &x.role {
        Role::Amount => true,
        Role::Rate(Some(_)) => k == last,
        Role::Count(nouns) => {
            let thing = nouns
                .iter()
                .all(|n| !is_person(n) && !is_group(n) && !is_period(n));
            thing && (is_in(CURRENCY, &nouns[0]) || all_counted_alike)
        }
        _ => false,
    };
    if !items.iter().enumerate().all(item) {
        return None;
    }
    let ops: Vec<ListOp> = (0..w.toks.len())
        .filter_map(|i| {
            LIST_CUES
                .iter()
                .find(|(p, _)| w.at(i, p))
                .map(|(_, op)| *op)
        })
        .collect();
    let plus_only = items
        .windows(2)
        .all(|p| p[1].at == p[0].at + 2 && w.toks[p[0].at + 1].is_sym('+'));
    let op = match ops.first() {
        Some(op) if ops.iter().all(|o| o == op) => *op,
        None if plus_only => ListOp::Sum,
        _ => return None,
    };
    // Only separators, labels and units between the items: no number of another kind.
    let values = items.iter().map(|x| Expr::Num(x.value.clone())).collect();
    list_expr(op, values)
}

/// Words that end one priced item and start the next (`… với 3 ly đen đá 20k`).
const ITEM_BREAKS: &[&str] = &["plus", "and", "với", "và"];

/// Priced items summed: two or more items, each a price and the counts it is paid for
/// (`Khách mua 4 ly bạc xỉu 29k với 3 ly đen đá 20k, tổng tiền`, `14 waiters 200k each
/// plus 2 captains 500k each, total?`, `8 ng x 260k x 12 ngay, 5 ng x 240k x 10
/// ngay`), the total asked. In an item the price is its rate (`200k each`, `mỗi ng
/// 150k`) or its one amount of money (1,000 or more) beside counts under 1,000; any
/// other item, a percentage or a date leaves the request to the other readers.
pub fn priced_items(toks: &[Token]) -> Option<Expr> {
    // (Two items hold four numbers at least: no words folded for fewer.)
    if crate::lexer::number_positions(toks).len() < 4 {
        return None;
    }
    let w = Words::new(toks);
    if toks
        .iter()
        .any(|t| matches!(t.tok, Tok::Date(_)) || t.is_sym('%'))
        || crate::lexer::has_clock_time(toks)
        || w.says(OTHER_QUESTION)
        || !(w.says(SUM_OF) || w.says(HOW_MUCH))
    {
        return None;
    }
    let quantities = roles(&w)?;
    let breaks: Vec<usize> = (0..toks.len())
        .filter(|&i| {
            matches!(toks[i].tok, Tok::Sym(',' | ';' | '.' | '+' | '&'))
                || toks[i]
                    .word()
                    .is_some_and(|x| ITEM_BREAKS.iter().any(|b| key(b) == key(x)))
        })
        .collect();
    let clause = |at: usize| breaks.iter().filter(|&&b| b < at).count();
    let mut items: Vec<Vec<&Quantity>> = Vec::new();
    for q in &quantities {
        let c = clause(q.at);
        match items.last_mut() {
            Some(last) if clause(last[0].at) == c => last.push(q),
            _ => items.push(vec![q]),
        }
    }
    if items.len() < 2 {
        return None;
    }
    let products = items
        .iter()
        .map(|item| {
            let rates: Vec<&&Quantity> = item
                .iter()
                .filter(|x| matches!(x.role, Role::Rate(_)))
                .collect();
            let price = match rates.as_slice() {
                [one] => **one,
                [] => {
                    let [one] = item.iter().filter(|x| big(&x.value)).collect::<Vec<_>>()[..]
                    else {
                        return None;
                    };
                    *one
                }
                _ => return None,
            };
            let counts: Vec<&&Quantity> = item.iter().filter(|x| x.at != price.at).collect();
            let small =
                |x: &Quantity| !big(&x.value) && matches!(x.role, Role::Count(_) | Role::Amount);
            if counts.is_empty() || !counts.iter().all(|x| small(x)) {
                return None;
            }
            // (The numbers as said: `3 adults at 20 each` is 3 × 20.)
            let factors = item.iter().map(|x| Expr::Num(x.value.clone()));
            Expr::chain(MathOp::Multiply, factors)
        })
        .collect::<Option<Vec<Expr>>>()?;
    Expr::chain(MathOp::Sum, products)
}

/// Words asking how much.
const HOW_MUCH: &[&[&str]] = &[&["how", "much"], &["bao", "nhiêu"], &["bn"], &["hết"]];

/// Whether an operator joins two numbers (`5 + 3`): the arithmetic readers' request.
fn operator_between_numbers(toks: &[Token]) -> bool {
    toks.windows(3).any(|t| {
        t[0].number().is_some()
            && matches!(t[1].tok, Tok::Sym('+' | '-' | '^' | '='))
            && t[2].number().is_some()
    }) || toks
        .iter()
        .any(|t| matches!(t.tok, Tok::Sym('(' | ')' | '^' | '=')))
}

/// Whether a change is told (`went from 180 to 212`, `từ 21.000 lên 23.520`).
fn from_to(w: &Words) -> bool {
    let n = w.toks.len();
    (0..n).any(|i| {
        matches!(w.word(i), Some("from" | "tu"))
            && w.toks.get(i + 1).and_then(Token::number).is_some()
            && matches!(w.word(i + 2), Some("to" | "len" | "xuong"))
    })
}

/// Every number with its role; `None` when a number reads as none.
fn roles(w: &Words) -> Option<Vec<Quantity>> {
    let toks = w.toks;
    let mut out = Vec::new();
    for (i, t) in toks.iter().enumerate() {
        let Some(value) = t.number() else { continue };
        let next = w.word(i + 1);
        let percent_word = PERCENT_WORDS.iter().any(|p| w.at(i + 1, p));
        let role = if toks.get(i + 1).is_some_and(|t| t.is_sym('%')) || percent_word {
            Role::Percent
        } else if let Some(g) = group_size(w, i) {
            Role::GroupSize(g)
        } else if next.is_some_and(|n| is_in(EACH, n)) {
            Role::Rate(None)
        } else if let Some(unit) = tied_unit(w, i) {
            Role::Rate(Some(unit))
        } else if i >= 2 && w.word(i - 2) == Some("moi") && w.word(i - 1).is_some_and(is_noun) {
            Role::Rate(w.word(i - 1).map(str::to_owned))
        } else if let Some(noun) = next.filter(|n| is_noun(n)) {
            let mut nouns = vec![noun.to_owned()];
            nouns.extend(w.word(i + 2).filter(|n| is_noun(n)).map(str::to_owned));
            Role::Count(nouns)
        } else {
            Role::Amount
        };
        out.push(Quantity {
            value: value.to_owned(),
            at: i,
            role,
        });
    }
    Some(out)
}

/// The one thing the number at `i` is paid for: `per head`, `a night`, `/đêm`, `một
/// người` or `1 khách` after an amount of money.
fn tied_unit(w: &Words, i: usize) -> Option<String> {
    let value = w.toks[i].number()?;
    let tie = match (w.word(i + 1), w.toks.get(i + 1).and_then(Token::number)) {
        (Some(t), _) if is_in(TIES, t) => t,
        (None, Some("1")) => "1",
        _ => return None,
    };
    // (`1 khách` after an amount is a rate's one; `3 một ngày` is no price.)
    if matches!(tie, "1" | "mot") && !big(value) {
        return None;
    }
    w.word(i + 2).filter(|u| is_noun(u)).map(str::to_owned)
}

/// Whether `value` is an amount of money rather than a count of a few.
fn big(value: &str) -> bool {
    value.parse::<f64>().is_ok_and(|v| v >= 1000.0)
}

/// Whether `value` is a small whole number (a group's size).
fn small_whole(value: &str) -> bool {
    value.parse::<u32>().is_ok_and(|v| (2..100).contains(&v))
}

/// The group the number at `i` gives the size of: `tables of 10`, `10 per table`, `10
/// người một bàn`, `bàn 10 người`.
fn group_size(w: &Words, i: usize) -> Option<String> {
    let value = w.toks[i].number()?;
    if !small_whole(value) {
        return None;
    }
    let word = |k: usize| w.word(k);
    // `tables of 10`
    if i >= 2 && word(i - 1) == Some("of") && word(i - 2).is_some_and(is_group) {
        return word(i - 2).map(str::to_owned);
    }
    // `bàn 10 người`
    if i >= 1 && word(i - 1).is_some_and(is_group) && word(i + 1).is_some_and(is_person) {
        return word(i - 1).map(str::to_owned);
    }
    // `10 per table`, `10 người một bàn`, `10 người/bàn`
    let after = match word(i + 1) {
        Some(n) if is_person(n) => i + 2,
        _ => i + 1,
    };
    if word(after).is_some_and(|t| is_in(TIES, t) || t == "a")
        && let Some(g) = word(after + 1).filter(|g| is_group(g))
    {
        return Some(g.to_owned());
    }
    None
}

/// The full groups and who is left over, or the groups needed (rounded up).
fn groups(w: &Words, q: &[Quantity]) -> Option<Vec<Expr>> {
    let [size] = only(q, |r| matches!(r, Role::GroupSize(_)))[..] else {
        return None;
    };
    let others: Vec<&Quantity> = q.iter().filter(|x| x.at != size.at).collect();
    let [total] = others[..] else { return None };
    let people = matches!(&total.role, Role::Count(n) if n.iter().any(|n| is_person(n)))
        || total.role == Role::Amount;
    if !people || !w.says(HOW_MANY) {
        return None;
    }
    let t = Expr::Num(total.value.clone());
    let s = Expr::Num(size.value.clone());
    if w.says(FULL) && w.says(LEFT_OVER) {
        let full = Expr::round_down(Expr::bin(MathOp::Divide, t.clone(), s.clone()));
        return Some(vec![full, Expr::bin(MathOp::Modulo, t, s)]);
    }
    Some(vec![Expr::round_up(Expr::bin(MathOp::Divide, t, s))])
}

/// A part of a whole as a percentage: two numbers, `of`/`out of`/`trên` between them,
/// a percentage asked and none given.
fn part_of_whole(w: &Words, q: &[Quantity]) -> Option<Vec<Expr>> {
    let [a, b] = q else { return None };
    if a.role == Role::Percent || b.role == Role::Percent {
        return None;
    }
    // (A percentage word or sign after no number asks one.)
    let unattached = |i: usize| i == 0 || w.toks[i - 1].number().is_none();
    let asks_percent = w.says(PERCENT_ASKED)
        || (0..w.toks.len()).any(|i| {
            (w.toks[i].is_sym('%') || PERCENT_WORDS.iter().any(|p| w.at(i, p))) && unattached(i)
        });
    let between = (a.at + 1..b.at).any(|k| matches!(w.word(k), Some("of" | "tren" | "/")));
    (asks_percent && between).then(|| {
        let part = Expr::Num(a.value.clone());
        let whole = Expr::Num(b.value.clone());
        vec![Expr::bin(
            MathOp::Multiply,
            Expr::bin(MathOp::Divide, part, whole),
            Expr::Num("100".into()),
        )]
    })
}

/// The quantities whose role `pick` accepts.
fn only(q: &[Quantity], pick: impl Fn(&Role) -> bool) -> Vec<&Quantity> {
    q.iter().filter(|x| pick(&x.role)).collect()
}

/// An amount shared by a count of people (or of what can share): amount ÷ count.
fn shared(w: &Words, q: &[Quantity]) -> Option<Expr> {
    if q.iter()
        .any(|x| matches!(x.role, Role::Percent | Role::Rate(_)))
    {
        return None;
    }
    let [amount, count] = q else { return None };
    let (amount, count) = match (&amount.role, &count.role) {
        (Role::Amount, Role::Count(_)) => (amount, count),
        (Role::Count(_), Role::Amount) => (count, amount),
        _ => return None,
    };
    let Role::Count(nouns) = &count.role else {
        return None;
    };
    let sharer = nouns
        .iter()
        .any(|n| is_person(n) || is_in(SHARERS, n) || is_period(n));
    if !sharer || !w.says(SPLIT) {
        return None;
    }
    Some(Expr::bin(
        MathOp::Divide,
        Expr::Num(amount.value.clone()),
        Expr::Num(count.value.clone()),
    ))
}

/// A rate times what it is paid for (or one amount), then each percentage with its cue.
fn priced(w: &Words, q: &[Quantity]) -> Option<Expr> {
    let percents = only(q, |r| *r == Role::Percent);
    let rest: Vec<&Quantity> = q.iter().filter(|x| x.role != Role::Percent).collect();
    let base = base(w, &rest)?;
    if percents.is_empty() {
        // A product alone must be one: a rate times its counts.
        return matches!(base, Expr::Op(..)).then_some(base);
    }
    // `Giá đã gồm VAT 10% là 236.500đ, giá chưa thuế`: the price before the levy is
    // A × 100 ÷ (100 + p).
    if asks_before_levy(w.toks) {
        let ([p], Expr::Num(_)) = (percents.as_slice(), &base) else {
            return None;
        };
        let hundred = || Expr::Num("100".into());
        return Some(Expr::bin(
            MathOp::Divide,
            Expr::bin(MathOp::Multiply, base, hundred()),
            Expr::bin(MathOp::Sum, hundred(), Expr::Num(p.value.clone())),
        ));
    }
    let mut e = base;
    for p in &percents {
        let pct = Expr::Num(p.value.clone());
        let share = Expr::bin(MathOp::Percent, pct, e.clone());
        let added = w.near(p.at, 5, 4, ADD);
        let up = added || w.near(p.at, 5, 4, UP);
        let down = w.near(p.at, 5, 4, DOWN);
        let paid = w.near(p.at, 5, 4, SHARE) || w.near(p.at, 5, 4, TAKEN);
        if [up, down, paid].iter().filter(|c| **c).count() > 1 {
            return None;
        }
        let left = w.says(LEFT);
        // (`giá` is the price asked, `giá trị` only the value a fee is taken on.)
        let whole = w.says(WHOLE) || w.says(&[&["giá"]]) && !w.says(&[&["giá", "trị"]]);
        e = if up && (added || whole || percents.len() > 1) {
            Expr::bin(MathOp::Sum, e, share)
        } else if down || paid && left {
            Expr::bin(MathOp::Subtract, e, share)
        } else if up || paid {
            if percents.len() > 1 {
                return None;
            }
            share
        } else {
            return None;
        };
    }
    Some(e)
}

/// What the percentages apply to: a rate times its counts, or the one amount.
fn base(w: &Words, rest: &[&Quantity]) -> Option<Expr> {
    let rates: Vec<&&Quantity> = rest
        .iter()
        .filter(|x| matches!(x.role, Role::Rate(_)))
        .collect();
    let counts: Vec<&&Quantity> = rest
        .iter()
        .filter(|x| matches!(x.role, Role::Count(_)))
        .collect();
    let amounts: Vec<&&Quantity> = rest.iter().filter(|x| x.role == Role::Amount).collect();
    if rest.iter().any(|x| matches!(x.role, Role::GroupSize(_))) {
        return None;
    }
    match (rates.as_slice(), amounts.as_slice()) {
        ([rate], []) => product(rate, &counts),
        // `25 staff x 80k`, `180 guests at 1,250,000`: the amount is paid for each.
        ([], [amount]) if !counts.is_empty() => {
            let joined = counts.iter().any(|c| {
                let (a, b) = (c.at.min(amount.at), c.at.max(amount.at));
                (a + 1..b).any(|k| w.word(k).is_some_and(|x| is_in(TIMES, x)))
            });
            if !joined {
                return None;
            }
            let rate = Quantity {
                role: Role::Rate(None),
                ..(**amount).clone()
            };
            product(&rate, &counts)
        }
        ([], [amount]) => Some(Expr::Num(amount.value.clone())),
        _ => None,
    }
}

/// `rate` times each count it is paid for; `None` when a count is of something else.
fn product(rate: &Quantity, counts: &[&&Quantity]) -> Option<Expr> {
    if counts.is_empty() {
        return None;
    }
    let Role::Rate(unit) = &rate.role else {
        return None;
    };
    let mut factors = vec![Expr::Num(rate.value.clone())];
    let mut paired = false;
    for c in counts {
        let Role::Count(nouns) = &c.role else {
            return None;
        };
        let fits = match unit {
            Some(u) => nouns.iter().any(|n| same_thing(u, n)),
            None => !paired,
        };
        let again = nouns
            .iter()
            .any(|n| is_period(n) || is_person(n) && unit.as_deref().is_some_and(is_period));
        if fits && !paired {
            paired = true;
        } else if !again {
            return None;
        }
        factors.push(Expr::Num(c.value.clone()));
    }
    if !paired {
        return None;
    }
    Expr::chain(MathOp::Multiply, factors)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lexer::lex;

    fn read(q: &str) -> Option<Vec<String>> {
        let n = crate::normalise::normalise(q, None);
        parse(&lex(&n.text)).map(|es| es.iter().map(|e| format!("{e:?}")).collect())
    }

    fn value(e: &Expr) -> f64 {
        match e {
            Expr::Num(n) => n.parse().unwrap(),
            Expr::Op(op, a) => {
                let x = |k: usize| value(&a[k]);
                match op {
                    MathOp::Sum => x(0) + x(1),
                    MathOp::Subtract => x(0) - x(1),
                    MathOp::Multiply => x(0) * x(1),
                    MathOp::Divide => x(0) / x(1),
                    MathOp::Percent => x(0) * x(1) / 100.0,
                    MathOp::Modulo => x(0) % x(1),
                    MathOp::Min => x(0).min(x(1)),
                    MathOp::Max => x(0).max(x(1)),
                    MathOp::RoundUp if a[2] == Expr::Num(Expr::DOWN.into()) => x(0).floor(),
                    MathOp::RoundUp => x(0).ceil(),
                    _ => panic!("{op:?}"),
                }
            }
        }
    }

    fn values(q: &str) -> Option<Vec<f64>> {
        let n = crate::normalise::normalise(q, None);
        parse(&lex(&n.text)).map(|es| es.iter().map(value).collect())
    }

    #[test]
    fn a_rate_times_its_counts() {
        assert_eq!(
            values("the caterer charges 900k per head for 40 guests, total?"),
            Some(vec![36_000_000.0])
        );
        assert_eq!(
            values("bữa trưa 60.000đ một khách, 4 khách ăn 2 buổi, tổng bao nhiêu"),
            Some(vec![480_000.0])
        );
        assert_eq!(
            values("hotel is 95 per night for 3 nights"),
            Some(vec![285.0])
        );
        assert_eq!(values("lunch 12 staff x 45k"), Some(vec![540_000.0]));
        assert_eq!(
            values("ban 2 ta ca phe gia 90.000d/kg dc bn tien"),
            Some(vec![18_000_000.0])
        );
    }

    #[test]
    fn percentages_by_their_cue() {
        assert_eq!(
            values("dinner for 6 ppl at 30 each plus 10% tip on top, total"),
            Some(vec![198.0])
        );
        assert_eq!(
            values("phí dịch vụ 8% trên 50 triệu"),
            Some(vec![4_000_000.0])
        );
        assert_eq!(
            values("grab takes 20% commission on 300k, how much do i keep"),
            Some(vec![240_000.0])
        );
        assert_eq!(
            values("the supplier wants a 30% deposit on 12,000,000"),
            Some(vec![3_600_000.0])
        );
    }

    #[test]
    fn shared_groups_and_parts() {
        assert_eq!(
            values("the tips came to 2,400,000, split evenly among 12 staff"),
            Some(vec![200_000.0])
        );
        assert_eq!(
            values("95 guests, tables of 8, how many tables"),
            Some(vec![12.0])
        );
        assert_eq!(
            values("khach 61 nguoi, ban 6 nguoi, can bao nhieu ban"),
            Some(vec![11.0])
        );
        assert_eq!(
            values("61 guests at 6 per table, how many full tables and how many left over"),
            Some(vec![10.0, 1.0])
        );
        assert_eq!(
            values("3 of our 12 rooms are empty, what percent"),
            Some(vec![25.0])
        );
    }

    fn after(value: &str, q: &str) -> Option<Vec<f64>> {
        let n = crate::normalise::normalise(q, None);
        parse_after(value, &lex(&n.text)).map(|es| es.iter().map(super::tests::value).collect())
    }

    #[test]
    fn a_follow_up_on_the_last_answer() {
        assert_eq!(
            after("2340000", "minus the platform's 15%"),
            Some(vec![1_989_000.0])
        );
        assert_eq!(after("600000", "add 10% service"), Some(vec![660_000.0]));
        assert_eq!(
            after("900", "split that between the 3 families"),
            Some(vec![300.0])
        );
        // A follow-up with an amount of its own is no follow-up of this kind.
        assert_eq!(after("900", "and 40 split between 3 people"), None);
        assert_eq!(after("900", "thanks"), None);
    }

    fn on(value: &str, q: &str) -> Option<f64> {
        let n = crate::normalise::normalise(q, None);
        go_on(value, &lex(&n.text)).map(|e| super::tests::value(&e))
    }

    #[test]
    fn going_on_from_the_last_answer() {
        assert_eq!(on("12", "times 15,480 won"), Some(185_760.0));
        assert_eq!(
            on("175680000", "minus the 150 million my dad owes the bank"),
            Some(25_680_000.0)
        );
        assert_eq!(
            on("230650000", "then halve it, half goes to savings"),
            Some(115_325_000.0)
        );
        assert_eq!(
            on(
                "3750000",
                "trừ tiền sữa với đá hết 420k nữa là còn bao nhiêu"
            ),
            Some(3_330_000.0)
        );
        assert_eq!(
            on("252000", "add my base pay 1,848,000 to that"),
            Some(2_100_000.0)
        );
        // People added, a percentage, two operations, the answer second: no reading.
        assert_eq!(on("30000000", "them 3 nguoi nua thi bn"), None);
        assert_eq!(on("100", "add 10%"), None);
        assert_eq!(on("100", "add 5 and times 3"), None);
        assert_eq!(on("100", "subtract that from 500"), None);
    }

    #[test]
    fn both_answers_summed() {
        let asks = |q: &str| asks_both_summed(&lex(&crate::normalise::normalise(q, None).text));
        assert!(asks("Cộng tiền công hai đứa lại giùm chị"));
        assert!(asks("tong 2 lan bn"));
        assert!(asks("add both up"));
        assert!(!asks("tong 3 lan bn"));
        assert!(!asks("add 2 and 5"));
    }

    #[test]
    fn lists_with_their_operation() {
        assert_eq!(
            values("my marks this term: 6, 8, 7, 9. whats my gpa"),
            Some(vec![7.5])
        );
        assert_eq!(
            values("quotes from 3 shops: 40k, 35k, 38k a box. which is cheapest"),
            Some(vec![35_000.0])
        );
        assert_eq!(
            values("tests out of 10: 7 8 9 10, average?"),
            Some(vec![8.5])
        );
        assert_eq!(values("overtime this week 2.5 + 3 + 1.5"), Some(vec![7.0]));
        assert_eq!(
            values("cộng giúp tôi 3 hóa đơn: 1tr2; 300k; 450.000đ"),
            Some(vec![1_950_000.0])
        );
        // Two operations asked, or a percentage: no list frame.
        assert_eq!(read("4, 5, 6: the lowest and the highest"), None);
        assert_eq!(read("4, 5 and 10% total"), None);
        // Priced items are no list of amounts.
        assert_eq!(
            read("tips: 12 cooks 100k each plus 3 chefs 300k each, total?"),
            None
        );
    }

    fn items(q: &str) -> Option<f64> {
        let n = crate::normalise::normalise(q, None);
        priced_items(&lex(&n.text)).map(|e| super::tests::value(&e))
    }

    #[test]
    fn priced_items_summed() {
        assert_eq!(
            items("2 ly cam 30k với 3 ly chanh 20k, tổng bao nhiêu"),
            Some(120_000.0)
        );
        assert_eq!(
            items("tips: 10 cooks 100k each plus 2 chefs 300k each, total?"),
            Some(1_600_000.0)
        );
        assert_eq!(
            items("tien cong 3 ng x 200k x 5 ngay, 2 ng x 250k x 4 ngay, tong bn"),
            Some(5_000_000.0)
        );
        // One item, an item with two prices, or no total asked: no reading.
        assert_eq!(items("2 ly cam 30k, tổng bao nhiêu"), None);
        assert_eq!(items("2 ly cam 30k 40k với 3 ly chanh 20k, tổng"), None);
        assert_eq!(items("2 ly cam 30k với 3 ly chanh 20k"), None);
    }

    #[test]
    fn never_a_guess() {
        // A number no role explains, a date, an operator, another question.
        assert_eq!(
            read("room 700k a night, 3 nights, 2 rooms, 5 bottles"),
            None
        );
        assert_eq!(read("she was born in 1990 and has 3 kids, how old"), None);
        assert_eq!(read("5 + 3 guests"), None);
        assert_eq!(read("bought 100 shares at 25, sold at 30"), None);
        assert_eq!(read("10% of what"), None);
        // A percentage said in words is a percentage, never a part of a whole.
        assert_eq!(read("what's 15 percent of 80"), None);
        // Two cues for one percentage.
        assert_eq!(read("200k with 10% discount and tip"), None);
    }
}
