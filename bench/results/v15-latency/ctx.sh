#!/bin/bash
# needs the LatencyProbe server (any bench jar of this branch); prints voluntary/nonvoluntary context switches and CPU (utime+stime) per reset connection
# usage: ctx.sh JAR MODE CONNECTIONS RATE : server context switches and CPU per reset connection
J25=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java
JAR=$1; m=$2; N=$3; RATE=$4
d=$(mktemp -d); fifo=$d/in; mkfifo $fifo
$J25 -Xmx64m -cp $JAR dev.flow.bench.hostile.LatencyProbe server $m < $fifo > $d/out 2>&1 &
spid=$!
exec 9> $fifo
for i in $(seq 100); do grep -q '^port ' $d/out 2>/dev/null && break; sleep 0.1; done
port=$(grep '^port ' $d/out | cut -d' ' -f2)
pid=$(pgrep -P $spid java || echo $spid)
snap() { python3 - $pid <<'P'
import sys,os,glob
pid=sys.argv[1]; v=n=0; per={}
for t in glob.glob(f'/proc/{pid}/task/*'):
    try:
        st=open(t+'/status').read(); name=open(t+'/comm').read().strip()
    except: continue
    a=int(st.split('voluntary_ctxt_switches:')[1].split()[0]); b=int(st.split('nonvoluntary_ctxt_switches:')[1].split()[0])
    v+=a; n+=b
    k=name.rstrip('0123456789-')
    per[k]=per.get(k,0)+a+b
f=open(f'/proc/{pid}/stat').read().rsplit(')',1)[1].split()
print(v,n,int(f[11])+int(f[12]),' '.join(f'{k}={c}' for k,c in sorted(per.items())))
P
}
$J25 -cp $JAR dev.flow.bench.hostile.ResetFlood $port $N 2 60 $RATE > /dev/null 2>&1   # warm-up
s0=$(snap)
$J25 -cp $JAR dev.flow.bench.hostile.ResetFlood $port $N 2 60 $RATE > $d/flood 2>&1
s1=$(snap)
echo "$m: before $s0"
echo "$m: after  $s1"
python3 -c "
a='$s0'.split(); b='$s1'.split(); N=$N
print('$m: per connection: voluntary %.2f nonvoluntary %.2f cpu %.0f us' % ((int(b[0])-int(a[0]))/N,(int(b[1])-int(a[1]))/N,(int(b[2])-int(a[2]))*10000/N))
"
tail -1 $d/flood
exec 9>&-
wait $spid; rm -rf $d
