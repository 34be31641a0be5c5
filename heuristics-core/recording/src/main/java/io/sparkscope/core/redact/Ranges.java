package io.sparkscope.core.redact;

import java.util.Arrays;

/** The parts of a text to replace with {@link SecretShapes#REDACTED}, merged where they overlap or touch. */
final class Ranges {
    private int[] bounds = new int[8];
    private int size;

    void add(int start, int end) {
        if (end <= start) {
            return;
        }
        if (size + 2 > bounds.length) {
            bounds = Arrays.copyOf(bounds, bounds.length * 2);
        }
        bounds[size++] = start;
        bounds[size++] = end;
    }

    /** The ranges found in a decoded view, as the parts of the original text they came from. */
    void addFrom(Ranges inView, Decoded view) {
        for (int i = 0; i < inView.size; i += 2) {
            add(view.originalStart(inView.bounds[i]), view.originalEnd(inView.bounds[i + 1]));
        }
    }

    String apply(String text) {
        if (size == 0) {
            return text;
        }
        int pairs = size / 2;
        long[] sorted = new long[pairs];
        for (int i = 0; i < pairs; i++) {
            sorted[i] = ((long) bounds[2 * i] << 32) | bounds[2 * i + 1];
        }
        Arrays.sort(sorted);
        StringBuilder sb = new StringBuilder(text.length() + 16 * pairs);
        int last = 0;
        for (long r : sorted) {
            int s = (int) (r >>> 32);
            int e = (int) r;
            if (e <= last) {
                continue; // inside the previous range
            }
            s = Math.max(s, last);
            if (s > last || last == 0) {
                sb.append(text, last, s).append(SecretShapes.REDACTED);
            }
            last = e;
        }
        return sb.append(text, last, text.length()).toString();
    }
}
