// The build failed (invoker.properties); check that it failed for the banned versions, each named.
def log = new File(basedir, 'build.log').text
def expected = [
    'BannedDependencies',
    'org.apache.zookeeper:zookeeper:jar:3.9.3',
    'org.apache.zookeeper:zookeeper-jute:jar:3.9.3',
    'io.netty:netty-handler:jar:4.1.117.Final',
    'org.xerial.snappy:snappy-java:jar:1.1.10.3',
    'A dependency resolves to a version with a known security advisory',
]
def missing = expected.findAll { !log.contains(it) }
if (missing) {
    throw new AssertionError("The enforcer did not report ${missing} in ${basedir}/build.log")
}
return true
