# Sourced by the bench scripts that run Spark with `java -cp`: SPARK_JAVA holds what spark-submit adds on Java 17
# (the examples jar's manifest has the same for `java -jar`).
SPARK_JAVA=(-XX:+IgnoreUnrecognizedVMOptions -Djdk.reflect.useDirectMethodHandle=false
  -Dio.netty.tryReflectionSetAccessible=true)
for p in java.lang java.lang.invoke java.lang.reflect java.io java.net java.nio java.util java.util.concurrent \
         java.util.concurrent.atomic jdk.internal.ref sun.nio.ch sun.nio.cs sun.security.action sun.util.calendar; do
  SPARK_JAVA+=("--add-opens=java.base/$p=ALL-UNNAMED")
done
