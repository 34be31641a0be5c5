package io.sparkscope.server.web.page;

import gg.jte.Content;
import gg.jte.html.HtmlTemplateOutput;

import java.util.function.Consumer;

/**
 * Where the page templates (src/main/jte, compiled to Java at build time) write: into the page's {@link Html}
 * builder, so a template's page has the same bytes a view written in code has. Template text goes through
 * {@link Html#template}; every {@code ${...}} value is user content and goes through {@link Html#t}, escaped as text
 * and attribute value alike (it escapes both quote characters, so one rule serves both places).
 */
final class PageOutput implements HtmlTemplateOutput {
    private final Html html;

    PageOutput(Html html) {
        this.html = html;
    }

    /** The builder written to. */
    Html html() {
        return html;
    }

    /**
     * Markup that code writes with an {@link Html} (which escapes what it is given), for a template to insert with
     * {@code ${...}}: used where a helper of a view written in code is shared with a template.
     */
    static Content markup(Consumer<Html> writer) {
        return out -> {
            if (out instanceof PageOutput page) {
                writer.accept(page.html);
            } else {
                Html h = new Html(256);
                writer.accept(h);
                out.writeContent(h.toString());
            }
        };
    }

    /**
     * Opens a frame template (one that takes the page's content as a {@link Content}) for a page written in code:
     * {@code frame} renders the template into {@code h} with the content it is given; what the template writes after
     * the content is cut off and returned, for the page to write once its content is written.
     */
    static String open(Html h, Consumer<Content> frame) {
        int[] at = {-1};
        frame.accept(out -> at[0] = ((PageOutput) out).html.length());
        if (at[0] < 0) {
            throw new IllegalStateException("the frame template did not write its content");
        }
        return h.cut(at[0]);
    }

    @Override
    public void writeContent(String value) {
        html.template(value);
    }

    @Override
    public void writeContent(String value, int beginIndex, int endIndex) {
        html.template(value.substring(beginIndex, endIndex));
    }

    @Override
    public void writeUserContent(String value) {
        html.t(value);
    }

    @Override
    public void writeUserContent(int value) {
        html.t(value);
    }

    @Override
    public void writeUserContent(long value) {
        html.t(value);
    }

    @Override
    public void writeUserContent(char value) {
        html.t(value);
    }

    @Override
    public void writeUserContent(Content content) {
        if (content != null) {
            content.writeTo(this);
        }
    }

    /**
     * The tag and attribute the next value goes into: not needed, since {@link Html#t} escapes a value safely for
     * both (templates put values only in text and double-quoted attributes; the build-time HTML policy refuses
     * others).
     */
    @Override
    public void setContext(String tagName, String attributeName) {
    }

    /** Unused: the build does not ask for pre-encoded template text ({@code binaryStaticContent} off). */
    @Override
    public void writeBinaryContent(byte[] value) {
        throw new UnsupportedOperationException("templates are generated without binary static content");
    }

    /** {@code $unsafe{...}} is not used by the templates; refusing it keeps a future one from writing unescaped data. */
    @Override
    public void writeUnsafeContent(String value) {
        throw new UnsupportedOperationException("templates do not write unescaped values: pass a gg.jte.Content");
    }
}
