#!/usr/bin/env bash
# Installs Debian's Maven, a JDK, and the Maven plugins and JUnit 4 that Debian packages into /usr/share/maven-repo
# (test/cli/maven.test.ts runs the checks on a Maven project with the real `mvn test`, offline, from that repository),
# unless they are there already.
REPO=/usr/share/maven-repo
exec bash "$(dirname "$0")/apt-tool.sh" maven \
  "javac -version && mvn -B --version && test -d $REPO/org/apache/maven/plugins/maven-surefire-plugin/2.22.3 && test -d $REPO/org/apache/maven/plugins/maven-compiler-plugin/3.10.1 && test -d $REPO/org/apache/maven/plugins/maven-resources-plugin/3.3.0 && test -d $REPO/junit/junit/4.13.2" \
  maven default-jdk-headless libsurefire-java libmaven-compiler-plugin-java libmaven-resources-plugin-java junit4
