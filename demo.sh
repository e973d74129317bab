#!/usr/bin/env bash
# zklock load demo: three instances of the sample application share one inventory and one
# (embedded) ZooKeeper; a few thousand concurrent reservations show that @DistributedLock
# loses no update and oversells nothing.
#
#   ./demo.sh                  locking on
#   ./demo.sh --no-lock        control run with zklock.enabled=false: updates get lost
#   ./demo.sh --keep-running   leave the instances up after the load to explore their live
#                              lock pages (the URLs are printed); Ctrl-C stops them
#   ./demo.sh --help           all options
#
# Needs a JDK 17+ and nothing else: the Maven wrapper (./mvnw) fetches Maven, and ZooKeeper runs
# inside the first instance. Builds the sample application first unless --skip-build is given.
set -euo pipefail

cd "$(dirname "$0")"

build=true
help=false
args=()
for arg in "$@"; do
	case "$arg" in
		--skip-build) build=false ;;
		--help) help=true; args+=("$arg") ;;
		*) args+=("$arg") ;;
	esac
done

if ! command -v java >/dev/null 2>&1; then
	echo "demo.sh: 'java' is not on the PATH; the demo needs a JDK 17 or newer" >&2
	exit 1
fi

jar=sample-app/target/zklock-sample-app.jar
if [[ "$help" == true && -f "$jar" ]]; then
	build=false
fi
if [[ "$build" == true ]]; then
	build_command=(./mvnw -B -q -DskipTests package -pl sample-app -am)
	echo "Building (${build_command[*]})..."
	mkdir -p target
	build_log=target/demo-build.log
	if ! "${build_command[@]}" >"$build_log" 2>&1; then
		cat "$build_log" >&2
		echo "demo.sh: the build failed; its output is above and in $build_log" >&2
		exit 1
	fi
	rm -f "$build_log"
elif [[ ! -f "$jar" ]]; then
	echo "demo.sh: $jar is missing; run without --skip-build" >&2
	exit 1
fi

exec java -Xmx256m -cp "$jar" -Dloader.main=io.zklock.sample.demo.InventoryDemo \
	org.springframework.boot.loader.launch.PropertiesLauncher --jar="$jar" ${args[@]+"${args[@]}"}
