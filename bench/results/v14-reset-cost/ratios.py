"""Flood p99 of each Flow mode over the blocking and virtual-thread baselines' flood p99 of the same
round, per round and as a median, from the r*-*.txt files that v12-turn-budget/run.sh writes to a
directory: python3 ratios.py DIR [DIR...]."""
import glob, os, re, statistics, sys

def flood_p99(path):
    out, seen = {}, set()
    for line in open(path):
        if not line.startswith('| ') or 'p50' in line or '---' in line:
            continue
        c = [x.strip() for x in line.strip().strip('|').split('|')]
        if (c[0], c[1]) in seen:
            continue
        seen.add((c[0], c[1]))
        if c[1] == 'external-reset-flood':
            out[c[0]] = (int(c[3]), re.search(r'load average ([\d.]+)', line).group(1))
    return out

rows = {}
for d in sys.argv[1:]:
    for f in sorted(glob.glob(os.path.join(d, 'r*-baselines.txt'))):
        rnd = re.match(r'r(\d+)-', os.path.basename(f)).group(1)
        base = flood_p99(f)
        for jar in ('base', 'new'):
            p = os.path.join(d, 'r%s-%s.txt' % (rnd, jar))
            if not os.path.exists(p):
                continue
            for mode, (p99, load) in flood_p99(p).items():
                r = rows.setdefault((mode, jar), {'vt': [], 'bl': [], 'p99': [], 'load': []})
                r['p99'].append(p99)
                r['vt'].append(p99 / base['baseline-virtual'][0])
                r['bl'].append(p99 / base['baseline-blocking'][0])
                r['load'].append(load)
print('| mode | jar | flood p99 µs (rounds) | / virtual threads (rounds) | median | / blocking threads (rounds) | median | load |')
print('|---|---|---|---|---:|---|---:|---|')
for (mode, jar), r in sorted(rows.items()):
    f = lambda xs: ', '.join('%.1f' % x for x in xs)
    print('| %s | %s | %s | %s | %.1f | %s | %.1f | %s |' % (mode, jar, ', '.join(map(str, r['p99'])), f(r['vt']),
          statistics.median(r['vt']), f(r['bl']), statistics.median(r['bl']), ', '.join(r['load'])))
