import re,sys,statistics,collections
cur=None; rows=collections.defaultdict(list)
for l in open(sys.argv[1]):
    m=re.match(r'== round (\d+) (\S+)',l)
    if m: cur={'jar':m.group(2),'r':m.group(1),'io':0,'jit':0,'gc':0,'total':0,'other':0}; rows[cur['jar']].append(cur); continue
    m=re.search(r'\((\d+)/s\)',l)
    if m and cur: cur['rate']=m.group(1)
    m=re.search(r'load average ([\d.]+)',l)
    if m and cur: cur['load']=m.group(1)
    m=re.match(r'\s+(.+?)\s+([\d.]+) us/conn',l)
    if not m or not cur: continue
    name,v=m.group(1),float(m.group(2))
    if name.startswith('process'): cur['total']=v
    elif 'Compiler' in name: cur['jit']+=v
    elif 'GC' in name or 'Refine' in name or 'G1' in name: cur['gc']+=v
    elif re.match(r'(FlowNioProcesso|pool-N-thread-N|FlowSocketAccep|NioProcessor|NioSocketAccep)',name): cur['io']+=v
    else: cur['other']+=v
for jar,rs in rows.items():
    for r in rs: r['nojit']=r['total']-r['jit']-r['gc']
    print(f"{jar:6s} I/O+acceptor us/conn: {[r['io'] for r in rs]} median {statistics.median([r['io'] for r in rs])}; "
          f"other Flow threads {[r['other'] for r in rs]}; process minus JIT and GC {[r['nojit'] for r in rs]} median {statistics.median([r['nojit'] for r in rs])}; "
          f"JIT {[r['jit'] for r in rs]}; total {[r['total'] for r in rs]}; rate {[r.get('rate') for r in rs]}; load {[r.get('load') for r in rs]}")
