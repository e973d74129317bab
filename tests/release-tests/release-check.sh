#!/usr/bin/env bash
# The release, rehearsed end to end (CI runs it from .ci/run; docs/releasing.md explains it):
#
#   1. a throwaway signing key, made on the spot in a temporary GNUPGHOME;
#   2. two clean clones of this repository's HEAD (uncommitted changes are not in them); if the version is a
#      SNAPSHOT, both are set to the release it leads to (set-version.sh), since Central takes releases only;
#   3. in each clone, the release command of docs/releasing.md, signed with the throwaway key, tests skipped
#      (the CI run tested this commit already); each build's local repository is a temporary one that reads
#      what it lacks from ~/.m2 (maven.repo.local.tail) and from Maven Central;
#   4. artifact:check-buildplan (no plugin known not to build reproducibly);
#   5. BundleChecker on the first clone's bundle, verifying every signature with gpg and holding the bundle to
#      the published set below;
#   6. the published files of the two builds (target/central-staging: jars, sources, javadoc, POMs, SBOMs and
#      their checksums) compared byte for byte; only the .asc signatures differ by nature (each carries its
#      time of signing) and are left out. Any difference fails, naming the file.
#
# The enforcer's advisory rule (zklock-dependencies/pom.xml) runs in both release builds, over every module.
# Needs git, gpg (Debian's gnupg), a JDK 17+ and about 1 GB in the temporary directory, which is removed at the
# end (ZKLOCK_RELEASE_CHECK_KEEP=1 keeps it, with both clones, their build logs and bundles).
set -euo pipefail
cd "$(dirname "$0")/../.."
repo=$(pwd)

# What Maven Central gets: every other module of the build is in excludeArtifacts (zklock-dependencies/pom.xml)
published=zklock-dependencies,zklock-parent,zklock-core,zklock-spring-boot,zklock-spring-boot-starter
published+=,zklock-spring-boot-starter-embedded,zklock-spring-boot-test,zklock-test-history,zklock-spring-integration

say() { echo "release-check.sh: $*" >&2; }
step_start=$SECONDS
step() {
	say "$1 ($((SECONDS - step_start)) s)"
	step_start=$SECONDS
}

if ! command -v gpg >/dev/null 2>&1 && [[ "$(id -u)" == "0" ]] && command -v apt-get >/dev/null 2>&1; then
	say "installing Debian's gnupg for the throwaway signing key (apt-get)"
	{ apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q gnupg; } >/dev/null 2>&1 \
		|| { say "could not install gnupg: run 'sudo apt-get install -y gnupg', then run this script again"; exit 1; }
fi
for tool in git gpg java; do
	command -v "$tool" >/dev/null 2>&1 || { say "'$tool' is not on the PATH"; exit 1; }
done

work=$(mktemp -d "${TMPDIR:-/tmp}/zklock-release.XXXXXX")
export GNUPGHOME="$work/gnupg"
cleanup() {
	# the gpg-agent that signing started for this GNUPGHOME, and nothing else
	gpgconf --kill gpg-agent >/dev/null 2>&1 || true
	if [[ -n "${ZKLOCK_RELEASE_CHECK_KEEP:-}" ]]; then
		say "kept $work (the clones, their logs and bundles)"
	else
		rm -rf "$work"
	fi
}
trap cleanup EXIT

# 1. The throwaway key: no passphrase, one day
mkdir -m 700 "$GNUPGHOME"
gpg --batch --quiet --passphrase '' --quick-gen-key 'zklock release check (throwaway) <release-check@zklock.invalid>' \
	ed25519 sign 1d
key=$(gpg --batch --list-secret-keys --with-colons | awk -F: '/^fpr:/ { print $10; exit }')
step "throwaway key $key in $GNUPGHOME"

# 2. Two clean clones
for clone in one two; do
	git clone --quiet --no-hardlinks "$repo" "$work/$clone"
done
commit=$(git -C "$work/one" rev-parse --short HEAD)
version=$(awk '/<artifactId>zklock-dependencies<\/artifactId>/ { getline; if (match($0, /<version>[^<]+<\/version>/)) { print substr($0, RSTART + 9, RLENGTH - 19); exit } }' \
	"$work/one/zklock-dependencies/pom.xml")
if [[ "$version" == *-SNAPSHOT ]]; then
	release=${version%-SNAPSHOT}
	for clone in one two; do
		(cd "$work/$clone" && tests/release-tests/set-version.sh "$release" \
			"$(git log -1 --format=%cd --date=format-local:%Y-%m-%dT%H:%M:%SZ)" >/dev/null 2>&1)
	done
	say "version $version is a SNAPSHOT: rehearsing the release $release in the clones"
	version=$release
fi
step "cloned $commit twice, version $version"

# 3. The release command of docs/releasing.md in each clone
release_build() {
	(cd "$work/$1" && ./mvnw -B -ntp -Prelease deploy -DskipTests -Dgpg.keyname="$key" \
		-Dmaven.repo.local="$work/m2" -Dmaven.repo.local.tail="$HOME/.m2/repository") >"$work/$1.log" 2>&1 || {
		tail -n 60 "$work/$1.log" >&2
		say "the release build in clone $1 failed (its log's end is above)"
		exit 1
	}
	grep -h "Total time:" "$work/$1.log" | sed "s/^\[INFO\] */release-check.sh: clone $1: Maven's /" >&2
}
release_build one
step "release build 1 of 2"
release_build two
step "release build 2 of 2"

# 4. No plugin known not to build reproducibly
(cd "$work/one" && ./mvnw -B -q -ntp -Prelease artifact:check-buildplan \
	-Dmaven.repo.local="$work/m2" -Dmaven.repo.local.tail="$HOME/.m2/repository") || {
	say "artifact:check-buildplan names plugins that do not build reproducibly (above)"
	exit 1
}
step "artifact:check-buildplan"

# 5. The bundle, as Central would see it
bundle="$work/one/target/central-publishing/central-bundle.zip"
java tests/release-tests/src/main/java/io/zklock/release/BundleChecker.java --verify-signatures \
	--published="$published" "$bundle"
step "BundleChecker"

# 6. Byte for byte: every published file but the signatures
compare() {
	local one="$work/one/target/central-staging" two="$work/two/target/central-staging" file differ=0 compared=0
	while IFS= read -r file; do
		compared=$((compared + 1))
		if [[ ! -f "$two/$file" ]]; then
			say "NOT REPRODUCIBLE: $file is in the first build only"
			differ=1
		elif ! cmp -s "$one/$file" "$two/$file"; then
			say "NOT REPRODUCIBLE: $file differs between the two builds"
			differ=1
		fi
	done < <(cd "$one" && find . -type f ! -name '*.asc' | sed 's|^\./||' | sort)
	while IFS= read -r file; do
		[[ -f "$one/$file" ]] || { say "NOT REPRODUCIBLE: $file is in the second build only"; differ=1; }
	done < <(cd "$two" && find . -type f ! -name '*.asc' | sed 's|^\./||' | sort)
	((compared > 0)) || { say "nothing to compare in $one"; return 1; }
	((differ == 0)) || return 1
	say "reproducible: $compared published files identical in both builds (signatures aside)"
}
compare
step "compared the two builds"
say "passed: commit $commit, version $version"
