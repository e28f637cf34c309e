"""Medians of a LibrarySessions output, per library and mode: wall, client CPU, server CPU, resumptions per session,
MB allocated per round; then the ratios to virtual threads paired per round (each round's ratio, then their median)."""
import collections
import statistics as st
import sys

import re

rows = collections.defaultdict(lambda: collections.defaultdict(dict))
sessions = 1
for line in open(sys.argv[1]):
    m = re.search(r', (\d+) sessions,', line)
    if m:
        sessions = int(m.group(1))
    p = [x.strip() for x in line.split('|')]
    if len(p) >= 13 and p[1].isdigit():
        res = float(p[7]) / sessions if p[7] not in ('-', '') else float('nan')
        rows[p[0]][int(p[1])][p[2]] = (float(p[3]), float(p[4]), float(p[5]), res, float(p[12]))
for lib, rounds in rows.items():
    print('%s, %d measured rounds' % (lib, len(rounds)))
    print('| mode | wall ms | client CPU ms | server CPU ms | resumptions | MB | wall / vt | client CPU / vt | server CPU / vt |')
    print('|---|---|---|---|---|---|---|---|---|')
    found = {m for r in rounds.values() for m in r}
    order = ['virtual', 'virtual-instrumented', 'continuation', 'continuation-strict']
    for m in order + sorted(found - set(order)):
        v = [r[m] for r in rounds.values() if m in r]
        if not v:
            continue
        pr = [(r[m], r['virtual']) for r in rounds.values() if m in r and 'virtual' in r]
        ratios = ['%.2f' % st.median(a[i] / b[i] for a, b in pr) for i in range(3)]
        print('| %s | %.0f | %.0f | %.0f | %.1f | %.0f | %s |' % (m, *[st.median(x[i] for x in v) for i in range(5)],
                                                            ' | '.join(ratios)))
