import json,glob,statistics,sys
d=sys.argv[1] if len(sys.argv)>1 else '/tmp/monitor-ab'
rows={}
for v in ('base','head'):
    for p in (1,2,3):
        try: data=json.load(open(f'{d}/jmh-{v}-{p}.json'))
        except Exception: continue
        for b in data:
            name=b['benchmark'].split('.')[-1]+('/nested' if b['params']['nested']=='true' else '')
            raw=[x for fork in b['primaryMetric']['rawData'] for x in fork]
            rows.setdefault(name,{}).setdefault(v,[]).append((statistics.median(raw),min(raw)))
print('| benchmark | base median of iterations, pairs 1-3 (ns/pair) | head | head/base per pair | base min | head min |')
print('|---|---|---|---|---|---|')
for n,r in sorted(rows.items()):
    b=r['base']; h=r['head']
    print(f"| {n} | {', '.join('%.1f'%x[0] for x in b)} | {', '.join('%.1f'%x[0] for x in h)} | {', '.join('%.2f'%(y[0]/x[0]) for x,y in zip(b,h))} | {min(x[1] for x in b):.1f} | {min(x[1] for x in h):.1f} |")
