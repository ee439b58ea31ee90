//! The matcher: Edmonds' blossom algorithm, primal-dual, step for step as
//! networkx runs it.

use super::Weight;

pub(super) const NONE: u32 = u32::MAX;
pub(super) type Edge = (u32, u32);
pub(super) const NO_EDGE: Edge = (NONE, NONE);

/// Labels: 0 none, 1 S (outer), 2 T (inner); 5 marks an S-blossom during scan_blossom.
pub(super) struct Matcher<W: Weight> {
    pub(super) n: usize,
    pub(super) adj: Vec<Vec<(u32, u32)>>, // (neighbour, edge) in the order the edges were added
    pub(super) adjw: Vec<Vec<W>>,         // twice the weight of each edge of `adj`, beside it for the scan
    pub(super) eindex: Vec<u32>, // n * n: the edge between two vertices, NONE if none
    pub(super) w2: Vec<W>,       // twice each edge's weight
    pub(super) ends: Vec<Edge>,  // each edge's vertices
    pub(super) mate: Vec<u32>,
    pub(super) label: Vec<u8>,        // vertices and blossoms (ids n..2n)
    pub(super) labeledge: Vec<Edge>,  // vertices and blossoms
    pub(super) bestedge: Vec<Edge>,   // vertices and blossoms
    pub(super) bestslack: Vec<W>,     // the slack of bestedge, computed under the duals of epoch `slackepoch`
    pub(super) slackepoch: Vec<u32>,
    pub(super) epoch: u32, // incremented at every dual adjustment
    pub(super) inblossom: Vec<u32>,   // vertices: the top-level blossom (or itself)
    pub(super) parent: Vec<u32>,      // vertices and blossoms
    pub(super) base: Vec<u32>,        // vertices and blossoms
    pub(super) dual: Vec<W>,          // vertices and blossoms
    pub(super) childs: Vec<Vec<u32>>, // blossoms
    pub(super) bedges: Vec<Vec<Edge>>,
    pub(super) mybest: Vec<Option<Vec<Edge>>>,
    pub(super) alive: Vec<bool>,
    pub(super) order: Vec<u32>, // live blossoms in the order they were made
    pub(super) free: Vec<u32>,
    pub(super) allowed: Vec<u32>, // per edge: allowed when its stamp is the stage's
    pub(super) stage: u32,
    pub(super) queue: Vec<u32>,
    pub(super) slot: Vec<u32>, // scratch for add_blossom: position of a blossom in `bestedgeto`
    pub(super) checked: Option<super::incremental::Checked<W>>, // the state the optimality check last passed
}

impl<W: Weight> Matcher<W> {
    pub(super) fn new(n: usize, us: &[u32], vs: &[u32], weights: &[W]) -> Self {
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
            checked: None,
        }
    }

    #[inline]
    pub(super) fn is_blossom(&self, b: u32) -> bool {
        b as usize >= self.n
    }

    #[inline]
    pub(super) fn slack(&self, v: u32, w: u32) -> W {
        let k = self.eindex[v as usize * self.n + w as usize] as usize;
        self.dual[v as usize] + self.dual[w as usize] - self.w2[k]
    }

    #[inline]
    pub(super) fn edge(&self, v: u32, w: u32) -> u32 {
        self.eindex[v as usize * self.n + w as usize]
    }

    #[inline]
    pub(super) fn allow(&mut self, v: u32, w: u32) {
        let k = self.edge(v, w);
        self.allowed[k as usize] = self.stage;
    }

    #[inline]
    pub(super) fn set_best(&mut self, x: u32, e: Edge, slack: W) {
        self.bestedge[x as usize] = e;
        self.bestslack[x as usize] = slack;
        self.slackepoch[x as usize] = self.epoch;
    }

    /// The slack of a set bestedge under the current duals.
    #[inline]
    pub(super) fn best_slack(&mut self, x: usize) -> W {
        if self.slackepoch[x] != self.epoch {
            let be = self.bestedge[x];
            self.bestslack[x] = self.slack(be.0, be.1);
            self.slackepoch[x] = self.epoch;
        }
        self.bestslack[x]
    }

    /// The vertices of a blossom, in the order of a stack walk of its children (last child first).
    pub(super) fn leaves(&self, b: u32) -> Vec<u32> {
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

    pub(super) fn assign_label(&mut self, w: u32, t: u8, v: u32) {
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
    pub(super) fn scan_blossom(&mut self, v: u32, w: u32) -> u32 {
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

    pub(super) fn add_blossom(&mut self, base: u32, v: u32, w: u32) {
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

    pub(super) fn expand_blossom(&mut self, b: u32, endstage: bool) {
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

    pub(super) fn augment_blossom(&mut self, b: u32, v: u32) {
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

    pub(super) fn augment_matching(&mut self, v: u32, w: u32) {
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

    pub(super) fn min_vertex_dual(&self) -> W {
        let mut m = self.dual[0];
        for &d in &self.dual[..self.n] {
            if d < m {
                m = d;
            }
        }
        m
    }

    pub(super) fn solve(&mut self, maxcardinality: bool) {
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
    pub(super) fn verify(&self, maxcardinality: bool) -> Result<(), String> {
        let n = self.n;
        let nest = super::incremental::Nesting::of(self);
        for i in 0..n as u32 {
            for (idx, &(j, _)) in self.adj[i as usize].iter().enumerate() {
                if j < i {
                    continue;
                }
                let s = nest.slack(self, i, j, self.adjw[i as usize][idx]);
                if s < W::zero() {
                    return Err(format!("edge {i}-{j} has a negative slack"));
                }
            }
        }
        self.verify_rest(maxcardinality)
    }

    /// The optimality conditions beside the slack of every edge: the duals' signs, matched edges tight,
    /// unmatched vertices at the least vertex dual, blossoms' matched edges.
    pub(super) fn verify_rest(&self, maxcardinality: bool) -> Result<(), String> {
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
        for i in 0..n as u32 {
            let j = self.mate[i as usize];
            if j != NONE && j > i {
                if self.edge(i, j) == NONE || self.mate[j as usize] != i {
                    return Err(format!("{i}-{j} matched without an edge"));
                }
                if self.full_slack(i, j) != W::zero() {
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
