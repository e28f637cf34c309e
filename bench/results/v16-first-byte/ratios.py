# Per mode and arm (off/on): unloaded and flood p99 per round, flood p99 / own unloaded p99, and flood p99 /
# each baseline's flood p99 in the same round (medians over rounds); new connection's first response per round.
import re, sys, glob, os, statistics
d = sys.argv[1]
rows = {}
for f in sorted(glob.glob(d + '/r*-*.txt')):
    rnd, arm = re.match(r'r(\d+)-(\w+)\.txt', os.path.basename(f)).groups()
    for l in open(f):
        if not l.startswith('| ') or 'p50' in l or '---' in l:
            continue
        c = [x.strip() for x in l.strip().strip('|').split('|')]
        nc = re.search(r'new connection: (?:200 in )?([\d.]+) ms', l)
        rows.setdefault((c[0], arm if arm != 'baselines' else 'baseline'), {}).setdefault(rnd, {})[c[1]] = (
            int(c[3]), int(c[6]), nc.group(1) if nc else '-', re.search(r'load average ([\d.]+)', l).group(1))
def p99(mode, arm, rnd, phase):
    return rows[(mode, arm)][rnd][phase][0]
rounds = sorted({r for v in rows.values() for r in v})
print('| mode | arm | unloaded p99 µs (rounds) | flood p99 µs (rounds) | flood / own unloaded (median) | / virtual (rounds) | median | / blocking (rounds) | median | new connection ms (rounds) | errors | load |')
print('|---|---|---|---|---:|---|---:|---|---:|---|---:|---|')
for (mode, arm) in sorted(rows, key=lambda k: (k[1] == 'baseline', k[0], k[1])):
    rs = rows[(mode, arm)]
    un = [p99(mode, arm, r, 'none') for r in rounds]
    fl = [p99(mode, arm, r, 'external-reset-flood') for r in rounds]
    own = statistics.median(f / u for f, u in zip(fl, un))
    cells = [mode, arm, ', '.join(f'{x:,}' for x in un), ', '.join(f'{x:,}' for x in fl), f'{own:.1f}']
    for base in ('baseline-virtual', 'baseline-blocking'):
        if arm == 'baseline':
            cells += ['', '']
            continue
        r = [f / p99(base, 'baseline', rd, 'external-reset-flood') for f, rd in zip(fl, rounds)]
        cells += [', '.join(f'{x:.1f}' for x in r), f'{statistics.median(r):.1f}']
    cells.append(', '.join(rs[r]['external-reset-flood'][2] for r in rounds))
    cells.append(str(sum(rs[r][p][1] for r in rounds for p in rs[r])))
    cells.append(', '.join(rs[r]['external-reset-flood'][3] for r in rounds))
    print('| ' + ' | '.join(cells) + ' |')
