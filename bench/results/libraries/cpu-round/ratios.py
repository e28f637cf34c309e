import subprocess,statistics,sys,collections
for f in sys.argv[1:]:
    out=subprocess.run(['python3',__import__('os').path.join(__import__('os').path.dirname(__file__) or '.','parse_long.py'),f],capture_output=True,text=True).stdout.split('\n')
    d={}
    for l in out:
        p=l.split()
        if len(p)==6 and p[1]!='warm-up': d[(p[0],int(p[1]),p[2])]=(int(p[3]),int(p[4]),int(p[5]))
    for lib in ['jedis','smtp']:
        for lo,hi in [(1,5),(6,10),(11,15)]:
            rc=[];rw=[];cc=[];vc=[];cw=[];vw=[];ccomp=[];vcomp=[]
            for r in range(lo,hi+1):
                c=d.get((lib,r,'continuation'));v=d.get((lib,r,'virtual'))
                if c: cc.append(c[1]);cw.append(c[0]);ccomp.append(c[2])
                if v: vc.append(v[1]);vw.append(v[0]);vcomp.append(v[2])
                if c and v: rc.append(round(c[1]/v[1],2)); rw.append(round(c[0]/v[0],2))
            M=statistics.median
            print(f.split('/')[-1],lib,'rounds %d-%d'%(lo,hi),'cont CPU med',M(cc),'VT CPU med',M(vc),'CPU/VT per round',rc,'med',M(rc),'| cont wall med',M(cw),'VT wall med',M(vw),'wall/VT med',M(rw),'| compile lines cont',sum(ccomp),'vt',sum(vcomp))
