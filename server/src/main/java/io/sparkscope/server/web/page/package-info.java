/**
 * The HTML pages: {@code Pages} holds the handlers; each page's markup is a JTE template (server/src/main/jte,
 * compiled to Java classes of this package at build time) and its view class here decides what the template shows.
 * Templates write into {@code Html} through {@code PageOutput}, which escapes every {@code ${...}} value. Only the
 * SVG drawings ({@code PlanSvg}, {@code TimelineSvg}, {@code TimelineBars}) are written in code, with {@code Html}'s
 * escaping. No inline script or style (the CSP forbids them); charts are drawn by the local scripts in
 * {@code /web/static} from JSON the page embeds.
 */
package io.sparkscope.server.web.page;
