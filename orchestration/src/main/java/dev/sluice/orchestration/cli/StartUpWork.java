package dev.sluice.orchestration.cli;

import java.util.concurrent.CountDownLatch;

/**
 * Start-up work every {@code sluice} command does, begun on a thread of its own as the process starts so that it
 * overlaps picocli building the command's model on the main thread (~0.15 s: picocli's Java 5 class files can't go
 * into the class archive, and its annotations are read by reflection): logback's set-up (~0.1 s of class loading
 * and pattern parsing) and Jackson's first {@code ObjectMapper} (date-format and locale tables). In a C1-only run
 * ({@link CompilerRestart}) the time before the first pipeline went from 0.58 to 0.54 s (median of 8 alternated
 * pairs). Nothing may ask SLF4J for a logger on the main thread before {@link #awaitLogging}: it would get one of
 * SLF4J's stand-ins for the set-up's duration. Only {@code sluice} processes use it; a program calling
 * {@link SluiceCli#execute} sets up its logging as it pleases.
 */
final class StartUpWork {
  private static final CountDownLatch LOGGING = new CountDownLatch(1);
  private static volatile boolean started;

  private StartUpWork() {}

  static void start() {
    started = true;
    Thread t = new Thread(StartUpWork::run, "sluice-start-up");
    t.setDaemon(true);
    t.start();
  }

  /** Waits until logging is set up, when {@link #start} began it. */
  static void awaitLogging() {
    if (!started) {
      return;
    }
    try {
      LOGGING.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static void run() {
    try {
      org.slf4j.LoggerFactory.getILoggerFactory();
    } catch (RuntimeException | LinkageError e) {
      // logback reports its own set-up problems
    } finally {
      LOGGING.countDown();
    }
    try {
      new com.fasterxml.jackson.databind.ObjectMapper();
    } catch (RuntimeException | LinkageError e) {
      // only ahead of need
    }
  }
}
