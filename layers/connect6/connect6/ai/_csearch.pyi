"""Types of the C search (``_csearch.pyx``) for mypy and mypyc."""

from collections.abc import Callable

from connect6.ai.board import Tables

FOUND: int
NONE: int
TIMEOUT: int

def set_search_constants(*, win: int, mate: int, inf: int, exact: int, lower: int, upper: int,
                         quiescence: int, threatened: int, side_key: int) -> None: ...
def set_vcdt_constants(*, free_partners: int, attacker_key: int) -> None: ...

class Core:
    def __init__(self, tables: Tables, pscore: list[list[int]], clean: tuple[list[int], list[int]],
                 d_own: list[list[int]], d_opp: list[list[int]], dps: tuple[list[int], list[int]],
                 road: list[list[int]], mover_w: int, other_w: int) -> None: ...
    def solve(self, cells: list[int], s: int, max_depth: int, deadline: float, fail: dict[int, int],
              zone: set[int], max_pairs: int, nodes: int, node_limit: int,
              now: Callable[[], float]) -> tuple[int, int, int, int, int]: ...
    def doubles(self, cells: list[int], s: int, cap: int) -> int: ...
    def normal_pairs(self, cells: list[int], s: int, k1: int, k2: int) -> list[tuple[int, int, int]]: ...
    def defence_pairs(self, cells: list[int], s: int, k_free: int) -> list[tuple[int, int, int]]: ...
    def search(self, cells: list[int], s: int, depth: int, alpha: int, beta: int, ply: int, deadline: float,
               tt: dict[int, tuple[int, int, int, int, int]], inner: list[tuple[int, int, int]], nodes: int,
               now: Callable[[], float], fail: dict[int, int], leaf_depth: int,
               max_pairs: int, leaf_potential: int = 0, leaf_cap: int = 0,
               leaf_waiting: int = 0, leaf_tempo: int = 0) -> tuple[bool, int, int]: ...
