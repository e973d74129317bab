#!/usr/bin/env bash
# zklock load demo: three instances of the sample application share one inventory and one
# (embedded) ZooKeeper; a few thousand concurrent reservations show that @DistributedLock
# loses no update and oversells nothing.
#
#   ./demo.sh              locking on
#   ./demo.sh --no-lock    control run with zklock.enabled=false: updates get lost
#   ./demo.sh --help       all options
#
# Needs Java 17+ and Maven 3.8+. Builds the project first unless --skip-build is given.
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

for tool in java mvn; do
	if ! command -v "$tool" >/dev/null 2>&1; then
		echo "demo.sh: '$tool' is not on the PATH; the demo needs Java 17+ and Maven 3.8+" >&2
		exit 1
	fi
done

jar=sample-app/target/zklock-sample-app.jar
if [[ "$help" == true && -f "$jar" ]]; then
	build=false
fi
if [[ "$build" == true ]]; then
	echo "Building (mvn -B -q -DskipTests install)..."
	build_log=$(mktemp -t zklock-demo-build.XXXXXX)
	if ! mvn -B -q -DskipTests install >"$build_log" 2>&1; then
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
