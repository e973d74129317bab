#!/usr/bin/env bash
# zklock load demo: three instances of the sample application share one inventory and one
# (embedded) ZooKeeper; a few thousand concurrent reservations show that @DistributedLock
# loses no update and oversells nothing.
#
#   ./demo.sh                  locking on
#   ./demo.sh --no-lock        control run with zklock.enabled=false: updates get lost
#   ./demo.sh --keep-running   leave the instances up after the load to explore their live
#                              lock pages (the URLs are printed); Ctrl-C stops them
#   ./demo.sh --help           all options (printed at once, without a build)
#
# Needs a JDK 17+ and nothing else: the Maven wrapper (./mvnw) fetches Maven, and ZooKeeper runs
# inside the first instance. Builds the sample application first unless --skip-build is given.
set -euo pipefail

cd "$(dirname "$0")"

# printed at once, before any build; the same text as DemoOptions.USAGE (DemoOptionsTests compares them)
usage() {
	cat <<'USAGE'
Usage: ./demo.sh [--no-lock] [--requests=3000] [--skus=4] [--stock=400] [--concurrency=32]
                 [--seed=42] [--keep-running] [--keep-files] [--skip-build]
  --no-lock       run the instances with zklock.enabled=false (the control run)
  --requests=N    reservations to send, round-robin over three instances
  --skus=N        SKUs to spread them over
  --stock=N       starting stock of every SKU
  --concurrency=N reservations in flight at once
  --seed=N        seed of the random SKUs and quantities (1 to 3 units)
  --keep-running  leave the instances running after the load, to explore their live
                  lock pages (the URLs are printed); Ctrl-C stops them
  --keep-files    keep the instance logs and stock files of a successful run
  --skip-build    (demo.sh) do not run the Maven build first
USAGE
}

build=true
args=()
for arg in "$@"; do
	case "$arg" in
		--help | -h) usage; exit 0 ;;
		--skip-build) build=false ;;
		*) args+=("$arg") ;;
	esac
done

if ! command -v java >/dev/null 2>&1; then
	echo "demo.sh: 'java' is not on the PATH; the demo needs a JDK 17 or newer" >&2
	exit 1
fi

jar=sample-app/target/zklock-sample-app.jar
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
