"""The order in which a scheduler submits the units of the solver's plan: dependencies first,
and among the units ready to go, the one heading the heaviest chain of units that wait for it.
Used by the cluster build (``perfectplay.cluster``) and its simulation
(``bench/cluster_simulation.py``); needs nothing beyond the standard library."""

from __future__ import annotations

import heapq
from typing import Any, Dict, List

__all__ = ["critical_path_order"]


def critical_path_order(units: List[Dict[str, Any]]) -> List[int]:
    """A submission order: dependencies first, and among the units ready to submit, the one
    heading the heaviest remaining chain (positions of it and of the units waiting on it)."""
    waiting_on: List[List[int]] = [[] for _ in units]
    for i, unit in enumerate(units):
        for j in unit["reads"]:
            waiting_on[j].append(i)
    weight = [0] * len(units)
    for i in reversed(range(len(units))):  # the plan lists every unit after those it reads
        weight[i] = units[i]["positions"] + max((weight[k] for k in waiting_on[i]), default=0)
    missing = [len(set(unit["reads"])) for unit in units]
    ready = [(-weight[i], i) for i in range(len(units)) if missing[i] == 0]
    heapq.heapify(ready)
    order = []
    while ready:
        _, i = heapq.heappop(ready)
        order.append(i)
        for k in waiting_on[i]:
            missing[k] -= 1
            if missing[k] == 0:
                heapq.heappush(ready, (-weight[k], k))
    return order
