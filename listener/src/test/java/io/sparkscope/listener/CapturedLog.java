package io.sparkscope.listener;

import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.core.LogEvent;
import org.apache.logging.log4j.core.Logger;
import org.apache.logging.log4j.core.appender.AbstractAppender;
import org.apache.logging.log4j.core.config.Property;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The lines one logger (and the loggers below it) writes at WARN and above (or INFO, see {@link #atInfo}), as the
 * driver log would show them; a line
 * that carries an exception says so, since the driver log would show its stack trace. Closing detaches it.
 */
final class CapturedLog extends AbstractAppender implements AutoCloseable {
    final List<String> lines = new CopyOnWriteArrayList<>();
    private final Logger logger;
    private final Level least;

    private CapturedLog(String loggerName, Level least) {
        super("captured-" + loggerName, null, null, true, Property.EMPTY_ARRAY);
        this.logger = (Logger) LogManager.getLogger(loggerName);
        this.least = least;
    }

    /** Also the INFO lines, such as the driver-log report. */
    static CapturedLog atInfo(Class<?> type) {
        return start(new CapturedLog(type.getName(), Level.INFO));
    }

    static CapturedLog of(Class<?> type) {
        return of(type.getName());
    }

    static CapturedLog of(String loggerName) {
        return start(new CapturedLog(loggerName, Level.WARN));
    }

    private static CapturedLog start(CapturedLog c) {
        c.start();
        c.logger.addAppender(c);
        return c;
    }

    @Override
    public void append(LogEvent event) {
        if (event.getLevel().isMoreSpecificThan(least)) {
            lines.add(event.getMessage().getFormattedMessage()
                    + (event.getThrown() == null ? "" : " [with a stack trace: " + event.getThrown() + "]"));
        }
    }

    @Override
    public void close() {
        logger.removeAppender(this);
    }
}
