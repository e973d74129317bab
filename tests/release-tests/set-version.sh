#!/usr/bin/env bash
# Sets zklock's version everywhere the repository writes it (docs/releasing.md):
#
#   tests/release-tests/set-version.sh NEW_VERSION [OUTPUT_TIMESTAMP]
#
# - every pom.xml: the version of zklock-dependencies and each module's <parent> version (the build's
#   parent is a module of it, which versions:set cannot handle: 'Project version is inherited from parent'),
#   the enforcer fixture under zklock-dependencies/src/it included;
# - the samples that name it: README.md, docs/*.md, the getting-started example's pom fragment and
#   the Gradle build scripts the documents show ('io.zklock:name:VERSION'; sample-app's
#   DocSamplesTests and GettingStartedDocTests hold them to the BOM's version);
# - project.build.outputTimestamp, to OUTPUT_TIMESTAMP or now (UTC, whole seconds).
#
# CHANGELOG.md, benchmarks/RESULTS.md and the API descriptions (*/api/*.api: the version each was last
# written for, which the build's major-version rule reads) are records of what was, and are left as they
# are. Any other file of the repository that still names the old version is listed at the end, for a
# person to look at.
set -euo pipefail
cd "$(dirname "$0")/../.."

new=${1:?usage: tests/release-tests/set-version.sh NEW_VERSION [OUTPUT_TIMESTAMP]}
timestamp=${2:-$(date -u +%Y-%m-%dT%H:%M:%SZ)}
if [[ ! "$new" =~ ^[0-9]+\.[0-9]+\.[0-9]+(-[A-Za-z0-9.]+)?$ ]]; then
	echo "set-version.sh: '$new' is not a version such as 1.0.0, 1.0.0-RC1 or 1.1.0-SNAPSHOT" >&2
	exit 2
fi

# The version of zklock-dependencies: the <version> line right after its <artifactId>
old=$(awk '/<artifactId>zklock-dependencies<\/artifactId>/ { getline; if (match($0, /<version>[^<]+<\/version>/)) { print substr($0, RSTART + 9, RLENGTH - 19); exit } }' \
	zklock-dependencies/pom.xml)
if [[ -z "$old" ]]; then
	echo "set-version.sh: cannot read the version of zklock-dependencies/pom.xml" >&2
	exit 1
fi
if [[ "$old" == "$new" ]]; then
	echo "set-version.sh: the version is $new already" >&2
	exit 0
fi
quoted=$(printf '%s' "$old" | sed 's/[.[\*^$/]/\\&/g')

mapfile -t poms < <(git ls-files '*pom.xml')
sed -i "s/<version>$quoted<\/version>/<version>$new<\/version>/g" "${poms[@]}"

mapfile -t samples < <(git ls-files README.md 'docs/*.md' 'sample-app/src/test/resources/*.xml' \
	'sample-app/src/test/resources/*.gradle' 'sample-app/src/test/resources/*.gradle.kts')
sed -i -e "s/<version>$quoted<\/version>/<version>$new<\/version>/g" \
	-e "s/<zklock.version>$quoted<\/zklock.version>/<zklock.version>$new<\/zklock.version>/g" \
	-e "s/\(io\.zklock:[A-Za-z0-9._-]*:\)$quoted\([\"']\)/\1$new\2/g" "${samples[@]}"

sed -i "s/<project.build.outputTimestamp>[^<]*</<project.build.outputTimestamp>$timestamp</" zklock-dependencies/pom.xml

echo "set-version.sh: $old -> $new (project.build.outputTimestamp $timestamp)"
left=$(git grep -l -F "$old" -- . ':!CHANGELOG.md' ':!benchmarks/RESULTS.md' ':!*/api/*.api' || true)
if [[ -n "$left" ]]; then
	echo "set-version.sh: these files still name $old; look at them:" >&2
	echo "$left" | sed 's/^/  /' >&2
fi
