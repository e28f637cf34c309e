# #16, v37: system calls per timed round (the last 6 windows between MARK lines), by thread; usage: win.py OUT.txt OUT.script
import sys, re, collections
import windows
txt, script = sys.argv[1], sys.argv[2]
wins = windows.measured(txt)
c = collections.Counter(); tot = collections.Counter()
for l in open(script):
    m = re.match(r'\s*(.*?)\s+(\d+)\s+([\d.]+):\s+(\S+):', l)
    if not m: continue
    comm, tid, t, ev = m.group(1), m.group(2), float(m.group(3)), m.group(4)
    if ev == 'cs': continue
    if windows.inside(wins, t):
        ev = ev.replace('syscalls:sys_enter_', '')
        comm = re.sub(r'\d+', 'N', comm)
        c[(comm, ev)] += 1; tot[ev] += 1
n = len(wins)
print('rounds', n, 'window s', round(sum(b - a for a, b in wins), 2))
print('per round:', {k: round(v / n) for k, v in tot.items()})
for (comm, ev), v in sorted(c.items(), key=lambda x: -x[1])[:25]:
    print(f'{v/n:9.0f} {ev:12s} {comm}')
