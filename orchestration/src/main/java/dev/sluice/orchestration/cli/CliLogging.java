package dev.sluice.orchestration.cli;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.spi.Configurator;
import ch.qos.logback.classic.spi.ConfiguratorRank;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.ConsoleAppender;
import ch.qos.logback.core.spi.ContextAwareBase;
import org.slf4j.Logger;

/**
 * The CLI's logging, set up in code rather than from a logback.xml: parsing the XML (logback's Joran, a SAX parser and
 * its model) was ~0.2 s of every start. Standard output carries results (tables, JSON), so logs go to standard error
 * and libraries (Parquet, Hadoop, the AWS SDK) speak only at WARN, Hadoop at ERROR; {@link KafkaNoiseFilter} drops
 * kafka-clients' warnings that ask nothing of a user. It applies only in a JVM the {@code sluice} command started
 * ({@link #ownsProcess}) and when {@code -Dlogback.configurationFile} names no file of the user's; otherwise logback
 * configures itself as usual (tests keep their logback-test.xml). Found by logback through
 * {@code META-INF/services/ch.qos.logback.classic.spi.Configurator}.
 */
@ConfiguratorRank(ConfiguratorRank.CUSTOM_HIGH_PRIORITY)
public final class CliLogging extends ContextAwareBase implements Configurator {
  static final String PATTERN = "%d{HH:mm:ss.SSS} %-5level %logger{36} - %msg%n%nopex";

  /** Set by {@link SluiceCli#main} before anything logs: the JVM is the command's own. */
  private static volatile boolean ownProcess;

  static void ownsProcess() {
    ownProcess = true;
  }

  @Override
  public ExecutionStatus configure(LoggerContext context) {
    if (!ownProcess || System.getProperty("logback.configurationFile") != null) {
      return ExecutionStatus.INVOKE_NEXT_IF_ANY;
    }
    PatternLayoutEncoder encoder = new PatternLayoutEncoder();
    encoder.setContext(context);
    // %nopex: the CLI reports failures itself, as one message (stack traces only with --verbose)
    encoder.setPattern(PATTERN);
    encoder.start();
    KafkaNoiseFilter filter = new KafkaNoiseFilter();
    filter.setContext(context);
    filter.start();
    ConsoleAppender<ILoggingEvent> appender = new ConsoleAppender<>();
    appender.setContext(context);
    appender.setName("STDERR");
    appender.setTarget("System.err");
    appender.setEncoder(encoder);
    appender.addFilter(filter);
    appender.start();
    context.getLogger("org.apache.hadoop").setLevel(Level.ERROR);
    ch.qos.logback.classic.Logger root = context.getLogger(Logger.ROOT_LOGGER_NAME);
    root.setLevel(Level.WARN);
    root.addAppender(appender);
    return ExecutionStatus.DO_NOT_INVOKE_NEXT_IF_ANY;
  }
}
