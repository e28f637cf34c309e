// The report is exactly the three sites, in stack-trace style, then their number.
def expected = [
    'fixture.Pinned.call(Pinned.java:15): a synchronized block holds a monitor',
    'fixture.Pinned.lambda$call$0(Pinned.java:18): it is called back through an uninstrumented frame (a JDK or out-of-scope caller)',
    'fixture.Pinned.call(Pinned.java:19): reflective calls cannot be captured',
    '3 pin sites',
]
def lines = evaluate(new File(basedir, '../../../src/it/build-log.groovy'))
assert lines == expected : "build.log:\n" + lines.join('\n')
return true
