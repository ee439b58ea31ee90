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

const NONE: u32 = u32::MAX;
type Edge = (u32, u32);
const NO_EDGE: Edge = (NONE, NONE);

/// Labels: 0 none, 1 S (outer), 2 T (inner); 5 marks an S-blossom during scan_blossom.
struct Matcher<W: Weight> {
    n: usize,
    adj: Vec<Vec<(u32, u32)>>, // (neighbour, edge) in the order the edges were added
    adjw: Vec<Vec<W>>,         // twice the weight of each edge of `adj`, beside it for the scan
    eindex: Vec<u32>, // n * n: the edge between two vertices, NONE if none
    w2: Vec<W>,       // twice each edge's weight
    ends: Vec<Edge>,  // each edge's vertices
    mate: Vec<u32>,
    label: Vec<u8>,        // vertices and blossoms (ids n..2n)
    labeledge: Vec<Edge>,  // vertices and blossoms
    bestedge: Vec<Edge>,   // vertices and blossoms
    bestslack: Vec<W>,     // the slack of bestedge, computed under the duals of epoch `slackepoch`
    slackepoch: Vec<u32>,
    epoch: u32, // incremented at every dual adjustment
    inblossom: Vec<u32>,   // vertices: the top-level blossom (or itself)
    parent: Vec<u32>,      // vertices and blossoms
    base: Vec<u32>,        // vertices and blossoms
    dual: Vec<W>,          // vertices and blossoms
    childs: Vec<Vec<u32>>, // blossoms
    bedges: Vec<Vec<Edge>>,
    mybest: Vec<Option<Vec<Edge>>>,
    alive: Vec<bool>,
    order: Vec<u32>, // live blossoms in the order they were made
    free: Vec<u32>,
    allowed: Vec<u32>, // per edge: allowed when its stamp is the stage's
    stage: u32,
    queue: Vec<u32>,
    slot: Vec<u32>, // scratch for add_blossom: position of a blossom in `bestedgeto`
}

impl<W: Weight> Matcher<W> {
    fn new(n: usize, us: &[u32], vs: &[u32], weights: &[W]) -> Self {
        let mut eindex = vec![NONE; n * n];
        let mut adj: Vec<Vec<(u32, u32)>> = vec![Vec::new(); n];
        let mut w2: Vec<W> = Vec::with_capacity(us.len());
        let mut ends: Vec<Edge> = Vec::with_capacity(us.len());
        let mut maxweight = W::zero();
        for (k, (&u, &v)) in us.iter().zip(vs).enumerate() {
            let (u, v) = (u as usize, v as usize);
            if u == v {
                continue; // self-loops play no part
            }
            let idx = eindex[u * n + v];
            if idx == NONE {
                let id = w2.len() as u32;
                w2.push(weights[k].twice());
                ends.push((u as u32, v as u32));
                eindex[u * n + v] = id;
                eindex[v * n + u] = id;
                adj[u].push((v as u32, id));
                adj[v].push((u as u32, id));
            } else {
                w2[idx as usize] = weights[k].twice(); // the same edge again: its weight is replaced
            }
        }
        for &x in &w2 {
            if x.half() > maxweight {
                maxweight = x.half();
            }
        }
        let w2len = w2.len();
        let m = 2 * n.max(1);
        let mut dual = vec![W::zero(); m];
        for d in dual.iter_mut().take(n) {
            *d = maxweight;
        }
        Matcher {
            n,
            adjw: adj.iter().map(|l| l.iter().map(|&(_, k)| w2[k as usize]).collect()).collect(),
            adj,
            eindex,
            w2,
            ends,
            mate: vec![NONE; n],
            label: vec![0; m],
            labeledge: vec![NO_EDGE; m],
            bestedge: vec![NO_EDGE; m],
            bestslack: vec![W::zero(); m],
            slackepoch: vec![0; m],
            epoch: 0,
            inblossom: (0..n as u32).collect(),
            parent: vec![NONE; m],
            base: (0..m as u32).map(|i| if (i as usize) < n { i } else { NONE }).collect(),
            dual,
            childs: vec![Vec::new(); m],
            bedges: vec![Vec::new(); m],
            mybest: vec![None; m],
            alive: vec![false; m],
            order: Vec::new(),
            free: (n as u32..m as u32).rev().collect(),
            allowed: vec![0; w2len],
            stage: 0,
            queue: Vec::new(),
            slot: vec![NONE; m],
        }
    }

    #[inline]
    fn is_blossom(&self, b: u32) -> bool {
        b as usize >= self.n
    }

    #[inline]
    fn slack(&self, v: u32, w: u32) -> W {
        let k = self.eindex[v as usize * self.n + w as usize] as usize;
        self.dual[v as usize] + self.dual[w as usize] - self.w2[k]
    }

    #[inline]
    fn slack_of(&self, v: u32, w: u32, k: u32) -> W {
        self.dual[v as usize] + self.dual[w as usize] - self.w2[k as usize]
    }

    #[inline]
    fn edge(&self, v: u32, w: u32) -> u32 {
        self.eindex[v as usize * self.n + w as usize]
    }

    #[inline]
    fn allow(&mut self, v: u32, w: u32) {
        let k = self.edge(v, w);
        self.allowed[k as usize] = self.stage;
    }

    #[inline]
    fn set_best(&mut self, x: u32, e: Edge, slack: W) {
        self.bestedge[x as usize] = e;
        self.bestslack[x as usize] = slack;
        self.slackepoch[x as usize] = self.epoch;
    }

    /// The slack of a set bestedge under the current duals.
    #[inline]
    fn best_slack(&mut self, x: usize) -> W {
        if self.slackepoch[x] != self.epoch {
            let be = self.bestedge[x];
            self.bestslack[x] = self.slack(be.0, be.1);
            self.slackepoch[x] = self.epoch;
        }
        self.bestslack[x]
    }

    /// The vertices of a blossom, in the order of a stack walk of its children (last child first).
    fn leaves(&self, b: u32) -> Vec<u32> {
        let mut out = Vec::new();
        let mut stack: Vec<u32> = self.childs[b as usize].clone();
        while let Some(t) = stack.pop() {
            if self.is_blossom(t) {
                stack.extend_from_slice(&self.childs[t as usize]);
            } else {
                out.push(t);
            }
        }
        out
    }

    fn assign_label(&mut self, w: u32, t: u8, v: u32) {
        let b = self.inblossom[w as usize];
        self.label[w as usize] = t;
        self.label[b as usize] = t;
        let e = if v == NONE { NO_EDGE } else { (v, w) };
        self.labeledge[w as usize] = e;
        self.labeledge[b as usize] = e;
        self.bestedge[w as usize] = NO_EDGE;
        self.bestedge[b as usize] = NO_EDGE;
        if t == 1 {
            if self.is_blossom(b) {
                let l = self.leaves(b);
                self.queue.extend(l);
            } else {
                self.queue.push(b);
            }
        } else if t == 2 {
            let base = self.base[b as usize];
            let m = self.mate[base as usize];
            self.assign_label(m, 1, base);
        }
    }

    /// The base of the new blossom an S-S edge closes, or NONE when it is an augmenting path.
    fn scan_blossom(&mut self, v: u32, w: u32) -> u32 {
        let mut path = Vec::new();
        let mut base = NONE;
        let (mut v, mut w) = (v, w);
        while v != NONE {
            let mut b = self.inblossom[v as usize];
            if self.label[b as usize] & 4 != 0 {
                base = self.base[b as usize];
                break;
            }
            path.push(b);
            self.label[b as usize] = 5;
            if self.labeledge[b as usize] == NO_EDGE {
                v = NONE;
            } else {
                v = self.labeledge[b as usize].0;
                b = self.inblossom[v as usize];
                v = self.labeledge[b as usize].0;
            }
            if w != NONE {
                std::mem::swap(&mut v, &mut w);
            }
        }
        for b in path {
            self.label[b as usize] = 1;
        }
        base
    }

    fn add_blossom(&mut self, base: u32, v: u32, w: u32) {
        let bb = self.inblossom[base as usize];
        let mut bv = self.inblossom[v as usize];
        let mut bw = self.inblossom[w as usize];
        let b = self.free.pop().expect("fewer blossoms than vertices");
        let bu = b as usize;
        self.alive[bu] = true;
        self.base[bu] = base;
        self.parent[bu] = NONE;
        self.parent[bb as usize] = b;
        let mut path = Vec::new();
        let mut edgs = vec![(v, w)];
        while bv != bb {
            self.parent[bv as usize] = b;
            path.push(bv);
            edgs.push(self.labeledge[bv as usize]);
            let v = self.labeledge[bv as usize].0;
            bv = self.inblossom[v as usize];
        }
        path.push(bb);
        path.reverse();
        edgs.reverse();
        while bw != bb {
            self.parent[bw as usize] = b;
            path.push(bw);
            let (x, y) = self.labeledge[bw as usize];
            edgs.push((y, x));
            bw = self.inblossom[x as usize];
        }
        self.label[bu] = 1;
        self.labeledge[bu] = self.labeledge[bb as usize];
        self.dual[bu] = W::zero();
        self.order.push(b);
        self.childs[bu] = path.clone();
        self.bedges[bu] = edgs;
        for v in self.leaves(b) {
            if self.label[self.inblossom[v as usize] as usize] == 2 {
                self.queue.push(v);
            }
            self.inblossom[v as usize] = b;
        }
        // The least-slack edge from the new blossom to each other S-blossom, in first-seen order.
        let mut bestedgeto: Vec<(u32, Edge)> = Vec::new();
        for &sub in &path {
            let nblist: Vec<Edge> = if self.is_blossom(sub) {
                match self.mybest[sub as usize].take() {
                    Some(list) => list,
                    None => {
                        let mut l = Vec::new();
                        for x in self.leaves(sub) {
                            for &(y, _) in &self.adj[x as usize] {
                                l.push((x, y));
                            }
                        }
                        l
                    }
                }
            } else {
                self.adj[sub as usize].iter().map(|&(y, _)| (sub, y)).collect()
            };
            for k in nblist {
                let (mut i, mut j) = k;
                if self.inblossom[j as usize] == b {
                    std::mem::swap(&mut i, &mut j);
                }
                let bj = self.inblossom[j as usize];
                if bj != b && self.label[bj as usize] == 1 {
                    let s = self.slot[bj as usize];
                    if s == NONE {
                        self.slot[bj as usize] = bestedgeto.len() as u32;
                        bestedgeto.push((bj, k));
                    } else {
                        let cur = bestedgeto[s as usize].1;
                        if self.slack(i, j) < self.slack(cur.0, cur.1) {
                            bestedgeto[s as usize].1 = k;
                        }
                    }
                }
            }
            self.bestedge[sub as usize] = NO_EDGE;
        }
        for &(bj, _) in &bestedgeto {
            self.slot[bj as usize] = NONE;
        }
        let list: Vec<Edge> = bestedgeto.into_iter().map(|(_, k)| k).collect();
        let mut best = NO_EDGE;
        let mut bestslack = W::zero();
        for &k in &list {
            let s = self.slack(k.0, k.1);
            if best == NO_EDGE || s < bestslack {
                best = k;
                bestslack = s;
            }
        }
        self.set_best(b, best, bestslack);
        self.mybest[bu] = Some(list);
    }

    fn expand_blossom(&mut self, b: u32, endstage: bool) {
        let bu = b as usize;
        let childs = self.childs[bu].clone();
        for &s in &childs {
            self.parent[s as usize] = NONE;
            if self.is_blossom(s) {
                if endstage && self.dual[s as usize] == W::zero() {
                    self.expand_blossom(s, endstage);
                } else {
                    for v in self.leaves(s) {
                        self.inblossom[v as usize] = s;
                    }
                }
            } else {
                self.inblossom[s as usize] = s;
            }
        }
        if !endstage && self.label[bu] == 2 {
            let len = childs.len() as isize;
            let at = |j: isize| -> usize { j.rem_euclid(len) as usize };
            let entrychild = self.inblossom[self.labeledge[bu].1 as usize];
            let mut j = childs.iter().position(|&c| c == entrychild).expect("entry child") as isize;
            let jstep: isize;
            if j & 1 != 0 {
                j -= len;
                jstep = 1;
            } else {
                jstep = -1;
            }
            let (mut v, mut w) = self.labeledge[bu];
            while j != 0 {
                let (p, q) = if jstep == 1 {
                    self.bedges[bu][at(j)]
                } else {
                    let (q, p) = self.bedges[bu][at(j - 1)];
                    (p, q)
                };
                self.label[w as usize] = 0;
                self.label[q as usize] = 0;
                self.assign_label(w, 2, v);
                self.allow(p, q);
                j += jstep;
                if jstep == 1 {
                    (v, w) = self.bedges[bu][at(j)];
                } else {
                    (w, v) = self.bedges[bu][at(j - 1)];
                }
                self.allow(v, w);
                j += jstep;
            }
            let bw = childs[at(j)];
            self.label[w as usize] = 2;
            self.label[bw as usize] = 2;
            self.labeledge[w as usize] = (v, w);
            self.labeledge[bw as usize] = (v, w);
            self.bestedge[bw as usize] = NO_EDGE;
            j += jstep;
            while childs[at(j)] != entrychild {
                let bv = childs[at(j)];
                if self.label[bv as usize] == 1 {
                    j += jstep;
                    continue;
                }
                let mut v = bv;
                if self.is_blossom(bv) {
                    let leaves = self.leaves(bv);
                    v = *leaves.last().expect("a blossom has vertices");
                    for &x in &leaves {
                        if self.label[x as usize] != 0 {
                            v = x;
                            break;
                        }
                    }
                }
                if self.label[v as usize] != 0 {
                    self.label[v as usize] = 0;
                    let m = self.mate[self.base[bv as usize] as usize];
                    self.label[m as usize] = 0;
                    let from = self.labeledge[v as usize].0;
                    self.assign_label(v, 2, from);
                }
                j += jstep;
            }
        }
        self.label[bu] = 0;
        self.labeledge[bu] = NO_EDGE;
        self.bestedge[bu] = NO_EDGE;
        self.parent[bu] = NONE;
        self.base[bu] = NONE;
        self.dual[bu] = W::zero();
        self.childs[bu].clear();
        self.bedges[bu].clear();
        self.mybest[bu] = None;
        self.alive[bu] = false;
        if let Some(pos) = self.order.iter().position(|&x| x == b) {
            self.order.remove(pos);
        }
        self.free.push(b);
    }

    fn augment_blossom(&mut self, b: u32, v: u32) {
        let bu = b as usize;
        let mut t = v;
        while self.parent[t as usize] != b {
            t = self.parent[t as usize];
        }
        if self.is_blossom(t) {
            self.augment_blossom(t, v);
        }
        let len = self.childs[bu].len() as isize;
        let at = |j: isize| -> usize { j.rem_euclid(len) as usize };
        let i = self.childs[bu].iter().position(|&c| c == t).expect("child") as isize;
        let mut j = i;
        let jstep: isize;
        if i & 1 != 0 {
            j -= len;
            jstep = 1;
        } else {
            jstep = -1;
        }
        while j != 0 {
            j += jstep;
            let t = self.childs[bu][at(j)];
            let (w, x) = if jstep == 1 {
                self.bedges[bu][at(j)]
            } else {
                let (x, w) = self.bedges[bu][at(j - 1)];
                (w, x)
            };
            if self.is_blossom(t) {
                self.augment_blossom(t, w);
            }
            j += jstep;
            let t = self.childs[bu][at(j)];
            if self.is_blossom(t) {
                self.augment_blossom(t, x);
            }
            self.mate[w as usize] = x;
            self.mate[x as usize] = w;
        }
        self.childs[bu].rotate_left(i as usize);
        self.bedges[bu].rotate_left(i as usize);
        let first = self.childs[bu][0];
        self.base[bu] = self.base[first as usize];
    }

    fn augment_matching(&mut self, v: u32, w: u32) {
        for (s0, j0) in [(v, w), (w, v)] {
            let (mut s, mut j) = (s0, j0);
            loop {
                let bs = self.inblossom[s as usize];
                if self.is_blossom(bs) {
                    self.augment_blossom(bs, s);
                }
                self.mate[s as usize] = j;
                if self.labeledge[bs as usize] == NO_EDGE {
                    break;
                }
                let t = self.labeledge[bs as usize].0;
                let bt = self.inblossom[t as usize];
                (s, j) = self.labeledge[bt as usize];
                if self.is_blossom(bt) {
                    self.augment_blossom(bt, j);
                }
                self.mate[j as usize] = s;
            }
        }
    }

    fn min_vertex_dual(&self) -> W {
        let mut m = self.dual[0];
        for &d in &self.dual[..self.n] {
            if d < m {
                m = d;
            }
        }
        m
    }

    fn solve(&mut self, maxcardinality: bool) {
        let n = self.n;
        let m = 2 * n;
        loop {
            for x in 0..m {
                self.label[x] = 0;
                self.labeledge[x] = NO_EDGE;
                self.bestedge[x] = NO_EDGE;
            }
            for &b in &self.order {
                self.mybest[b as usize] = None;
            }
            self.stage += 1;
            self.queue.clear();
            // The roots: the free vertices (all of them from scratch, where their duals are all equal;
            // after a warm start, those of the greatest dual, the others joining as it comes down to theirs).
            let mut top: Option<W> = None;
            for v in 0..n {
                if self.mate[v] == NONE && top.is_none_or(|t| self.dual[v] > t) {
                    top = Some(self.dual[v]);
                }
            }
            for v in 0..n as u32 {
                if self.mate[v as usize] == NONE
                    && self.label[self.inblossom[v as usize] as usize] == 0
                    && Some(self.dual[v as usize]) == top
                {
                    self.assign_label(v, 1, NONE);
                }
            }
            let mut augmented = false;
            loop {
                while !augmented {
                    let Some(v) = self.queue.pop() else { break };
                    let mut idx = 0;
                    while idx < self.adj[v as usize].len() {
                        let (w, k) = self.adj[v as usize][idx];
                        idx += 1;
                        let bv = self.inblossom[v as usize];
                        let bw = self.inblossom[w as usize];
                        if bv == bw {
                            continue;
                        }
                        let mut kslack = W::zero();
                        let mut allowed = self.allowed[k as usize] == self.stage;
                        if !allowed {
                            kslack = self.dual[v as usize] + self.dual[w as usize] - self.adjw[v as usize][idx - 1];
                            if kslack <= W::zero() {
                                self.allowed[k as usize] = self.stage;
                                allowed = true;
                            }
                        }
                        if allowed {
                            let lbw = self.label[bw as usize];
                            if lbw == 0 && self.mate[self.base[bw as usize] as usize] == NONE {
                                // A free vertex that is no root yet (warm start): an augmenting path.
                                self.augment_matching(v, w);
                                augmented = true;
                                break;
                            } else if lbw == 0 {
                                self.assign_label(w, 2, v);
                            } else if lbw == 1 {
                                let base = self.scan_blossom(v, w);
                                if base != NONE {
                                    self.add_blossom(base, v, w);
                                } else {
                                    self.augment_matching(v, w);
                                    augmented = true;
                                    break;
                                }
                            } else if self.label[w as usize] == 0 {
                                self.label[w as usize] = 2;
                                self.labeledge[w as usize] = (v, w);
                            }
                        } else if self.label[bw as usize] == 1 {
                            if self.bestedge[bv as usize] == NO_EDGE || kslack < self.best_slack(bv as usize) {
                                self.set_best(bv, (v, w), kslack);
                            }
                        } else if self.label[w as usize] == 0 {
                            if self.bestedge[w as usize] == NO_EDGE || kslack < self.best_slack(w as usize) {
                                self.set_best(w, (v, w), kslack);
                            }
                        }
                    }
                }
                if augmented {
                    break;
                }
                // The dual adjustment: the first least delta of each kind, in networkx' order.
                let mut deltatype = -1i32;
                let mut delta = W::zero();
                let mut deltaedge = NO_EDGE;
                let mut deltablossom = NONE;
                if !maxcardinality {
                    deltatype = 1;
                    delta = self.min_vertex_dual();
                }
                for v in 0..n {
                    let be = self.bestedge[v];
                    if self.label[self.inblossom[v] as usize] == 0 && be != NO_EDGE {
                        let d = self.best_slack(v);
                        if deltatype == -1 || d < delta {
                            delta = d;
                            deltatype = 2;
                            deltaedge = be;
                        }
                    }
                }
                for t in 0..n + self.order.len() {
                    let bu = if t < n { t } else { self.order[t - n] as usize };
                    if self.parent[bu] == NONE && self.label[bu] == 1 && self.bestedge[bu] != NO_EDGE {
                        let be = self.bestedge[bu];
                        let d = self.best_slack(bu).half();
                        if deltatype == -1 || d < delta {
                            delta = d;
                            deltatype = 3;
                            deltaedge = be;
                        }
                    }
                }
                for &b in &self.order {
                    let bu = b as usize;
                    if self.parent[bu] == NONE && self.label[bu] == 2 && (deltatype == -1 || self.dual[bu] < delta) {
                        delta = self.dual[bu];
                        deltatype = 4;
                        deltablossom = b;
                    }
                }
                // Warm start: the roots' dual comes down to that of the next free vertices, which join.
                let mut rootdual: Option<W> = None;
                let mut waiting: Option<W> = None;
                for v in 0..n {
                    if self.mate[v] == NONE {
                        if self.label[self.inblossom[v] as usize] == 1 {
                            rootdual = Some(self.dual[v]);
                        } else if waiting.is_none_or(|x| self.dual[v] > x) {
                            waiting = Some(self.dual[v]);
                        }
                    }
                }
                if let (Some(r), Some(x)) = (rootdual, waiting) {
                    let d = r - x;
                    if deltatype == -1 || d < delta {
                        delta = d;
                        deltatype = 5;
                    }
                }
                if deltatype == -1 {
                    deltatype = 1;
                    let md = self.min_vertex_dual();
                    delta = if md > W::zero() { md } else { W::zero() };
                }
                for v in 0..n {
                    match self.label[self.inblossom[v] as usize] {
                        1 => self.dual[v] = self.dual[v] - delta,
                        2 => self.dual[v] = self.dual[v] + delta,
                        _ => {}
                    }
                }
                for idx in 0..self.order.len() {
                    let bu = self.order[idx] as usize;
                    if self.parent[bu] == NONE {
                        match self.label[bu] {
                            1 => self.dual[bu] = self.dual[bu] + delta,
                            2 => self.dual[bu] = self.dual[bu] - delta,
                            _ => {}
                        }
                    }
                }
                self.epoch += 1;
                match deltatype {
                    1 => break,
                    5 => {
                        let r = rootdual.expect("roots") - delta; // the roots' dual, after the adjustment
                        for v in 0..n as u32 {
                            if self.mate[v as usize] == NONE
                                && self.label[self.inblossom[v as usize] as usize] == 0
                                && self.dual[v as usize] == r
                            {
                                self.assign_label(v, 1, NONE);
                            }
                        }
                    }
                    2 | 3 => {
                        let (v, w) = deltaedge;
                        self.allow(v, w);
                        self.queue.push(v);
                    }
                    _ => self.expand_blossom(deltablossom, false),
                }
            }
            if !augmented {
                break;
            }
            let snapshot = self.order.clone();
            for b in snapshot {
                let bu = b as usize;
                if !self.alive[bu] {
                    continue;
                }
                if self.parent[bu] == NONE && self.label[bu] == 1 && self.dual[bu] == W::zero() {
                    self.expand_blossom(b, true);
                }
            }
        }
    }

    /// The optimality conditions of the final matching and duals (what networkx verifies with integer
    /// weights): non-negative slack on every edge, zero on matched ones, non-negative blossom duals, and
    /// every unmatched vertex at the least vertex dual (at zero without maxcardinality).
    fn verify(&self, maxcardinality: bool) -> Result<(), String> {
        let n = self.n;
        let mind = self.min_vertex_dual();
        let offset = if maxcardinality && mind < W::zero() { W::zero() - mind } else { W::zero() };
        if mind + offset < W::zero() {
            return Err("a negative vertex dual".into());
        }
        for &b in &self.order {
            if self.dual[b as usize] < W::zero() {
                return Err("a negative blossom dual".into());
            }
        }
        let chain = |mut x: u32| -> Vec<u32> {
            let mut c = vec![x];
            while self.parent[x as usize] != NONE {
                x = self.parent[x as usize];
                c.push(x);
            }
            c.reverse();
            c
        };
        for i in 0..n as u32 {
            for &(j, _) in &self.adj[i as usize] {
                if j < i {
                    continue;
                }
                let mut s = self.slack(i, j);
                let (ci, cj) = (chain(i), chain(j));
                for (bi, bj) in ci.iter().zip(cj.iter()) {
                    if bi != bj {
                        break;
                    }
                    s = s + self.dual[*bi as usize].twice();
                }
                if s < W::zero() {
                    return Err(format!("edge {i}-{j} has a negative slack"));
                }
                if self.mate[i as usize] == j && s != W::zero() {
                    return Err(format!("matched edge {i}-{j} is not tight"));
                }
            }
        }
        for v in 0..n {
            if self.mate[v] == NONE && self.dual[v] + offset != W::zero() {
                return Err(format!("unmatched vertex {v} has a non-zero dual"));
            }
        }
        for &b in &self.order {
            let bu = b as usize;
            if self.dual[bu] > W::zero() {
                if self.bedges[bu].len() % 2 != 1 {
                    return Err("a blossom with an even number of edges".into());
                }
                for k in (1..self.bedges[bu].len()).step_by(2) {
                    let (i, j) = self.bedges[bu][k];
                    if self.mate[i as usize] != j || self.mate[j as usize] != i {
                        return Err("a blossom's alternate edge is unmatched".into());
                    }
                }
            }
        }
        Ok(())
    }
}

impl<W: Weight> Matcher<W> {
    /// The weight of edge (i, j), twice, if there is one.
    fn weight2(&self, i: u32, j: u32) -> Option<W> {
        let k = self.eindex[i as usize * self.n + j as usize];
        (k != NONE).then(|| self.w2[k as usize])
    }

    /// Slack of edge (i, j) of this graph, blossom duals included.
    fn full_slack(&self, i: u32, j: u32) -> W {
        let mut s = self.slack(i, j);
        let (mut a, mut b) = (self.outermost_chain(i), self.outermost_chain(j));
        while let (Some(x), Some(y)) = (a.pop(), b.pop()) {
            if x != y {
                break;
            }
            s = s + self.dual[x as usize].twice();
        }
        s
    }

    /// The blossoms containing v, innermost first.
    fn outermost_chain(&self, v: u32) -> Vec<u32> {
        let mut c = Vec::new();
        let mut x = self.parent[v as usize];
        while x != NONE {
            c.push(x);
            x = self.parent[x as usize];
        }
        c
    }

    fn unmatch(&mut self, v: u32) {
        let m = self.mate[v as usize];
        if m != NONE {
            self.mate[m as usize] = NONE;
            self.mate[v as usize] = NONE;
        }
    }

    /// Removes top-level blossom b, its dual moved onto its vertices (the slack of the edges inside it
    /// stays, that of the edges leaving it grows by its dual: its base's matched edge, if it leaves b and b's
    /// dual is not zero, is unmatched).
    fn dissolve(&mut self, b: u32) {
        let bu = b as usize;
        let z = self.dual[bu];
        let leaves = self.leaves(b);
        for &v in &leaves {
            self.dual[v as usize] = self.dual[v as usize] + z;
        }
        for c in self.childs[bu].clone() {
            self.parent[c as usize] = NONE;
            if self.is_blossom(c) {
                for v in self.leaves(c) {
                    self.inblossom[v as usize] = c;
                }
            } else {
                self.inblossom[c as usize] = c;
            }
        }
        let base = self.base[bu];
        if z != W::zero() && self.mate[base as usize] != NONE && !leaves.contains(&self.mate[base as usize]) {
            self.unmatch(base);
        }
        self.label[bu] = 0;
        self.parent[bu] = NONE;
        self.base[bu] = NONE;
        self.dual[bu] = W::zero();
        self.childs[bu].clear();
        self.bedges[bu].clear();
        self.mybest[bu] = None;
        self.alive[bu] = false;
        if let Some(pos) = self.order.iter().position(|&x| x == b) {
            self.order.remove(pos);
        }
        self.free.push(b);
    }

    /// A warm start: the matching, duals and blossoms of `prev` (the optimum of a graph on the same vertices)
    /// carried over to this graph. The vertices of an edge whose weight changed and which is now infeasible,
    /// a matched edge no longer tight, or an edge of a blossom no longer tight, are taken out of their
    /// blossoms and unmatched, and their duals raised to make every edge feasible. None when too much
    /// changed for a warm start to pay.
    fn carry_over(&mut self, prev: Matcher<W>) -> Option<()> {
        let n = self.n;
        if prev.n != n {
            return None;
        }
        let mut structural = std::collections::HashSet::new();
        for &b in &prev.order {
            for &(i, j) in &prev.bedges[b as usize] {
                structural.insert((i.min(j), i.max(j)));
            }
        }
        self.mate = prev.mate;
        self.dual = prev.dual;
        self.inblossom = prev.inblossom;
        self.parent = prev.parent;
        self.base = prev.base;
        self.childs = prev.childs;
        self.bedges = prev.bedges;
        self.alive = prev.alive;
        self.order = prev.order;
        self.free = prev.free;
        let mut marked = vec![false; n];
        let mut changed = Vec::new();
        for (k, &(i, j)) in prev.ends.iter().enumerate() {
            if self.weight2(i, j) != Some(prev.w2[k]) {
                changed.push((i, j));
            }
        }
        for &(i, j) in &self.ends {
            let k = prev.eindex[i as usize * n + j as usize];
            if k == NONE {
                changed.push((i, j));
            }
        }
        // One vertex per edge that needs it is enough (taken out of its blossoms, unmatched, its dual
        // raised): the one with more changed edges, which a finalised or re-weighted player is.
        let mut degree = vec![0u32; n];
        for &(i, j) in &changed {
            degree[i as usize] += 1;
            degree[j as usize] += 1;
        }
        for &(i, j) in &changed {
            if marked[i as usize] || marked[j as usize] {
                continue;
            }
            let exists = self.weight2(i, j).is_some();
            let bad = (exists && self.full_slack(i, j) < W::zero())
                || self.mate[i as usize] == j
                || structural.contains(&(i.min(j), i.max(j)));
            if bad {
                let x = if degree[i as usize] >= degree[j as usize] { i } else { j };
                marked[x as usize] = true;
            }
        }
        let isolated: Vec<u32> = (0..n as u32).filter(|&v| marked[v as usize]).collect();
        if isolated.len() > n / 4 + 2 {
            return None;
        }
        for &x in &isolated {
            while self.is_blossom(self.inblossom[x as usize]) {
                let mut b = self.inblossom[x as usize];
                while self.parent[b as usize] != NONE {
                    b = self.parent[b as usize];
                }
                self.dissolve(b);
            }
            self.unmatch(x);
        }
        for &x in &isolated {
            for idx in 0..self.adj[x as usize].len() {
                let (y, _) = self.adj[x as usize][idx];
                let need = self.adjw[x as usize][idx] - self.dual[y as usize];
                if need > self.dual[x as usize] {
                    self.dual[x as usize] = need;
                }
            }
        }
        Some(())
    }
}

fn run<W: Weight>(n: usize, us: &[u32], vs: &[u32], blob: &[u8], width: usize, maxcard: bool) -> Result<Vec<i64>, String> {
    let weights: Vec<W> = blob.chunks_exact(width).map(W::from_le).collect();
    let mut m = Matcher::<W>::new(n, us, vs, &weights);
    if n > 0 && !m.w2.is_empty() {
        m.solve(maxcard);
        m.verify(maxcard)?;
    }
    Ok(m.mate.iter().map(|&x| if x == NONE { -1 } else { x as i64 }).collect())
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
        let need = maxbits as usize + 24;
        let Some(&wanted) = [16usize, 32, 40, 48, 56, 64, 96, 128].iter().find(|&&w| need < 8 * w) else {
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
        let out = py.detach(move || -> Result<(Kept, Vec<i64>, bool, bool), String> {
            macro_rules! go {
                ($variant:ident, $t:ty) => {{
                    let prev = match kept {
                        Kept::$variant(m) => Some(m),
                        _ => None,
                    };
                    let (m, warm, fell) = solve_kept::<$t>(prev, n, &us, &vs, &blob, width, maxcardinality)?;
                    let mates = m.mate.iter().map(|&x| if x == NONE { -1 } else { x as i64 }).collect();
                    Ok((Kept::$variant(m), mates, warm, fell))
                }};
            }
            match width {
                16 => go!(I128, i128),
                32 => go!(W4, Wide<4>),
                40 => go!(W5, Wide<5>),
                48 => go!(W6, Wide<6>),
                56 => go!(W7, Wide<7>),
                64 => go!(W8, Wide<8>),
                96 => go!(W12, Wide<12>),
                128 => go!(W16, Wide<16>),
                _ => Err(format!("weight width {width} bytes: 16, 32, 40, 48, 56, 64, 96 or 128 are supported")),
            }
        });
        let (kept, mates, warm, fell) = out.map_err(|e| PyValueError::new_err(format!("maximum-weight matching: {e}")))?;
        self.kept = kept;
        if warm {
            self.warm += 1;
        } else {
            self.cold += 1;
        }
        if fell {
            self.fallbacks += 1;
        }
        Ok(mates)
    }
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
    Ok(())
}
