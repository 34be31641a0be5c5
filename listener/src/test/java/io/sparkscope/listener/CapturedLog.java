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
 * The lines one logger (and the loggers below it) writes at WARN and above, as the driver log would show them; a line
 * that carries an exception says so, since the driver log would show its stack trace. Closing detaches it.
 */
final class CapturedLog extends AbstractAppender implements AutoCloseable {
    final List<String> lines = new CopyOnWriteArrayList<>();
    private final Logger logger;

    private CapturedLog(String loggerName) {
        super("captured-" + loggerName, null, null, true, Property.EMPTY_ARRAY);
        this.logger = (Logger) LogManager.getLogger(loggerName);
    }

    static CapturedLog of(Class<?> type) {
        return of(type.getName());
    }

    static CapturedLog of(String loggerName) {
        CapturedLog c = new CapturedLog(loggerName);
        c.start();
        c.logger.addAppender(c);
        return c;
    }

    @Override
    public void append(LogEvent event) {
        if (event.getLevel().isMoreSpecificThan(Level.WARN)) {
            lines.add(event.getMessage().getFormattedMessage()
                    + (event.getThrown() == null ? "" : " [with a stack trace: " + event.getThrown() + "]"));
        }
    }

    @Override
    public void close() {
        logger.removeAppender(this);
    }
}
