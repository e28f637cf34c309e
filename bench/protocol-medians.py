#!/usr/bin/env python3
"""Median table of the runs bench/protocol-rounds.sh wrote into a directory.

    python3 bench/protocol-medians.py OUT_DIR [BASELINE_LABEL]

For each load and server label: throughput per round and its median, median p50/p99, server CPU
per request, threads and RSS; where the runs have perf counts (PERF=1), the server's system calls and
context switches per request (perf's counts over the steady state divided by its requests); with BASELINE_LABEL, each server's median throughput and CPU per
request over the baseline's (same load), and the median of the per-round ratios (each round's run over the
baseline's run of the same round, rounds where both are valid; n = how many). A run whose log has no RESULT line, or an INVALID RUN
line, is listed and left out of the medians.
"""
import collections
import os
import re
import statistics
import sys

out = sys.argv[1]
STEADY = float(os.environ.get('STEADY', '10'))
baseline = sys.argv[2] if len(sys.argv) > 2 else None
name = re.compile(r'^(\d+)-([a-z-]+?)-(\d+)-(\d+)-(.+)\.log$')
result = re.compile(r'^RESULT .* throughput=(\d+)/s .* p50=([\d.]+)ms .* p99=([\d.]+)ms')
server = re.compile(r'^  server: ([\d.]+) cores, ([\d.]+) us CPU per request, (\d+) threads, RSS (\d+) MB')
runs = collections.defaultdict(list)
bad = []
for f in sorted(os.listdir(out)):
    m = name.match(f)
    if not m:
        continue
    rnd, proto, conns, pipe, label = m.groups()
    text = open(os.path.join(out, f), encoding='utf-8', errors='replace').read().splitlines()
    r = next((result.match(l) for l in text if result.match(l)), None)
    s = next((server.match(l) for l in text if server.match(l)), None)
    if r is None or s is None or any('INVALID' in l for l in text):
        bad.append(f)
        continue
    counts = {}
    pf = os.path.join(out, f + '.perf')
    if os.path.exists(pf):
        for l in open(pf, encoding='utf-8', errors='replace'):
            parts = l.strip().split(',')
            if len(parts) > 2 and parts[0].replace('.', '').isdigit():
                counts[parts[2]] = float(parts[0])
    steady = int(r.group(1)) * STEADY
    per = lambda k: counts[k] / steady if k in counts and steady > 0 else None
    runs[(proto, int(conns), int(pipe))].append(
        (label, int(rnd), int(r.group(1)), float(r.group(2)), float(r.group(3)), float(s.group(2)),
         int(s.group(3)), int(s.group(4)), per('raw_syscalls:sys_enter'), per('context-switches')))

print('| load | server | throughput per round (req/s) | median | p50 / p99 ms (median) | CPU µs/req (median) '
      '| syscalls / cs per req (median) | threads | RSS MB |' + (' throughput / %s | CPU / %s | paired per round: throughput, CPU (n) |' % (baseline, baseline) if baseline else ''))
print('|---|---|---|---|---|---|---|---|---|' + ('---|---|---|' if baseline else ''))
for load in sorted(runs):
    by = collections.OrderedDict()
    for run in sorted(runs[load], key=lambda x: (x[0], x[1])):
        by.setdefault(run[0], []).append(run)
    med = {l: (statistics.median(r[2] for r in rs), statistics.median(r[5] for r in rs)) for l, rs in by.items()}
    for label, rs in by.items():
        sc = [r[8] for r in rs if r[8] is not None]
        cs = [r[9] for r in rs if r[9] is not None]
        counted = '%.2f / %.2f' % (statistics.median(sc), statistics.median(cs)) if sc and cs else '–'
        row = '| %s c%d%s | %s | %s | **%s** | %.2f / %.2f | %.1f | %s | %d | %d |' % (
            load[0], load[1], ' P%d' % load[2] if load[2] > 1 else '', label,
            ' / '.join('{:,}'.format(r[2]) for r in rs), '{:,.0f}'.format(med[label][0]),
            statistics.median(r[3] for r in rs), statistics.median(r[4] for r in rs), med[label][1],
            counted, max(r[6] for r in rs), max(r[7] for r in rs))
        if baseline:
            if baseline in med:
                base = {r[1]: r for r in by[baseline]}
                pairs = [(r[2] / base[r[1]][2], r[5] / base[r[1]][5]) for r in rs if r[1] in base]
                row += ' %.2f | %.2f | %.2f, %.2f (%d) |' % (
                    med[label][0] / med[baseline][0], med[label][1] / med[baseline][1],
                    statistics.median(p[0] for p in pairs), statistics.median(p[1] for p in pairs), len(pairs))
            else:
                row += ' — | — | — |'
        print(row)
if bad:
    print('\nleft out (no result, or invalid): ' + ', '.join(bad))
