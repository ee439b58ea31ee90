//! Maximum-weight matching in a general graph (Edmonds' blossom algorithm, primal-dual, as described
//! by Galil, "Efficient Algorithms for Finding Maximum Matching in Graphs", ACM Computing Surveys
//! 1986), with integer edge weights of any width up to 1024 bits.
//!
//! Written for the Swiss pairing engine: caissify-pairings' Dutch system encodes every pairing
//! criterion of FIDE C.04.3 as one bit field of an edge weight (300-450 bits at 100-500 players)
//! and solves one maximum-cardinality, maximum-weight matching per pair it fixes, with
//! `networkx.max_weight_matching`. This is the same algorithm, step for step in the same order
//! (vertices in insertion order, neighbours in the order their edges were added, the same
//! stack of vertices to scan, the same first-found minimum at every dual adjustment), so that a
//! graph with several maximum matchings gets the same one networkx returns: the pairings must
//! not depend on which of the two computed them. Weights are fixed-width integers (64-bit limbs) chosen
//! per call by the caller from the widest weight; the result is checked against the optimality
//! conditions (dual feasibility, complementary slackness) before it is returned.

use std::ops::{Add, Sub};

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

mod matcher;
mod dutch;
mod incremental;
mod table;
mod verify;

use matcher::{Matcher, NONE};

pub trait Weight: Copy + Ord + Add<Output = Self> + Sub<Output = Self> {
    fn zero() -> Self;
    fn from_le(bytes: &[u8]) -> Self;
    /// Exact half of a non-negative even number.
    fn half(self) -> Self;
    fn twice(self) -> Self {
        self + self
    }
}

impl Weight for i128 {
    fn zero() -> Self {
        0
    }
    fn from_le(bytes: &[u8]) -> Self {
        let mut b = [0u8; 16];
        b.copy_from_slice(bytes);
        i128::from_le_bytes(b)
    }
    fn half(self) -> Self {
        self >> 1
    }
}

/// A signed integer of `L` 64-bit limbs (little-endian, two's complement) with just what the matching
/// needs: addition, subtraction, comparison, halving. Sums stay far from the ends of the range: the
/// caller picks `L` with 24 bits above the widest weight.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Wide<const L: usize>([u64; L]);

impl<const L: usize> Add for Wide<L> {
    type Output = Self;
    #[inline(always)]
    fn add(self, rhs: Self) -> Self {
        let mut out = [0u64; L];
        let mut carry = false;
        for i in 0..L {
            let (s1, c1) = self.0[i].overflowing_add(rhs.0[i]);
            let (s2, c2) = s1.overflowing_add(carry as u64);
            out[i] = s2;
            carry = c1 | c2;
        }
        Wide(out)
    }
}

impl<const L: usize> Sub for Wide<L> {
    type Output = Self;
    #[inline(always)]
    fn sub(self, rhs: Self) -> Self {
        let mut out = [0u64; L];
        let mut borrow = false;
        for i in 0..L {
            let (s1, b1) = self.0[i].overflowing_sub(rhs.0[i]);
            let (s2, b2) = s1.overflowing_sub(borrow as u64);
            out[i] = s2;
            borrow = b1 | b2;
        }
        Wide(out)
    }
}

impl<const L: usize> Ord for Wide<L> {
    #[inline(always)]
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        let top = (self.0[L - 1] as i64).cmp(&(other.0[L - 1] as i64));
        if top != std::cmp::Ordering::Equal {
            return top;
        }
        for i in (0..L - 1).rev() {
            let c = self.0[i].cmp(&other.0[i]);
            if c != std::cmp::Ordering::Equal {
                return c;
            }
        }
        std::cmp::Ordering::Equal
    }
}

impl<const L: usize> PartialOrd for Wide<L> {
    #[inline(always)]
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl<const L: usize> Weight for Wide<L> {
    fn zero() -> Self {
        Wide([0; L])
    }
    fn from_le(bytes: &[u8]) -> Self {
        let mut out = [0u64; L];
        for (i, chunk) in bytes.chunks_exact(8).enumerate() {
            out[i] = u64::from_le_bytes(chunk.try_into().expect("8 bytes"));
        }
        Wide(out)
    }
    fn half(self) -> Self {
        let mut out = [0u64; L];
        for i in 0..L - 1 {
            out[i] = (self.0[i] >> 1) | (self.0[i + 1] << 63);
        }
        out[L - 1] = ((self.0[L - 1] as i64) >> 1) as u64;
        Wide(out)
    }
}

fn run<W: Weight>(n: usize, us: &[u32], vs: &[u32], blob: &[u8], width: usize, maxcard: bool) -> Result<Vec<i64>, String> {
    let weights: Vec<W> = blob.chunks_exact(width).map(W::from_le).collect();
    let mut m = Matcher::<W>::new(n, us, vs, &weights);
    if n > 0 && !m.w2.is_empty() {
        m.solve(maxcard);
        m.verify(maxcard)?;
    }
    Ok(mates(&m))
}

/// The last optimum of a session, by weight width.
enum Kept {
    None,
    I128(Matcher<i128>),
    W4(Matcher<Wide<4>>),
    W5(Matcher<Wide<5>>),
    W6(Matcher<Wide<6>>),
    W7(Matcher<Wide<7>>),
    W8(Matcher<Wide<8>>),
    W12(Matcher<Wide<12>>),
    W16(Matcher<Wide<16>>),
}

/// Solves one graph, from `prev` (warm) when there is one: (mates, warm start used, fell back to a cold start).
fn solve_kept<W: Weight>(
    prev: Option<Matcher<W>>,
    n: usize,
    us: &[u32],
    vs: &[u32],
    blob: &[u8],
    width: usize,
    maxcard: bool,
) -> Result<(Matcher<W>, bool, bool), String> {
    let weights: Vec<W> = blob.chunks_exact(width).map(W::from_le).collect();
    if let Some(prev) = prev {
        // A warm start that panics (a state the repair did not foresee) is redone from scratch like one
        // that fails the optimality check.
        let attempt = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            let mut m = Matcher::<W>::new(n, us, vs, &weights);
            m.carry_over(prev)?;
            if n > 0 && !m.w2.is_empty() {
                m.solve(maxcard);
            }
            Some(m)
        }));
        let redo = match attempt {
            Ok(Some(m)) => match m.verify(maxcard) {
                Ok(()) => return Ok((m, true, false)),
                Err(e) => {
                    if std::env::var_os("CHESSLAWS_MATCHING_DEBUG").is_some() {
                        eprintln!("warm start rejected: {e}");
                    }
                    true
                }
            },
            Ok(None) => false, // too much changed: a cold start, not a failed warm one
            Err(_) => true,
        };
        if redo {
            let mut cold = Matcher::<W>::new(n, us, vs, &weights);
            if n > 0 && !cold.w2.is_empty() {
                cold.solve(maxcard);
                cold.verify(maxcard)?;
            }
            return Ok((cold, false, true));
        }
    }
    let mut m = Matcher::<W>::new(n, us, vs, &weights);
    if n > 0 && !m.w2.is_empty() {
        m.solve(maxcard);
        m.verify(maxcard)?;
    }
    Ok((m, false, false))
}

/// A sequence of maximum-cardinality matchings of graphs on the same vertices, each started from the
/// optimum of the one before (a warm start: what changed is repaired, the rest kept), as caissify asks for
/// one per pair it fixes. Where several matchings have the greatest weight it may return another one than
/// networkx (which starts from scratch); every result passes the optimality check, and a warm start that
/// would not is redone from scratch.
#[pyclass(module = "chesslaws._core")]
pub struct MatchingSession {
    kept: Kept,
    /// Weights already encoded, by the address of their int object (held, so the address stays its own):
    /// caissify hands the same objects over from one matching to the next.
    encoded: std::collections::HashMap<usize, (Py<PyAny>, Vec<u8>, u32), AddressHash>,
    last_width: usize,
    #[pyo3(get)]
    warm: u64,
    #[pyo3(get)]
    cold: u64,
    #[pyo3(get)]
    fallbacks: u64,
}

#[pymethods]
impl MatchingSession {
    #[new]
    fn py_new() -> Self {
        MatchingSession {
            kept: Kept::None,
            encoded: std::collections::HashMap::default(),
            last_width: 16,
            warm: 0,
            cold: 0,
            fallbacks: 0,
        }
    }

    /// The weights (a list of ints) as `matching` takes them: (bytes, width), the width the narrowest of 16,
    /// 32, 40, 48, 56, 64, 96 or 128 bytes with 24 bits to spare; None when a weight is not an int or needs
    /// more than 1000 bits.
    fn encode<'py>(
        &mut self,
        py: Python<'py>,
        weights: &Bound<'py, pyo3::types::PyList>,
    ) -> PyResult<Option<(Bound<'py, pyo3::types::PyBytes>, usize)>> {
        let signed = pyo3::types::PyDict::new(py);
        signed.set_item("signed", true)?;
        // One pass at the width of the last call (the usual case), a second one if the widest weight
        // asks for another.
        let mut width = self.last_width;
        let mut blob = vec![0u8; width * weights.len()];
        let mut maxbits = 0u32;
        let mut fits = true;
        for (k, item) in weights.iter().enumerate() {
            let key = item.as_ptr() as usize;
            if !self.encoded.contains_key(&key) {
                if !item.is_instance_of::<pyo3::types::PyInt>() {
                    return Ok(None);
                }
                let bits: u32 = item.call_method0("bit_length")?.extract()?;
                if bits > 1000 {
                    return Ok(None);
                }
                let len = (bits / 8 + 1) as usize;
                let raw = item.call_method("to_bytes", (len, "little"), Some(&signed))?;
                let bytes: Vec<u8> = raw.extract()?;
                self.encoded.insert(key, (item.clone().unbind(), bytes, bits));
            }
            let (_, bytes, bits) = &self.encoded[&key];
            maxbits = maxbits.max(*bits);
            if fits && bytes.len() <= width {
                put(&mut blob[k * width..(k + 1) * width], bytes);
            } else {
                fits = false;
            }
        }
        let Some(wanted) = width_for(maxbits) else {
            return Ok(None);
        };
        if !fits || wanted != width {
            width = wanted;
            blob = vec![0u8; width * weights.len()];
            for (k, item) in weights.iter().enumerate() {
                let (_, bytes, _) = &self.encoded[&(item.as_ptr() as usize)];
                put(&mut blob[k * width..(k + 1) * width], bytes);
            }
        }
        self.last_width = width;
        Ok(Some((pyo3::types::PyBytes::new(py, &blob), width)))
    }

    /// The mates of vertices 0..n (-1 when unmatched), as `max_weight_matching`.
    #[pyo3(signature = (n, us, vs, weights, width, maxcardinality = false))]
    fn matching(
        &mut self,
        py: Python<'_>,
        n: usize,
        us: Vec<u32>,
        vs: Vec<u32>,
        weights: &[u8],
        width: usize,
        maxcardinality: bool,
    ) -> PyResult<Vec<i64>> {
        check_input(n, &us, &vs, weights, width)?;
        let blob = weights.to_vec();
        let kept = std::mem::replace(&mut self.kept, Kept::None);
        let out = py.detach(move || solve_width(kept, n, &us, &vs, &blob, width, maxcardinality));
        take_solved(out, &mut self.kept, [&mut self.warm, &mut self.cold, &mut self.fallbacks])
    }
}

/// A solve's result taken in by the object that keeps the matcher: the new matcher into `kept`, the start
/// counted in `starts` (warm, cold, fallbacks: a cold start after a failed warm one counts as a fallback too),
/// and the mates returned (-1 for unmatched); an error as Python's ValueError.
fn take_solved(
    out: Result<(Kept, Vec<i64>, bool, bool), String>,
    kept: &mut Kept,
    starts: [&mut u64; 3],
) -> PyResult<Vec<i64>> {
    let (new, mates, warm, fell) = out.map_err(|e| PyValueError::new_err(format!("maximum-weight matching: {e}")))?;
    *kept = new;
    let [w, c, f] = starts;
    if warm {
        *w += 1;
    } else {
        *c += 1;
    }
    if fell {
        *f += 1;
    }
    Ok(mates)
}

/// Solves a graph at its weight width `width` (bytes) on the matcher `kept` holds when it has that width:
/// `$solve` with `$prev` bound to that matcher (None: another width or none), its weight type taken from
/// there, returns (the optimum, warm start used, fell back to a cold start). Gives (the new kept matcher, the
/// mates with -1 for unmatched, warm start used, fell back to a cold start), or an error for another width.
macro_rules! by_width {
    ($kept:expr, $width:expr, |$prev:ident| $solve:expr) => {
        by_width!(@ $kept, $width, $prev, $solve, 16 I128, 32 W4, 40 W5, 48 W6, 56 W7, 64 W8, 96 W12, 128 W16)
    };
    (@ $kept:expr, $width:expr, $prev:ident, $solve:expr, $($w:literal $variant:ident),*) => {
        match $width {
            $($w => {
                let $prev = match $kept {
                    $crate::matching::Kept::$variant(m) => Some(m),
                    _ => None,
                };
                let (m, warm, fell) = $solve?;
                let mates = $crate::matching::mates(&m);
                Ok(($crate::matching::Kept::$variant(m), mates, warm, fell))
            })*
            w => Err(format!("weight width {w} bytes: 16, 32, 40, 48, 56, 64, 96 or 128 are supported")),
        }
    };
}
use by_width;

/// One graph solved at its weight width, warm from `kept` when that holds an optimum of the same width:
/// (the new optimum, the mates with -1 for unmatched, warm start used, fell back to a cold start).
fn solve_width(
    kept: Kept,
    n: usize,
    us: &[u32],
    vs: &[u32],
    blob: &[u8],
    width: usize,
    maxcardinality: bool,
) -> Result<(Kept, Vec<i64>, bool, bool), String> {
    by_width!(kept, width, |prev| solve_kept(prev, n, us, vs, blob, width, maxcardinality))
}

/// The mates of vertices 0..n of a solved matcher, -1 for unmatched.
fn mates<W: Weight>(m: &Matcher<W>) -> Vec<i64> {
    m.mate.iter().map(|&x| if x == NONE { -1 } else { x as i64 }).collect()
}

/// The narrowest weight width (bytes) with 24 bits above a weight of `maxbits` bits, None past 1024 bits.
fn width_for(maxbits: u32) -> Option<usize> {
    let need = maxbits as usize + 24;
    [16usize, 32, 40, 48, 56, 64, 96, 128].into_iter().find(|&w| need < 8 * w)
}

/// A little-endian two's complement integer into a wider slot, sign-extended.
fn put(out: &mut [u8], bytes: &[u8]) {
    out[..bytes.len()].copy_from_slice(bytes);
    let fill = if bytes.last().is_some_and(|&b| b & 0x80 != 0) { 0xFF } else { 0 };
    for b in &mut out[bytes.len()..] {
        *b = fill;
    }
}

/// Hashes an object's address (16-byte aligned) by one multiplication: the keys are addresses, not input.
#[derive(Default, Clone, Copy)]
pub struct AddressHash;

pub struct AddressHasher(u64);

impl std::hash::BuildHasher for AddressHash {
    type Hasher = AddressHasher;
    fn build_hasher(&self) -> AddressHasher {
        AddressHasher(0)
    }
}

impl std::hash::Hasher for AddressHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0.rotate_left(8) ^ b as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        }
    }
    fn write_usize(&mut self, x: usize) {
        self.0 = ((x as u64) >> 4).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }
}

fn check_input(n: usize, us: &[u32], vs: &[u32], weights: &[u8], width: usize) -> PyResult<()> {
    if us.len() != vs.len() || weights.len() != us.len() * width {
        return Err(PyValueError::new_err(format!(
            "{} first ends, {} second ends and {} bytes of weights do not describe the same edges (width {width})",
            us.len(),
            vs.len(),
            weights.len()
        )));
    }
    if let Some(&bad) = us.iter().chain(vs.iter()).find(|&&x| x as usize >= n) {
        return Err(PyValueError::new_err(format!("vertex {bad} is not one of the {n} vertices")));
    }
    Ok(())
}

/// `max_weight_matching(n, us, vs, weights, width, maxcardinality)`: the mate of each of the vertices
/// 0..n (-1 when unmatched) in a maximum-weight matching (with `maxcardinality`, of maximum weight among
/// the matchings of maximum cardinality) of the graph of the edges `us[k]-vs[k]`, whose weights are
/// `weights` (bytes: `width` bytes per edge, little-endian, two's complement; width 16, 32, 40, 48, 56,
/// 64, 96 or 128).
#[pyfunction]
#[pyo3(signature = (n, us, vs, weights, width, maxcardinality = false))]
fn max_weight_matching(
    py: Python<'_>,
    n: usize,
    us: Vec<u32>,
    vs: Vec<u32>,
    weights: &[u8],
    width: usize,
    maxcardinality: bool,
) -> PyResult<Vec<i64>> {
    check_input(n, &us, &vs, weights, width)?;
    let blob = weights.to_vec();
    let result = py.detach(move || match width {
        16 => run::<i128>(n, &us, &vs, &blob, width, maxcardinality),
        32 => run::<Wide<4>>(n, &us, &vs, &blob, width, maxcardinality),
        40 => run::<Wide<5>>(n, &us, &vs, &blob, width, maxcardinality),
        48 => run::<Wide<6>>(n, &us, &vs, &blob, width, maxcardinality),
        56 => run::<Wide<7>>(n, &us, &vs, &blob, width, maxcardinality),
        64 => run::<Wide<8>>(n, &us, &vs, &blob, width, maxcardinality),
        96 => run::<Wide<12>>(n, &us, &vs, &blob, width, maxcardinality),
        128 => run::<Wide<16>>(n, &us, &vs, &blob, width, maxcardinality),
        _ => Err(format!("weight width {width} bytes: 16, 32, 40, 48, 56, 64, 96 or 128 are supported")),
    });
    result.map_err(|e| PyValueError::new_err(format!("maximum-weight matching: {e}")))
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(max_weight_matching, m)?)?;
    m.add_class::<MatchingSession>()?;
    m.add_class::<table::WeightTable>()?;
    Ok(())
}
