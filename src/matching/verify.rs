//! The optimality check of a matching (dual feasibility, complementary
//! slackness), and a warm start from the previous matching of a session.

use super::matcher::{Matcher, NONE};
use super::Weight;

impl<W: Weight> Matcher<W> {
    /// The weight of edge (i, j), twice, if there is one.
    pub(super) fn weight2(&self, i: u32, j: u32) -> Option<W> {
        let k = self.eindex[i as usize * self.n + j as usize];
        (k != NONE).then(|| self.w2[k as usize])
    }

    /// Slack of edge (i, j) of this graph, blossom duals included (those of the blossoms around both ends).
    pub(super) fn full_slack(&self, i: u32, j: u32) -> W {
        let mut s = self.slack(i, j);
        let (mut x, mut y) = (self.parent[i as usize], self.parent[j as usize]);
        if x == NONE || y == NONE {
            return s;
        }
        let depth = |mut b: u32| {
            let mut d = 0;
            while b != NONE {
                d += 1;
                b = self.parent[b as usize];
            }
            d
        };
        let (mut dx, mut dy) = (depth(x), depth(y));
        while dx > dy {
            x = self.parent[x as usize];
            dx -= 1;
        }
        while dy > dx {
            y = self.parent[y as usize];
            dy -= 1;
        }
        while x != y {
            x = self.parent[x as usize];
            y = self.parent[y as usize];
        }
        while x != NONE {
            s = s + self.dual[x as usize].twice();
            x = self.parent[x as usize];
        }
        s
    }

    pub(super) fn unmatch(&mut self, v: u32) {
        let m = self.mate[v as usize];
        if m != NONE {
            self.mate[m as usize] = NONE;
            self.mate[v as usize] = NONE;
        }
    }

    /// Removes top-level blossom b, its dual moved onto its vertices (the slack of the edges inside it
    /// stays, that of the edges leaving it grows by its dual: its base's matched edge, if it leaves b and b's
    /// dual is not zero, is unmatched).
    pub(super) fn dissolve(&mut self, b: u32) {
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
    pub(super) fn carry_over(&mut self, prev: Matcher<W>) -> Option<()> {
        let n = self.n;
        if prev.n != n {
            return None;
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
        self.repair(&changed)
    }

    /// The repair of a warm start, given the edges that changed (in the order they are looked at): see
    /// [`Matcher::carry_over`]. The matcher holds the old optimum on the new graph.
    pub(super) fn repair(&mut self, changed: &[(u32, u32)]) -> Option<()> {
        let n = self.n;
        let mut structural = std::collections::HashSet::new();
        for &b in &self.order {
            for &(i, j) in &self.bedges[b as usize] {
                structural.insert((i.min(j), i.max(j)));
            }
        }
        let mut marked = vec![false; n];
        // One vertex per edge that needs it is enough (taken out of its blossoms, unmatched, its dual
        // raised): the one with more changed edges, which a finalised or re-weighted player is.
        let mut degree = vec![0u32; n];
        for &(i, j) in changed {
            degree[i as usize] += 1;
            degree[j as usize] += 1;
        }
        for &(i, j) in changed {
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
