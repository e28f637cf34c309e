#!/usr/bin/env python3
"""Start-up cost of each route: time from starting the HTTP sample's JVM to its first 200 response.

Each run starts one JVM (continuation mode unless said), waits for "listening on 127.0.0.1:P", then sends
GET / until a 200 comes back, and stops the JVM with SIGTERM. Routes run interleaved (round-robin, the
order rotated each round); the medians, minima and maxima per route are printed as a Markdown table.

  mvn -B -q -pl samples/routes -am verify -DskipTests -DskipITs        # builds the jars (about 2 min)
  python3 bench/startup-routes.py [--rounds 7] [--java java]

Routes (jars from samples/*/target, flow-agent/target):
  sync        baseline: sync mode, nothing instrumented (http-server-runtime.jar)
  loader      ContinuationClassLoader (the sample's own runnable jar, http-server.jar)
  agent       -javaagent:flow-agent.jar=include=... -cp http-server-runtime.jar (the default class cache)
  agent-off   the same with ;cache=off: the scope analysed and every class instrumented in every JVM
  agent-cold  the same with ;cache=<a new empty directory each run>: analysed, instrumented, entries written
  agent-warm  the same with ;cache=<a directory one unmeasured run filled>: classes defined from the cache
  agent-jar   java -jar http-server-all.jar (Launcher-Agent-Class)
  build-time  classes instrumented ahead of time (SampleBuildTime, the instrument goal's code), then
              -cp <classes>:http-server-runtime.jar: no agent, no loader, no ASM
Every JVM gets XDG_CACHE_HOME=<work>/xdg, so the default class cache (loader, agent) is under --work,
never the user's. Bounded: every wait has a deadline (60 s per start); every JVM started is stopped.
"""
import argparse
import itertools
import os
import statistics
import subprocess
import sys
import time
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
VERSION = "0.1.0-SNAPSHOT"
PACKAGES = ["dev.flow.samples.http.protocol", "dev.flow.samples.wire"]
MAIN = "dev.flow.samples.http.HttpServer"


def path(*p):
    f = os.path.join(ROOT, *p)
    if not os.path.exists(f):
        sys.exit(f"missing {f} (expected: built by mvn -pl samples/routes -am verify -DskipTests -DskipITs)")
    return f


def prepare(java, work):
    """Instruments the sample's packages into work/classes as the plugin's instrument goal does."""
    classes = os.path.join(work, "classes")
    cp = os.pathsep.join([path("samples", "routes", "target", "test-classes"),
                          path("flow-maven-plugin", "target", "classes"),
                          path("samples", "http-server", "target", "http-server.jar")])
    out = subprocess.run([java, "-cp", cp, "dev.flow.maven.SampleBuildTime", classes] + PACKAGES,
                         capture_output=True, text=True, timeout=120)
    if out.returncode != 0 or "0 pin sites" not in out.stdout:
        sys.exit("instrumenting failed:\n" + out.stdout + out.stderr)
    return classes


COLD = itertools.count()


def commands(java, classes, work):
    runtime = path("samples", "routes", "target", "http-server-runtime.jar")
    agent = path("flow-agent", "target", f"flow-agent-{VERSION}.jar")
    heap = "-Xmx128m"
    args = ["--port", "0"]
    cont = args + ["--mode", "continuation", "--workers", "2"]
    agent_arg = f"-javaagent:{agent}=include={','.join(PACKAGES)}"
    warm = os.path.join(work, "cache-warm")
    return {
        "sync": [java, heap, "-cp", runtime, MAIN] + args + ["--mode", "sync"],
        "loader": [java, heap, "-cp", path("samples", "http-server", "target", "http-server.jar"), MAIN] + cont,
        "agent": [java, heap, agent_arg, "-cp", runtime, MAIN] + cont,
        "agent-off": [java, heap, agent_arg + ";cache=off", "-cp", runtime, MAIN] + cont,
        "agent-cold": lambda: [java, heap, agent_arg + ";cache=" + os.path.join(work, "cache-cold", str(next(COLD))), "-cp",
                               runtime, MAIN] + cont,
        "agent-warm": [java, heap, agent_arg + ";cache=" + warm, "-cp", runtime, MAIN] + cont,
        "agent-jar": [java, heap, "-jar", path("samples", "routes", "target", "http-server-all.jar")] + cont,
        "build-time": [java, heap, "-cp", classes + os.pathsep + runtime, MAIN] + cont,
    }


ENV = dict(os.environ)


def once(cmd):
    """Seconds from start to 'listening' and to the first 200 (cmd: a list, or a function that makes one)."""
    if callable(cmd):
        cmd = cmd()
    t0 = time.monotonic()
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=ENV)
    try:
        port = None
        seen = []
        deadline = t0 + 60
        while port is None:
            line = p.stdout.readline()
            if not line:
                raise RuntimeError("exited before listening:\n" + "".join(seen))
            seen.append(line)
            if line.startswith("listening on 127.0.0.1:"):
                port = int(line.strip().rsplit(":", 1)[1])
            if time.monotonic() > deadline:
                raise RuntimeError("not listening within 60 s")
        listening = time.monotonic() - t0
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=10) as r:
                    if r.status == 200 and r.read() == b"Hello from Flow\n":
                        break
            except OSError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.001)
        return listening, time.monotonic() - t0
    finally:
        p.terminate()
        try:
            p.wait(timeout=30)
        except subprocess.TimeoutExpired:
            p.kill()
            p.wait()


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--java", default="java")
    ap.add_argument("--work", default=os.path.join(ROOT, "bench", "target", "startup-routes"))
    ap.add_argument("--routes", default="sync,loader,agent,agent-jar,build-time")
    a = ap.parse_args()
    if a.rounds < 1:
        sys.exit(f"--rounds: {a.rounds} (expected: > 0)")
    os.makedirs(a.work, exist_ok=True)
    ENV["XDG_CACHE_HOME"] = os.path.join(a.work, "xdg")
    cmds = commands(a.java, prepare(a.java, a.work), a.work)
    names = a.routes.split(",")
    for n in names:
        if n not in cmds:
            sys.exit(f"--routes: {n} (expected: some of {','.join(cmds)})")
    results = {n: [] for n in names}
    for n in names:  # one warm-up run each (page cache; agent-warm's cache), not counted
        once(cmds[n])
    for r in range(a.rounds):
        order = names[r % len(names):] + names[:r % len(names)]
        for n in order:
            results[n].append(once(cmds[n]))
    load = os.getloadavg()
    print(f"rounds={a.rounds} java={a.java} load average at the end: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")
    print()
    ref = "sync" if "sync" in names else names[0]
    print(f"| route | to 'listening', median ms | to first 200, median ms (min-max) | first 200 vs {ref} |")
    print("|---|---|---|---|")
    base = statistics.median(x[1] for x in results[ref])
    for n in names:
        lst = statistics.median(x[0] for x in results[n]) * 1000
        first = [x[1] * 1000 for x in results[n]]
        med = statistics.median(first)
        print(f"| {n} | {lst:.0f} | {med:.0f} ({min(first):.0f}-{max(first):.0f}) | {med / (base * 1000):.2f}x |")


if __name__ == "__main__":
    main()
