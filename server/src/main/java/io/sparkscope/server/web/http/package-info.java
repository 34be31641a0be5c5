/**
 * The HTTP side shared by pages and API: query and path parameters read and checked ({@code Params},
 * {@code SearchParams}; every failure a 400 naming the parameter), expected errors as statuses
 * ({@code WebException}) and the site's own URLs, percent-encoded and never pointing to another host ({@code Urls}).
 */
package io.sparkscope.server.web.http;
