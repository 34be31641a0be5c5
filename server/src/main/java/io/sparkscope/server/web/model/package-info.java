/**
 * What the routes show, before it is HTML or JSON: {@code WebData} reads it (one method per thing shown, a 404 for
 * what is not stored), and the rest computes from it — runs compared, a name's history, a run-time prediction, the
 * executor what-if, a stage's timeline layout — with the sentences both the page and the API give.
 */
package io.sparkscope.server.web.model;
