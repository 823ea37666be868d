//! `root {x, n}` → the n-th root of x (∛343 = 7 for n = 3).

use bigdecimal::{BigDecimal, ToPrimitive};
use chorus_mcp_common::{ToolDef, ToolReply, args::Args};
use serde_json::json;

use super::{decimal_reply, object_schema, operand_schema};
use crate::{
    MathError,
    decimal::{format, nth_root, operand},
};

/// The tool definition.
pub fn def() -> ToolDef {
    super::def(
        "root",
        "The n-th root of x: root(343, 3) = \"7\", root(0.0016, 4) = \"0.2\". Exact for perfect n-th powers; otherwise rounded to 28 significant digits (root(2, 3) = \"1.259921049894873164767210607\"). n is a whole number from 1 to 1000; a negative x has a root only for odd n (root(-27, 3) = \"-3\").",
        object_schema(
            json!({
                "x": operand_schema("Number to take the root of"),
                "n": operand_schema("The root's degree: 2 square root, 3 cube root, … (a whole number from 1 to 1000)"),
            }),
            &["x", "n"],
        ),
    )
}

/// Reads `x` and `n` and takes the root.
pub fn run(args: &Args<'_>) -> Result<ToolReply, MathError> {
    args.only(&["x", "n"])?;
    let x = operand(args, "x")?;
    let n = operand(args, "n")?;
    Ok(decimal_reply(&root(&x, &n)?))
}

/// The `n`-th root of `x`; `n` must be a whole number from 1 to 1000.
pub fn root(x: &BigDecimal, n: &BigDecimal) -> Result<BigDecimal, MathError> {
    let degree = n
        .is_integer()
        .then(|| n.to_u32())
        .flatten()
        .ok_or_else(|| MathError::RootDegree(format(n)))?;
    nth_root(x, degree)
}

#[cfg(test)]
mod tests {
    use std::str::FromStr;

    use super::*;

    fn root_of(x: &str, n: &str) -> Result<String, MathError> {
        let d = |s: &str| BigDecimal::from_str(s).expect("decimal");
        root(&d(x), &d(n)).map(|r| format(&r))
    }

    #[test]
    fn perfect_powers_have_exact_roots() {
        assert_eq!(root_of("343", "3").as_deref(), Ok("7"));
        assert_eq!(root_of("216", "3").as_deref(), Ok("6"));
        assert_eq!(root_of("-27", "3").as_deref(), Ok("-3"));
        assert_eq!(root_of("0.0016", "4").as_deref(), Ok("0.2"));
        assert_eq!(root_of("1024", "10").as_deref(), Ok("2"));
        assert_eq!(root_of("0.001", "3").as_deref(), Ok("0.1"));
        assert_eq!(root_of("625", "2").as_deref(), Ok("25"));
        assert_eq!(root_of("5", "1").as_deref(), Ok("5"));
        assert_eq!(root_of("0", "7").as_deref(), Ok("0"));
    }

    #[test]
    fn other_roots_have_28_significant_digits() {
        assert_eq!(
            root_of("2", "3").as_deref(),
            Ok("1.259921049894873164767210607")
        );
        assert_eq!(
            root_of("2", "2").as_deref(),
            Ok("1.414213562373095048801688724")
        );
        assert_eq!(
            root_of("10", "5").as_deref(),
            Ok("1.584893192461113485202101373")
        );
    }

    #[test]
    fn impossible_roots_are_errors_that_say_why() {
        assert_eq!(
            root_of("-16", "4"),
            Err(MathError::EvenRootOfNegative("-16".into()))
        );
        assert_eq!(root_of("8", "0"), Err(MathError::RootDegree("0".into())));
        assert_eq!(
            root_of("8", "1.5"),
            Err(MathError::RootDegree("1.5".into()))
        );
        assert_eq!(root_of("8", "-3"), Err(MathError::RootDegree("-3".into())));
    }
}
