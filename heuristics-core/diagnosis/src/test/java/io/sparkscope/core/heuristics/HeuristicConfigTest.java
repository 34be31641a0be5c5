package io.sparkscope.core.heuristics;

import io.sparkscope.core.text.Units;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class HeuristicConfigTest {
    private final HeuristicConfig defaults = HeuristicConfig.defaults();

    @Test
    void defaultsAreTypedAndEveryBuiltInHeuristicHasASwitch() {
        assertEquals(3.0, defaults.threshold("StageSkew.ratio.low"));
        assertEquals(5 * Units.GiB, defaults.bytes("LargePartition.bytes"));
        assertTrue(defaults.flag("CoreNumber.singleCore"));
        for (Heuristic h : HeuristicEngine.load().heuristics()) {
            if (!h.id().equals(TestOnlyHeuristic.ID)) {
                assertTrue(defaults.defaultValues().containsKey(h.id() + ".enabled"), h.id());
            }
        }
    }

    @Test
    void mapOverridesChangeValuesAndSwitchHeuristicsOff() {
        HeuristicConfig cfg = defaults.withOverrides(Map.of("StageSkew.ratio.low", "4", "YarnQueue.enabled", "false",
                "JoinStrategy.smallSideBytes", "1g"));
        assertEquals(4.0, cfg.threshold("StageSkew.ratio.low"));
        assertEquals(Units.GiB, cfg.bytes("JoinStrategy.smallSideBytes"));
        assertFalse(cfg.enabled("YarnQueue"));
        assertTrue(cfg.enabled("StageSkew"));
        assertEquals(3.0, defaults.threshold("StageSkew.ratio.low"), "defaults stay untouched");
    }

    @Test
    void fileOverrides(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("mine.properties");
        Files.writeString(file, "# ours\nTaskFailure.ratio.high = 0.3\nDiskSpill.enabled=false\n");
        HeuristicConfig cfg = defaults.withOverrides(file);
        assertEquals(0.3, cfg.threshold("TaskFailure.ratio.high"));
        assertFalse(cfg.enabled("DiskSpill"));
    }

    @Test
    void unknownKeyIsNamed(@TempDir Path dir) throws IOException {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> defaults.withOverrides(Map.of("StageSkew.ration.low", "4")));
        assertTrue(e.getMessage().contains("'StageSkew.ration.low'"), e.getMessage());
        assertTrue(e.getMessage().contains("StageSkew.ratio.low"), "suggests the known keys: " + e.getMessage());
        Path file = dir.resolve("typo.properties");
        Files.writeString(file, "Nonsense.enabled=true\n");
        e = assertThrows(IllegalArgumentException.class, () -> defaults.withOverrides(file));
        assertTrue(e.getMessage().contains("Nonsense.enabled") && e.getMessage().contains(file.toString()), e.getMessage());
    }

    @Test
    void badValuesAreNamed() {
        for (Map.Entry<String, String> bad : Map.of("StageSkew.ratio.low", "three", "DiskSpill.enabled", "yes",
                "LargePartition.bytes", "1.5g", "TaskFailure.minTasks", "-1").entrySet()) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> defaults.withOverrides(Map.of(bad.getKey(), bad.getValue()), "spark.sparkscope.heuristics.*"));
            assertTrue(e.getMessage().contains("'" + bad.getKey() + "'") && e.getMessage().contains("'" + bad.getValue() + "'"),
                    e.getMessage());
        }
    }

    @Test
    void lowAboveHighIsRejected() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> defaults.withOverrides(Map.of("StageSkew.ratio.low", "20")));
        assertTrue(e.getMessage().contains("StageSkew.ratio.high"), e.getMessage());
    }

    @Test
    void gettersRejectUnknownOrMistypedKeys() {
        assertThrows(IllegalArgumentException.class, () -> defaults.threshold("No.such"));
        assertThrows(IllegalArgumentException.class, () -> defaults.threshold("LargePartition.bytes"));
    }
}
