//! A recipe scaled, read over the whole request: an amount for one count asked for
//! another — `250g of flour for 4 people and we'll be 6, how much flour` is 250 × 6 ÷
//! 4, `0.75 cup sugar for 12 muffins, im making 30` 0.75 × 30 ÷ 12, `công thức cho 4
//! người cần 300g mì, nấu cho 10 người thì cần bao nhiêu` 300 × 10 ÷ 4.
//!
//! Only a recipe (the word, or an amount in a kitchen unit), exactly three numbers —
//! one amount and two counts, each count said as one (`for 4`, `making 30`, `we'll be
//! 6`, `cho 10 người`) — and a question.

use crate::expr::{Expr, MathOp};
use crate::lexer::Token;

/// Units an amount of a recipe is measured in.
const KITCHEN_UNITS: &[&str] = &[
    "g",
    "gram",
    "grams",
    "gr",
    "kg",
    "cup",
    "cups",
    "ml",
    "l",
    "litre",
    "litres",
    "liter",
    "liters",
    "tbsp",
    "tsp",
    "tablespoon",
    "tablespoons",
    "teaspoon",
    "teaspoons",
    "oz",
    "ounce",
    "ounces",
    "lb",
    "lbs",
    "pinch",
    "eggs",
    "egg",
    "quả",
    "muỗng",
    "chén",
    "bát",
];

/// Words naming a recipe.
const RECIPE: &[&str] = &["recipe", "recipes", "công", "thức"];

/// Words before a number that make it a count of people or servings.
const COUNT_BEFORE: &[&str] = &[
    "for", "making", "make", "makes", "be", "serves", "feeds", "cho",
];

/// Words after a number that make it a count.
const COUNT_AFTER: &[&str] = &[
    "people", "persons", "servings", "serving", "portions", "muffins", "cookies", "cupcakes",
    "guests", "kids", "người", "phần", "suất",
];

/// The scaled amount `toks` asks, if a recipe scaled is what it asks.
pub fn parse(toks: &[Token]) -> Option<Expr> {
    let nums = crate::lexer::number_positions(toks);
    let [_, _, _] = nums.as_slice() else {
        return None;
    };
    if crate::lexer::has_percent_or_date(toks) {
        return None;
    }
    let word = |k: usize| toks.get(k).and_then(Token::word);
    // (`calls for 250g`: a number in a kitchen unit is the amount, whatever before it.)
    let is_count = |k: usize| {
        let before = k.checked_sub(1).and_then(word);
        let after = word(k + 1);
        !after.is_some_and(|w| KITCHEN_UNITS.contains(&w))
            && (before.is_some_and(|w| COUNT_BEFORE.contains(&w))
                || after.is_some_and(|w| COUNT_AFTER.contains(&w)))
    };
    let counts: Vec<usize> = nums.iter().copied().filter(|&k| is_count(k)).collect();
    let amounts: Vec<usize> = nums.iter().copied().filter(|&k| !is_count(k)).collect();
    let ([from, to], [amount]) = (counts.as_slice(), amounts.as_slice()) else {
        return None;
    };
    let kitchen = word(amount + 1).is_some_and(|w| KITCHEN_UNITS.contains(&w));
    let recipe = toks
        .iter()
        .any(|t| t.word().is_some_and(|w| RECIPE.contains(&w)));
    let asked = toks.iter().any(|t| {
        t.is_sym('?')
            || t.word()
                .is_some_and(|w| matches!(w, "how" | "what" | "bao" | "nhiêu" | "bn" | "need"))
    });
    if !(kitchen || recipe) || !asked {
        return None;
    }
    let num = |k: usize| toks[k].number().map(|n| Expr::Num(n.to_owned()));
    let scaled = Expr::bin(MathOp::Multiply, num(*amount)?, num(*to)?);
    Some(Expr::bin(MathOp::Divide, scaled, num(*from)?))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lexer::lex;

    fn read(q: &str) -> Option<Expr> {
        parse(&lex(q))
    }

    fn scaled(a: &str, to: &str, from: &str) -> Option<Expr> {
        Some(Expr::bin(
            MathOp::Divide,
            Expr::bin(MathOp::Multiply, Expr::Num(a.into()), Expr::Num(to.into())),
            Expr::Num(from.into()),
        ))
    }

    #[test]
    fn an_amount_for_one_count_is_scaled_to_another() {
        assert_eq!(
            read("pancakes take 200 g of flour for 4 people, we will be 10, how much flour?"),
            scaled("200", "10", "4")
        );
        assert_eq!(
            read("it calls for 250g of flour for 4 people and we'll be 6, how much flour?"),
            scaled("250", "6", "4")
        );
        assert_eq!(
            read("recipe for 6 needs 450 rice, how much for 4 people"),
            scaled("450", "4", "6")
        );
        assert_eq!(
            read("2 cups milk makes 12 muffins, im making 18, how much milk"),
            scaled("2", "18", "12")
        );
        assert_eq!(
            read("công thức cho 4 người cần 300 g thịt, nấu cho 6 người thì bao nhiêu"),
            scaled("300", "6", "4")
        );
    }

    #[test]
    fn anything_but_a_recipe_is_left_alone() {
        assert_eq!(read("dinner 120 for 4 people, how much for 6 people"), None);
        assert_eq!(read("200 g for 4 people"), None);
        assert_eq!(read("200 g for 4 people and 10%, how much for 6"), None);
    }
}
