import re,sys,collections,statistics
for f in sys.argv[1:]:
    start={}  # cpu -> (comm, t)
    runs=collections.defaultdict(list)
    for line in open(f):
        m=re.match(r'\s*(.*?)\s+(\d+) \[(\d+)\] ([\d.]+):\s+sched:sched_switch: prev_comm=(.*?) prev_pid=\d+ prev_prio=\d+ prev_state=(\S+) ==> next_comm=(.*?) next_pid',line)
        if not m: continue
        cpu=m.group(3); t=float(m.group(4)); prev=m.group(5); st=m.group(6); nxt=m.group(7)
        if cpu in start:
            c,t0=start[cpu]
            if c==prev: runs[(prev[:8],st)].append((t-t0)*1e6)
        start[cpu]=(nxt,t)
    print('==',f)
    for k,v in sorted(runs.items(), key=lambda kv:-len(kv[1]))[:6]:
        v.sort()
        print('  %-22s n=%6d sum=%8.0fus p25=%6.1f p50=%6.1f p75=%6.1f p90=%6.1f'%(k,len(v),sum(v),v[len(v)//4],v[len(v)//2],v[3*len(v)//4],v[9*len(v)//10]))
