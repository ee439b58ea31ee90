//! The edge weights of one round of caissify-pairings' Dutch engine, held in the core: set one edge at a time
//! as the engine fixes pairs, matched without handing the whole graph over again.
//!
//! caissify keeps its weights in a dict keyed by (i, j) and, for every pair it fixes, builds a networkx graph of
//! the positive ones (vertices 0..n in order, edges in the dict's order: the order their keys were first set)
//! and matches it: a pass over every edge in Python per matching, n/2 matchings a round. Here the dict is this
//! table: each weight is encoded once, when it is set, and [`WeightTable::solve`] gives the matcher the same
//! graph in the same order, at the same width, warm from the optimum before, as the session of
//! `chesslaws.tournament.matching` does for the graph networkx would have been given: the same matchings.

use pyo3::exceptions::{PyKeyError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyInt, PyTuple};

use super::{put, solve_width, width_for, Kept};

#[pyclass(module = "chesslaws._core")]
pub struct WeightTable {
    n: usize,
    /// n * n: the slot of the edge keyed (i, j), u32::MAX when it was never set.
    slot: Vec<u32>,
    /// Per slot, in the order the keys were first set: the key, the int as given, its bytes (little-endian,
    /// two's complement, shortest), its bit length, whether it is positive.
    keys: Vec<(u32, u32)>,
    values: Vec<Py<PyAny>>,
    bytes: Vec<Vec<u8>>,
    bits: Vec<u32>,
    positive: Vec<bool>,
    kept: Kept,
    #[pyo3(get)]
    warm: u64,
    #[pyo3(get)]
    cold: u64,
    #[pyo3(get)]
    fallbacks: u64,
}

impl WeightTable {
    fn index(&self, key: &Bound<'_, PyAny>) -> PyResult<(u32, u32)> {
        let pair = key.cast::<PyTuple>().map_err(|_| PyKeyError::new_err("a key is a pair (i, j)"))?;
        if pair.len() != 2 {
            return Err(PyKeyError::new_err("a key is a pair (i, j)"));
        }
        let i: usize = pair.get_item(0)?.extract()?;
        let j: usize = pair.get_item(1)?.extract()?;
        if i >= self.n || j >= self.n {
            return Err(PyKeyError::new_err(format!("({i}, {j}): the vertices are 0..{}", self.n)));
        }
        Ok((i as u32, j as u32))
    }
}

#[pymethods]
impl WeightTable {
    #[new]
    fn py_new(n: usize) -> PyResult<Self> {
        if n >= 1 << 15 {
            return Err(PyValueError::new_err(format!("{n} vertices: at most 32767")));
        }
        Ok(WeightTable {
            n,
            slot: vec![u32::MAX; n * n],
            keys: Vec::new(),
            values: Vec::new(),
            bytes: Vec::new(),
            bits: Vec::new(),
            positive: Vec::new(),
            kept: Kept::None,
            warm: 0,
            cold: 0,
            fallbacks: 0,
        })
    }

    fn __setitem__(&mut self, py: Python<'_>, key: &Bound<'_, PyAny>, value: &Bound<'_, PyAny>) -> PyResult<()> {
        let (i, j) = self.index(key)?;
        let int = value.cast::<PyInt>().map_err(|_| PyValueError::new_err("a weight is an int"))?;
        let bits: u32 = int.call_method0("bit_length")?.extract()?;
        if bits > 1000 {
            return Err(PyValueError::new_err(format!("a weight of {bits} bits: at most 1000")));
        }
        let signed = PyDict::new(py);
        signed.set_item("signed", true)?;
        let raw = int.call_method("to_bytes", ((bits / 8 + 1) as usize, "little"), Some(&signed))?;
        let bytes: Vec<u8> = raw.extract()?;
        let positive = bits > 0 && bytes.last().is_some_and(|&b| b & 0x80 == 0);
        let at = i as usize * self.n + j as usize;
        let k = self.slot[at];
        if k == u32::MAX {
            self.slot[at] = self.keys.len() as u32;
            self.keys.push((i, j));
            self.values.push(value.clone().unbind());
            self.bytes.push(bytes);
            self.bits.push(bits);
            self.positive.push(positive);
        } else {
            let k = k as usize;
            self.values[k] = value.clone().unbind();
            self.bytes[k] = bytes;
            self.bits[k] = bits;
            self.positive[k] = positive;
        }
        Ok(())
    }

    /// The weight set for the key, else `default` (as `dict.get`).
    #[pyo3(signature = (key, default = None))]
    fn get(&self, py: Python<'_>, key: &Bound<'_, PyAny>, default: Option<Py<PyAny>>) -> PyResult<Py<PyAny>> {
        let (i, j) = self.index(key)?;
        let k = self.slot[i as usize * self.n + j as usize];
        if k == u32::MAX {
            return Ok(default.unwrap_or_else(|| py.None()));
        }
        Ok(self.values[k as usize].clone_ref(py))
    }

    fn __len__(&self) -> usize {
        self.keys.len()
    }

    /// A maximum-cardinality, maximum-weight matching of the positive edges: each vertex's mate, itself when
    /// unmatched (as caissify keeps it).
    fn solve(&mut self, py: Python<'_>) -> PyResult<Vec<usize>> {
        let mut us = Vec::new();
        let mut vs = Vec::new();
        let mut maxbits = 0u32;
        for (k, &(i, j)) in self.keys.iter().enumerate() {
            if self.positive[k] {
                us.push(i);
                vs.push(j);
                maxbits = maxbits.max(self.bits[k]);
            }
        }
        let width = width_for(maxbits).ok_or_else(|| PyValueError::new_err("weights of more than 1000 bits"))?;
        let mut blob = vec![0u8; width * us.len()];
        let mut e = 0;
        for (k, bytes) in self.bytes.iter().enumerate() {
            if self.positive[k] {
                put(&mut blob[e * width..(e + 1) * width], bytes);
                e += 1;
            }
        }
        let n = self.n;
        let kept = std::mem::replace(&mut self.kept, Kept::None);
        let out = py.detach(move || solve_width(kept, n, &us, &vs, &blob, width, true));
        let (kept, mates, warm, fell) =
            out.map_err(|e| PyValueError::new_err(format!("maximum-weight matching: {e}")))?;
        self.kept = kept;
        if warm {
            self.warm += 1;
        } else {
            self.cold += 1;
        }
        if fell {
            self.fallbacks += 1;
        }
        Ok(mates.iter().enumerate().map(|(v, &m)| if m < 0 { v } else { m as usize }).collect())
    }
}
