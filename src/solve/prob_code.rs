//! The 16-bit code of a stored probability (docs/methods.md section 3, docs/tables.md): a
//! logarithm of `P` or of `1 - P`, whichever is at most one half, so that both tails of a
//! distribution keep their relative precision.
//!
//! Bit 15 says which is coded: clear for `P` (`P <= 1/2`), set for `1 - P` (`P > 1/2`). The
//! other 15 bits, `m`, hold `y = -log2(v)` of that value `v` in `(0, 1/2]`, so `y >= 1`:
//! - the fine part, `m` in `0..=FINE_CODES`: `y = 1 + m * FINE_STEP` up to [`FINE_END`]
//!   (`v` down to `2^-50`, about `8.9e-16`), a step of `49 / 30720` in `log2`, so rounding
//!   alone changes a value by a factor of at most `2^(FINE_STEP / 2)`: [`FINE_ROUNDING`]
//!   (`5.53e-4`) relative;
//! - the coarse part, `m` above `FINE_CODES`: `y` from [`FINE_END`] to [`COARSE_END`] (149:
//!   the least positive `f32` is `2^-149`) in 2,047 steps of `0.0489`, a relative rounding
//!   error of at most [`COARSE_ROUNDING`] (1.7%): enough to keep the support exact and the
//!   deep tail's order of magnitude.
//!
//! Decoding is a lookup in a table of the 32,768 magnitudes, encoding a `log2` and a rounding.

use std::sync::OnceLock;

/// Bit set when the code holds `1 - P` (that is, `P > 1/2`).
pub const COMPLEMENT: u16 = 0x8000;

/// The 15 bits of the magnitude.
const MAGNITUDE: u16 = 0x7fff;

/// Codes of the fine part: magnitudes `0..=FINE_CODES`.
pub const FINE_CODES: u16 = 30_720;

/// `-log2` of the least value of the fine part.
pub const FINE_END: f64 = 50.0;

/// `-log2` of the least value of the coarse part (the least positive `f32`).
pub const COARSE_END: f64 = 149.0;

/// Step of the fine part, in `log2` units.
pub const FINE_STEP: f64 = (FINE_END - 1.0) / FINE_CODES as f64;

/// Step of the coarse part, in `log2` units.
pub const COARSE_STEP: f64 = (COARSE_END - FINE_END) / (MAGNITUDE - FINE_CODES) as f64;

/// The largest relative error of one rounding in the fine part, `2^(FINE_STEP / 2) - 1`
/// (rounded up).
pub const FINE_ROUNDING: f64 = 5.53e-4;

/// The largest relative error of one rounding in the coarse part, `2^(COARSE_STEP / 2) - 1`
/// (rounded up).
pub const COARSE_ROUNDING: f64 = 1.70e-2;

/// The least value coded in the fine part, `2^-FINE_END`.
pub fn fine_floor() -> f64 {
    (-FINE_END).exp2()
}

/// `-log2` of the value a magnitude stands for.
fn magnitude_log(m: u16) -> f64 {
    if m <= FINE_CODES {
        1.0 + f64::from(m) * FINE_STEP
    } else {
        FINE_END + f64::from(m - FINE_CODES) * COARSE_STEP
    }
}

/// The values of the 32,768 magnitudes.
fn magnitudes() -> &'static [f64] {
    static TABLE: OnceLock<Vec<f64>> = OnceLock::new();
    TABLE.get_or_init(|| {
        (0..=MAGNITUDE)
            .map(|m| (-magnitude_log(m)).exp2())
            .collect()
    })
}

/// The magnitude nearest (in `log2`) to `v` in `[0, 1/2]`; the least value for 0.
fn magnitude_of(v: f64) -> u16 {
    let y = -v.log2();
    let m = if y <= FINE_END {
        (y - 1.0) / FINE_STEP
    } else {
        f64::from(FINE_CODES) + (y - FINE_END) / COARSE_STEP
    };
    m.round().clamp(0.0, f64::from(MAGNITUDE)) as u16
}

/// The code of a probability `p` (in `[0, 1]`; exactly 0 and 1 are not coded: a distribution
/// trims them).
pub fn encode(p: f64) -> u16 {
    if p <= 0.5 {
        magnitude_of(p.max(0.0))
    } else {
        COMPLEMENT | magnitude_of((1.0 - p).max(0.0))
    }
}

/// The code of the probability whose complement `1 - P` is `q` (in `[0, 1]`): `1 - P` keeps
/// its relative precision when it is tiny.
pub fn encode_complement(q: f64) -> u16 {
    if q < 0.5 {
        COMPLEMENT | magnitude_of(q.max(0.0))
    } else {
        magnitude_of((1.0 - q).max(0.0))
    }
}

/// The probability `P` a code stands for.
#[inline]
pub fn probability(code: u16) -> f64 {
    let v = magnitudes()[usize::from(code & MAGNITUDE)];
    if code & COMPLEMENT == 0 {
        v
    } else {
        1.0 - v
    }
}

/// `1 - P` of a code, with its relative precision when it is tiny.
#[inline]
pub fn complement(code: u16) -> f64 {
    let v = magnitudes()[usize::from(code & MAGNITUDE)];
    if code & COMPLEMENT == 0 {
        1.0 - v
    } else {
        v
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_rounding_constants_bound_the_steps() {
        let fine = (FINE_STEP / 2.0).exp2() - 1.0;
        let coarse = (COARSE_STEP / 2.0).exp2() - 1.0;
        assert!(
            fine <= FINE_ROUNDING && FINE_ROUNDING - fine < 1e-6,
            "{fine}"
        );
        assert!(
            coarse <= COARSE_ROUNDING && COARSE_ROUNDING - coarse < 1e-4,
            "{coarse}"
        );
        // The last magnitude is the least positive f32.
        assert_eq!(
            magnitudes()[usize::from(MAGNITUDE)] as f32,
            f32::from_bits(1)
        );
        assert_eq!(probability(encode(0.5)), 0.5);
    }

    #[test]
    fn coding_keeps_each_tail_within_one_rounding() {
        // P from 1e-40 to 1 - 1e-40, both sides: relative error of P (small P) and of 1 - P
        // (P near 1) within one half step.
        let mut v = 0.5f64;
        while v > 1e-40 {
            let bound = if v >= fine_floor() {
                FINE_ROUNDING
            } else {
                COARSE_ROUNDING
            };
            let p = probability(encode(v));
            assert!((p / v - 1.0).abs() <= bound, "P {v}: {p}");
            let q = complement(encode_complement(v));
            assert!((q / v - 1.0).abs() <= bound, "1 - P {v}: {q}");
            // The other side of one half: the code of P near 1 keeps 1 - P.
            assert!((complement(encode(1.0 - v)) / v - 1.0).abs() <= bound.max(1e-15 / v));
            v *= 0.913;
        }
        // Monotone: a larger P never has a smaller decoded value.
        let mut last = 0.0;
        for m in (0..=MAGNITUDE).rev() {
            let p = probability(m);
            assert!(p > last, "magnitude {m}");
            last = p;
        }
        for m in 0..=MAGNITUDE {
            let p = probability(COMPLEMENT | m);
            assert!(p >= last, "complement magnitude {m}");
            last = p;
        }
    }
}
