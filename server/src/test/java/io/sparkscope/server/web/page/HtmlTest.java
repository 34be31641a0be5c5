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

    @Test
    void jsonForScriptCannotCloseTheElementAndStaysValidJson() throws Exception {
        String json = new ObjectMapper().writeValueAsString(Map.of("name", "</script><script>alert(1)</script> — é\u2028"));
        String safe = Html.jsonForScript(json);
        assertTrue(safe.chars().allMatch(c -> c < 0x80 && c != '<' && c != '>' && c != '&'), safe);
        assertEquals("</script><script>alert(1)</script> — é\u2028",
                new ObjectMapper().readTree(safe).get("name").asText());
    }
}
