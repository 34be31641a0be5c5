/**
 * The JSON API under {@code /api/v1}: {@code Api} holds the handlers, the answers are records Jackson writes
 * ({@code ApiJson}, {@code FindingJson}, {@code StageJson}, {@code TimelineJson}).
 */
package io.sparkscope.server.web.api;
