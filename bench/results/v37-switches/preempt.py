# #16, v37: where the threads named PREFIX... were preempted (kernel stack), per timed round; usage: preempt.py OUT.txt OUT.script PREFIX
import sys, re, collections
import windows
txt, script, who = sys.argv[1], sys.argv[2], sys.argv[3]
wins = windows.measured(txt); n = len(wins)
c = collections.Counter(); cur = None
def flush(cur):
    if not cur: return
    comm, t, state, stack = cur
    if not comm.startswith(who) or not state.startswith('R'): return
    if not windows.inside(wins, t): return
    c[' < '.join(stack[2:7])] += 1
for l in open(script):
    m = re.match(r'\s*(.*?)\s+(\d+)\s+([\d.]+): sched:sched_switch: prev_comm=(.*) prev_pid=\d+ prev_prio=\d+ prev_state=(\S+) ==> next_comm=(.*) next_pid', l)
    if m:
        flush(cur); cur = [m.group(4), float(m.group(3)), m.group(5), []]
    elif cur and l.strip():
        parts = l.split()
        if len(parts) >= 2: cur[3].append(parts[1])
flush(cur)
for k, v in c.most_common(12): print(f'{v/n:7.0f} {k}')
