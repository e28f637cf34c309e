// The lines the build printed: build.log up to this script's own output, without colour codes, blank lines or the
// JVM's own warnings ("WARNING: ...", such as JDK 24+'s about sun.misc.Unsafe used by Maven 3's Guava), which are
// not the build's.
def all = new File(basedir, 'build.log').readLines().collect { it.replaceAll('\u001B\\[[0-9;]*m', '') }
def end = all.findIndexOf { it.startsWith('Running post-build script') }
return (end < 0 ? all : all.subList(0, end)).findAll { !it.isBlank() && !it.startsWith('WARNING: ') }
