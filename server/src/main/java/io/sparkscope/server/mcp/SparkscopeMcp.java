package io.sparkscope.server.mcp;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.jackson2.JacksonMcpJsonMapper;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpServerFeatures;
import io.modelcontextprotocol.server.McpSyncServer;
import io.modelcontextprotocol.server.transport.HttpServletStreamableServerTransportProvider;
import io.modelcontextprotocol.server.transport.StdioServerTransportProvider;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema;
import io.sparkscope.core.analysis.efficiency.Prices;
import io.sparkscope.server.web.api.AgentJson;
import io.sparkscope.server.web.http.WebException;
import io.sparkscope.server.web.model.SqlData;
import io.sparkscope.server.web.model.WebData;
import jakarta.servlet.http.HttpServlet;

import javax.sql.DataSource;
import java.io.InputStream;
import java.io.OutputStream;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * Sparkscope as an MCP server: the {@link SparkscopeTools} and the {@link SparkscopePrompts}, on stdio or on the
 * streamable HTTP servlet. A tool's expected failure (a bad or unknown argument, an application not stored) is a tool
 * error whose one line names the argument, never a stack trace.
 */
public final class SparkscopeMcp {
    /** The address the HTTP transport answers at, on the web server. */
    public static final String PATH = "/mcp";
    static final String VERSION = "0.1.0";
    private static final String INSTRUCTIONS = "Sparkscope diagnoses Spark applications from a database of recorded"
            + " runs: ranked root causes with the time each fix saves, settings advice, run history and comparisons."
            + " Start with search_applications or get_application; lists are paged (limit, cursor).";

    private final SparkscopeTools tools;
    private final SparkscopePrompts prompts;
    private final McpJsonMapper json = new JacksonMcpJsonMapper(new ObjectMapper());

    /** @param clock now in epoch ms ("running" and the search's "since" are judged against it) */
    public SparkscopeMcp(DataSource dataSource, Prices prices, LongSupplier clock) {
        this(new WebData(dataSource, clock), new SqlData(dataSource, 0), prices);
    }

    public SparkscopeMcp(WebData data, SqlData sql, Prices prices) {
        this.tools = new SparkscopeTools(data, sql, prices);
        this.prompts = new SparkscopePrompts(data, tools);
    }

    /** Serves one client on these streams (a process's stdin and stdout) until closed. */
    public McpSyncServer stdio(InputStream in, OutputStream out) {
        return features(McpServer.sync(new StdioServerTransportProvider(json, in, out))).build();
    }

    /** The servlet of the streamable HTTP transport, to mount at {@link #PATH}, and its server (to close). */
    public record Http(HttpServlet servlet, McpSyncServer server) {
    }

    public Http http() {
        HttpServletStreamableServerTransportProvider transport = HttpServletStreamableServerTransportProvider.builder()
                .jsonMapper(json).mcpEndpoint(PATH).build();
        return new Http(transport, features(McpServer.sync(transport)).build());
    }

    private <S extends McpServer.SyncSpecification<S>> McpServer.SyncSpecification<S> features(
            McpServer.SyncSpecification<S> spec) {
        // The tools check their own arguments, so a model reads which argument is wrong and why in one line, with the
        // web's wording, rather than the schema validator's report.
        return spec.serverInfo("sparkscope", VERSION).instructions(INSTRUCTIONS).validateToolInputs(false)
                .capabilities(McpSchema.ServerCapabilities.builder().tools(false).prompts(false).build())
                .tools(tools.all().stream().map(this::spec).toList())
                .prompts(prompts.all().stream().map(p -> new McpServerFeatures.SyncPromptSpecification(p.prompt(),
                        (exchange, request) -> prompt(p, request.arguments()))).toList());
    }

    private McpServerFeatures.SyncToolSpecification spec(SparkscopeTools.Tool t) {
        McpSchema.Tool tool = McpSchema.Tool.builder().name(t.name()).description(t.description())
                .inputSchema(t.schema().json())
                .annotations(new McpSchema.ToolAnnotations(null, true, false, true, false, null)).build();
        return McpServerFeatures.SyncToolSpecification.builder().tool(tool)
                .callHandler((exchange, request) -> call(t, request.arguments())).build();
    }

    /** One tool call: its answer as JSON text, or a tool error of one line. */
    McpSchema.CallToolResult call(SparkscopeTools.Tool t, Map<String, Object> arguments) {
        String text;
        boolean error = false;
        try {
            text = AgentJson.write(t.handler().answer(new ToolArgs(arguments, t.schema().names())));
        } catch (WebException e) {
            text = describe(e, t.subject());
            error = true;
        } catch (SQLException | RuntimeException e) {
            // not the caller's fault: say what failed in one line; the trace goes to the operator's log
            System.err.println("sparkscope mcp: " + t.name() + " failed: " + e);
            text = t.name() + ": could not answer (" + e.getClass().getSimpleName() + ": "
                    + firstLine(e.getMessage()) + ")";
            error = true;
        }
        return McpSchema.CallToolResult.builder().addTextContent(text).isError(error).build();
    }

    private McpSchema.GetPromptResult prompt(SparkscopePrompts.Prompt p, Map<String, Object> arguments) {
        try {
            return p.handler().messages(new ToolArgs(arguments, p.argumentNames()));
        } catch (WebException e) {
            throw McpError.builder(McpSchema.ErrorCodes.INVALID_PARAMS).message(describe(e, "appId")).build();
        } catch (SQLException e) {
            throw McpError.builder(McpSchema.ErrorCodes.INTERNAL_ERROR).message(p.prompt().name()
                    + ": could not read the database (" + firstLine(e.getMessage()) + ")").build();
        }
    }

    /**
     * "limit: 500 is outside 1…200", "appId: no application x in the database": the argument at fault first (the
     * tool's subject for something not stored), then what is wrong with it.
     */
    static String describe(WebException e, String subject) {
        String message = e.getMessage();
        if (e.parameter() != null) {
            String prefix = "bad parameter '" + e.parameter() + "': ";
            return e.parameter() + ": " + (message.startsWith(prefix) ? message.substring(prefix.length()) : message);
        }
        return subject == null ? message : subject + ": " + message;
    }

    private static String firstLine(String s) {
        if (s == null) {
            return "";
        }
        int nl = s.indexOf('\n');
        return nl < 0 ? s : s.substring(0, nl);
    }

    /** The tools' names, in the order they are listed. */
    public List<String> toolNames() {
        return tools.all().stream().map(SparkscopeTools.Tool::name).toList();
    }
}
