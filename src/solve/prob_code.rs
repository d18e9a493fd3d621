//! The 16-bit code of a stored probability (docs/methods.md section 3, docs/tables.md): a
//! logarithm of `P` or of `1 - P`, whichever is at most one half, so that both tails of a
//! distribution keep their relative precision.
//!
//! Bit 15 says which is coded: clear for `P` (`P <= 1/2`), set for `1 - P` (`P > 1/2`). The
//! other 15 bits, `m`, hold `y = -log2(v)` of that value `v` in `(0, 1/2]`, so `y >= 1`:
//! - the fine part, `m` in `0..=FINE_CODES`: `y = 1 + m * FINE_STEP` up to `FINE_END`
//!   (`v` down to `2^-50`, about `8.9e-16`), a step of `49 / 30720` in `log2`, so rounding
//!   alone changes a value by a factor of at most `2^(FINE_STEP / 2)`: [`FINE_ROUNDING`]
//!   (`5.53e-4`) relative;
//! - the coarse part, `m` up to `COARSE_CODES`: `y` from `FINE_END` to `COARSE_END` (149:
//!   the least positive `f32` is `2^-149`) in 1,247 steps of `0.0794`, a relative rounding
//!   error of at most `COARSE_ROUNDING` (2.8%);
//! - the deep part, the last 800 magnitudes: `y` from `COARSE_END` to `DEEP_END` (600) in
//!   steps of `0.564`, a relative rounding error of at most `DEEP_ROUNDING` (21.6%). No
//!   non-zero `P` or `1 - P` is smaller than one sequence of rolls, `6^-15` a turn
//!   (`2^-582` for 15 turns), so every one is coded: the support is exact, and the deep
//!   tail keeps its order of magnitude.
//!
//! Decoding is a lookup in a table of the 32,768 magnitudes, encoding a `log2` and a rounding.

use std::sync::OnceLock;

/// Bit set when the code holds `1 - P` (that is, `P > 1/2`).
pub(crate) const COMPLEMENT: u16 = 0x8000;

/// The 15 bits of the magnitude.
const MAGNITUDE: u16 = 0x7fff;

/// Codes of the fine part: magnitudes `0..=FINE_CODES`.
pub(crate) const FINE_CODES: u16 = 30_720;

/// Codes of the fine and coarse parts: magnitudes `0..=COARSE_CODES`; the deep part follows.
pub(crate) const COARSE_CODES: u16 = FINE_CODES + 1_247;

/// `-log2` of the least value of the fine part.
pub(crate) const FINE_END: f64 = 50.0;

/// `-log2` of the least value of the coarse part (the least positive `f32`).
pub(crate) const COARSE_END: f64 = 149.0;

/// `-log2` of the least value of the deep part, below every non-zero `P` and `1 - P` of 15
/// turns or fewer (`6^-225 = 2^-581.6`).
pub(crate) const DEEP_END: f64 = 600.0;

/// Step of the fine part, in `log2` units.
pub(crate) const FINE_STEP: f64 = (FINE_END - 1.0) / FINE_CODES as f64;

/// Step of the coarse part, in `log2` units.
pub(crate) const COARSE_STEP: f64 = (COARSE_END - FINE_END) / (COARSE_CODES - FINE_CODES) as f64;

/// Step of the deep part, in `log2` units.
pub(crate) const DEEP_STEP: f64 = (DEEP_END - COARSE_END) / (MAGNITUDE - COARSE_CODES) as f64;

/// The largest relative error of one rounding in the fine part, `2^(FINE_STEP / 2) - 1`
/// (rounded up).
pub const FINE_ROUNDING: f64 = 5.53e-4;

/// The largest relative error of one rounding in the coarse part, `2^(COARSE_STEP / 2) - 1`
/// (rounded up).
pub(crate) const COARSE_ROUNDING: f64 = 2.79e-2;

/// The largest relative error of one rounding in the deep part, `2^(DEEP_STEP / 2) - 1`
/// (rounded up).
pub(crate) const DEEP_ROUNDING: f64 = 0.216;

/// The least value coded in the fine part, `2^-FINE_END`.
pub(crate) fn fine_floor() -> f64 {
    (-FINE_END).exp2()
}

/// The least value coded in the coarse part, `2^-COARSE_END` (the least positive `f32`).
pub(crate) fn coarse_floor() -> f64 {
    (-COARSE_END).exp2()
}

/// The three parts of the magnitudes, each an even scale of `y`: its first magnitude, the `y`
/// there and at its end, and its step.
const PARTS: [(u16, f64, f64, f64); 3] = [
    (0, 1.0, FINE_END, FINE_STEP),
    (FINE_CODES, FINE_END, COARSE_END, COARSE_STEP),
    (COARSE_CODES, COARSE_END, DEEP_END, DEEP_STEP),
];

/// `-log2` of the value a magnitude stands for.
fn magnitude_log(m: u16) -> f64 {
    let ends = [FINE_CODES, COARSE_CODES, MAGNITUDE];
    let part = ends.iter().position(|&end| m <= end).unwrap_or(2);
    let (first, y, _, step) = PARTS[part];
    y + f64::from(m - first) * step
}

/// Number of magnitudes.
pub(crate) const MAGNITUDES: usize = MAGNITUDE as usize + 1;

/// The values of the 32,768 magnitudes.
fn magnitudes() -> &'static [f64; MAGNITUDES] {
    static TABLE: OnceLock<Box<[f64; MAGNITUDES]>> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut table = Box::new([0.0; MAGNITUDES]);
        for (m, v) in (0..=MAGNITUDE).zip(table.iter_mut()) {
            *v = (-magnitude_log(m)).exp2();
        }
        table
    })
}

/// The magnitude nearest (in `log2`) to `v` in `[0, 1/2]`; the least value for 0.
fn magnitude_of(v: f64) -> u16 {
    let y = -v.log2();
    let part = PARTS.iter().position(|p| y <= p.2).unwrap_or(2);
    let (first, y0, _, step) = PARTS[part];
    let m = f64::from(first) + (y - y0) / step;
    m.round().clamp(0.0, f64::from(MAGNITUDE)) as u16
}

/// The code of a probability `p` (in `[0, 1]`; exactly 0 and 1 are not coded: a distribution
/// trims them).
pub(crate) fn encode(p: f64) -> u16 {
    if p <= 0.5 {
        magnitude_of(p.max(0.0))
    } else {
        COMPLEMENT | magnitude_of((1.0 - p).max(0.0))
    }
}

/// The code of the probability whose complement `1 - P` is `q` (in `[0, 1]`): `1 - P` keeps
/// its relative precision when it is tiny.
pub(crate) fn encode_complement(q: f64) -> u16 {
    if q < 0.5 {
        COMPLEMENT | magnitude_of(q.max(0.0))
    } else {
        magnitude_of((1.0 - q).max(0.0))
    }
}

/// The magnitudes rounded to `f32`, by magnitude (`code & 0x7fff`): for decoding many codes
/// into `f32` at once (a stored `P` is `v` or `1 - v`, computed in `f32`).
pub(crate) fn magnitudes_f32() -> &'static [f32; MAGNITUDES] {
    static TABLE: OnceLock<Box<[f32; MAGNITUDES]>> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut table = Box::new([0.0; MAGNITUDES]);
        for (v, &exact) in table.iter_mut().zip(magnitudes().iter()) {
            *v = exact as f32;
        }
        table
    })
}

/// The least magnitude whose value is at most `v` (for `v` in `(0, 1/2]`): a code of magnitude at
/// least this holds a `P` (or a `1 - P`) of at most `v`.
pub(crate) fn magnitude_at_most(v: f64) -> u16 {
    let table = magnitudes();
    table.partition_point(|&m| m > v) as u16
}

/// The probability `P` a code stands for.
#[inline]
pub fn probability(code: u16) -> f64 {
    decode_with(magnitudes(), code)
}

/// `P` of a code, from the table of magnitudes.
#[inline(always)]
fn decode_with(table: &[f64; MAGNITUDES], code: u16) -> f64 {
    let v = table[usize::from(code & MAGNITUDE)];
    if code & COMPLEMENT == 0 {
        v
    } else {
        1.0 - v
    }
}

/// `1 - P` of a code, with its relative precision when it is tiny.
#[inline]
pub(crate) fn complement(code: u16) -> f64 {
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
        for (step, rounding, close) in [
            (FINE_STEP, FINE_ROUNDING, 1e-6),
            (COARSE_STEP, COARSE_ROUNDING, 1e-4),
            (DEEP_STEP, DEEP_ROUNDING, 1e-3),
        ] {
            let exact = (step / 2.0).exp2() - 1.0;
            assert!(exact <= rounding && rounding - exact < close, "{exact}");
        }
        // The coarse part ends at the least positive f32, the deep part below 6^-225.
        assert_eq!(
            magnitudes()[usize::from(COARSE_CODES)] as f32,
            f32::from_bits(1)
        );
        let least = magnitudes()[usize::from(MAGNITUDE)];
        assert!(least > 0.0 && least < 6f64.powi(-225));
        assert_eq!(probability(encode(0.5)), 0.5);
    }

    #[test]
    fn coding_keeps_each_tail_within_one_rounding() {
        // P from 1e-175 to 1 - 1e-175, both sides: relative error of P (small P) and of 1 - P
        // (P near 1) within one half step.
        let mut v = 0.5f64;
        while v > 1e-175 {
            let bound = if v >= fine_floor() {
                FINE_ROUNDING
            } else if v >= coarse_floor() {
                COARSE_ROUNDING
            } else {
                DEEP_ROUNDING
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
