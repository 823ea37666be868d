//! The quantity frames' word tables, compared folded (without marks) and singular;
//! their Vietnamese words are never taught to the fold lexicon (`build.rs`).

use crate::arith::ListOp;
use crate::expr::MathOp;

/// Words that count people (folded and singular when compared).
pub(super) const PEOPLE: &[&str] = &[
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
    "thợ",
    "hs",
    "sv",
    "em",
    "anh",
    "chị",
    "crew",
    "flatmate",
    "roommate",
    "housemate",
];

/// What people sit or travel in: the groups of a size.
pub(super) const GROUPS: &[&str] = &[
    "table", "room", "car", "van", "boat", "bus", "buse", "group", "team", "box", "boxe", "bag",
    "tray", "row", "taxi", "bàn", "mâm", "phòng", "xe", "thuyền", "nhóm", "đội", "hộp", "thùng",
    "khay",
];

/// Periods and occasions a rate is paid again for (`5 buổi sáng`, `4 nights`).
pub(super) const PERIODS: &[&str] = &[
    "night", "day", "morning", "evening", "week", "month", "year", "time", "shift", "hour", "trip",
    "session", "meal", "lesson", "đêm", "ngày", "buổi", "tuần", "tháng", "năm", "lần", "ca", "giờ",
    "tiếng", "chuyến", "bữa", "hôm", "tối", "sáng",
];

/// Words for one and the same thing: a rate per one of them meets a count of another.
pub(super) const SAME: &[&[&str]] = &[
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

/// Words for one of whatever is counted (`lãi 45k mỗi cái`): a rate per one of them
/// meets any count.
pub(super) const ANY_ONE: &[&str] = &["cái", "chiếc", "piece", "pc", "item", "unit"];

/// What an amount can be shared among besides people (`chia 2 nhà`, `2 families`).
pub(super) const SHARERS: &[&str] = &[
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
pub(super) const TIES: &[&str] = &["per", "a", "an", "every", "mỗi", "một", "1", "/"];

/// Words after a number that say it is paid for each one (`35k each`).
pub(super) const EACH: &[&str] = &["each", "apiece", "ea"];

/// Words joining a count and a price (`25 staff x 80k`, `180 guests at 1,250,000`).
pub(super) const TIMES: &[&str] = &["x", "*", "at", "@"];

/// Words that never name what a number counts.
pub(super) const NOT_NOUNS: &[&str] = &[
    "and", "or", "to", "of", "at", "for", "in", "on", "the", "is", "are", "was", "from", "with",
    "so", "plus", "minus", "more", "then", "but", "now", "total", "tip", "each", "per", "x", "lol",
    "ok", "pls", "what", "whats", "how", "much", "và", "hay", "là", "thì", "trên", "còn", "nữa",
    "rồi", "thôi", "tổng", "mà", "cho", "với", "của", "bao", "nhiêu", "mấy", "split", "among",
    "between", "by", "off", "chia", "down", "trung", "average", "avg", "tổng", "chưa", "discount",
    "deposit", "extra", "more", "trừ",
];

/// Cues for a levy (`10% tip`, `phí phục vụ 5%`): added when the whole is asked, else
/// the levy itself.
pub(super) const UP: &[&[&str]] = &[
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
pub(super) const ADD: &[&[&str]] = &[
    &["on", "top"],
    &["add"],
    &["plus"],
    &["thêm"],
    &["cộng"],
    &["tăng"],
];

/// Cues for a percentage taken off what is paid (`minus 15%`, `giảm 10%`).
pub(super) const DOWN: &[&[&str]] = &[
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
pub(super) const TAKEN: &[&[&str]] = &[
    &["commission"],
    &["fee"],
    &["hoa", "hồng"],
    &["ăn"],
    &["lấy"],
    &["they", "take"],
    &["take", "out"],
    &["deducted"],
    &["withheld"],
];

/// Cues for a percentage that is a share paid (`20% deposit`, `trả 55%`).
pub(super) const SHARE: &[&[&str]] = &[
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
pub(super) const BEFORE_LEVY: &[&[&str]] = &[
    &["before", "tax"],
    &["before", "vat"],
    &["before", "gst"],
    &["before", "hst"],
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
pub(super) const INCLUDES: &[&[&str]] = &[
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

/// Words that take a percentage off outright, whatever it is named.
pub(super) const OUTRIGHT_DOWN: &[&[&str]] = &[
    &["minus"],
    &["less"],
    &["deduct"],
    &["withhold"],
    &["trừ"],
    &["khấu", "trừ"],
];

/// Words asking what is left once a percentage is taken.
pub(super) const LEFT: &[&[&str]] = &[
    &["actually", "get"],
    &["in", "hand"],
    &["left"],
    &["remaining"],
    &["remain"],
    &["keep"],
    &["net"],
    &["after", "deductions"],
    &["take", "home"],
    &["còn"],
    &["còn", "lại"],
    &["nhận", "được"],
];

/// Words asking the whole after a percentage (`final number`, `giá cuối tuần`).
pub(super) const WHOLE: &[&[&str]] = &[
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
pub(super) const SPLIT: &[&[&str]] = &[
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
pub(super) const HOW_MANY: &[&[&str]] = &[
    &["how", "many"],
    &["bao", "nhiêu"],
    &["mấy"],
    &["bn"],
    &["need"],
    &["cần"],
];

/// Words asking for the full groups (with who is left over).
pub(super) const FULL: &[&[&str]] = &[&["full"], &["đủ"], &["chẵn"]];

/// Words asking who is left over.
pub(super) const LEFT_OVER: &[&[&str]] = &[
    &["left", "over"],
    &["leftover"],
    &["left"],
    &["remainder"],
    &["dư"],
    &["lẻ"],
    &["thừa"],
];

/// Words saying a number is a percentage (`15 percent`, `20 phần trăm`).
pub(super) const PERCENT_WORDS: &[&[&str]] =
    &[&["percent"], &["percentage"], &["pct"], &["phần", "trăm"]];

/// Words asking a percentage (besides the percentage words themselves).
pub(super) const PERCENT_ASKED: &[&[&str]] = &[&["occupancy"], &["công", "suất"]];

/// Words that make the request another question (a date, an age, a time, a change).
pub(super) const OTHER_QUESTION: &[&[&str]] = &[
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

/// Words of an operation that goes on from the last answer with one amount (`times
/// 15,480 won`, `minus the 150 million dad owes`, `trừ tiền sữa 420k nữa`).
pub(super) const GO_ON: &[(&[&str], MathOp)] = &[
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
pub(super) const BY_ITSELF: &[(&[&str], MathOp, &str)] = &[
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
pub(super) const CURRENCY: &[&str] = &[
    "won", "dong", "đồng", "vnd", "usd", "dollar", "euro", "eur", "yen", "aud", "baht", "đô",
];

/// Words asking a total.
pub(super) const SUM_OF: &[&[&str]] = &[
    &["tổng"],
    &["cộng"],
    &["total"],
    &["add"],
    &["sum"],
    &["together"],
    // (`Đếm giúp: 45 tờ 500k và 30 tờ 200k`: counting notes is their total.)
    &["đếm"],
];

/// Words naming the last two answers (`both`, `cả hai`, `hai đứa`, `2 lần`).
pub(super) const BOTH: &[&[&str]] = &[
    &["both"],
    &["cả", "hai"],
    &["hai", "đứa"],
    &["hai", "lần"],
    &["hai", "bên"],
];

/// Words that are no label of a price in a list: an operation, what is left, a
/// payment (`trừ dầu 8 triệu`, `còn lại`, `đã trả`, `spent`).
pub(super) const NOT_LABELS: &[&str] = &[
    "trừ", "còn", "lại", "đã", "trả", "minus", "less", "left", "spent", "paid", "off", "plus",
    "cộng", "each", "mỗi", "per", "x", "times", "and", "và", "với", "or", "hoặc",
];

/// List cues: (phrase, operation).
pub(super) const LIST_CUES: &[(&[&str], ListOp)] = &[
    (&["total"], ListOp::Sum),
    (&["sum"], ListOp::Sum),
    (&["altogether"], ListOp::Sum),
    (&["add", "up"], ListOp::Sum),
    (&["tổng"], ListOp::Sum),
    (&["cộng"], ListOp::Sum),
    // (`4 đám: 500k, 300k, 500k, 1tr, hết bao nhiêu`: what a list of amounts comes to.)
    (&["hết", "bao", "nhiêu"], ListOp::Sum),
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
    (&["ngắn", "nhất"], ListOp::Min),
    (&["gần", "nhất"], ListOp::Min),
    (&["nhẹ", "nhất"], ListOp::Min),
    (&["highest"], ListOp::Max),
    (&["biggest"], ListOp::Max),
    (&["largest"], ListOp::Max),
    (&["longest"], ListOp::Max),
    (&["shortest"], ListOp::Min),
    (&["most"], ListOp::Max),
    (&["max"], ListOp::Max),
    (&["đắt", "nhất"], ListOp::Max),
    (&["cao", "nhất"], ListOp::Max),
    (&["lớn", "nhất"], ListOp::Max),
    (&["nhiều", "nhất"], ListOp::Max),
    (&["dài", "nhất"], ListOp::Max),
    (&["xa", "nhất"], ListOp::Max),
    (&["nặng", "nhất"], ListOp::Max),
];

/// Words that end one priced item and start the next (`… với 3 ly đen đá 20k`).
pub(super) const ITEM_BREAKS: &[&str] = &["plus", "and", "với", "và"];

/// Words asking how much.
pub(super) const HOW_MUCH: &[&[&str]] = &[&["how", "much"], &["bao", "nhiêu"], &["bn"], &["hết"]];

/// Kin words a Vietnamese name by birth order follows (`anh Tám`, `chị Hai`, `cô Ba`):
/// kept here, where no Vietnamese word is taught to the normaliser (`thằng` taught had
/// made `thang` read `thằng`, never `tháng`).
pub(super) const KIN: &[&str] = &[
    "anh", "chị", "em", "bé", "ông", "bà", "cô", "chú", "bác", "cậu", "dì", "thằng", "mợ", "thím",
];

/// Countries spanning several time zones, compared folded: one clock cannot be read for
/// them (the date server refuses them too). Kept here, where no Vietnamese word is
/// taught to the normaliser (`mỹ` taught would make `my` read `mỹ`).
pub(super) const MANY_ZONES: &[&str] = &[
    "america",
    "usa",
    "us",
    "the us",
    "united states",
    "the united states",
    "the states",
    "mỹ",
    "canada",
    "australia",
    "úc",
    "russia",
    "nga",
    "brazil",
    "mexico",
    "indonesia",
];

/// Who is helped, after `giúp`/`giùm` at the end of a request (`… giúp tôi`): kept here,
/// where no Vietnamese word is taught to the normaliser (a list of them taught as one
/// phrase had made `chi co` read `chi có`).
pub(super) const HELPED: &[&str] = &["tôi", "mình", "em", "anh", "chị", "con", "tui", "cháu"];

/// Words after a count that make an amount said next no price of one (`2 tạ`, `3
/// chục`: hundreds or tens of the unit priced; `Lương 9 chuyến 25.200.000đ`: trips,
/// days or shifts paid that amount for them all). Kept here, whose literals are not
/// taught: `ta`, `tan`, `ca` typed without marks are Vietnamese.
pub(crate) const COUNTED_APART: &[&str] = &[
    "tạ", "ta", "tấn", "tan", "yến", "chục", "chuc", "dozen", "trăm", "cặp", "pairs", "chuyến",
    "lượt", "ngày", "giờ", "tiếng", "tháng", "tuần", "năm", "đêm", "buổi", "ca", "days", "hours",
    "hrs", "trips", "shifts", "nights", "weeks", "months", "years", "checks", "người", "people",
];

/// Words of a sale or a purchase, the only words said before a count priced each.
pub(crate) const DEALS: &[&str] = &[
    "bán",
    "mua",
    "lấy",
    "nhập",
    "đặt",
    "sỉ",
    "lẻ",
    "sold",
    "bought",
    "buy",
    "sell",
    "got",
    "ordered",
    "order",
    "wholesale",
];

/// Words that may follow a price of one (its currency, a question, `each`): a larger
/// number followed by another word is said with a unit of its own (`2 kids 4000 miles
/// away`).
pub(crate) const AFTER_PRICE: &[&str] = &[
    "k", "đ", "vnd", "usd", "đồng", "dong", "được", "thì", "là", "tổng", "bao", "how", "total",
    "what", "whats", "what's", "so", "each", "mỗi", "một", "a", "per", "còn", "nha", "nhé", "ạ",
    "ha", "hết",
];

/// Words before a price of one of the thing counted last (`22 khách vé 250k`), for
/// `within` (kept here: `vé`, `giá` taught beside `at` would change how `ve`, `gia`
/// typed without marks read).
pub(crate) const PRICE_WORDS: &[&str] = &["vé", "ve", "giá", "gia", "at", "@"];

/// Words asking what counts within counts come to, besides a question word (`6 bao
/// mỗi bao 50 ký, 95 nghìn 1 ký, tính tiền`, `doanh thu ngày`; kept here: taught, `thu`
/// would read as itself, never `thứ`).
pub(crate) const COUNTS_ASKED: &[&[&str]] = &[
    &["tính", "tiền"],
    &["tinh", "tiền"],
    &["tinh", "tien"],
    &["doanh", "thu"],
];

/// Pieces of text every way of saying `the same way` holds (a cheap look before the
/// follow-up is normalised; kept here: `nhu` taught would read as English).
pub(crate) const SAME_WAY_CUES: &[&str] = &["same", "like", "như", "nhu"];

/// Words saying a share of an amount was lost (`hư 15%`, `hao 5%`, `15% spoiled`), for
/// `remaining::percent_lost` (kept here: `hao` taught would read as English).
pub(crate) const LOST: &[&str] = &[
    "hư",
    "hỏng",
    "hao",
    "mất",
    "lost",
    "lose",
    "spoiled",
    "wasted",
    "damaged",
    "shrinkage",
];

/// Periods named by their number (`tháng 9 là …`, `week 2: …`, `tháng 10 được
/// 18.600.000`): a label, never a count.
pub(crate) const PERIOD_LABELS: &[&str] = &["tháng", "tuần", "month", "week", "quý", "quarter"];
