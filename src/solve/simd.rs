//! Vectors of `f64` lanes for the turn widget's hot loops, and the choice of instruction set
//! at run time.
//!
//! Every operation is one IEEE 754 operation per lane (add, multiply, divide, and the widget's
//! "larger"), with no fused multiply-add, so a lane computes the same bits whichever width
//! carries it: `Scalar` (one lane, any CPU), AVX2 (four lanes) or AVX-512 (eight lanes).
//! The vector types can only be used through [`Path`], which checks the CPU first.

/// Defines a function whose body runs compiled for AVX2 when this CPU has it, plainly
/// otherwise: the same operations in the same order, so the same bits, with the compiler free to
/// use 256-bit vectors. For that to reach the hot loops, what the body calls must be
/// `#[inline(always)]`. At most one generic parameter, with one bound. The short form
/// `fn NAME = INNER(ARGS) -> R` defines `NAME` as the call of `INNER` with the same arguments.
macro_rules! fn_with_avx2 {
    ($(#[$attr:meta])* $vis:vis fn $name:ident = $inner:ident
        ($($arg:ident: $ty:ty),* $(,)?) -> $ret:ty) => {
        fn_with_avx2! {
            $(#[$attr])*
            $vis fn $name($($arg: $ty),*) -> $ret {
                $inner($($arg),*)
            }
        }
    };
    ($(#[$attr:meta])* $vis:vis fn $name:ident $(<$g:ident: $bound:path>)?
        ($($arg:ident: $ty:ty),* $(,)?) $(-> $ret:ty)? $body:block) => {
        $(#[$attr])*
        $vis fn $name $(<$g: $bound>)? ($($arg: $ty),*) $(-> $ret)? {
            #[cfg(target_arch = "x86_64")]
            #[target_feature(enable = "avx2")]
            unsafe fn avx2 $(<$g: $bound>)? ($($arg: $ty),*) $(-> $ret)? $body

            #[cfg(target_arch = "x86_64")]
            if std::is_x86_feature_detected!("avx2") {
                // SAFETY: the CPU supports AVX2, checked just above.
                return unsafe { avx2($($arg),*) };
            }
            $body
        }
    };
}
pub(crate) use fn_with_avx2;

/// A vector of `f64` lanes with the widget's arithmetic.
pub(crate) trait Lanes: Copy {
    /// Number of `f64` lanes.
    const WIDTH: usize;
    /// Every lane `x`.
    fn splat(x: f64) -> Self;
    /// The first [`Lanes::WIDTH`] values of `s` (panics if `s` is shorter).
    fn load(s: &[f64]) -> Self;
    /// Writes the lanes into the first [`Lanes::WIDTH`] values of `s` (panics if shorter).
    fn store(self, s: &mut [f64]);
    /// Lane-wise `self + other`.
    fn add(self, other: Self) -> Self;
    /// Lane-wise `self * other`.
    fn mul(self, other: Self) -> Self;
    /// Lane-wise `self / other`.
    fn div(self, other: Self) -> Self;
    /// Lane-wise `if other > self { other } else { self }` (the widget's maximum).
    fn larger(self, other: Self) -> Self;
}

/// One lane in a plain `f64`: the path for CPUs without vector extensions.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Scalar(f64);

impl Lanes for Scalar {
    const WIDTH: usize = 1;
    #[inline(always)]
    fn splat(x: f64) -> Self {
        Scalar(x)
    }
    #[inline(always)]
    fn load(s: &[f64]) -> Self {
        Scalar(s[0])
    }
    #[inline(always)]
    fn store(self, s: &mut [f64]) {
        s[0] = self.0;
    }
    #[inline(always)]
    fn add(self, other: Self) -> Self {
        Scalar(self.0 + other.0)
    }
    #[inline(always)]
    fn mul(self, other: Self) -> Self {
        Scalar(self.0 * other.0)
    }
    #[inline(always)]
    fn div(self, other: Self) -> Self {
        Scalar(self.0 / other.0)
    }
    #[inline(always)]
    fn larger(self, other: Self) -> Self {
        if other.0 > self.0 {
            other
        } else {
            self
        }
    }
}

#[cfg(target_arch = "x86_64")]
pub(crate) use x86::{Avx2, Avx512};

#[cfg(target_arch = "x86_64")]
mod x86 {
    //! The x86-64 vectors. Their values are created only inside functions compiled with the
    //! matching target feature, which [`super::Path::detect`] or [`super::Path::available`]
    //! has checked the CPU for: that is the safety argument of every `unsafe` block here.
    use super::Lanes;
    use std::arch::x86_64::*;

    /// A vector type over one x86 register type and its intrinsics.
    macro_rules! x86_lanes {
        ($(#[$doc:meta])* $name:ident($reg:ty), $width:literal,
         $set1:ident, $loadu:ident, $storeu:ident, $add:ident, $mul:ident, $div:ident,
         $max:ident) => {
            $(#[$doc])*
            #[derive(Clone, Copy, Debug)]
            pub(crate) struct $name($reg);

            impl Lanes for $name {
                const WIDTH: usize = $width;
                #[inline(always)]
                fn splat(x: f64) -> Self {
                    // SAFETY: only reached from code compiled for the feature on a CPU checked
                    // to have it (see the module documentation).
                    $name(unsafe { $set1(x) })
                }
                #[inline(always)]
                fn load(s: &[f64]) -> Self {
                    let s = &s[..$width];
                    // SAFETY: `s` holds a whole vector; the feature as above.
                    $name(unsafe { $loadu(s.as_ptr()) })
                }
                #[inline(always)]
                fn store(self, s: &mut [f64]) {
                    let s = &mut s[..$width];
                    // SAFETY: `s` holds a whole vector; the feature as above.
                    unsafe { $storeu(s.as_mut_ptr(), self.0) }
                }
                #[inline(always)]
                fn add(self, other: Self) -> Self {
                    // SAFETY: the feature as above.
                    $name(unsafe { $add(self.0, other.0) })
                }
                #[inline(always)]
                fn mul(self, other: Self) -> Self {
                    // SAFETY: the feature as above.
                    $name(unsafe { $mul(self.0, other.0) })
                }
                #[inline(always)]
                fn div(self, other: Self) -> Self {
                    // SAFETY: the feature as above.
                    $name(unsafe { $div(self.0, other.0) })
                }
                #[inline(always)]
                fn larger(self, other: Self) -> Self {
                    // `max(a, b)` is `a > b ? a : b` lane by lane.
                    // SAFETY: the feature as above.
                    $name(unsafe { $max(other.0, self.0) })
                }
            }
        };
    }

    x86_lanes!(
        /// Four lanes in an AVX register (used on CPUs with AVX2).
        Avx2(__m256d), 4,
        _mm256_set1_pd, _mm256_loadu_pd, _mm256_storeu_pd, _mm256_add_pd, _mm256_mul_pd,
        _mm256_div_pd, _mm256_max_pd
    );
    x86_lanes!(
        /// Eight lanes in an AVX-512 register.
        Avx512(__m512d), 8,
        _mm512_set1_pd, _mm512_loadu_pd, _mm512_storeu_pd, _mm512_add_pd, _mm512_mul_pd,
        _mm512_div_pd, _mm512_max_pd
    );
}

/// Which instruction set the table builder's kernel runs on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Path {
    /// Plain `f64` arithmetic, one lane at a time (any CPU).
    Scalar,
    /// AVX2: four lanes per instruction.
    Avx2,
    /// AVX-512F: eight lanes per instruction (four for a group's last lanes).
    Avx512,
}

impl Path {
    /// Every path, slowest first.
    pub const ALL: [Path; 3] = [Path::Scalar, Path::Avx2, Path::Avx512];

    /// The fastest path this CPU runs, unless the environment variable `DICELENS_KERNEL`
    /// names another one it runs (`scalar`, `avx2`, `avx512`: for benchmarks).
    pub fn detect() -> Path {
        let asked = std::env::var("DICELENS_KERNEL").ok();
        if let Some(path) = Path::ALL
            .into_iter()
            .find(|p| asked.as_deref() == Some(p.name()) && p.available())
        {
            return path;
        }
        *Path::ALL
            .iter()
            .rev()
            .find(|p| p.available())
            .unwrap_or(&Path::Scalar)
    }

    /// True when this CPU has the instructions of the path.
    pub fn available(self) -> bool {
        match self {
            Path::Scalar => true,
            #[cfg(target_arch = "x86_64")]
            Path::Avx2 => std::is_x86_feature_detected!("avx2"),
            #[cfg(target_arch = "x86_64")]
            Path::Avx512 => {
                std::is_x86_feature_detected!("avx2") && std::is_x86_feature_detected!("avx512f")
            }
            #[cfg(not(target_arch = "x86_64"))]
            _ => false,
        }
    }

    /// The name used in benchmarks and messages.
    pub fn name(self) -> &'static str {
        match self {
            Path::Scalar => "scalar",
            Path::Avx2 => "avx2",
            Path::Avx512 => "avx512",
        }
    }
}
