#!/usr/bin/env python3
"""Per-round ratios of a LibrarySessions output: for each library and mode, the client CPU and wall time of the
mode over those of `virtual` (or of the mode named by --base) in the same round; prints the median, the quartiles
and how many rounds were at or below 1. Usage: paired.py OUTPUT.txt [--base=virtual]"""
import statistics, sys

base = "virtual"
files = []
for a in sys.argv[1:]:
    if a.startswith("--base="):
        base = a.split("=", 1)[1]
    else:
        files.append(a)
rows = {}
for f in files:
    for line in open(f, errors="replace"):
        p = [x.strip() for x in line.split("|")]
        if len(p) < 6 or not p[1].isdigit():
            continue
        lib, rnd, mode, wall, cpu = p[0], int(p[1]), p[2], float(p[3]), float(p[4])
        rows.setdefault(lib, {}).setdefault((f, rnd), {})[mode] = (wall, cpu)

def q(v):
    v = sorted(v)
    n = len(v)
    return v[n // 4], statistics.median(v), v[(3 * n) // 4]

print("library | mode | rounds | CPU / %s: median (quartiles) | rounds <= 1 | wall / %s: median (quartiles)" % (base, base))
for lib, byround in rows.items():
    modes = []
    for r in byround.values():
        for m in r:
            if m not in modes:
                modes.append(m)
    for m in modes:
        if m == base:
            continue
        cpu, wall = [], []
        for r in byround.values():
            if m in r and base in r and r[base][1] > 0:
                cpu.append(r[m][1] / r[base][1])
                wall.append(r[m][0] / r[base][0])
        if not cpu:
            continue
        c, w = q(cpu), q(wall)
        print("%s | %s | %d | %.2f (%.2f-%.2f) | %d | %.2f (%.2f-%.2f)" % (lib, m, len(cpu), c[1], c[0], c[2],
              sum(1 for x in cpu if x <= 1), w[1], w[0], w[2]))
