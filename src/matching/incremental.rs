//! A matcher kept from one matching to the next with its graph changed in place: the edge weights of
//! caissify's round (a [`super::table::WeightTable`] whose keys are the pairs i < j, first set in order)
//! change a few at a time between matchings, and rebuilding the graph, comparing every edge with the one
//! before and checking every edge again was most of a warm matching's time.
//!
//! The graph is the one the table would hand over whole: the edges of positive weight, in the order of
//! their keys, each vertex's neighbours in that order (for keys i < j set in order: ascending), so the
//! search takes the same steps. An edge's id is its key's slot in the table. The edges that changed are
//! listed as the warm start of a whole graph lists them (the old graph's edges first, then the new ones,
//! each in key order), and the optimality check looks again only at the edges whose slack can have
//! changed since the last check passed.

use super::matcher::{Matcher, NONE, NO_EDGE};
use super::{by_width, Weight};

/// One graph of the table solved on the kept matcher `prev` (None: built from every slot): the slots'
/// keys, their weights (`bytes`, little-endian two's complement, and whether `positive`), and the slots set
/// since the last matching (`dirty`, ascending). Returns (the optimum, warm start used, fell back to a cold
/// start after a warm one failed).
#[allow(clippy::too_many_arguments)]
pub(super) fn solve_live<W: Weight>(
    prev: Option<Matcher<W>>,
    n: usize,
    keys: &[(u32, u32)],
    bytes: &[Vec<u8>],
    positive: &[bool],
    dirty: &[u32],
    width: usize,
    maxcard: bool,
) -> Result<(Matcher<W>, bool, bool), String> {
    let weight2 = |k: usize| -> Option<W> {
        let (i, j) = keys[k];
        (positive[k] && i != j).then(|| {
            let mut buf = vec![0u8; width];
            super::put(&mut buf, &bytes[k]);
            W::from_le(&buf).twice()
        })
    };
    let cold = |mut m: Matcher<W>| -> Result<Matcher<W>, String> {
        m.reset();
        if m.has_edges() {
            m.solve(maxcard);
        }
        m.verify(maxcard)?;
        m.checked = Some(m.snapshot());
        Ok(m)
    };
    let Some(mut m) = prev else {
        let mut m = Matcher::<W>::empty(n, keys.len());
        for (k, &(i, j)) in keys.iter().enumerate() {
            if let Some(w) = weight2(k) {
                m.set_edge(k as u32, i, j, Some(w));
            }
        }
        return Ok((cold(m)?, false, false));
    };
    m.reserve_slots(keys.len());
    let (mut changed, mut appeared) = (Vec::new(), Vec::new());
    for &k in dirty {
        let (i, j) = keys[k as usize];
        if i == j {
            continue;
        }
        let old = m.has(k).then(|| m.w2[k as usize]);
        let new = weight2(k as usize);
        if old == new {
            continue;
        }
        if old.is_some() { changed.push((i, j)) } else { appeared.push((i, j)) }
        m.set_edge(k, i, j, new);
    }
    changed.extend(appeared);
    // A warm start that panics (a state the repair did not foresee) is redone from scratch like one that
    // fails the optimality check; the graph is then built again from the slots.
    let attempt = std::panic::catch_unwind(std::panic::AssertUnwindSafe(move || {
        m.fresh_scratch();
        let repaired = m.repair(&changed).is_some();
        if repaired && m.has_edges() {
            m.solve(maxcard);
        }
        let verdict = if repaired { Some(m.verify_since(maxcard, &changed)) } else { None };
        (m, verdict)
    }));
    match attempt {
        Ok((mut m, Some(Ok(())))) => {
            m.checked = Some(m.snapshot());
            Ok((m, true, false))
        }
        Ok((m, None)) => Ok((cold(m)?, false, false)), // too much changed: a cold start, not a failed warm one
        Ok((m, Some(Err(e)))) => {
            if std::env::var_os("CHESSLAWS_MATCHING_DEBUG").is_some() {
                eprintln!("warm start rejected: {e}");
            }
            Ok((cold(m)?, false, true))
        }
        Err(_) => solve_live::<W>(None, n, keys, bytes, positive, &[], width, maxcard).map(|(m, _, _)| (m, false, true)),
    }
}

impl<W: Weight> Matcher<W> {
    /// An empty graph on n vertices with room for `slots` edge ids.
    pub(super) fn empty(n: usize, slots: usize) -> Self {
        let mut m = Matcher::<W>::new(n, &[], &[], &[]);
        m.reserve_slots(slots);
        m
    }

    /// Room for edge ids 0..slots.
    pub(super) fn reserve_slots(&mut self, slots: usize) {
        if self.w2.len() < slots {
            self.w2.resize(slots, W::zero());
            self.ends.resize(slots, NO_EDGE);
            self.allowed.resize(slots, 0);
        }
    }

    fn position(&self, u: u32, v: u32) -> Result<usize, usize> {
        self.adj[u as usize].binary_search_by_key(&v, |&(x, _)| x)
    }

    /// Sets edge `id` between u and v to twice the weight `w2` (None: no edge), in place: u's and v's
    /// neighbours stay in ascending order.
    pub(super) fn set_edge(&mut self, id: u32, u: u32, v: u32, w2: Option<W>) {
        let n = self.n;
        let (a, b) = (u as usize * n + v as usize, v as usize * n + u as usize);
        let present = self.eindex[a] != NONE;
        match (present, w2) {
            (true, Some(w)) => {
                self.w2[id as usize] = w;
                for (x, y) in [(u, v), (v, u)] {
                    let p = self.position(x, y).expect("an edge in both lists");
                    self.adjw[x as usize][p] = w;
                }
            }
            (true, None) => {
                self.eindex[a] = NONE;
                self.eindex[b] = NONE;
                for (x, y) in [(u, v), (v, u)] {
                    let p = self.position(x, y).expect("an edge in both lists");
                    self.adj[x as usize].remove(p);
                    self.adjw[x as usize].remove(p);
                }
            }
            (false, Some(w)) => {
                self.eindex[a] = id;
                self.eindex[b] = id;
                self.w2[id as usize] = w;
                self.ends[id as usize] = (u, v);
                for (x, y) in [(u, v), (v, u)] {
                    let p = self.position(x, y).expect_err("a new edge");
                    self.adj[x as usize].insert(p, (y, id));
                    self.adjw[x as usize].insert(p, w);
                }
            }
            (false, None) => {}
        }
    }

    /// Whether the graph has an edge.
    pub(super) fn has_edges(&self) -> bool {
        self.adj.iter().any(|a| !a.is_empty())
    }

    /// Whether edge `id` is in the graph.
    pub(super) fn has(&self, id: u32) -> bool {
        let (u, v) = self.ends[id as usize];
        u != NONE && self.eindex[u as usize * self.n + v as usize] == id
    }

    /// The state of a matching from scratch on the current graph (what `new` sets beside the graph).
    pub(super) fn reset(&mut self) {
        let n = self.n;
        let m = 2 * n.max(1);
        let mut maxweight = W::zero();
        for x in 0..n {
            for &w in &self.adjw[x] {
                if w.half() > maxweight {
                    maxweight = w.half();
                }
            }
        }
        self.mate = vec![NONE; n];
        self.label = vec![0; m];
        self.labeledge = vec![NO_EDGE; m];
        self.bestedge = vec![NO_EDGE; m];
        self.bestslack = vec![W::zero(); m];
        self.slackepoch = vec![0; m];
        self.epoch = 0;
        self.inblossom = (0..n as u32).collect();
        self.parent = vec![NONE; m];
        self.base = (0..m as u32).map(|i| if (i as usize) < n { i } else { NONE }).collect();
        self.dual = vec![W::zero(); m];
        for d in self.dual.iter_mut().take(n) {
            *d = maxweight;
        }
        self.childs = vec![Vec::new(); m];
        self.bedges = vec![Vec::new(); m];
        self.mybest = vec![None; m];
        self.alive = vec![false; m];
        self.order = Vec::new();
        self.free = (n as u32..m as u32).rev().collect();
        self.queue.clear();
        self.slot = vec![NONE; m];
        self.checked = None;
    }

    /// What a warm start leaves as it was in a fresh matcher beside the carried-over state.
    pub(super) fn fresh_scratch(&mut self) {
        let m = 2 * self.n.max(1);
        self.label = vec![0; m];
        self.labeledge = vec![NO_EDGE; m];
        self.bestedge = vec![NO_EDGE; m];
        self.mybest = vec![None; m];
        self.slot = vec![NONE; m];
        self.queue.clear();
    }

    /// The duals and blossom chains of each vertex, as the optimality check last passed them.
    pub(super) fn snapshot(&self) -> Checked<W> {
        Checked { dual: self.dual.clone(), parent: self.parent.clone() }
    }

    /// The optimality check, edges of the graph looked at again only where their slack can have changed
    /// since the check last passed (their weight changed, or a vertex dual, or a blossom around an end: its
    /// dual or its members); everything else it checks (matched edges, unmatched vertices, blossoms) in full.
    pub(super) fn verify_since(&self, maxcardinality: bool, touched: &[(u32, u32)]) -> Result<(), String> {
        let Some(before) = &self.checked else {
            return self.verify(maxcardinality);
        };
        let n = self.n;
        if before.dual.len() != self.dual.len() {
            return self.verify(maxcardinality);
        }
        // A vertex is looked at again when its dual changed or any blossom on its chain changed (dual,
        // parent) or its chain is not the one it was.
        let m = self.dual.len();
        let blossom_changed: Vec<bool> =
            (0..m).map(|b| b >= n && (self.dual[b] != before.dual[b] || self.parent[b] != before.parent[b])).collect();
        let mut again = vec![false; n];
        for v in 0..n {
            if self.dual[v] != before.dual[v] || self.parent[v] != before.parent[v] {
                again[v] = true;
                continue;
            }
            let mut x = self.parent[v];
            while x != NONE {
                if blossom_changed[x as usize] {
                    again[v] = true;
                    break;
                }
                x = self.parent[x as usize];
            }
        }
        let nest = Nesting::of(self);
        for &(i, j) in touched {
            let k = self.eindex[i as usize * n + j as usize];
            if k != NONE {
                let s = nest.slack(self, i, j, self.w2[k as usize]);
                if s < W::zero() {
                    return Err(format!("edge {i}-{j} has a negative slack"));
                }
            }
        }
        for v in 0..n as u32 {
            if !again[v as usize] {
                continue;
            }
            let vu = v as usize;
            for (idx, &(j, _)) in self.adj[vu].iter().enumerate() {
                if again[j as usize] && j < v {
                    continue; // looked at from j
                }
                let s = nest.slack(self, v, j, self.adjw[vu][idx]);
                if s < W::zero() {
                    return Err(format!("edge {v}-{j} has a negative slack"));
                }
            }
        }
        self.verify_rest(maxcardinality)
    }
}

/// The blossoms' nesting, for the slack of many edges: each blossom's depth and the sum of twice the duals
/// of it and the blossoms around it.
pub(super) struct Nesting<W> {
    depth: Vec<u32>,
    around: Vec<W>,
}

impl<W: Weight> Nesting<W> {
    pub(super) fn of(m: &Matcher<W>) -> Self {
        let size = m.dual.len();
        let mut depth = vec![0u32; size];
        let mut around = vec![W::zero(); size];
        for &b in m.order.iter().rev() {
            // A blossom is made after the blossoms inside it: those around it come first here.
            let (b, p) = (b as usize, m.parent[b as usize]);
            let (d, a) = if p == NONE { (0, W::zero()) } else { (depth[p as usize], around[p as usize]) };
            depth[b] = d + 1;
            around[b] = a + m.dual[b].twice();
        }
        Nesting { depth, around }
    }

    /// The slack of edge (i, j) of twice the weight `w2`, the duals of the blossoms around both ends included.
    #[inline]
    pub(super) fn slack(&self, m: &Matcher<W>, i: u32, j: u32, w2: W) -> W {
        let s = m.dual[i as usize] + m.dual[j as usize] - w2;
        let (mut x, mut y) = (m.parent[i as usize], m.parent[j as usize]);
        if x == NONE || y == NONE {
            return s;
        }
        while self.depth[x as usize] > self.depth[y as usize] {
            x = m.parent[x as usize];
        }
        while self.depth[y as usize] > self.depth[x as usize] {
            y = m.parent[y as usize];
        }
        while x != y {
            x = m.parent[x as usize];
            y = m.parent[y as usize];
        }
        if x == NONE { s } else { s + self.around[x as usize] }
    }
}

/// The state the optimality check last passed.
pub(super) struct Checked<W> {
    dual: Vec<W>,
    parent: Vec<u32>,
}

/// [`solve_live`] at the weight width of the graph, on the kept matcher when it has that width: (the new
/// kept matcher, the mates with -1 for unmatched, warm start used, fell back to a cold start).
#[allow(clippy::too_many_arguments)]
pub(super) fn solve_live_width(
    kept: super::Kept,
    n: usize,
    keys: &[(u32, u32)],
    bytes: &[Vec<u8>],
    positive: &[bool],
    dirty: &[u32],
    width: usize,
    maxcard: bool,
) -> Result<(super::Kept, Vec<i64>, bool, bool), String> {
    by_width!(kept, width, |prev| solve_live(prev, n, keys, bytes, positive, dirty, width, maxcard))
}
