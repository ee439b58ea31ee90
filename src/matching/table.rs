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
use pyo3::types::{PyBytes, PyDict, PyInt, PyList, PyTuple};

use super::dutch::{to_bytes, Field, PlayerIn};
use super::incremental::solve_live_width;
use super::{put, solve_width, take_solved, width_for, Kept};

/// A player as `dutch_field` takes him: (score, score group's shift, colour preference, its strength, |colour
/// difference|, repeated colour, last float, the float before, White would break an absolute rule, Black
/// would, the indices of his opponents).
type PlayerTuple = (f64, u32, u8, u8, u64, u32, u8, u8, bool, bool, Vec<usize>);

#[pyclass(module = "chesslaws._core")]
pub struct WeightTable {
    n: usize,
    /// n * n: the slot of the edge keyed (i, j), u32::MAX when it was never set.
    slot: Vec<u32>,
    /// Per slot, in the order the keys were first set: the key, the int as given, its bytes (little-endian,
    /// two's complement, shortest), its bit length, whether it is positive.
    keys: Vec<(u32, u32)>,
    /// The int as given (None: set by the core, made from its bytes when asked for).
    values: Vec<Option<Py<PyAny>>>,
    bytes: Vec<Vec<u8>>,
    bits: Vec<u32>,
    positive: Vec<bool>,
    kept: Kept,
    /// The players of caissify's round, once `dutch_field` has been given them.
    field: Option<Field>,
    /// Whether every key (i, j) with i < j was first set after those before it in that order and none with
    /// i > j was set: then the graph is kept in the matcher between matchings (see `incremental`), `kept`
    /// is such a matcher (`live`), and `dirty` lists the slots set since the last matching.
    lex: bool,
    last_pair: Option<(u32, u32)>,
    live: bool,
    dirty: Vec<u32>,
    marked: Vec<bool>,
    /// How many positive weights have each bit length (the widest sets the matcher's width).
    widths: Vec<u32>,
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

    fn ordered(&self, i: usize, j: usize) -> PyResult<(u32, u32)> {
        if i >= self.n || j >= self.n {
            return Err(PyKeyError::new_err(format!("({i}, {j}): the vertices are 0..{}", self.n)));
        }
        Ok((i.min(j) as u32, i.max(j) as u32))
    }

    /// Sets the edge keyed (i, j): a new key goes last, as in a dict.
    fn store(&mut self, (i, j): (u32, u32), value: Option<Py<PyAny>>, bytes: Vec<u8>, bits: u32) {
        let positive = bits > 0 && bytes.last().is_some_and(|&b| b & 0x80 == 0);
        let at = i as usize * self.n + j as usize;
        let mut k = self.slot[at];
        if k == u32::MAX {
            if i > j {
                self.lex = false;
            } else if i < j {
                if self.last_pair.is_some_and(|last| last >= (i, j)) {
                    self.lex = false;
                }
                self.last_pair = Some((i, j));
            }
            k = self.keys.len() as u32;
            self.slot[at] = k;
            self.keys.push((i, j));
            self.values.push(value);
            self.bytes.push(bytes);
            self.bits.push(bits);
            self.positive.push(positive);
            self.marked.push(false);
        } else {
            let k = k as usize;
            if self.positive[k] {
                self.widths[self.bits[k] as usize] -= 1;
            }
            self.values[k] = value;
            self.bytes[k] = bytes;
            self.bits[k] = bits;
            self.positive[k] = positive;
        }
        if positive {
            self.widths[bits as usize] += 1;
        }
        if !self.marked[k as usize] {
            self.marked[k as usize] = true;
            self.dirty.push(k);
        }
    }

    fn store_int(&mut self, key: (u32, u32), value: &Bound<'_, PyAny>) -> PyResult<()> {
        let py = value.py();
        let int = value.cast::<PyInt>().map_err(|_| PyValueError::new_err("a weight is an int"))?;
        let bits: u32 = int.call_method0("bit_length")?.extract()?;
        if bits > 1000 {
            return Err(PyValueError::new_err(format!("a weight of {bits} bits: at most 1000")));
        }
        let signed = PyDict::new(py);
        signed.set_item("signed", true)?;
        let raw = int.call_method("to_bytes", ((bits / 8 + 1) as usize, "little"), Some(&signed))?;
        let bytes: Vec<u8> = raw.extract()?;
        self.store(key, Some(value.clone().unbind()), bytes, bits);
        Ok(())
    }

    /// The int of slot k.
    fn value(&self, py: Python<'_>, k: usize) -> PyResult<Py<PyAny>> {
        if let Some(v) = &self.values[k] {
            return Ok(v.clone_ref(py));
        }
        let signed = PyDict::new(py);
        signed.set_item("signed", true)?;
        let bytes = PyBytes::new(py, &self.bytes[k]);
        Ok(py.get_type::<PyInt>().call_method("from_bytes", (bytes, "little"), Some(&signed))?.unbind())
    }

    /// `solve` on the graph kept in the matcher (see `incremental`).
    fn solve_live(&mut self, py: Python<'_>) -> PyResult<Vec<usize>> {
        let maxbits = self.widths.iter().rposition(|&c| c > 0).unwrap_or(0) as u32;
        let width = width_for(maxbits).ok_or_else(|| PyValueError::new_err("weights of more than 1000 bits"))?;
        let mut dirty = std::mem::take(&mut self.dirty);
        for &k in &dirty {
            self.marked[k as usize] = false;
        }
        dirty.sort_unstable();
        let kept = std::mem::replace(&mut self.kept, Kept::None);
        let kept = if self.live { kept } else { Kept::None };
        let (n, keys, bytes, positive) = (self.n, &self.keys, &self.bytes, &self.positive);
        let out = py.detach(|| solve_live_width(kept, n, keys, bytes, positive, &dirty, width, true));
        let mates = take_solved(out, &mut self.kept, [&mut self.warm, &mut self.cold, &mut self.fallbacks])?;
        self.live = true;
        Ok(partners(&mates))
    }

    fn field(&self) -> PyResult<&Field> {
        self.field.as_ref().ok_or_else(|| PyValueError::new_err("dutch_field first"))
    }
}

/// A weight the core computed, as a Python int.
fn int_of(py: Python<'_>, w: &super::dutch::Big, bits: u32, from_bytes: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
    if bits <= 64 {
        return Ok(w[0].into_pyobject(py)?.into_any().unbind());
    }
    Ok(from_bytes.call1((PyBytes::new(py, &to_bytes(w, bits)), "little"))?.unbind())
}

fn too_wide(bits: u32) -> PyErr {
    if bits == u32::MAX {
        PyValueError::new_err("a weight of more than 1000 bits")
    } else {
        PyValueError::new_err(format!("a weight of {bits} bits: at most 1000"))
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
            field: None,
            lex: true,
            last_pair: None,
            live: false,
            dirty: Vec::new(),
            marked: Vec::new(),
            widths: vec![0; 1001],
            warm: 0,
            cold: 0,
            fallbacks: 0,
        })
    }

    fn __setitem__(&mut self, key: &Bound<'_, PyAny>, value: &Bound<'_, PyAny>) -> PyResult<()> {
        let key = self.index(key)?;
        self.store_int(key, value)
    }

    /// `table[(min(i, j), max(i, j))] = w`: caissify's `_set_w`.
    fn set(&mut self, i: usize, j: usize, w: &Bound<'_, PyAny>) -> PyResult<()> {
        let key = self.ordered(i, j)?;
        self.store_int(key, w)
    }

    /// `table.get((min(i, j), max(i, j)), 0)`: caissify's `_get_w`.
    fn get_w(&self, py: Python<'_>, i: usize, j: usize) -> PyResult<Py<PyAny>> {
        let (i, j) = self.ordered(i, j)?;
        match self.slot[i as usize * self.n + j as usize] {
            u32::MAX => Ok(0u32.into_pyobject(py)?.into_any().unbind()),
            k => self.value(py, k as usize),
        }
    }

    /// caissify's `_finalize_pair`: every other edge of i and of j set to 0 (i with i and j with j
    /// included, as caissify sets them), then (i, j) to 1.
    fn finalize(&mut self, i: usize, j: usize) -> PyResult<()> {
        self.ordered(i, j)?;
        for k in 0..self.n {
            if k != j {
                let key = self.ordered(i, k)?;
                self.store(key, None, vec![0], 0);
            }
            if k != i {
                let key = self.ordered(j, k)?;
                self.store(key, None, vec![0], 0);
            }
        }
        let key = self.ordered(i, j)?;
        self.store(key, None, vec![1], 1);
        Ok(())
    }

    /// The players of caissify's round (see [`PlayerTuple`]), in its order, whose weights
    /// `dutch_initial` and `dutch_bracket` compute: `settled`, per player, not a bye candidate (None: no
    /// candidates); `relax_above`, the score above which the last round pairs without a legal colour
    /// assignment; `b`, `sb`: caissify's B and score-group bits; the rounds played.
    #[pyo3(signature = (players, settled, relax_above, b, sb, rounds_played))]
    fn dutch_field(
        &mut self,
        players: Vec<PlayerTuple>,
        settled: Option<Vec<bool>>,
        relax_above: Option<f64>,
        b: u32,
        sb: u32,
        rounds_played: i64,
    ) -> PyResult<()> {
        if players.len() != self.n {
            return Err(PyValueError::new_err(format!("{} players for {} vertices", players.len(), self.n)));
        }
        let players = players
            .into_iter()
            .map(|p| PlayerIn {
                score: p.0,
                shift: p.1,
                pref: p.2,
                strength: p.3,
                imbalance: p.4,
                repeated: p.5,
                float1: p.6,
                float2: p.7,
                violates_white: p.8,
                violates_black: p.9,
                opponents: p.10,
            })
            .collect();
        self.field = Some(Field::new(players, settled, relax_above, b, sb, rounds_played).map_err(PyValueError::new_err)?);
        Ok(())
    }

    /// The weight caissify gives the pair (p1 higher ranked) in or out of the current and next bracket.
    #[pyo3(signature = (p1, p2, current, next, c9 = None))]
    fn dutch_weight(
        &self,
        py: Python<'_>,
        p1: usize,
        p2: usize,
        current: bool,
        next: bool,
        c9: Option<Vec<u64>>,
    ) -> PyResult<Py<PyAny>> {
        let field = self.field()?;
        if p1 >= field.n || p2 >= field.n || c9.as_ref().is_some_and(|c| c.len() != field.n) {
            return Err(PyValueError::new_err("players 0..n, one C9 rank a player"));
        }
        let (w, bits) = field.weight(p1, p2, current, next, c9.as_deref());
        if bits > 1000 {
            return Err(too_wide(bits));
        }
        let from_bytes = py.get_type::<PyInt>().getattr("from_bytes")?;
        int_of(py, &w, bits, &from_bytes)
    }

    /// caissify's first weights: every pair i < j, in that order, outside any bracket.
    #[pyo3(signature = (c9 = None))]
    fn dutch_initial(&mut self, c9: Option<Vec<u64>>) -> PyResult<()> {
        let n = self.field()?.n;
        if c9.as_ref().is_some_and(|c| c.len() != n) {
            return Err(PyValueError::new_err("one C9 rank a player"));
        }
        for i in 0..n {
            for j in i + 1..n {
                let (w, bits) = self.field()?.weight(i, j, false, false, c9.as_deref());
                if bits > 1000 {
                    return Err(too_wide(bits));
                }
                self.store((i as u32, j as u32), None, to_bytes(&w, bits), bits);
            }
        }
        Ok(())
    }

    /// A bracket's weights (caissify's `base_ew`): for each local index li from `begin` (the first
    /// resident) on and each lj < li, the weight of the pair (players[lj], players[li]), in the current
    /// bracket when li < `next_begin`, else in the next; each set on the table too. Rows before `begin`
    /// are empty.
    #[pyo3(signature = (players, begin, next_begin, c9 = None))]
    fn dutch_bracket<'py>(
        &mut self,
        py: Python<'py>,
        players: Vec<usize>,
        begin: usize,
        next_begin: usize,
        c9: Option<Vec<u64>>,
    ) -> PyResult<Bound<'py, PyList>> {
        let n = self.field()?.n;
        if players.iter().any(|&g| g >= n) || c9.as_ref().is_some_and(|c| c.len() != n) {
            return Err(PyValueError::new_err("players 0..n, one C9 rank a player"));
        }
        let from_bytes = py.get_type::<PyInt>().getattr("from_bytes")?;
        let zero = 0u32.into_pyobject(py)?.into_any().unbind();
        let rows = PyList::empty(py);
        for li in 0..players.len() {
            let row = PyList::empty(py);
            if li >= begin {
                let gi = players[li];
                for &gj in &players[..li] {
                    let current = li < next_begin;
                    let (w, bits) = self.field()?.weight(gj, gi, current, !current, c9.as_deref());
                    if bits > 1000 {
                        return Err(too_wide(bits));
                    }
                    let int = if bits == 0 { zero.clone_ref(py) } else { int_of(py, &w, bits, &from_bytes)? };
                    row.append(&int)?;
                    let key = self.ordered(gi, gj)?;
                    self.store(key, Some(int), to_bytes(&w, bits), bits);
                }
            }
            rows.append(row)?;
        }
        Ok(rows)
    }

    /// The weight set for the key, else `default` (as `dict.get`).
    #[pyo3(signature = (key, default = None))]
    fn get(&self, py: Python<'_>, key: &Bound<'_, PyAny>, default: Option<Py<PyAny>>) -> PyResult<Py<PyAny>> {
        let (i, j) = self.index(key)?;
        let k = self.slot[i as usize * self.n + j as usize];
        if k == u32::MAX {
            return Ok(default.unwrap_or_else(|| py.None()));
        }
        self.value(py, k as usize)
    }

    fn __len__(&self) -> usize {
        self.keys.len()
    }

    /// A maximum-cardinality, maximum-weight matching of the positive edges: each vertex's mate, itself when
    /// unmatched (as caissify keeps it).
    fn solve(&mut self, py: Python<'_>) -> PyResult<Vec<usize>> {
        if self.lex {
            return self.solve_live(py);
        }
        if self.live {
            self.kept = Kept::None;
            self.live = false;
        }
        for k in std::mem::take(&mut self.dirty) {
            self.marked[k as usize] = false;
        }
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
        let mates = take_solved(out, &mut self.kept, [&mut self.warm, &mut self.cold, &mut self.fallbacks])?;
        Ok(partners(&mates))
    }
}

/// Each vertex's partner, itself when unmatched (the mates as the solver gives them: -1 for unmatched).
fn partners(mates: &[i64]) -> Vec<usize> {
    mates.iter().enumerate().map(|(v, &m)| if m < 0 { v } else { m as usize }).collect()
}
