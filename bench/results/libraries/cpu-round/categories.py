import sys, collections, gzip
def root(j,fr):
    if 'CompileBroker' in j or 'C2Compiler' in j or 'Compiler' in fr[0]: return 'jit'
    if 'G1' in j or 'GC' in fr[0]: return 'gc'
    if 'AbstractPollingIoProcessor$Processor.run' in j: return 'io'
    if 'AbstractPollingIoConnector' in j: return 'connector'
    if 'SchedulerCore$Worker' in j or 'ForkJoinWorkerThread' in j: return 'worker'
    return 'other'
cats=[
 ('I/O thread: select', lambda j,fr: 'io'==root(j,fr) and ('.select' in j and 'Processor.process' not in j)),
 ('I/O thread: read + chain', lambda j,fr: 'io'==root(j,fr) and 'Processor.process' in j),
 ('I/O thread: session add/remove', lambda j,fr: 'io'==root(j,fr) and ('removeSessions' in j or 'handleNewSessions' in j)),
 ('connector thread', lambda j,fr: root(j,fr)=='connector'),
 ('write (DirectWriter.tryWrite / socket write)', lambda j,fr: 'DirectWriter.tryWrite' in j or 'SocketOutputStream.implWrite' in j),
 ('connect (Awaits.connect / Socket.connect)', lambda j,fr: 'Awaits.connect' in j or 'java/net/Socket.connect' in j),
 ('javaflow capture/restore (leaf in javaflow)', lambda j,fr: fr[-1].startswith('org/apache/commons/javaflow')),
 ('Flow engine/scheduler leaf (dev/flow/internal)', lambda j,fr: fr[-1].startswith('dev/flow/internal')),
 ('OwnedSync/FlowMonitor', lambda j,fr: 'dev/flow/jdk/OwnedSync' in j or 'dev/flow/jdk/FlowMonitor' in j),
 ('timeouts (setSoTimeout / timed waits)', lambda j,fr: 'Timeout' in j and 'tryWrite' not in j),
 ('library own frames (leaf in redis/ or commons/net)', lambda j,fr: fr[-1].startswith('redis/clients') or fr[-1].startswith('org/apache/commons/net')),
 ('MinaTransport.of (session attribute)', lambda j,fr: 'dev/flow/mina/MinaTransport.of' in j),
]
for f in sys.argv[1:]:
    tot=collections.Counter(); c=collections.Counter()
    for l in (gzip.open if f.endswith('.gz') else open)(f,'rt'):
        s,_,n=l.rstrip().rpartition(' '); fr=s.split(';'); n=int(n)
        r=root(s,fr); tot[r]+=n
        if r in ('jit','gc'): continue
        for name,p in cats:
            if p(s,fr): c[name]+=n
    all_=sum(tot.values()); app=all_-tot['jit']-tot['gc']
    print('##',f,'all',all_,'jit %.0f%%'%(100*tot['jit']/all_),'app',app, 'worker %.0f%% io %.0f%% connector %.0f%% other %.0f%% (of app)'%tuple(100*tot[k]/app for k in ('worker','io','connector','other')))
    for name,_ in cats: print('   %-50s %5d %5.1f%%'%(name,c[name],100*c[name]/app))
