package io.sparkscope.server.web.page;

import io.sparkscope.server.web.model.Diagnosis;

/**
 * The application page's findings: root causes by estimated saving, each with what fixing it would save, its
 * message and advice (each setting with its current and recommended value), where it happened (stage ids linked to
 * the stage and its timeline), its errors grouped by normalised message and its numbers as a labelled table; the
 * findings it causes are collapsed under it. The markup is findings.jte and finding.jte (stage links: stageLinks.jte).
 */
final class FindingsView {
    private FindingsView() {
    }

    /** The element id of a finding's block (its id with anything but letters, digits, '-' and '_' as '-'). */
    static String anchor(String findingId) {
        return "finding-" + findingId.replaceAll("[^A-Za-z0-9_-]", "-");
    }

    static void render(Html h, Diagnosis d, String appId, String attemptId) {
        JtefindingsGenerated.render(new PageOutput(h), null, d, appId, attemptId);
    }

    /** "34.0" → {34, 0}; "34" → {34, 0}; null for anything else. */
    static int[] parse(String stageKey) {
        String[] p = stageKey.split("\\.", -1);
        try {
            int stage = Integer.parseInt(p[0]);
            int attempt = p.length > 1 ? Integer.parseInt(p[1]) : 0;
            return p.length <= 2 && stage >= 0 && attempt >= 0 ? new int[]{stage, attempt} : null;
        } catch (NumberFormatException e) {
            return null;
        }
    }
}
