import re,sys,statistics,glob,os
d=sys.argv[1]
rows={}
for f in sorted(glob.glob(d+'/r*-*.txt')):
    m=re.match(r'r(\d+)-(\w+)\.txt',os.path.basename(f)); rnd,jar=m.group(1),m.group(2)
    seen=set()
    for l in open(f):
        if not l.startswith('| ') or 'p50' in l or '---' in l: continue
        c=[x.strip() for x in l.strip().strip('|').split('|')]
        key=(c[0],c[1])
        if key in seen: continue
        seen.add(key)
        la=re.search(r'load average ([\d.]+)',l).group(1)
        rate=re.search(r'\((\d+)/s\)',l)
        rows.setdefault((jar if jar!='baselines' else 'base',c[0]),{}).setdefault(rnd,{})[c[1]]=(int(c[3]),float(c[7]),la,rate.group(1) if rate else '-',int(c[5]),int(c[6]))
print('| jar | mode | unloaded p99 µs (rounds) | flood p99 µs (rounds) | p99/unloaded (rounds) | median ratio | resets/s | load |')
print('|---|---|---|---|---|---:|---|---|')
for (jar,mode),rs in sorted(rows.items(), key=lambda x:(x[0][1],x[0][0])):
    un=[rs[r]['none'][0] for r in sorted(rs)]; fl=[rs[r]['external-reset-flood'][0] for r in sorted(rs)]
    ra=[rs[r]['external-reset-flood'][1] for r in sorted(rs)]
    rate=[rs[r]['external-reset-flood'][3] for r in sorted(rs)]
    la=[rs[r]['external-reset-flood'][2] for r in sorted(rs)]
    err=sum(rs[r][p][5] for r in rs for p in rs[r])
    print(f"| {jar} | {mode} | {', '.join(map(str,un))} | {', '.join(map(str,fl))} | {', '.join(f'{x:.1f}' for x in ra)} | {statistics.median(ra):.1f} | {', '.join(rate)} | {', '.join(la)} |")
