# #16, v37: the client JVM's cpu-clock samples per timed round (after the 6 warm-ups), by DSO, thread and symbol (ms per round); usage: cpuwin.py OUT.txt OUT.script [top]
import sys, re, collections
import windows
txt, script = sys.argv[1], sys.argv[2]
top = int(sys.argv[3]) if len(sys.argv) > 3 else 30
wins = windows.measured(txt)
n = len(wins)
dso = collections.Counter(); sym = collections.Counter(); thr = collections.Counter(); total = 0
for l in open(script):
    m = re.match(r'\s*(.*?)\s+(\d+)\s+([\d.]+):\s+([0-9a-f]+)\s+(.*)\s+\((.*)\)\s*$', l)
    if not m: continue
    comm, t, s, d = m.group(1), float(m.group(3)), m.group(5), m.group(6)
    if not windows.inside(wins, t): continue
    total += 1
    d = 'kernel' if 'kernel' in d else ('java-jit' if 'perf-' in d and s != 'Interpreter' else ('interp' if s=='Interpreter' else d.split('/')[-1]))
    dso[d] += 1; thr[re.sub(r'\d+', 'N', comm)] += 1
    s = re.sub(r'\(.*', '', s); s = re.sub(r'^\S+ ', '', s) if d == 'java-jit' else s
    sym[(d, s)] += 1
ms = lambda v: v / 2.0 / n  # 2000 Hz -> 0.5 ms per sample, per round
print('rounds', n, 'samples', total, 'ms/round %.0f' % ms(total))
print('by dso:', ', '.join(f'{k} {ms(v):.0f}' for k, v in dso.most_common(8)))
print('by thread:', ', '.join(f'{k} {ms(v):.0f}' for k, v in thr.most_common(8)))
for (d, s), v in sym.most_common(top): print(f'{ms(v):7.1f} {d:9s} {s[:110]}')
