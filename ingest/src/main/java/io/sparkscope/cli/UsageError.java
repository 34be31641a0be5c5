package io.sparkscope.cli;

/**
 * An expected, user-caused error (a bad option value, a file that cannot be read): the command prints its message as
 * one line and exits with status 2, without a stack trace. Each command line's handler catches this type, so the
 * shared options can fail the same way in every command.
 */
public class UsageError extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public UsageError(String message) {
        super(message, null, false, false);
    }
}
