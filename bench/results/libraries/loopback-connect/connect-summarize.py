"""Per run of connect-ab.sh: medians over its measured rounds of CPU and wall per connect; per pair head/base.
Usage: connect-summarize.py out.txt... (pairs numbered on across files)"""
import re, statistics, sys
M = statistics.median
runs, key, offset = {}, None, 0
for line in (l for f in sys.argv[1:] for l in list(open(f)) + ['=== end of file']):
    if line.startswith('=== end of file'):
        offset = max([k[0] for k in runs] + [0]); continue
    m = re.match(r'=== pair (\d+) variant (\w+) .* load (\S+)', line)
    if m:
        key = (offset + int(m[1]), m[2]); runs[key] = {'cpu': [], 'wall': [], 'load': m[3]}
    m = re.match(r'round \d+: \d+ connects, CPU ([\d.]+) us/connect, wall ([\d.]+) us/connect', line)
    if m and key:
        runs[key]['cpu'].append(float(m[1])); runs[key]['wall'].append(float(m[2]))
pairs = sorted({p for p, _ in runs})
for p in pairs:
    b, h = runs[(p, 'base')], runs[(p, 'head')]
    print(f'pair {p}: base CPU {M(b["cpu"]):.1f} us wall {M(b["wall"]):.1f} us (load {b["load"]}) | head CPU {M(h["cpu"]):.1f} us'
          f' wall {M(h["wall"]):.1f} us (load {h["load"]}) | head/base CPU {M(h["cpu"]) / M(b["cpu"]):.2f} wall {M(h["wall"]) / M(b["wall"]):.2f}')
ratios = sorted(M(runs[(p, 'head')]['cpu']) / M(runs[(p, 'base')]['cpu']) for p in pairs)
print('head/base CPU per connect, sorted:', [round(r, 2) for r in ratios], 'median %.2f' % M(ratios))
for v in ('base', 'head'):
    print(v, 'median of pairs: CPU %.1f us, wall %.1f us per connect' % (M(M(runs[(p, v)]['cpu']) for p in pairs), M(M(runs[(p, v)]['wall']) for p in pairs)))
