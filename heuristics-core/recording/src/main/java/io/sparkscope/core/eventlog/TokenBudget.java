package io.sparkscope.core.eventlog;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.SerializableString;
import com.fasterxml.jackson.core.util.JsonParserDelegate;

import java.io.IOException;

/**
 * A parser that gives up after a number of tokens, for the events read into a tree: a line of millions of tiny
 * values ({@code [1,1,1,…]}) is small as bytes but huge as a tree, so its line-length cap alone does not bound
 * the memory it takes. Skipped values ({@code skipChildren}) cost nothing and are not counted.
 */
final class TokenBudget extends JsonParserDelegate {
    private final long limit;
    private final String event;
    private long tokens;

    TokenBudget(JsonParser p, long limit, String event) {
        super(p);
        this.limit = limit;
        this.event = event;
    }

    private void count() throws EventTooLargeException {
        if (++tokens > limit) {
            throw new EventTooLargeException(event + " holds more than " + limit
                    + " JSON values, the limit for an event read whole; skipped");
        }
    }

    @Override
    public JsonToken nextToken() throws IOException {
        count();
        return super.nextToken();
    }

    @Override
    public JsonToken nextValue() throws IOException {
        count();
        return super.nextValue();
    }

    @Override
    public String nextFieldName() throws IOException {
        count();
        return super.nextFieldName();
    }

    @Override
    public boolean nextFieldName(SerializableString str) throws IOException {
        count();
        return super.nextFieldName(str);
    }

    /** An event too big to decode within the reader's memory bounds; the message is one line. */
    static final class EventTooLargeException extends IOException {
        private static final long serialVersionUID = 1L;

        EventTooLargeException(String message) {
            super(message);
        }
    }
}
