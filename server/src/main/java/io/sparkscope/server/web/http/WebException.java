package io.sparkscope.server.web.http;

/** An expected error answered with a status and a one-line message (HTML page or JSON), never a stack trace. */
public class WebException extends RuntimeException {
    private final int status;
    private final String parameter;

    public WebException(int status, String parameter, String message) {
        super(message, null, false, false);
        this.status = status;
        this.parameter = parameter;
    }

    public static WebException badParam(String parameter, String message) {
        return new WebException(400, parameter, "bad parameter '" + parameter + "': " + message);
    }

    public static WebException notFound(String message) {
        return new WebException(404, null, message);
    }

    public int status() {
        return status;
    }

    /** The offending query parameter, or null. */
    public String parameter() {
        return parameter;
    }
}
