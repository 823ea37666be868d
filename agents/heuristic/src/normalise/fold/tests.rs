//! The folding and restoring of marks, pinned.
use super::*;
use crate::normalise::unicode::pieces;

fn restored(s: &str) -> String {
    let mut p = pieces(s);
    restore(&mut p);
    p.iter().map(|p| p.text.as_str()).collect()
}

#[test]
fn folding_strips_marks_and_d_bar() {
    assert_eq!(fold("Đường đi căn bậc hai"), "Duong di can bac hai");
    assert_eq!(fold("plain"), "plain");
}

#[test]
fn words_without_marks_get_the_planners_spelling() {
    assert_eq!(restored("tinh 15 cong 7"), "tinh 15 cộng 7");
    assert_eq!(restored("nhan 12 voi 3"), "nhân 12 với 3");
    assert_eq!(
        restored("nhan doi roi chia cho 7"),
        "nhân đôi rồi chia cho 7"
    );
    assert_eq!(
        restored("6 nhan 7 sau do tru di 2"),
        "6 nhân 7 sau đó trừ đi 2"
    );
    assert_eq!(restored("ngay mai la thu may"), "ngày mai là thứ mấy");
    assert_eq!(restored("can bac hai cua 81"), "căn bậc hai của 81");
    assert_eq!(
        restored("bay gio o Paris may gio"),
        "bây giờ ở Paris mấy giờ"
    );
}

/// A literal added anywhere in the planner teaches the folded reading a word: these
/// everyday readings must survive every such addition (`kỳ thi` once made `thi`
/// stay `thi`, `vé máy bay` made `may` stay `may`).
#[test]
fn everyday_folded_words_keep_their_reading() {
    // (Word lists laid out one per line once made `sao` English: `chia 3 thi sao`
    // stayed unmarked.)
    assert_eq!(restored("chia 3 thi sao"), "chia 3 thì sao");
    // (A cue `phụ thu`, surcharge, once made `thu` a word of its own: `thu 6` stayed.)
    assert!(restored("thu 6 tuan nay la ngay may").starts_with("thứ 6 tuần"));
    // (`nợ`, a debt, folds like `nó`, "it": the word before decides.)
    assert_eq!(restored("can bac hai cua no"), "căn bậc hai của nó");
    assert_eq!(restored("con no bao nhieu"), "còn nợ bao nhiêu");
    assert_eq!(
        restored("8h sang o Ha Noi thi o New York la may gio"),
        "8h sáng ở Hà Nội thì ở New York là mấy giờ"
    );
    assert_eq!(
        restored("con may ngay nua la noel"),
        "còn mấy ngày nữa là noel"
    );
    assert_eq!(restored("con nhan 3 thi sao"), "còn nhân 3 thì sao");
    assert_eq!(
        restored("neu chi co 3 nguoi thi sao"),
        "nếu chỉ có 3 người thì sao"
    );
    assert_eq!(restored("them so 10 vao thi sao"), "thêm số 10 vào thì sao");
    assert_eq!(
        restored("con bao nhieu ngay nua moi toi ngay do"),
        "còn bao nhiêu ngày nữa mới tới ngày đó"
    );
    // `đứa` (a child, a mate) and `đưa` (to hand over) fold alike.
    assert_eq!(
        restored("8 dua chia deu thi moi dua bao nhieu"),
        "8 đứa chia đều thì mỗi đứa bao nhiêu"
    );
    assert_eq!(
        restored("khach dua 500000 thoi lai bao nhieu"),
        "khách đưa 500000 thối lại bao nhiêu"
    );
    assert_eq!(
        restored("mua 3 cai ao moi cai 150k"),
        "mua 3 cái ao mỗi cái 150k"
    );
}

#[test]
fn a_wrong_mark_is_corrected() {
    assert_eq!(restored("căn bặc hai của 196"), "căn bậc hai của 196");
    assert_eq!(
        restored("tính giúp tôi căn bặc hai của 196"),
        "tính giúp tôi căn bậc hai của 196"
    );
}

#[test]
fn a_text_typed_with_marks_keeps_its_words_as_typed() {
    // (`cá thu`, a mackerel, is no `cả thứ`; `thu được`, collected, no weekday.)
    assert_eq!(
        restored("Cá thu 220k một ký, bà mua 7 lạng thì bao nhiêu tiền vậy"),
        "Cá thu 220k một ký, bà mua 7 lạng thì bao nhiêu tiền vậy"
    );
    assert_eq!(
        restored("tiền nhà phòng 1 3tr5. tổng thu được bao nhiêu"),
        "tiền nhà phòng 1 3tr5. tổng thu được bao nhiêu"
    );
    // An operator word typed bare beside a number still reads as one.
    assert_eq!(
        restored("Tính 5 cong 7 giúp mình"),
        "Tính 5 cộng 7 giúp mình"
    );
}

#[test]
fn unaccented_vietnamese_is_read_as_vietnamese_and_english_as_english() {
    let r = |s: &str| reading(&pieces(s), None);
    assert_eq!(r("tinh 15 cong 7"), Reading::Vietnamese);
    assert_eq!(r("ngay mai la thu may"), Reading::Vietnamese);
    assert_eq!(r("10 chia 4"), Reading::Vietnamese);
    assert_eq!(r("may I ask"), Reading::English);
    assert_eq!(r("can u multiply 45 by"), Reading::English);
    assert_eq!(r("what time is it in Hanoi"), Reading::English);
    assert_eq!(reading(&pieces("2+4"), Some("vi-VN")), Reading::Vietnamese);
}
