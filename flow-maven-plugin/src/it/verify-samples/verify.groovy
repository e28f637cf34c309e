// Each sample's report: no pin site.
def lines = evaluate(new File(basedir, '../../../src/it/build-log.groovy'))
assert lines == ['0 pin sites', '0 pin sites'] : "build.log:\n" + lines.join('\n')
return true
