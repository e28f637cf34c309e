import re,sys,collections
for f in sys.argv[1:]:
    sw=collections.Counter(); wk=collections.Counter(); mig=collections.Counter()
    for line in open(f):
        m=re.search(r'sched_switch: prev_comm=(.*?) prev_pid=\d+ prev_prio=\d+ prev_state=(\S+) ==> next_comm=(.*?) next_pid',line)
        if m:
            sw[(m.group(1),m.group(2),m.group(3))]+=1; continue
        m=re.match(r'\s*(.*?)\s+\d+ \[\d+\].*sched_wakeup: comm=(.*?) pid=\d+ prio=\d+ target_cpu=(\d+)',line)
        if m: wk[(m.group(1),m.group(2))]+=1; continue
        m=re.search(r'sched_migrate_task: comm=(.*?) pid',line)
        if m: mig[m.group(1)]+=1
    print('==',f)
    print(' switches (prev, state, next):')
    for k,v in sw.most_common(14): print('  %7d %s'%(v,k))
    print(' wakeups (waker, wakee):')
    for k,v in wk.most_common(10): print('  %7d %s'%(v,k))
    print(' migrations:', mig.most_common(6))
