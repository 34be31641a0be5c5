/**
 * The HTML pages: {@code Pages} holds the handlers, one view class per page renders through {@code Html}, the
 * builder that escapes every value it is given. No inline script or style (the CSP forbids them); charts are drawn
 * by the local scripts in {@code /web/static} from JSON the page embeds.
 */
package io.sparkscope.server.web.page;
