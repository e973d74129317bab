#!/usr/bin/env bash
# Runs zklock's benchmarks: every scenario (see README.md) against zklock, Curator and
# Spring Integration on a standalone ZooKeeper server process, an in-process one and a 3-member
# ensemble with an observer, (scenarios 9-13) against Redis (Redisson), etcd and Hazelcast, and
# (scenario 15) zklock's leadership against Curator's LeaderLatch and Spring Integration's LeaderInitiator.
#
#   benchmarks/run.sh                   full run (about 52 min on 2 busy cores, scenario 14 included, and about 15 min
#                                       more for scenario 15): rewrites the generated
#                                       block of benchmarks/RESULTS.md and benchmarks/results/*.png
#   benchmarks/run.sh --quick           CI: a few seconds per scenario, output under
#                                       benchmarks/target/quick-results; exits non-zero if a scenario crashes
#   benchmarks/run.sh --gate            CI: the regression gate (counts that do not depend on the
#                                       machine, against fixed bounds); exits 1 if one is out
#   benchmarks/run.sh --server=process  some servers only (process | embedded | ensemble | both | all,
#                                       or a list such as process,ensemble; default all)
#   benchmarks/run.sh --scenarios=1,3   some scenarios only (1-15)
#   BENCH_BASELINE=<zklock-core jar> benchmarks/run.sh --server=process --scenarios=9
#                                       another build of zklock beside this one in scenario 9 and the
#                                       gate (before/after in one interleaved run)
#
# Needs a JDK 17+ (the Maven wrapper fetches Maven); scenario 8 also a JDK 21+ (see below); the
# peers' servers, Debian's redis-server and etcd-server, which this script installs with apt-get
# when it runs as root on Debian (otherwise a peer whose package is missing is skipped, with one
# line naming the package). Builds the module and what it depends on first (set
# BENCH_SKIP_BUILD=1 to reuse the last build), then runs the harness with the module's runtime
# class path; JMH forks and the ZooKeeper, Hazelcast and pause-test JVMs inherit that class path.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"

say() { echo "benchmarks/run.sh: $*" >&2; }

# The peers' servers (scenarios 9-13; not the gate): installed as ./run-tests.sh installs its packages.
if [[ " $* " != *" --gate "* ]]; then
	missing=()
	command -v redis-server >/dev/null 2>&1 || missing+=(redis-server)
	command -v etcd >/dev/null 2>&1 || missing+=(etcd-server)
	if ((${#missing[@]} > 0)); then
		if [[ "$(id -u)" == "0" ]] && command -v apt-get >/dev/null 2>&1; then
			mkdir -p benchmarks/target
			apt_log=benchmarks/target/run-apt.log
			say "installing the peers' servers: ${missing[*]} (apt-get, log in $apt_log)"
			if ! { apt-get -o DPkg::Lock::Timeout=300 update -qq \
				&& DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=300 install -y -qq "${missing[@]}"; } \
				>"$apt_log" 2>&1; then
				say "apt-get could not install ${missing[*]} (see $apt_log); those peers are skipped"
			fi
		else
			for package in "${missing[@]}"; do
				say "the Debian package $package is not installed (as root this script installs it); its peer is skipped"
			done
		fi
	fi
fi

if [[ "${BENCH_SKIP_BUILD:-0}" != "1" || ! -f benchmarks/target/runtime-classpath.txt ]]; then
	echo "Building the benchmarks module (./mvnw -pl benchmarks -am package)..."
	./mvnw -B -q -pl benchmarks -am package -Dmaven.test.skip=true -Dmaven.javadoc.skip=true -Dmaven.source.skip=true
fi

# the library code measured: the commit, and whether the work tree changes the library
revision="${BENCH_REVISION:-$(git rev-parse --short HEAD 2>/dev/null || echo unknown)}"
if [[ -z "${BENCH_REVISION:-}" ]] && ! git diff --quiet HEAD -- lock-core lock-autoconfigure lock-starter 2>/dev/null; then
	revision="$revision + uncommitted library changes"
fi

# Scenario 8 (virtual threads) runs its probes on a Java 21+: BENCH_VTHREADS_JAVA if set, else the newest
# JDK 21+ among this java and /usr/lib/jvm/*/bin/java (Temurin 25 on this kind of machine); with none, the
# scenario is skipped and says so.
java_feature() {
	"$1" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java\.specification\.version = //p' | head -n 1
}
vthreads_java="${BENCH_VTHREADS_JAVA:-}"
if [[ -z "$vthreads_java" ]]; then
	best=0
	for candidate in "$(command -v java)" /usr/lib/jvm/*/bin/java; do
		[[ -x "$candidate" ]] || continue
		feature=$(java_feature "$candidate")
		if [[ "$feature" =~ ^[0-9]+$ ]] && (( feature >= 21 && feature > best )); then
			best=$feature
			vthreads_java=$candidate
		fi
	done
fi

classpath="benchmarks/target/classes:$(cat benchmarks/target/runtime-classpath.txt)"
# temporary files (in-process servers' configuration and data, memory probes) stay under target/
mkdir -p benchmarks/target/tmp
# jmh.ignoreLock: another JMH run on the machine must not fail this one (it only perturbs it)
exec java -Xms1g -Xmx1g -XX:+UseG1GC -Djava.awt.headless=true -Djmh.ignoreLock=true \
	-Djava.io.tmpdir="$root/benchmarks/target/tmp" -Dbench.vthreads.java="$vthreads_java" \
	-Dbench.module=benchmarks -Dbench.command="benchmarks/run.sh${*:+ $*}" -Dbench.revision="$revision" \
	-Dbench.baseline="${BENCH_BASELINE:-}" \
	-cp "$classpath" io.zklock.benchmarks.BenchmarkMain "$@"
