# #16, v37: context switches per timed round by task and why (preempted, or the kernel function it blocked in); usage: swwin.py OUT.txt OUT.script
import sys, re, collections
import windows
txt, script = sys.argv[1], sys.argv[2]
wins = windows.measured(txt); n = len(wins)
c = collections.Counter(); nxt = collections.Counter()
cur = None
def flush(cur):
    if not cur: return
    comm, t, state, stack, ncomm = cur
    if not windows.inside(wins, t): return
    g = lambda x: 'postgres' if x.startswith('postgres') else re.sub(r'\d+', 'N', x)
    why = 'preempt' if state.startswith('R') else next((f for f in stack if any(k in f for k in ('futex_wait', 'ep_poll', 'do_nanosleep', 'sk_wait', 'wait_woken', 'pipe_read', 'do_sys_poll', 'do_select'))), 'other:' + (stack[3] if len(stack) > 3 else '?'))
    c[(g(comm), why)] += 1
    nxt[g(ncomm)] += 1
for l in open(script):
    m = re.match(r'\s*(.*?)\s+(\d+)\s+([\d.]+): sched:sched_switch: prev_comm=(.*) prev_pid=\d+ prev_prio=\d+ prev_state=(\S+) ==> next_comm=(.*) next_pid', l)
    if m:
        flush(cur); cur = [m.group(4), float(m.group(3)), m.group(5), [], m.group(6)]
    elif cur and l.strip():
        parts = l.split()
        if len(parts) >= 2: cur[3].append(parts[1])
flush(cur)
print('rounds', n)
for (comm, why), v in sorted(c.items(), key=lambda x: -x[1])[:22]:
    print(f'{v/n:8.0f} {comm:18s} {why}')
print('switched in:', [(k, round(v/n)) for k, v in nxt.most_common(8)])
