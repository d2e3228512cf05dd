//! The order of work: the subspaces a request needs, grouped into units solved together, each
//! after everything it depends on.

use std::collections::{BTreeMap, BTreeSet};

use crate::domain::Domain;

/// The subspaces that `targets` need (themselves and everything their turns lead to), as units
/// in an order where every unit comes after the units it depends on.
///
/// A unit is a strongly connected set of subspaces: turns lead from each to each, so they are
/// solved together (in morris, a subspace and its colour-swapped partner). Units are ordered
/// deterministically: the result depends only on the domain and the set of targets.
pub fn plan<D: Domain>(domain: &D, targets: &[D::Key]) -> Vec<Vec<D::Key>> {
    let mut graph: BTreeMap<D::Key, Vec<D::Key>> = BTreeMap::new();
    let mut todo: Vec<D::Key> = targets.to_vec();
    while let Some(key) = todo.pop() {
        if graph.contains_key(&key) {
            continue;
        }
        let mut next: Vec<D::Key> = domain.successor_keys(key);
        next.sort();
        next.dedup();
        todo.extend(next.iter().copied().filter(|k| !graph.contains_key(k)));
        graph.insert(key, next);
    }
    strongly_connected_components(&graph)
}

/// Tarjan's algorithm; components come out sinks first, which is the solving order.
fn strongly_connected_components<K: Copy + Ord>(graph: &BTreeMap<K, Vec<K>>) -> Vec<Vec<K>> {
    struct State<K> {
        index: BTreeMap<K, usize>,
        low: BTreeMap<K, usize>,
        on_stack: BTreeSet<K>,
        stack: Vec<K>,
        next: usize,
        out: Vec<Vec<K>>,
    }
    fn visit<K: Copy + Ord>(v: K, graph: &BTreeMap<K, Vec<K>>, s: &mut State<K>) {
        s.index.insert(v, s.next);
        s.low.insert(v, s.next);
        s.next += 1;
        s.stack.push(v);
        s.on_stack.insert(v);
        for &w in graph.get(&v).map_or(&[][..], |n| n.as_slice()) {
            if !graph.contains_key(&w) {
                continue;
            }
            if !s.index.contains_key(&w) {
                visit(w, graph, s);
                let low = s.low[&v].min(s.low[&w]);
                s.low.insert(v, low);
            } else if s.on_stack.contains(&w) {
                let low = s.low[&v].min(s.index[&w]);
                s.low.insert(v, low);
            }
        }
        if s.low[&v] == s.index[&v] {
            let mut component = Vec::new();
            while let Some(w) = s.stack.pop() {
                s.on_stack.remove(&w);
                component.push(w);
                if w == v {
                    break;
                }
            }
            component.sort();
            s.out.push(component);
        }
    }
    let mut s = State {
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        on_stack: BTreeSet::new(),
        stack: Vec::new(),
        next: 0,
        out: Vec::new(),
    };
    for &v in graph.keys() {
        if !s.index.contains_key(&v) {
            visit(v, graph, &mut s);
        }
    }
    s.out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn components_come_out_after_what_they_reach() {
        // 1 <-> 2 -> 3 <-> 4 -> 5; 6 -> 1.
        let graph: BTreeMap<u32, Vec<u32>> = [
            (1, vec![2]),
            (2, vec![1, 3]),
            (3, vec![4]),
            (4, vec![3, 5]),
            (5, vec![]),
            (6, vec![1]),
        ]
        .into_iter()
        .collect();
        let units = strongly_connected_components(&graph);
        assert_eq!(units, vec![vec![5], vec![3, 4], vec![1, 2], vec![6]]);
    }
}
