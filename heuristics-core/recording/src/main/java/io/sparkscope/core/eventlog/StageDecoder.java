package io.sparkscope.core.eventlog;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.sparkscope.core.event.SparkEvent;
import io.sparkscope.core.event.StageInfo;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static io.sparkscope.core.eventlog.Json.text;

/**
 * Streaming decoder for stage-submitted, stage-completed and job-start. They are rarer than task events but can be
 * large: a job-start repeats the full "Stage Info" of every stage it may run, each with its "RDD Info" lineage,
 * which we skip. Names and defaults follow Spark's {@code JsonProtocol.stageInfoFromJson / jobStartFromJson}.
 *
 * <p>Values are checked with Spark's ranges ({@link FieldChecks}): an invalid stage or job id or attempt number
 * skips the event (a job start's stage info with one is left out of it); an invalid time becomes -1 (unknown); an
 * invalid task count becomes -1 here, which {@link Consistency} replaces with the stage's last known count.
 */
final class StageDecoder {
    private static final int ABSENT = Integer.MIN_VALUE;
    /** Accumulables kept per stage info; past it they are counted in one warning (a real stage has hundreds). */
    static final int MAX_ACCUMULABLES = 100_000;
    /** Ids kept per "Stage IDs" / "Parent IDs" list. */
    static final int MAX_IDS = 1_000_000;

    private StageDecoder() {
    }

    static SparkEvent.StageSubmitted stageSubmitted(JsonParser p, FieldChecks checks)
            throws IOException, InvalidEventException {
        return new SparkEvent.StageSubmitted(stageInfoField(p, "SparkListenerStageSubmitted", checks));
    }

    static SparkEvent.StageCompleted stageCompleted(JsonParser p, FieldChecks checks)
            throws IOException, InvalidEventException {
        return new SparkEvent.StageCompleted(stageInfoField(p, "SparkListenerStageCompleted", checks));
    }

    private static StageInfo stageInfoField(JsonParser p, String event, FieldChecks checks)
            throws IOException, InvalidEventException {
        StageInfo info = null;
        for (JsonToken t = p.nextToken(); t == JsonToken.FIELD_NAME; t = p.nextToken()) {
            String field = p.currentName();
            p.nextToken();
            if (field.equals("Stage Info") && p.currentToken() == JsonToken.START_OBJECT) {
                info = stageInfo(p, checks);
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
    static StageInfo stageInfo(JsonParser p, FieldChecks checks) throws IOException, InvalidEventException {
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
        String[] what = new String[1];
        for (JsonToken t = p.nextToken(); t == JsonToken.FIELD_NAME; t = p.nextToken()) {
            String field = p.currentName();
            JsonToken v = p.nextToken();
            switch (field) {
                case "Stage ID" -> stageId = checks.requiredId(p, field);
                case "Stage Attempt ID" -> attemptId = checks.requiredId(p, field);
                case "Stage Name" -> name = orDefault(text(p), "");
                case "Number of Tasks" -> {
                    long n = checks.id(p, what);
                    if (n == FieldChecks.INVALID) {
                        checks.invalid(field, what[0], " (the stage's last known task count is kept, else 0)");
                        numTasks = -1;
                    } else {
                        numTasks = (int) n;
                    }
                }
                case "Parent IDs" -> parentIds = intList(p, field, checks);
                case "Details" -> details = orDefault(text(p), "");
                // Spark leaves both out while they are unknown; some writers put null
                case "Submission Time" -> submissionTime = v == JsonToken.VALUE_NULL ? -1 : checks.timeOr(p, field, -1);
                case "Completion Time" -> completionTime = v == JsonToken.VALUE_NULL ? -1 : checks.timeOr(p, field, -1);
                case "Failure Reason" -> failureReason = text(p);
                case "Accumulables" -> accumulables = accumulables(p, checks);
                default -> p.skipChildren(); // "RDD Info", "Resource Profile Id", "Shuffle Push …"
            }
        }
        if (stageId == ABSENT) {
            throw new InvalidEventException("Stage Info without Stage ID");
        }
        return new StageInfo(stageId, attemptId, name, numTasks, parentIds, details, submissionTime,
                completionTime, failureReason, accumulables);
    }

    static SparkEvent.JobStart jobStart(JsonParser p, FieldChecks checks) throws IOException, InvalidEventException {
        int jobId = ABSENT;
        long submissionTime = -1;
        List<Integer> stageIds = List.of();
        List<StageInfo> stageInfos = null;
        Map<String, String> properties = Map.of();
        for (JsonToken t = p.nextToken(); t == JsonToken.FIELD_NAME; t = p.nextToken()) {
            String field = p.currentName();
            JsonToken v = p.nextToken();
            switch (field) {
                case "Job ID" -> jobId = checks.requiredId(p, field);
                case "Submission Time" -> submissionTime = v == JsonToken.VALUE_NULL ? -1 : checks.timeOr(p, field, -1);
                case "Stage IDs" -> stageIds = intList(p, field, checks);
                case "Stage Infos" -> stageInfos = stageInfos(p, checks);
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

    private static List<StageInfo> stageInfos(JsonParser p, FieldChecks checks) throws IOException {
        if (p.currentToken() != JsonToken.START_ARRAY) {
            p.skipChildren();
            return null;
        }
        List<StageInfo> infos = new ArrayList<>();
        for (JsonToken t = p.nextToken(); t != JsonToken.END_ARRAY && t != null; t = p.nextToken()) {
            if (t == JsonToken.START_OBJECT) {
                try {
                    infos.add(stageInfo(p, checks));
                } catch (InvalidEventException e) {
                    // one unusable stage info costs that stage, not the job; the parser is inside it: skip the rest
                    skipRestOfObject(p);
                    checks.warn(e.getMessage().replace("so the event is skipped", "so that stage info is left out"));
                }
            } else {
                p.skipChildren();
            }
        }
        return infos;
    }

    /**
     * After an invalid top-level field of a stage info (the parser on that field's value): skips the remaining
     * fields, leaving the parser on the stage info's END_OBJECT.
     */
    private static void skipRestOfObject(JsonParser p) throws IOException {
        for (JsonToken t = p.nextToken(); t == JsonToken.FIELD_NAME; t = p.nextToken()) {
            p.nextToken();
            p.skipChildren();
        }
    }

    /** A list of ids; an invalid one is left out with a warning. */
    private static List<Integer> intList(JsonParser p, String field, FieldChecks checks) throws IOException {
        if (p.currentToken() != JsonToken.START_ARRAY) {
            p.skipChildren();
            return List.of();
        }
        List<Integer> ids = new ArrayList<>();
        String[] what = new String[1];
        long over = 0;
        for (JsonToken t = p.nextToken(); t != JsonToken.END_ARRAY && t != null; t = p.nextToken()) {
            long id = checks.id(p, what);
            if (id == FieldChecks.INVALID) {
                checks.invalid(field, "element " + what[0], ", that element is left out");
            } else if (ids.size() < MAX_IDS) {
                ids.add((int) id);
            } else {
                over++;
            }
        }
        if (over > 0) {
            checks.warn(checks.event() + " field \"" + field + "\": " + over + " ids past the first " + MAX_IDS
                    + " are left out");
        }
        return ids;
    }

    /** Stage "Accumulables": ID, Name, Value (as Spark's reader keeps non-metric values: as text). */
    private static List<StageInfo.Accumulable> accumulables(JsonParser p, FieldChecks checks) throws IOException {
        if (p.currentToken() != JsonToken.START_ARRAY) {
            p.skipChildren();
            return List.of();
        }
        List<StageInfo.Accumulable> list = new ArrayList<>();
        long over = 0;
        for (JsonToken t = p.nextToken(); t != JsonToken.END_ARRAY && t != null; t = p.nextToken()) {
            if (t != JsonToken.START_OBJECT) {
                p.skipChildren();
                continue;
            }
            if (list.size() >= MAX_ACCUMULABLES) {
                p.skipChildren();
                over++;
                continue;
            }
            long id = Long.MIN_VALUE;
            String name = null;
            String value = null;
            for (JsonToken f = p.nextToken(); f == JsonToken.FIELD_NAME; f = p.nextToken()) {
                String field = p.currentName();
                JsonToken vt = p.nextToken();
                switch (field) {
                    case "ID" -> {
                        String[] what = new String[1];
                        id = checks.nonNegative(p, what);
                        if (id == FieldChecks.INVALID) {
                            checks.invalid("Accumulables", "ID " + what[0], ", that accumulable is left out");
                        }
                    }
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
        if (over > 0) {
            checks.warn(checks.event() + " field \"Accumulables\": " + over + " past the first " + MAX_ACCUMULABLES
                    + " are left out");
        }
        return list;
    }

    private static String orDefault(String s, String dflt) {
        return s == null ? dflt : s;
    }
}
