import re, sys, statistics, collections
log = open(sys.argv[1]).read().splitlines()
rnd = 0; data = collections.defaultdict(lambda: collections.defaultdict(dict)); loads = []
for l in log:
    m = re.match(r'== round (\d+) .* load (\S+)', l)
    if m: rnd = int(m.group(1)); loads.append(float(m.group(2))); continue
    m = re.match(r'(\S+) (\S+) (.*?) ?(none|reset-flood \S+): (\d+) new connections.*', l)
    if not m: continue
    jar, mode, flags, phase = m.group(1), m.group(2), m.group(3), m.group(4).split()[0]
    key = (jar if mode != 'virtual' else 'VT', mode + ('' if 'first-byte' in flags or mode == 'virtual' else ' off'), phase)
    for st in re.finditer(r'\| ([a-z ]+) (\d+)/(\d+)/(\d+)', l):
        data[key][st.group(1).strip()][rnd] = tuple(int(x) for x in st.group(2, 3, 4))
stages = ['session made', 'opened', 'handler started', 'answered']
print("load averages at the runs' starts: %.1f-%.1f" % (min(loads), max(loads)))
for phase in ['none', 'reset-flood']:
    print("\n## phase", phase, "(µs from connect start; medians over rounds of p50 / p90 / max)")
    vt = data[('VT', 'virtual', phase)]
    for key in sorted(k for k in data if k[2] == phase):
        d = data[key]; out = []
        for st in stages:
            if st not in d: continue
            rounds = sorted(d[st])
            med = [statistics.median(d[st][r][i] for r in rounds) for i in range(3)]
            out.append("%s %d/%d/%d" % (st, *med))
        a = d['answered']; rr = []
        for i in range(3):
            ratios = [a[r][i] / vt['answered'][r][i] for r in a if r in vt['answered'] and vt['answered'][r][i] > 0]
            rr.append(statistics.median(ratios) if ratios else float('nan'))
        print("%-10s %-22s %s | answered/VT same round, medians: p50 %.2f p90 %.2f max %.2f (n=%d)" % (key[0], key[1], " | ".join(out), *rr, len(a)))
print("\n## the first ten new connections of the flood (its first 200 ms): max and median of their answered ms, per round")
starts = collections.defaultdict(list); rnd = 0
for l in log:
    m = re.match(r'== round (\d+)', l)
    if m: rnd = int(m.group(1)); continue
    m = re.match(r'(\S+) (\S+) (.*?) ?reset-flood.*first 10 answered \(ms\): ([0-9. ]+)\|', l)
    if not m: continue
    jar, mode, flags = m.group(1), m.group(2), m.group(3)
    key = (jar if mode != 'virtual' else 'VT', mode + ('' if 'first-byte' in flags or mode == 'virtual' else ' off'))
    v = [float(x) for x in m.group(4).split()]
    starts[key].append((rnd, max(v), statistics.median(v)))
for k in sorted(starts):
    r = sorted(starts[k])
    print("%-10s %-22s max %s (median %.0f) | median of ten %s" % (k[0], k[1], ", ".join("%.0f" % x[1] for x in r), statistics.median(x[1] for x in r), ", ".join("%.1f" % x[2] for x in r)))
