"""Per pair and variant: median over the measured rounds of the client CPU of continuation and of virtual
threads, and their ratio; then the medians over the pairs. Usage: summarize.py out.txt"""
import re, statistics, sys, collections
M = statistics.median
runs = collections.OrderedDict()   # (pair, variant) -> {(lib, mode): [client CPU ms]}, walls
key, offset = None, 0
for line in (l for f in sys.argv[1:] for l in list(open(f)) + ['=== end of file']):
    if line.startswith('=== end of file'):
        offset = max([k[0] for k in runs] + [0]); continue
    m = re.match(r'=== pair (\d+) variant (\w+) start \S+ load (\S+)', line)
    if m:
        key = (offset + int(m[1]), m[2]); runs[key] = {'cpu': collections.defaultdict(list), 'wall': collections.defaultdict(list), 'load': m[3]}
        continue
    p = [x.strip() for x in line.split('|')]
    if key and len(p) == 10 and p[1].isdigit():
        runs[key]['cpu'][(p[0], p[2])].append(int(p[4]))
        runs[key]['wall'][(p[0], p[2])].append(int(p[3]))
ratios = collections.defaultdict(list)
for (pair, v), r in runs.items():
    for lib in ('jedis', 'smtp'):
        c, vt = r['cpu'][(lib, 'continuation')], r['cpu'][(lib, 'virtual')]
        cw, vw = r['wall'][(lib, 'continuation')], r['wall'][(lib, 'virtual')]
        if not c or not vt:
            continue
        ratio = M(c) / M(vt)
        ratios[(lib, v)].append((M(c), M(vt), ratio, M(cw) / M(vw)))
        print(f'pair {pair} {v:4} load {r["load"]:>6} {lib:5} rounds {len(c)}: cont CPU med {M(c):4} ms, VT CPU med {M(vt):4} ms,'
              f' CPU/VT {ratio:.2f}, wall/VT {M(cw) / M(vw):.2f}')
print()
for lib in ('jedis', 'smtp'):
    for v in ('base', 'head'):
        xs = ratios[(lib, v)]
        if xs:
            print(f'{lib:5} {v}: cont CPU med of pairs {M(x[0] for x in xs)} ms, VT {M(x[1] for x in xs)} ms, '
                  f'CPU/VT per pair {[round(x[2], 2) for x in xs]} median {M(x[2] for x in xs):.2f}, wall/VT median {M(x[3] for x in xs):.2f}')
    b, h = ratios[(lib, 'base')], ratios[(lib, 'head')]
    if b and h:
        hb = [y[0] / x[0] for x, y in zip(b, h)]
        print(f'{lib:5} head/base continuation CPU per pair: {[round(r, 2) for r in hb]} median {M(hb):.2f},'
              f' below 1 in {sum(r < 1 for r in hb)} of {len(hb)}')
