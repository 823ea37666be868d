//! Summaries of measured durations: percentiles over a sample of microsecond values.

/// Percentiles of a sample, in microseconds.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Percentiles {
    /// How many values.
    pub count: usize,
    /// Median.
    pub p50: u64,
    /// 90th percentile.
    pub p90: u64,
    /// 99th percentile.
    pub p99: u64,
    /// Largest value.
    pub max: u64,
    /// Arithmetic mean.
    pub mean: u64,
}

impl Percentiles {
    /// The percentiles of `values` (sorted in place); `None` when empty.
    pub fn of(values: &mut [u64]) -> Option<Percentiles> {
        if values.is_empty() {
            return None;
        }
        values.sort_unstable();
        let sum: u128 = values.iter().map(|&v| u128::from(v)).sum();
        Some(Percentiles {
            count: values.len(),
            p50: rank(values, 0.50),
            p90: rank(values, 0.90),
            p99: rank(values, 0.99),
            max: values[values.len() - 1],
            mean: (sum / values.len() as u128) as u64,
        })
    }
}

/// The nearest-rank `q` quantile of sorted, non-empty `values`.
fn rank(values: &[u64], q: f64) -> u64 {
    let n = values.len();
    let idx = ((q * n as f64).ceil() as usize).clamp(1, n) - 1;
    values[idx]
}

/// Microseconds as milliseconds, rounded to the microsecond.
pub fn ms(us: u64) -> f64 {
    us as f64 / 1000.0
}

/// A microsecond value printed as milliseconds with three decimals.
pub fn fmt_ms(us: u64) -> String {
    format!("{:.3} ms", ms(us))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percentiles_use_the_nearest_rank() {
        let mut v: Vec<u64> = (1..=100).rev().collect();
        let p = Percentiles::of(&mut v).expect("non-empty");
        assert_eq!((p.p50, p.p90, p.p99, p.max), (50, 90, 99, 100));
        assert_eq!(p.mean, 50);
        assert_eq!(p.count, 100);
    }

    #[test]
    fn one_value_is_every_percentile() {
        let p = Percentiles::of(&mut [7]).expect("non-empty");
        assert_eq!((p.p50, p.p99, p.max, p.mean), (7, 7, 7, 7));
    }

    #[test]
    fn an_empty_sample_has_no_percentiles() {
        assert_eq!(Percentiles::of(&mut []), None);
    }

    #[test]
    fn milliseconds_are_printed_with_three_decimals() {
        assert_eq!(fmt_ms(1234), "1.234 ms");
        assert_eq!(ms(500), 0.5);
    }
}
