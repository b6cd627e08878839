#!/usr/bin/env bash
# Workload matrix: Java (Debian's headless JDK) under the recommended
# policy.  The JVM writes /tmp by name (hsperfdata, java.io.tmpdir): on
# linux-ns the scratch /tmp serves; on landlock (no scratch) java.io.tmpdir
# goes to the workspace and -XX:-UsePerfData leaves out hsperfdata.
. "$HAS_SRCDIR/tests/lib.sh"
require_tool javac openjdk-17-jdk-headless
require_tool java openjdk-17-jdk-headless
. "$HAS_SRCDIR/tests/workloads/lib-workloads.sh"

entry() {
    local opts=''
    wl_workspace "java-$1"
    [ "$1" = landlock ] && opts="-J-Djava.io.tmpdir=$WS/.tmp -J-XX:-UsePerfData"
    printf 'public class Hello { public static void main(String[] a) throws Exception {\n  java.io.File t = java.io.File.createTempFile("wl-", ".tmp"); t.delete();\n  System.out.println("hello from java " + (1 + 2)); } }\n' >Hello.java
    wl_run "$1" "$(wl_policy "$1")" "javac $opts Hello.java && java ${opts//-J/} -cp . Hello"
    wl_expect_ok "$1: javac and java" && expect_out '^hello from java 3$' "$1: the class ran (and made a temp file)"
}
wl_matrix java entry
finish
