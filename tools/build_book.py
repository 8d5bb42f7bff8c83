#!/usr/bin/env python3
"""Build the 19×19 opening book (layers/connect6/connect6/ai/book19.json) from the Little Golem
expert games in tests/data/littlegolem/games.jsonl.

Every position after the first ``--turns`` turns of every game is keyed up to the board's 8
symmetries (connect6.ai.book.position_key); the move played there is counted with the game's
result for the side that played it (a draw counts half). A position enters the book when one of
its moves was played in at least ``--min-games`` games and the side that played it scored at
least ``--min-score``; the book keeps the move with the best smoothed score
((won + 1) / (games + 2); ties: more games, then the smaller move). The output is deterministic:
running it again rebuilds the same file.

    python tools/build_book.py            # writes the package data file
    python tools/build_book.py --check    # exits 1 if the file is not what the games give
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "layers" / "connect6"))
sys.path.insert(0, str(ROOT / "tools"))

from arena import LITTLE_GOLEM, sgf_turns  # noqa: E402

from connect6.ai.book import BOOK_FILE, BOOK_SIZE, canonical_move, position_key  # noqa: E402

OUT = ROOT / "layers" / "connect6" / "connect6" / "ai" / BOOK_FILE


def build(path: Path, turns: int, min_games: int, min_score: float) -> dict[str, object]:
    n = BOOK_SIZE
    stats: dict[str, dict[tuple[int, ...], list[float]]] = defaultdict(dict)
    with path.open() as fh:
        for line in fh:
            if not line.strip():
                continue
            rec = json.loads(line)
            if "SZ[" in rec["sgf"] and f"SZ[{n}]" not in rec["sgf"]:
                continue
            result = rec.get("result")
            if result not in ("BWin", "WWin", "Draw"):
                continue
            game = sgf_turns(rec["sgf"], n)
            black: list[int] = []
            white: list[int] = []
            for t, stones in enumerate(game[: turns + 1]):
                side = "B" if t % 2 == 0 else "W"
                if t >= 1 and len(stones) == 2:
                    key, ks = position_key(black, white, n)
                    move = canonical_move(stones, n, ks)
                    won = 0.5 if result == "Draw" else float(result == side + "Win")
                    cell = stats[key].setdefault(move, [0, 0.0])
                    cell[0] += 1
                    cell[1] += won
                (black if side == "B" else white).extend(stones)
    positions: dict[str, list[object]] = {}
    for key in sorted(stats):
        ranked = sorted(((won + 1) / (games + 2), games, tuple(-p for p in move), move, won)
                        for move, (games, won) in stats[key].items()
                        if games >= min_games and won / games >= min_score)
        if ranked:
            _, games, _, move, won = ranked[-1]
            positions[key] = [list(move), int(games), won]
    return {"size": n, "source": "tests/data/littlegolem/games.jsonl", "turns": turns,
            "min_games": min_games, "min_score": min_score, "positions": positions}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=Path, default=LITTLE_GOLEM)
    ap.add_argument("--turns", type=int, default=6, help="book positions after at most this many turns")
    ap.add_argument("--min-games", type=int, default=3)
    ap.add_argument("--min-score", type=float, default=0.5)
    ap.add_argument("--out", type=Path, default=OUT)
    ap.add_argument("--check", action="store_true", help="compare with the file instead of writing")
    args = ap.parse_args()
    book = build(args.games, args.turns, args.min_games, args.min_score)
    text = json.dumps(book, separators=(",", ":"), sort_keys=True) + "\n"
    if args.check:
        same = args.out.exists() and args.out.read_text() == text
        print("book is up to date" if same else "book differs from the games: rebuild it")
        return 0 if same else 1
    args.out.write_text(text)
    print(f"{len(book['positions'])} positions, {len(text)} bytes -> {args.out}")  # type: ignore[arg-type]
    return 0


if __name__ == "__main__":
    sys.exit(main())
