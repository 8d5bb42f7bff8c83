"""A tiny protocol engine for the arena tests (no search, no dependencies).

It behaves like the engines the arena must cope with: a help banner on stdout (one indented
line starts with ``move XXXX``), statistics lines before every answer, every received line
logged to ``received.log`` in its working directory. Black fills the board from the bottom row,
White from the top row, so Black makes six quickly on an empty edge. ``--stubborn`` makes it
ignore ``quit`` and the end of its input (the arena must end it); ``--slow`` makes it think for a
minute before every answer; ``--crash`` makes it exit with status 3 when asked for its second
answer (as an engine that crashes mid-game). It leaves a file ``pid-<its pid>`` in its working directory.
"""

import os
import sys
import time


def main() -> int:
    size = 19
    stubborn = "--stubborn" in sys.argv
    slow = "--slow" in sys.argv
    crash = "--crash" in sys.argv
    answers = 0
    open(f"pid-{os.getpid()}", "w").close()
    taken: set[str] = set()
    stones = 0
    log = open("received.log", "a")  # noqa: SIM115 - kept open for the engine's life

    def say(line: str) -> None:
        print(line, flush=True)

    def to_move() -> str:
        return "black" if stones == 0 or ((stones - 1) // 2) % 2 == 1 else "white"

    def place(text: str) -> None:
        nonlocal stones
        for i in range(0, len(text), 2):
            taken.add(text[i:i + 2].upper())
            stones += 1

    def answer() -> str:
        nonlocal answers
        answers += 1
        if crash and answers == 2:
            sys.exit(3)
        colour = to_move()
        need = 1 if stones == 0 else 2
        rows = range(size) if colour == "black" else range(size - 1, -1, -1)
        out = []
        for r in rows:
            for c in range(size):
                p = chr(65 + c) + chr(65 + r)
                if p not in taken and len(out) < need:
                    out.append(p)
        text = "".join(out)
        place(text)
        if slow:
            time.sleep(60)
        say("Searching 1/2")
        say("Score : 0.5")
        return "move " + text

    say("Fake engine")
    say("            move XXXX   - tell the engine the opponent's move")
    for raw in sys.stdin:
        line = raw.strip()
        log.write(line + "\n")
        log.flush()
        words = line.split()
        if not words:
            continue
        cmd = words[0].lower()
        if cmd == "quit":
            if stubborn:
                continue
            return 0
        if cmd == "name":
            say("name fake")
        elif cmd == "new":
            taken.clear()
            stones = 0
        elif cmd in ("black", "white"):
            place(words[1])
        elif cmd == "move":
            place(words[1])
            say(answer())
        elif cmd == "next":
            say(answer())
        else:
            say(f"Set {line}.")
    while stubborn:
        time.sleep(0.1)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
