//! A number's text: its separators read by language (`1.500.000`, `7,5`, `1,250.50`),
//! and plain decimals scaled and summed exactly, digit by digit.

use crate::normalise::Reading;

/// The canonical text of a number typed with separators (`1.500.000` → `1500000`,
/// `7,5` → `7.5` in Vietnamese, `1,2,3` → `1, 2, 3` in English); `None` to leave it.
pub fn separators(text: &str, reading: Reading) -> Option<String> {
    separators_in(text, reading, false)
}

/// [`separators`], in a request about decimals (`decimals`: rounding, `thập phân`).
pub fn separators_in(text: &str, reading: Reading, decimals: bool) -> Option<String> {
    let dots = text.matches('.').count();
    let commas = text.matches(',').count();
    let groups_of_three = |sep: char| {
        let mut parts = text.split(sep);
        let first = parts.next().unwrap_or("");
        (1..=3).contains(&first.len()) && parts.all(|p| p.len() == 3)
    };
    match (dots, commas) {
        (0, 0) => Some(text.to_owned()),
        (_, 0) if dots >= 2 => groups_of_three('.').then(|| text.replace('.', "")),
        (0, _) if commas >= 2 => Some(if groups_of_three(',') {
            text.replace(',', "")
        } else {
            text.replace(',', ", ")
        }),
        (1, 0) => {
            let (int, frac) = text.split_once('.')?;
            let thousands = reading == Reading::Vietnamese && frac.len() == 3 && int != "0";
            Some(if thousands && int.len() <= 3 {
                format!("{int}{frac}")
            } else {
                text.to_owned()
            })
        }
        (0, 1) => {
            let (int, frac) = text.split_once(',')?;
            let grouped = frac.len() == 3 && (1..=3).contains(&int.len()) && int != "0";
            Some(match reading {
                Reading::Vietnamese if grouped && !decimals => format!("{int}{frac}"),
                Reading::Vietnamese => format!("{int}.{frac}"),
                Reading::English if frac.len() == 3 && int.len() <= 3 => format!("{int}{frac}"),
                Reading::English => format!("{int}, {frac}"),
            })
        }
        _ => {
            // Both marks: the last one is the decimal point, the other groups thousands.
            let last = text.rfind(['.', ','])?;
            let (decimal, group) = match &text[last..last + 1] {
                "." => ('.', ','),
                _ => (',', '.'),
            };
            let (int, frac) = (&text[..last], &text[last + 1..]);
            let ok = !int.contains(decimal) && {
                let mut parts = int.split(group);
                let first = parts.next().unwrap_or("");
                (1..=3).contains(&first.len()) && parts.all(|p| p.len() == 3)
            };
            ok.then(|| format!("{}.{frac}", int.replace(group, "")))
        }
    }
}

/// `value` (a plain decimal) times 10^`power`, exactly.
pub fn shift(value: &str, power: u32) -> String {
    let (int, frac) = value.split_once('.').unwrap_or((value, ""));
    let mut digits = format!("{int}{frac}");
    let point = int.len() + power as usize;
    while digits.len() < point {
        digits.push('0');
    }
    let (i, f) = digits.split_at(point);
    crate::lexer::normalise(i, f)
}

/// The sum of two plain non-negative decimals, exactly.
pub fn add(a: &str, b: &str) -> String {
    let (ai, af) = a.split_once('.').unwrap_or((a, ""));
    let (bi, bf) = b.split_once('.').unwrap_or((b, ""));
    let fl = af.len().max(bf.len());
    let il = ai.len().max(bi.len());
    let pad = |i: &str, f: &str| format!("{i:0>il$}{f:0<fl$}");
    let (x, y) = (pad(ai, af), pad(bi, bf));
    let mut out = Vec::new();
    let mut carry = 0;
    for (p, q) in x.bytes().rev().zip(y.bytes().rev()) {
        let s = (p - b'0') + (q - b'0') + carry;
        out.push(b'0' + s % 10);
        carry = s / 10;
    }
    if carry > 0 {
        out.push(b'0' + carry);
    }
    out.reverse();
    let digits = String::from_utf8(out).unwrap_or_default();
    let (i, f) = digits.split_at(digits.len() - fl);
    crate::lexer::normalise(i, f)
}
