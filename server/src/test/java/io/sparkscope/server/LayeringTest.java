package io.sparkscope.server;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Which module may know which, checked on the compiled classes of every module on this module's classpath (the
 * server sees the core, the store and ingest). Maven already refuses a dependency on a module that is not declared;
 * these rules catch what Maven cannot: a core class naming Spark, JDBC or the web through a library that happens to
 * be there, the store reaching for a view, and package cycles inside a module.
 */
class LayeringTest {
    private static final String[] MODEL = {"io.sparkscope.core.event..", "io.sparkscope.core.model.."};
    private static final String[] RECORDING = {"io.sparkscope.core.eventlog..", "io.sparkscope.core.recorder..",
            "io.sparkscope.core.redact..", "io.sparkscope.core.sql.."};
    private static final String[] DIAGNOSIS = {"io.sparkscope.core.heuristics..", "io.sparkscope.core.analysis..",
            "io.sparkscope.core.report..", "io.sparkscope.core.notify.."};

    private static JavaClasses classes;

    @BeforeAll
    static void importClasses() {
        classes = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                // A full build (`mvn verify`) hands the other modules' test fixtures over as *-tests.jar files, which
                // the option above (made for test-classes folders) lets in: the rules are about production code.
                .withImportOption(location -> !location.contains("-tests.jar"))
                .importPackages("io.sparkscope");
        // the rules below pass vacuously on nothing: make sure every module's classes were found
        for (String name : new String[]{"io.sparkscope.core.model.AppSnapshot", "io.sparkscope.core.recorder.Recorder",
                "io.sparkscope.core.heuristics.HeuristicEngine", "io.sparkscope.store.SchemaManager",
                "io.sparkscope.cli.DatabaseOptions", "io.sparkscope.ingest.cli.ImportCommand",
                "io.sparkscope.server.web.WebServer"}) {
            assertTrue(classes.contain(name), name + " not on the classpath: the rules would check nothing");
        }
    }

    @Test
    void coreKnowsNoSparkJdbcOrWeb() {
        noClasses().that().resideInAPackage("io.sparkscope.core..")
                .should().dependOnClassesThat().resideInAnyPackage(
                        "org.apache.spark..", "scala..", "java.sql..", "javax.sql..", "org.postgresql..",
                        "com.zaxxer.hikari..", "org.flywaydb..", "io.javalin..", "jakarta.servlet..",
                        "org.eclipse.jetty..", "picocli..",
                        "io.sparkscope.store..", "io.sparkscope.ingest..", "io.sparkscope.server..",
                        "io.sparkscope.listener..", "io.sparkscope.cli..")
                .because("the core runs inside a Spark driver, in the command line and in the server alike")
                .check(classes);
    }

    @Test
    void coreModulesDependOnlyOnTheOnesBeforeThem() {
        noClasses().that().resideInAnyPackage(MODEL)
                .should().dependOnClassesThat().resideInAnyPackage(concat(RECORDING, DIAGNOSIS))
                .because("the model is what everything else is made of")
                .check(classes);
        noClasses().that().resideInAnyPackage(RECORDING)
                .should().dependOnClassesThat().resideInAnyPackage(DIAGNOSIS)
                .because("recording turns events into snapshots; judging them comes after")
                .check(classes);
    }

    @Test
    void storeKnowsNoViewsAndNoCommandLine() {
        noClasses().that().resideInAPackage("io.sparkscope.store..")
                .should().dependOnClassesThat().resideInAnyPackage(
                        "io.sparkscope.ingest..", "io.sparkscope.server..", "io.sparkscope.cli..", "io.javalin..",
                        "picocli..")
                .because("the listener jar carries the store into every watched driver")
                .check(classes);
    }

    @Test
    void ingestKnowsNoServer() {
        noClasses().that().resideInAnyPackage("io.sparkscope.cli..", "io.sparkscope.ingest..")
                .should().dependOnClassesThat().resideInAnyPackage("io.sparkscope.server..", "io.javalin..")
                .because("importing applications works without the server")
                .check(classes);
    }

    @Test
    void noPackageCycles() {
        slices().matching("io.sparkscope.(**)").should().beFreeOfCycles().check(classes);
    }

    private static String[] concat(String[] a, String[] b) {
        String[] all = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, all, a.length, b.length);
        return all;
    }
}
