"""Per server and phase, the rounds of LatencyProbe's round trip p99 and its stages (up p99, down p99, and
the slowest 1%'s mean up and down), from the r*-*/log.txt files rounds.sh writes: python3 probe-summary.py DIR."""
import glob, os, re, statistics, sys

rows = {}
for f in sorted(glob.glob(os.path.join(sys.argv[1], 'r*-*', 'log.txt'))):
    rnd, jar = re.match(r'r(\d+)-(.+)', os.path.basename(os.path.dirname(f))).groups()
    mode = None
    for line in open(f):
        if line.startswith('== '):
            mode = line.split()[1]
            continue
        m = re.match(r'(none|reset-flood \S+): n=\d+ total p50 (\d+) p99 (\d+) .*?\| up p50 \d+ p99 (\d+) \| down p50 \d+ p99 (\d+) '
                     r'\| slowest 1% \(\d+\): up (\d+) down (\d+) .*\| load ([\d.]+)', line)
        if m:
            phase = 'none' if m.group(1) == 'none' else 'flood'
            rows.setdefault((jar.replace('-probe', ''), mode, phase), []).append(
                [int(m.group(i)) for i in range(3, 8)] + [float(m.group(8))])
print('| server | phase | p99 µs (rounds) | median | up p99 µs (rounds) | down p99 µs (rounds) | slowest 1%: up / down µs, mean (rounds) | load |')
print('|---|---|---|---:|---|---|---|---|')
for (jar, mode, phase), rs in sorted(rows.items(), key=lambda x: (x[0][1], x[0][0], x[0][2])):
    col = lambda i: ', '.join(f'{r[i]:,}' for r in rs)
    print(f"| {jar} {mode} | {phase} | {col(0)} | {statistics.median(r[0] for r in rs):,.0f} | {col(1)} | {col(2)} | "
          f"{', '.join(f'{r[3]:,} / {r[4]:,}' for r in rs)} | {', '.join(str(r[5]) for r in rs)} |")
