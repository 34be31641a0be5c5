# shellcheck shell=bash
# Sourced by the corpus scripts: a Spark home for the apps that run on local-cluster[N,C,M], whose executors are
# JVMs of their own. Spark's launcher builds an executor's classpath from $SPARK_HOME/jars/* when $SPARK_HOME/RELEASE
# exists (a Spark distribution), and reads the Scala version from SPARK_SCALA_VERSION (or a source build's folders).
# So a folder with an empty RELEASE and jars/ linking every jar of the examples' runtime classpath is enough: no
# Spark download.
#   corpus_spark_home <dir> <examples jar>   exports SPARK_HOME=<dir> and SPARK_SCALA_VERSION
corpus_spark_home() {
  local home=$1 examples=$2 lib scala
  lib=$(dirname "$examples")/lib
  if [[ ! -d $lib ]]; then echo "spark-home: no $lib next to $examples (build the examples first)" >&2; return 2; fi
  rm -rf "$home" && mkdir -p "$home/jars" && : > "$home/RELEASE"
  ln -s "$lib"/*.jar "$examples" "$home/jars/"
  # the Scala binary version of the jars the examples run with, e.g. scala-library-2.13.16.jar -> 2.13
  scala=$(find "$lib" -maxdepth 1 -name 'scala-library-*.jar' -printf '%f\n' | sed -E 's/scala-library-([0-9]+\.[0-9]+).*/\1/' | head -1)
  if [[ -z $scala ]]; then echo "spark-home: no scala-library jar in $lib" >&2; return 2; fi
  export SPARK_HOME=$home SPARK_SCALA_VERSION=$scala
}
