/**
 * The web UI and JSON API. {@link io.sparkscope.server.web.WebServer} sets up Javalin and holds the route table;
 * around every route are the {@link io.sparkscope.server.web.AdmissionFilter} (requests at once),
 * {@link io.sparkscope.server.web.SecurityHeaders} (CSP), {@link io.sparkscope.server.web.TokenAuth} (the access
 * token) and {@link io.sparkscope.server.web.ErrorResponses} (every failure as a status and one line). The rooms:
 * {@code http} reads parameters and builds the site's URLs, {@code model} reads the database and computes what is
 * shown, {@code page} renders HTML, {@code api} writes JSON, {@code sql} lays out and judges SQL plans for the SQL
 * views. Dependencies point one way: server → page, api → model → http, sql (and page → api, for the JSON a chart
 * embeds).
 */
package io.sparkscope.server.web;
