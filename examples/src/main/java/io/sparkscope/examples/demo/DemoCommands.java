package io.sparkscope.examples.demo;

import java.nio.file.Path;
import java.util.List;

/**
 * The {@code sparkscope} command lines the demo prints for its running database, ready to paste: the JDBC URL alone
 * is not enough, as the CLI's default user is the login name ({@code root} in a container) while the demo's
 * PostgreSQL knows only {@link DemoDatabase#USER}.
 *
 * @param serverJar how to name the server jar in the command (relative to the working directory when under it)
 * @param url       the database's JDBC URL
 * @param user      the database user
 */
record DemoCommands(String serverJar, String url, String user) {

    /** The jar as the user would type it: {@code server/target/sparkscope.jar} from the repository's root. */
    static DemoCommands of(Path serverJar, String url, String user) {
        Path jar = serverJar == null ? Path.of("server", "target", "sparkscope.jar")
                : serverJar.toAbsolutePath().normalize();
        Path here = Path.of("").toAbsolutePath();
        String shown = jar.isAbsolute() && jar.startsWith(here) ? here.relativize(jar).toString() : jar.toString();
        return new DemoCommands(shown, url, user);
    }

    /** The arguments after {@code java -jar <jar>} of an import of {@code logs}. */
    List<String> importArgs(String logs) {
        return List.of("import", "--db", url, "--user", user, logs);
    }

    /** The arguments after {@code java -jar <jar>} of a second server on {@code port}. */
    List<String> serveArgs(int port) {
        return List.of("serve", "--db", url, "--user", user, "--port", Integer.toString(port));
    }

    String importLine(String logs) {
        return line(importArgs(logs));
    }

    String serveLine(int port) {
        return line(serveArgs(port));
    }

    private String line(List<String> args) {
        StringBuilder b = new StringBuilder("java -jar ").append(quote(serverJar));
        for (String a : args) {
            b.append(' ').append(quote(a));
        }
        return b.toString();
    }

    /** Single quotes around what a shell would split or expand; placeholders such as {@code <dir>} stay as written. */
    private static String quote(String s) {
        if (s.matches("[A-Za-z0-9_./:=@%+,-]+") || s.matches("<[a-z -]+>")) {
            return s;
        }
        return "'" + s.replace("'", "'\\''") + "'";
    }
}
