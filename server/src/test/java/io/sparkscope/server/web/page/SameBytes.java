package io.sparkscope.server.web.page;

import static org.junit.jupiter.api.Assertions.fail;

/**
 * The template tests' byte comparison: on a difference it names where the pages part and shows both around that
 * place, since a whole page (tens of kB) in an assertion message hides the one character that differs.
 */
final class SameBytes {
    private SameBytes() {
    }

    static void assertSame(String code, String template, String what) {
        if (code.equals(template)) {
            return;
        }
        int i = 0;
        while (i < code.length() && i < template.length() && code.charAt(i) == template.charAt(i)) {
            i++;
        }
        int from = Math.max(0, i - 120);
        fail(what + ": the pages differ at char " + i + " (code " + code.length() + ", template " + template.length()
                + " chars)\ncode:     …" + code.substring(from, Math.min(code.length(), i + 120))
                + "\ntemplate: …" + template.substring(from, Math.min(template.length(), i + 120)));
    }
}
