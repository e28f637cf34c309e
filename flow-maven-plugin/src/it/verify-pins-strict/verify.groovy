// Strict: the same report, then the build fails on it.
def lines = evaluate(new File(basedir, '../../../src/it/build-log.groovy'))
def log = lines.join('\n')
['fixture.Pinned.call(Pinned.java:15): a synchronized block holds a monitor',
 'fixture.Pinned.lambda$call$0(Pinned.java:18): it is called back through an uninstrumented frame (a JDK or out-of-scope caller)',
 'fixture.Pinned.call(Pinned.java:19): reflective calls cannot be captured',
 '3 pin sites'].each { assert lines.contains(it) : "missing: " + it + "\nbuild.log:\n" + log }
assert log.contains('3 pin sites (expected: none with <strict>true</strict>)') : "build.log:\n" + log
assert log.contains('BUILD FAILURE') || log.contains('[ERROR] Failed to execute goal') : "build.log:\n" + log
return true
