"""Medians of a LibrarySessions output: per mode wall, client CPU, server CPU; per round paired ratios to virtual."""
import collections
import statistics as st
import sys

rows = collections.defaultdict(dict)
for line in open(sys.argv[1]):
    p = [x.strip() for x in line.split('|')]
    if len(p) >= 8 and p[1].isdigit():
        rows[int(p[1])][p[2]] = (float(p[3]), float(p[4]), float(p[5]))
modes = ['virtual', 'continuation', 'continuation-strict']
print('%d measured rounds' % len(rows))
print('| mode | wall ms | client CPU ms | server CPU ms | wall / vt | client CPU / vt | server CPU / vt |')
print('|---|---|---|---|---|---|---|')
for m in modes:
    v = [r[m] for r in rows.values() if m in r]
    pr = [(r[m], r['virtual']) for r in rows.values() if m in r and 'virtual' in r]
    ratios = ['%.2f' % st.median(a[i] / b[i] for a, b in pr) for i in range(3)]
    print('| %s | %.0f | %.0f | %.0f | %s |' % (m, *[st.median(x[i] for x in v) for i in range(3)], ' | '.join(ratios)))
