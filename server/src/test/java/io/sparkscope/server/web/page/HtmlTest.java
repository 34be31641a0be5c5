package io.sparkscope.server.web.page;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class HtmlTest {
    @Test
    void textIsEscapedAndNonAsciiBecomesCharacterReferences() {
        String out = new Html().t("<b>\"Tom's\" & Jerry</b> — café 🚀 done").toString();
        assertEquals("&lt;b&gt;&quot;Tom&#39;s&quot; &amp; Jerry&lt;/b&gt; &#8212; caf&#233; &#128640; done", out);
    }

    @Test
    void plainTextIsAppendedUnchanged() {
        assertEquals("job-17 user3", new Html().t("job-17").raw(" ").a("user3").toString());
        assertEquals("", new Html().t(null).t("").toString());
    }

    @Test
    void markupKeepsTagsButEncodesNonAscii() {
        assertEquals("<a>&#8592; previous</a> &#183; <b>x</b>", new Html().raw("<a>← previous</a> · <b>x</b>").toString());
    }

    @Test
    void pagesArePureAscii() {
        String page = new Html().raw("<p>—</p>").t("ünïcødé ▲ 日本").raw("<i>→</i>").toString();
        assertTrue(page.chars().allMatch(c -> c < 0x80), page);
    }

    /** A converted fragment writes exactly what raw writes for the same literal, non-ASCII included. */
    @Test
    void markupConstantsWriteWhatRawWrites() {
        String literal = "<span class=\"banner\" title=\"";
        String nonAscii = " · next → — ";
        assertEquals(new Html().raw(literal).raw(nonAscii).t("<'&\">").toString(),
                new Html().raw(Html.markup(literal)).raw(Html.markup(nonAscii)).t("<'&\">").toString());
        assertEquals(" &#183; next &#8594; &#8212; ", new Html().raw(Html.markup(nonAscii)).toString());
    }

    /** The bytes sent are the page's UTF-8, also past the starting capacity, and can be read twice (mark/reset). */
    @Test
    void streamHoldsThePageAsUtf8() throws Exception {
        Html h = new Html(64);
        for (int i = 0; i < 500; i++) {
            h.raw(Html.markup("<p title=\"")).a("Tom's <b> & \"é\" 🚀").raw("\">").t(i).raw("</p>");
        }
        String page = h.toString();
        java.io.InputStream in = h.stream();
        assertTrue(in.markSupported());
        in.mark(Integer.MAX_VALUE);
        byte[] bytes = in.readAllBytes();
        assertEquals(h.length(), bytes.length);
        assertEquals(page, new String(bytes, java.nio.charset.StandardCharsets.UTF_8));
        assertTrue(page.startsWith("<p title=\"Tom&#39;s &lt;b&gt; &amp; &quot;&#233;&quot; &#128640;\">0</p>"), page);
        in.reset();
        assertEquals(bytes.length, in.readAllBytes().length);
    }

    @Test
    void jsonForScriptCannotCloseTheElementAndStaysValidJson() throws Exception {
        String json = new ObjectMapper().writeValueAsString(Map.of("name", "</script><script>alert(1)</script> — é\u2028"));
        String safe = Html.jsonForScript(json);
        assertTrue(safe.chars().allMatch(c -> c < 0x80 && c != '<' && c != '>' && c != '&'), safe);
        assertEquals("</script><script>alert(1)</script> — é\u2028",
                new ObjectMapper().readTree(safe).get("name").asText());
    }
}
