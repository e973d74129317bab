#!/usr/bin/env bash
# zklock's test command: every test of every module, against real ZooKeeper servers that the
# tests start themselves (in-process and as child processes, on loopback).
#
#   ./run-tests.sh                       the full tier: all tests (./mvnw -B verify); CI runs it
#   ./run-tests.sh --quick               the quick tier (./mvnw -B test -Pquick): the unit tests and
#                                        the fast in-process tests of every module, under two minutes
#                                        on 2 cores from a built tree; no child process, no Debian
#                                        package, no browser, and it installs nothing
#   ./run-tests.sh -pl lock-core -am     any further arguments go to Maven (--quick -o: offline)
#
# A test class tagged @Tag("slow") runs in the full tier only (CONTRIBUTING.md says which tier a
# test belongs to); so do the modules that set skipTests in a 'quick' profile of their own.
#
# Needs a JDK 17+; the Maven wrapper fetches Maven. Two test classes need Debian packages, and none
# of them is ever skipped:
#   chromium, chromium-driver  the browser test of the sample app's live page (found on the PATH)
#   zookeeper                  the fault tests against Debian's ZooKeeper 3.8 server (found by dpkg)
# Missing ones are installed with apt-get when this script runs as root on Debian; otherwise it
# stops at once with one line naming them.
set -euo pipefail
cd "$(dirname "$0")"

say() { echo "run-tests.sh: $*" >&2; }

quick=false
if [[ "${1:-}" == "--quick" ]]; then
	quick=true
	shift
fi

if ! command -v java >/dev/null 2>&1; then
	say "no 'java' on the PATH: install a JDK 17 or newer (Debian: apt-get install -y openjdk-17-jdk-headless)"
	exit 1
fi

# whether one of the programs is an executable file in a folder of the PATH, as the tests look
# for them (bash's 'command -v' also reports files that are not executable)
on_path() {
	local name folder
	for name in "$@"; do
		local IFS=:
		for folder in $PATH; do
			[[ -n "$folder" && -f "$folder/$name" && -x "$folder/$name" ]] && return 0
		done
	done
	return 1
}

# Debian's ZooKeeper: the server package, and the jar that the tests look up with dpkg-query
zookeeper_installed() {
	command -v dpkg-query >/dev/null 2>&1 || return 1
	local jar
	jar=$(dpkg-query --listfiles zookeeper libzookeeper-java 2>/dev/null | grep -E '/java/zookeeper\.jar$' | head -n 1) \
		|| return 1
	[[ -n "$jar" && -f "$jar" ]]
}

missing_packages() {
	local missing=()
	on_path chromium chromium-browser google-chrome || missing+=(chromium)
	on_path chromedriver || missing+=(chromium-driver)
	zookeeper_installed || missing+=(zookeeper)
	echo "${missing[*]}"
}

if [[ "$quick" == "true" ]]; then
	exec ./mvnw -B test -Pquick "$@"
fi

missing=$(missing_packages)
if [[ -n "$missing" ]]; then
	if [[ "$(id -u)" != "0" ]] || ! command -v apt-get >/dev/null 2>&1; then
		say "missing Debian packages: $missing; install them with 'sudo apt-get update && sudo apt-get install -y $missing' (as root on Debian this script installs them itself), then run it again"
		exit 1
	fi
	mkdir -p target
	apt_log=target/run-tests-apt.log
	say "installing the missing Debian packages: $missing (apt-get, log in $apt_log)"
	# shellcheck disable=SC2086 # one word per package
	if ! { apt-get -o DPkg::Lock::Timeout=300 update -qq \
		&& DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=300 install -y -qq $missing; } \
		>"$apt_log" 2>&1; then
		say "apt-get could not install $missing (last lines of $apt_log below); install them with 'apt-get update && apt-get install -y $missing', then run it again"
		tail -n 15 "$apt_log" >&2
		exit 1
	fi
	still=$(missing_packages)
	if [[ -n "$still" ]]; then
		say "apt-get ran, but these are still missing: $still (see $apt_log); install them with 'apt-get install -y $still', then run it again"
		exit 1
	fi
fi

exec ./mvnw -B verify "$@"
