// The build failed (invoker.properties); check that it failed for the banned versions, each named.
def log = new File(basedir, 'build.log').text
def expected = [
    'BannedDependencies',
    'org.apache.zookeeper:zookeeper:jar:3.9.3',
    'org.apache.zookeeper:zookeeper-jute:jar:3.9.3',
    'io.netty:netty-handler:jar:4.1.136.Final',
    'io.netty:netty-transport-native-epoll:jar:linux-x86_64:4.2.17.Final',
    'commons-io:commons-io:jar:2.13.0',
    'org.xerial.snappy:snappy-java:jar:1.1.10.3',
    'A dependency resolves to a version with a known security advisory',
]
def missing = expected.findAll { !log.contains(it) }
if (missing) {
    throw new AssertionError("The enforcer did not report ${missing} in ${basedir}/build.log")
}
return true
