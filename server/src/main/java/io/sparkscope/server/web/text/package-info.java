/**
 * How numbers, times and sizes read on every page and in the API's sentences. It depends on nothing else in the
 * server, so the model, the SQL plan drawing and the page code can all use it without depending on each other.
 */
package io.sparkscope.server.web.text;
