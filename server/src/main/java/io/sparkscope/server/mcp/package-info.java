/**
 * The MCP server (Model Context Protocol): Sparkscope's diagnoses as read-only tools and prompts for AI agents, over
 * stdio ({@code sparkscope mcp}) or streamable HTTP ({@code serve --mcp}, at {@code /mcp}). The tools parse their
 * arguments with the web's parameter checks and answer the JSON API's shapes cut to a model's context
 * ({@link io.sparkscope.server.web.api.AgentJson}).
 */
package io.sparkscope.server.mcp;
