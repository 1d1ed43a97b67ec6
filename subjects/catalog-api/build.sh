#!/bin/sh
# Builds target/catalog-api.jar with a pinned Maven (fetched once from the artifact repository, cached beside benchline's tools) on JDK 25.
#
# Usage: subjects/catalog-api/build.sh [Maven arguments]   (default: package without tests, skipped when
#        nothing changed since the last package that finished; `build.sh test` runs the JUnit tests instead). JAVA_HOME must point to a JDK 25; benchline's
#        manifest derives it from its own java (ci/tools.js). The first run needs some Maven ($MVN, else
#        `mvn` on PATH) only to fetch the pinned distribution; every build after that uses the pinned one.
set -eu

MAVEN_VERSION=3.9.11
here=$(cd "$(dirname "$0")" && pwd)
tools=${BENCHLINE_TOOLS:-${XDG_CACHE_HOME:-$HOME/.cache}/benchline/tools}
maven_home="$tools/maven/apache-maven-$MAVEN_VERSION"

if [ -z "${JAVA_HOME:-}" ] || [ ! -x "$JAVA_HOME/bin/javac" ]; then
  echo "catalog-api build: JAVA_HOME (${JAVA_HOME:-unset}) is not a JDK; point it at a JDK 25, e.g. /usr/lib/jvm/temurin-25-jdk-amd64" >&2
  exit 2
fi

if [ ! -x "$maven_home/bin/mvn" ]; then
  fetcher=${MVN:-mvn}
  if ! command -v "$fetcher" >/dev/null 2>&1; then
    echo "catalog-api build: Maven $MAVEN_VERSION is not cached in $tools/maven and no mvn is on PATH to fetch it; install Maven (apt-get install maven) once" >&2
    exit 2
  fi
  mkdir -p "$tools/maven"
  staging=$(mktemp -d "$tools/maven/.fetch-XXXXXX")
  # Any Maven can unpack the pinned distribution, which is an ordinary artifact.
  "$fetcher" -q -B org.apache.maven.plugins:maven-dependency-plugin:3.8.1:unpack \
    -Dartifact="org.apache.maven:apache-maven:$MAVEN_VERSION:tar.gz:bin" -DoutputDirectory="$staging"
  # A rename publishes the unpacked tree at once, so a concurrent build never sees half of it.
  mv "$staging/apache-maven-$MAVEN_VERSION" "$maven_home" 2>/dev/null || test -x "$maven_home/bin/mvn"
  rm -rf "$staging"
fi

cd "$here"
if [ "$#" -eq 0 ]; then
  # Up to date: nothing in the sources or the POM is newer than the last package that finished, so repackaging would
  # change nothing. The jar's own date is no proof: a build stopped half-way leaves a new, empty or cut jar.
  if [ -f target/.benchline-built ] && [ -f target/catalog-api.jar ] && [ -z "$(find pom.xml .mvn src -newer target/.benchline-built -print -quit)" ]; then
    exit 0
  fi
  rm -f target/.benchline-built
  "$maven_home/bin/mvn" -q -B -DskipTests package
  touch target/.benchline-built
  exit 0
fi
exec "$maven_home/bin/mvn" -q -B "$@"
