"""Table-talk: a curated list of friendly phrases. Players pick one by ``phrase_id``; free text is
never accepted, so nothing unkind can be sent."""

from __future__ import annotations

PHRASES: dict[str, str] = {
    "hello": "Hello!",
    "good_luck": "Good luck!",
    "have_fun": "Have fun!",
    "nice_move": "Nice move!",
    "well_played": "Well played!",
    "interesting": "Interesting!",
    "let_me_think": "Hmm, let me think…",
    "oops": "Oops!",
    "that_was_close": "That was close!",
    "tough_one": "This is a tough one.",
    "your_turn": "Your turn!",
    "good_game": "Good game!",
    "thanks": "Thanks for the game!",
    "watch_out": "Watch out!",
}

# What the computer says, and when, is chosen from what happened: connect6.game.talk.

