# #16, v37: the timed rounds' windows of a LibrarySessions output carrying mark.patch's MARK lines.
import re


def measured(txt, warmups=6):
    """The (start, end) seconds of CLOCK_MONOTONIC of each measured round (the warm-ups' windows dropped)."""
    wins, start = [], None
    for line in open(txt):
        m = re.match(r'MARK (start|end) (\d+)', line)
        if m:
            t = int(m.group(2)) / 1e9
            if m.group(1) == 'start':
                start = t
            else:
                wins.append((start, t))
    return wins[warmups:]


def inside(wins, t):
    """Whether t falls in one of the windows."""
    return any(a <= t <= b for a, b in wins)
