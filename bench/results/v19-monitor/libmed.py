import re,sys,statistics as st
# per pair and variant: medians line (continuation CPU, VT CPU, CPU/VT); pooled per-round CPU ratios
f=sys.argv[1]
cur=None; pairs={}; rounds={}
for line in open(f):
    m=re.match(r'=== pair (\d+) variant (\w+) start',line)
    if m: cur=(int(m.group(1)),m.group(2)); continue
    p=[x.strip() for x in line.split('|')]
    if p[0]=='medians' and len(p)>8 and p[2] in('virtual','continuation'):
        pairs.setdefault((p[1],cur[1]),{}).setdefault(cur[0],{})[p[2]]=(int(p[3]),int(p[4]))
    elif len(p)>=5 and p[0] in ('smtp','jedis') and p[1].isdigit():
        rounds.setdefault((p[0],cur[1],cur[0],int(p[1])),{})[p[2]]=int(p[4])
print('| library | variant | continuation CPU ms per pair | median | VT CPU ms per pair | CPU / VT per pair | median | wall / VT per pair |')
print('|---|---|---|---|---|---|---|---|')
for lib in ('smtp','jedis'):
    for v in ('base','head'):
        d=pairs[(lib,v)]; ks=sorted(d)
        c=[d[k]['continuation'][1] for k in ks]; vt=[d[k]['virtual'][1] for k in ks]
        r=[a/b for a,b in zip(c,vt)]
        w=[d[k]['continuation'][0]/d[k]['virtual'][0] for k in ks]
        print(f"| {lib} | {v} | {', '.join(map(str,c))} | {st.median(c)} | {', '.join(map(str,vt))} | {', '.join('%.2f'%x for x in r)} | {st.median(r):.2f} | {', '.join('%.2f'%x for x in w)} |")
print()
print('| library | variant | rounds pooled | continuation CPU ms, median of rounds | CPU / VT of the round, median (quartiles) |')
print('|---|---|---|---|---|')
for lib in ('smtp','jedis'):
    for v in ('base','head'):
        rs=[x for k,x in rounds.items() if k[0]==lib and k[1]==v and 'virtual' in x and 'continuation' in x and x['virtual']>0]
        rat=sorted(x['continuation']/x['virtual'] for x in rs)
        q=st.quantiles(rat,n=4)
        print(f"| {lib} | {v} | {len(rs)} | {st.median([x['continuation'] for x in rs])} | {st.median(rat):.2f} ({q[0]:.2f}-{q[2]:.2f}) |")
