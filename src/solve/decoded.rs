//! Distributions decoded for the match-point search (docs/methods.md section 4): a state's
//! `P(x)` as `f32` values, and the dot product an EMP evaluation runs over them.
//!
//! The EMP(1) search reads about seventy post-score distributions a turn, each a dot product of
//! several hundred values with the opponent's tabulated law. A 16-bit logarithmic code is
//! decoded by a lookup and a select ([`decode_codes`]), which costs more than the product
//! itself, so each distribution is decoded once: into a cache shared by the threads while it has
//! room ([`DecodedDists`]; early-game states recur in every game), and otherwise by the thread
//! that reads it, which keeps the one it read last ([`Reader`]): the positions after one box
//! follow one another in a turn, and the points a lower box scores change the position's points,
//! not its state. The dot product takes the values sixteen at a time in `f64` ([`dot`]).
//!
//! The values kept are those between the leading ones within [`TAIL`] of 1 and the trailing ones
//! within [`TAIL`] of 0 (read as 1 and 0): a distribution's support is every total it can reach,
//! and its far tails change no match-point value by more than that.
//!
//! What this costs in accuracy, against the stored codes decoded in `f64`: each `P` moves by at
//! most [`READ_BOUND`] (the magnitude and `1 - v` each rounded once to `f32`, or the tail), so a
//! sum `sum over x of P(x) * w(x)` with `sum |w| <= W` moves by at most `W * READ_BOUND`.

use super::distribution::DistSource;
use super::prob_code::{self, MAGNITUDES};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::OnceLock;

/// Values of `P` within this of 1 before the first that is not are read as 1; within this of 0
/// after the last that is not, as 0.
pub const TAIL: f64 = 1e-7;

/// The most a decoded value differs from the stored one decoded in `f64`: the magnitude rounded
/// to `f32` and `1 - v` rounded in `f32` (each at most `2^-25` below 1), or [`TAIL`].
pub const READ_BOUND: f64 = 6e-8 + TAIL;

/// Bytes of decoded values a shared cache holds at most ([`DecodedDists`]; the whole yahtzee
/// table decoded takes 733 MB, and early-game states, read by every game, come first).
pub const CACHE_BYTES: usize = 192 << 20;

/// A decoded distribution of points still to come: `P(x) = 1` for `x < first`, `values[x -
/// first]` inside, 0 after.
#[derive(Clone, Copy, Debug)]
pub struct DecodedDist<'a> {
    /// The least `x` whose `P` is read from `values`.
    pub first: i64,
    /// `P(first)`, `P(first + 1)`, ...
    pub values: &'a [f32],
}

impl DecodedDist<'_> {
    /// `P(x)` as read.
    #[cfg(test)]
    pub fn at_least(&self, x: i64) -> f32 {
        if x < self.first {
            return 1.0;
        }
        usize::try_from(x - self.first)
            .ok()
            .and_then(|i| self.values.get(i))
            .copied()
            .unwrap_or(0.0)
    }
}

/// Decodes the distribution of state `index` of `source` into `out` (cleared first) and returns
/// its `first` ([`DecodedDist`]): the values from the first that is not within [`TAIL`] of 1 to
/// the last that is not within [`TAIL`] of 0.
pub fn decode_into(source: &dyn DistSource, index: usize, out: &mut Vec<f32>) -> i64 {
    static TAIL_MAGNITUDE: OnceLock<u16> = OnceLock::new();
    let tail = *TAIL_MAGNITUDE.get_or_init(|| prob_code::magnitude_at_most(TAIL));
    let dist = source.dist(index);
    let codes = dist.values;
    // A code of `P >= 1 - TAIL` is at least `COMPLEMENT | tail`; one of `P <= TAIL` is from
    // `tail` to below `COMPLEMENT`.
    let near_one = prob_code::COMPLEMENT | tail;
    let lead = codes.iter().take_while(|&&c| c >= near_one).count();
    let kept = &codes[lead..];
    let trail = kept
        .iter()
        .rev()
        .take_while(|&&c| (tail..prob_code::COMPLEMENT).contains(&c))
        .count();
    let kept = &kept[..kept.len() - trail];
    out.clear();
    out.resize(kept.len(), 0.0);
    decode_codes(kept, out);
    i64::from(dist.start) + lead as i64
}

/// `out[i]` = the `P` of `codes[i]` in `f32`: `v` or `1 - v` for the code's magnitude `v`
/// ([`prob_code::magnitudes_f32`]), the same bits on every instruction set.
pub fn decode_codes(codes: &[u16], out: &mut [f32]) {
    let n = codes.len().min(out.len());
    let (codes, out) = (&codes[..n], &mut out[..n]);
    let table = prob_code::magnitudes_f32();
    #[cfg(target_arch = "x86_64")]
    let done = match vectors() {
        // SAFETY: the CPU has the instruction set (checked by `vectors`).
        Vectors::Avx512 => unsafe { x86::decode_avx512(codes, out, table) },
        // SAFETY: as above.
        Vectors::Avx2 => unsafe { x86::decode_avx2(codes, out, table) },
        Vectors::None => 0,
    };
    #[cfg(not(target_arch = "x86_64"))]
    let done = 0;
    for (o, &c) in out[done..].iter_mut().zip(&codes[done..]) {
        *o = decode_one(table, c);
    }
}

/// The `P` of one code in `f32`.
#[inline(always)]
fn decode_one(table: &[f32; MAGNITUDES], code: u16) -> f32 {
    let v = table[usize::from(code & !prob_code::COMPLEMENT)];
    if code & prob_code::COMPLEMENT == 0 {
        v
    } else {
        1.0 - v
    }
}

/// Decoded distributions of one table, shared by threads: each state decoded on first use and
/// kept while the cache holds less than its budget of bytes; beyond it, states are decoded by
/// each reader ([`Reader`]). The values are the same either way.
pub struct DecodedDists {
    /// By state: its `first` and its values.
    windows: Vec<OnceLock<(i64, Box<[f32]>)>>,
    bytes: AtomicUsize,
    budget: usize,
}

impl DecodedDists {
    /// An empty cache for a table of `states` states, holding at most [`CACHE_BYTES`] (or
    /// `DICELENS_DECODED_MIB` mebibytes: a hidden switch for measuring).
    pub fn new(states: usize) -> DecodedDists {
        // A hidden switch for measuring (PERFORMANCE.md): the budget in MiB.
        let budget = std::env::var("DICELENS_DECODED_MIB")
            .ok()
            .and_then(|mib| mib.parse::<usize>().ok())
            .map_or(CACHE_BYTES, |mib| mib.saturating_mul(1 << 20));
        DecodedDists::with_budget(states, budget)
    }

    /// An empty cache for `states` states that holds at most `budget` bytes of values.
    pub fn with_budget(states: usize, budget: usize) -> DecodedDists {
        DecodedDists {
            windows: (0..states).map(|_| OnceLock::new()).collect(),
            bytes: AtomicUsize::new(0),
            budget,
        }
    }

    /// Bytes of values held.
    #[cfg(test)]
    pub fn bytes(&self) -> usize {
        self.bytes.load(Ordering::Relaxed)
    }

    /// The decoded distribution of state `index`: the one held, else decoded from `source` into
    /// `spare` and a copy kept if there is room (in the budget, and memory for it);
    /// `Err(first)` when it is not kept. The values decoded are left in `spare` either way.
    fn get(
        &self,
        source: &dyn DistSource,
        index: usize,
        spare: &mut Vec<f32>,
    ) -> Result<DecodedDist<'_>, i64> {
        let Some(slot) = self.windows.get(index) else {
            return Err(decode_into(source, index, spare));
        };
        if let Some((first, values)) = slot.get() {
            return Ok(DecodedDist {
                first: *first,
                values,
            });
        }
        let first = decode_into(source, index, spare);
        let size = std::mem::size_of_val(spare.as_slice());
        let room = self
            .bytes
            .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |held| {
                (held + size <= self.budget).then_some(held + size)
            });
        if room.is_err() {
            return Err(first);
        }
        // The cache's memory is taken as it fills: where it cannot be allocated, the state is
        // not kept (its values are in `spare`), never an abort.
        let mut kept = Vec::new();
        if kept.try_reserve_exact(spare.len()).is_err() {
            self.bytes.fetch_sub(size, Ordering::Relaxed);
            return Err(first);
        }
        kept.extend_from_slice(spare);
        let mut stored = false;
        let (first, values) = slot.get_or_init(|| {
            stored = true;
            (first, kept.into_boxed_slice())
        });
        if !stored {
            // Another thread decoded it first (the same values).
            self.bytes.fetch_sub(size, Ordering::Relaxed);
        }
        Ok(DecodedDist {
            first: *first,
            values,
        })
    }
}

/// Reads decoded distributions of one table for one thread: from the shared cache when it holds
/// them, else decoded here; the distribution read last is kept for the reads that follow it (a
/// turn of the search reads the positions after one box one after the other, and the points a
/// lower box scores change the position's points, not its state).
pub struct Reader<'a> {
    source: &'a dyn DistSource,
    cache: Option<&'a DecodedDists>,
    /// The state read last, and its distribution where the cache holds it.
    last: Option<(usize, Option<DecodedDist<'a>>)>,
    /// The `first` and the values of the state read last when the cache does not hold them.
    own: (i64, Vec<f32>),
}

impl<'a> Reader<'a> {
    /// A reader of `source` through its shared `cache`, if any.
    pub fn new(source: &'a dyn DistSource, cache: Option<&'a DecodedDists>) -> Reader<'a> {
        Reader {
            source,
            cache,
            last: None,
            own: (0, Vec::new()),
        }
    }

    /// The decoded distribution of state `index`.
    pub fn read(&mut self, index: usize) -> DecodedDist<'_> {
        let held = match self.last {
            Some((last, held)) if last == index => held,
            _ => {
                let got = match self.cache {
                    Some(cache) => cache.get(self.source, index, &mut self.own.1),
                    None => Err(decode_into(self.source, index, &mut self.own.1)),
                };
                let held = match got {
                    Ok(cached) => Some(cached),
                    Err(first) => {
                        self.own.0 = first;
                        None
                    }
                };
                self.last = Some((index, held));
                held
            }
        };
        held.unwrap_or(DecodedDist {
            first: self.own.0,
            values: &self.own.1,
        })
    }
}

/// Running sums of [`dot`]: lane `j` takes the terms `j`, `j + 32`, `j + 64`, ...
const LANES: usize = 32;

/// `sum over i of values[i] * weights[i]` over the shorter of the two, in `f64`, in a fixed
/// order (thirty-two running sums, then a fixed tree), so every instruction set gives the same
/// bits: each term is added to its lane by one fused multiply-add (rounded once, in vector
/// registers or by [`f64::mul_add`]).
pub fn dot(values: &[f32], weights: &[f64]) -> f64 {
    let n = values.len().min(weights.len());
    let (values, weights) = (&values[..n], &weights[..n]);
    #[cfg(target_arch = "x86_64")]
    match vectors() {
        // SAFETY: the CPU has the instruction set (checked by `vectors`).
        Vectors::Avx512 => unsafe { x86::dot_avx512(values, weights) },
        // SAFETY: as above.
        Vectors::Avx2 => unsafe { x86::dot_avx2(values, weights) },
        Vectors::None => dot_with(values, weights, sums_scalar),
    }
    #[cfg(not(target_arch = "x86_64"))]
    dot_with(values, weights, sums_scalar)
}

/// [`dot`] of two slices of the same length, with `whole` adding the groups of [`LANES`] terms
/// to the running sums: then the terms left, and the tree.
#[inline(always)]
fn dot_with(
    values: &[f32],
    weights: &[f64],
    whole: impl FnOnce(&[f32], &[f64], &mut [f64; LANES]),
) -> f64 {
    let split = values.len() - values.len() % LANES;
    let mut sums = [0.0f64; LANES];
    whole(&values[..split], &weights[..split], &mut sums);
    for (j, (&v, &w)) in values[split..].iter().zip(&weights[split..]).enumerate() {
        sums[j] = f64::from(v).mul_add(w, sums[j]);
    }
    let mut width = LANES;
    while width > 1 {
        width /= 2;
        for j in 0..width {
            sums[j] += sums[j + width];
        }
    }
    sums[0]
}

/// The running sums of [`dot`] over whole groups of [`LANES`] terms, one lane at a time.
#[inline(always)]
fn sums_scalar(values: &[f32], weights: &[f64], sums: &mut [f64; LANES]) {
    for (v, w) in values.chunks_exact(LANES).zip(weights.chunks_exact(LANES)) {
        for j in 0..LANES {
            sums[j] = f64::from(v[j]).mul_add(w[j], sums[j]);
        }
    }
}

/// The vector instructions [`dot`] uses.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Vectors {
    /// Plain `f64` arithmetic.
    None,
    /// Four `f64` lanes (AVX2 with fused multiply-add).
    Avx2,
    /// Eight `f64` lanes.
    Avx512,
}

/// The widest vectors the CPU has (asked once).
fn vectors() -> Vectors {
    static FOUND: OnceLock<Vectors> = OnceLock::new();
    *FOUND.get_or_init(|| {
        #[cfg(target_arch = "x86_64")]
        {
            if std::is_x86_feature_detected!("avx512f") {
                return Vectors::Avx512;
            }
            if std::is_x86_feature_detected!("avx2") && std::is_x86_feature_detected!("fma") {
                return Vectors::Avx2;
            }
        }
        Vectors::None
    })
}

#[cfg(target_arch = "x86_64")]
mod x86 {
    //! [`super::dot`]'s running sums in AVX2 and AVX-512 registers: lane `j` of the thirty-two is
    //! lane `j % w` of register `j / w` (`w` lanes a register), and each takes the same terms
    //! in the same order as the scalar loop.
    use super::{LANES, MAGNITUDES};
    use std::arch::x86_64::*;

    /// [`super::dot`] with `$width` lanes a register: the running sums in registers, loaded,
    /// converted and added with the instructions named.
    macro_rules! dot_in_registers {
        ($(#[$doc:meta])* $name:ident, $features:literal, $width:literal, $zero:ident,
         $load_values:ident, $widen:ident, $load_weights:ident, $fused:ident, $store:ident) => {
            $(#[$doc])*
            #[target_feature(enable = $features)]
            pub(super) unsafe fn $name(values: &[f32], weights: &[f64]) -> f64 {
                super::dot_with(values, weights, |values, weights, sums| {
                    let mut acc = [$zero(); LANES / $width];
                    for g in 0..values.len().min(weights.len()) / LANES {
                        let (v, w) = (
                            values.as_ptr().add(g * LANES),
                            weights.as_ptr().add(g * LANES),
                        );
                        for (r, a) in acc.iter_mut().enumerate() {
                            let p = $widen($load_values(v.add($width * r)));
                            *a = $fused(p, $load_weights(w.add($width * r)), *a);
                        }
                    }
                    for (r, a) in acc.iter().enumerate() {
                        $store(sums.as_mut_ptr().add($width * r), *a);
                    }
                })
            }
        };
    }

    dot_in_registers!(
        /// [`super::dot`] with four lanes a register.
        ///
        /// # Safety
        /// The CPU must have AVX2 and FMA.
        dot_avx2, "avx2,fma", 4, _mm256_setzero_pd, _mm_loadu_ps, _mm256_cvtps_pd,
        _mm256_loadu_pd, _mm256_fmadd_pd, _mm256_storeu_pd
    );

    dot_in_registers!(
        /// [`super::dot`] with eight lanes a register.
        ///
        /// # Safety
        /// The CPU must have AVX-512F.
        dot_avx512, "avx2,fma,avx512f", 8, _mm512_setzero_pd, _mm256_loadu_ps, _mm512_cvtps_pd,
        _mm512_loadu_pd, _mm512_fmadd_pd, _mm512_storeu_pd
    );

    /// Decodes the codes of whole groups of eight ([`super::decode_codes`]); returns how many.
    ///
    /// # Safety
    /// The CPU must have AVX2.
    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn decode_avx2(
        codes: &[u16],
        out: &mut [f32],
        table: &[f32; MAGNITUDES],
    ) -> usize {
        let whole = codes.len().min(out.len()) / 8 * 8;
        let (magnitude, complement) = (_mm256_set1_epi32(0x7fff), _mm256_set1_epi32(0x8000));
        let one = _mm256_set1_ps(1.0);
        for i in (0..whole).step_by(8) {
            let c = _mm256_cvtepu16_epi32(_mm_loadu_si128(codes.as_ptr().add(i).cast()));
            let v = _mm256_i32gather_ps::<4>(table.as_ptr(), _mm256_and_si256(c, magnitude));
            let flip = _mm256_castsi256_ps(_mm256_cmpeq_epi32(
                _mm256_and_si256(c, complement),
                complement,
            ));
            let p = _mm256_blendv_ps(v, _mm256_sub_ps(one, v), flip);
            _mm256_storeu_ps(out.as_mut_ptr().add(i), p);
        }
        whole
    }

    /// Decodes the codes of whole groups of sixteen ([`super::decode_codes`]); returns how many.
    ///
    /// # Safety
    /// The CPU must have AVX-512F.
    #[target_feature(enable = "avx2,avx512f")]
    pub(super) unsafe fn decode_avx512(
        codes: &[u16],
        out: &mut [f32],
        table: &[f32; MAGNITUDES],
    ) -> usize {
        let whole = codes.len().min(out.len()) / 16 * 16;
        let (magnitude, complement) = (_mm512_set1_epi32(0x7fff), _mm512_set1_epi32(0x8000));
        let one = _mm512_set1_ps(1.0);
        for i in (0..whole).step_by(16) {
            let c = _mm512_cvtepu16_epi32(_mm256_loadu_si256(codes.as_ptr().add(i).cast()));
            let v = _mm512_i32gather_ps::<4>(_mm512_and_si512(c, magnitude), table.as_ptr());
            let flip = _mm512_test_epi32_mask(c, complement);
            let p = _mm512_mask_sub_ps(v, flip, one, v);
            _mm512_storeu_ps(out.as_mut_ptr().add(i), p);
        }
        whole
    }
}

/// [`dot`] with the scalar running sums, whatever the CPU (to test that every path gives the
/// same bits).
#[cfg(test)]
fn dot_scalar(values: &[f32], weights: &[f64]) -> f64 {
    let n = values.len().min(weights.len());
    dot_with(&values[..n], &weights[..n], sums_scalar)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solve::distribution::DistTableData;

    #[test]
    fn the_dot_product_is_the_plain_sum_on_every_path() {
        let values: Vec<f32> = (0..1037).map(|i| ((i * 37) % 101) as f32 / 101.0).collect();
        let weights: Vec<f64> = (0..1040).map(|i| ((i * 13) % 17) as f64 * 1e-3).collect();
        let plain: f64 = values
            .iter()
            .zip(&weights)
            .map(|(&v, &w)| f64::from(v) * w)
            .sum();
        let fast = dot(&values, &weights);
        assert!((fast - plain).abs() < 1e-12, "{fast} {plain}");
        // The same bits whichever instruction set runs it.
        for n in [0, 5, 16, 31, 32, 1000, 1037] {
            let (v, w) = (&values[..n], &weights[..n + 3]);
            assert_eq!(dot_scalar(v, w).to_bits(), dot(v, w).to_bits(), "{n}");
        }
        #[cfg(target_arch = "x86_64")]
        if std::is_x86_feature_detected!("avx2") && std::is_x86_feature_detected!("fma") {
            for n in [5, 32, 1000, 1037] {
                let (v, w) = (&values[..n], &weights[..n]);
                // SAFETY: the CPU has AVX2 and FMA (checked just above).
                let four = unsafe { x86::dot_avx2(v, w) };
                assert_eq!(four.to_bits(), dot_scalar(v, w).to_bits(), "{n}");
            }
        }
    }

    #[test]
    fn readers_give_the_stored_values_from_the_cache_or_not() {
        let mut table = DistTableData::new(4);
        let codes: Vec<u16> = [1.0 - 1e-12, 1.0 - 1e-6, 0.7, 0.3, 1e-5, 1e-10, 1e-14]
            .iter()
            .map(|&p| prob_code::encode(p))
            .collect();
        table.set(1, 10, codes.clone());
        table.set(2, 3, codes[2..4].to_vec());
        let cache = DecodedDists::new(4);
        // Room for the first state read only.
        let small = DecodedDists::with_budget(4, 5 * 4);
        for shared in [None, Some(&cache), Some(&small)] {
            let mut reader = Reader::new(&table, shared);
            for index in [1, 1, 2, 1, 2] {
                let d = reader.read(index);
                let stored = table.dist(index);
                // 1 - 1e-12 is read as 1, 1e-10 and 1e-14 as 0.
                let kept = if index == 1 { (11, 4) } else { (3, 2) };
                assert_eq!((d.first, d.values.len()), kept);
                for x in 0..25 {
                    let read = f64::from(d.at_least(x));
                    let stored = stored.at_least(x);
                    assert!((read - stored).abs() <= READ_BOUND, "{x}: {read} {stored}");
                }
            }
        }
        assert_eq!(cache.bytes(), 6 * 4);
        assert_eq!(small.bytes(), 4 * 4);
        // A state beyond the cache (another table's) is decoded by the reader.
        let other = DecodedDists::new(1);
        assert_eq!(Reader::new(&table, Some(&other)).read(2).values.len(), 2);
    }
}
