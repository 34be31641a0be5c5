package io.sparkscope.core.eventlog;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.sparkscope.core.event.SparkEvent;
import io.sparkscope.core.event.StageInfo;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static io.sparkscope.core.eventlog.Json.intValue;
import static io.sparkscope.core.eventlog.Json.longValue;
import static io.sparkscope.core.eventlog.Json.text;

/**
 * Streaming decoder for stage-submitted, stage-completed and job-start. They are rarer than task events but can be
 * large: a job-start repeats the full "Stage Info" of every stage it may run, each with its "RDD Info" lineage,
 * which we skip. Names and defaults follow Spark's {@code JsonProtocol.stageInfoFromJson / jobStartFromJson}.
 */
final class StageDecoder {
    private static final int ABSENT = Integer.MIN_VALUE;

    private StageDecoder() {
    }

    static SparkEvent.StageSubmitted stageSubmitted(JsonParser p) throws IOException, InvalidEventException {
        return new SparkEvent.StageSubmitted(stageInfoField(p, "SparkListenerStageSubmitted"));
    }

    static SparkEvent.StageCompleted stageCompleted(JsonParser p) throws IOException, InvalidEventException {
        return new SparkEvent.StageCompleted(stageInfoField(p, "SparkListenerStageCompleted"));
    }

    private static StageInfo stageInfoField(JsonParser p, String event) throws IOException, InvalidEventException {
        StageInfo info = null;
        for (JsonToken t = p.nextToken(); t == JsonToken.FIELD_NAME; t = p.nextToken()) {
            String field = p.currentName();
            p.nextToken();
            if (field.equals("Stage Info") && p.currentToken() == JsonToken.START_OBJECT) {
                info = stageInfo(p);
            } else {
                p.skipChildren(); // "Properties" of stage-submitted: the job-start carries the same
            }
        }
        if (info == null) {
            throw new InvalidEventException(event + " without Stage Info");
        }
        return info;
    }

    /** The parser is on the START_OBJECT of a "Stage Info". */
    static StageInfo stageInfo(JsonParser p) throws IOException, InvalidEventException {
        int stageId = ABSENT;
        int attemptId = 0;
        String name = "";
        int numTasks = 0;
        List<Integer> parentIds = List.of();
        String details = "";
        long submissionTime = -1;
        long completionTime = -1;
        String failureReason = null;
        List<StageInfo.Accumulable> accumulables = List.of();
        for (JsonToken t = p.nextToken(); t == JsonToken.FIELD_NAME; t = p.nextToken()) {
            String field = p.currentName();
            JsonToken v = p.nextToken();
            switch (field) {
                case "Stage ID" -> stageId = intValue(p);
                case "Stage Attempt ID" -> attemptId = intValue(p);
                case "Stage Name" -> name = orDefault(text(p), "");
                case "Number of Tasks" -> numTasks = intValue(p);
                case "Parent IDs" -> parentIds = intList(p);
                case "Details" -> details = orDefault(text(p), "");
                case "Submission Time" -> submissionTime = v == JsonToken.VALUE_NULL ? -1 : longValue(p);
                case "Completion Time" -> completionTime = v == JsonToken.VALUE_NULL ? -1 : longValue(p);
                case "Failure Reason" -> failureReason = text(p);
                case "Accumulables" -> accumulables = accumulables(p);
                default -> p.skipChildren(); // "RDD Info", "Resource Profile Id", "Shuffle Push …"
            }
        }
        if (stageId == ABSENT) {
            throw new InvalidEventException("Stage Info without Stage ID");
        }
        return new StageInfo(stageId, attemptId, name, numTasks, parentIds, details, submissionTime,
                completionTime, failureReason, accumulables);
    }

    static SparkEvent.JobStart jobStart(JsonParser p) throws IOException, InvalidEventException {
        int jobId = ABSENT;
        long submissionTime = -1;
        List<Integer> stageIds = List.of();
        List<StageInfo> stageInfos = null;
        Map<String, String> properties = Map.of();
        for (JsonToken t = p.nextToken(); t == JsonToken.FIELD_NAME; t = p.nextToken()) {
            String field = p.currentName();
            JsonToken v = p.nextToken();
            switch (field) {
                case "Job ID" -> jobId = intValue(p);
                case "Submission Time" -> submissionTime = v == JsonToken.VALUE_NULL ? -1 : longValue(p);
                case "Stage IDs" -> stageIds = intList(p);
                case "Stage Infos" -> stageInfos = stageInfos(p);
                case "Properties" -> properties = Json.stringMap(p);
                default -> p.skipChildren();
            }
        }
        if (jobId == ABSENT) {
            throw new InvalidEventException("SparkListenerJobStart without Job ID");
        }
        // "Stage Infos" came with Spark 1.2; without it, Spark itself makes placeholder stages named "unknown"
        if (stageInfos == null) {
            stageInfos = new ArrayList<>(stageIds.size());
            for (int id : stageIds) {
                stageInfos.add(new StageInfo(id, 0, "unknown", 0, List.of(), "unknown", -1, -1, null, List.of()));
            }
        }
        return new SparkEvent.JobStart(jobId, submissionTime, stageIds, stageInfos, properties);
    }

    private static List<StageInfo> stageInfos(JsonParser p) throws IOException, InvalidEventException {
        if (p.currentToken() != JsonToken.START_ARRAY) {
            p.skipChildren();
            return null;
        }
        List<StageInfo> infos = new ArrayList<>();
        for (JsonToken t = p.nextToken(); t != JsonToken.END_ARRAY && t != null; t = p.nextToken()) {
            if (t == JsonToken.START_OBJECT) {
                infos.add(stageInfo(p));
            } else {
                p.skipChildren();
            }
        }
        return infos;
    }

    private static List<Integer> intList(JsonParser p) throws IOException {
        if (p.currentToken() != JsonToken.START_ARRAY) {
            p.skipChildren();
            return List.of();
        }
        List<Integer> ids = new ArrayList<>();
        for (JsonToken t = p.nextToken(); t != JsonToken.END_ARRAY && t != null; t = p.nextToken()) {
            if (t == JsonToken.VALUE_NUMBER_INT || t == JsonToken.VALUE_STRING) {
                ids.add(intValue(p));
            } else {
                p.skipChildren();
            }
        }
        return ids;
    }

    /** Stage "Accumulables": ID, Name, Value (as Spark's reader keeps non-metric values: as text). */
    private static List<StageInfo.Accumulable> accumulables(JsonParser p) throws IOException {
        if (p.currentToken() != JsonToken.START_ARRAY) {
            p.skipChildren();
            return List.of();
        }
        List<StageInfo.Accumulable> list = new ArrayList<>();
        for (JsonToken t = p.nextToken(); t != JsonToken.END_ARRAY && t != null; t = p.nextToken()) {
            if (t != JsonToken.START_OBJECT) {
                p.skipChildren();
                continue;
            }
            long id = Long.MIN_VALUE;
            String name = null;
            String value = null;
            for (JsonToken f = p.nextToken(); f == JsonToken.FIELD_NAME; f = p.nextToken()) {
                String field = p.currentName();
                JsonToken vt = p.nextToken();
                switch (field) {
                    case "ID" -> id = longValue(p);
                    case "Name" -> name = text(p);
                    // block-status lists are the one structured value; keep their JSON text
                    case "Value" -> value = vt.isStructStart() ? Json.MAPPER.readTree(p).toString() : text(p);
                    default -> p.skipChildren();
                }
            }
            if (id != Long.MIN_VALUE) {
                list.add(new StageInfo.Accumulable(id, name, value));
            }
        }
        return list;
    }

    private static String orDefault(String s, String dflt) {
        return s == null ? dflt : s;
    }
}
