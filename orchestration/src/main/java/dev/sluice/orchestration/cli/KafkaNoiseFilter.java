package dev.sluice.orchestration.cli;

import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.filter.Filter;
import ch.qos.logback.core.spi.FilterReply;
import dev.sluice.orchestration.backlog.KafkaBacklog;

/**
 * Drops the kafka-clients warnings that ask nothing of a user, on the CLI's appender ({@link CliLogging}); every other
 * warning of those loggers still shows.
 *
 * <ul>
 *   <li>{@code OffsetFetcherUtils}: "Not updating high watermark (last stable offset) for partition … as it is no
 *       longer assigned". kafka-clients 4.3 (KAFKA-20131) warns whenever end or beginning offsets are listed for a
 *       partition the consumer has not assigned. The Kafka source does that on every trigger, by design: one consumer
 *       lists the ends of all partitions and has only the batch's partitions assigned. 4.4.0 logs it at DEBUG
 *       (KAFKA-20449); drop this rule with kafka-clients 4.4.
 *   <li>{@code NetworkClient}: "could not be established" of the backlog's admin client ({@link
 *       KafkaBacklog#CLIENT_ID}), repeated until its timeout: the backlog itself says the brokers did not answer.
 * </ul>
 */
public final class KafkaNoiseFilter extends Filter<ILoggingEvent> {
  private static final String FETCHER = "org.apache.kafka.clients.consumer.internals.OffsetFetcherUtils";
  private static final String NETWORK = "org.apache.kafka.clients.NetworkClient";

  @Override
  public FilterReply decide(ILoggingEvent event) {
    String logger = event.getLoggerName();
    String message = event.getMessage();
    if (message == null) {
      return FilterReply.NEUTRAL;
    }
    // kafka-clients puts its log context ("[Consumer clientId=…, groupId=…] ") before the message pattern
    if (logger.equals(FETCHER) && message.contains("] Not updating ")
        && message.endsWith(" as it is no longer assigned")) {
      return FilterReply.DENY;
    }
    if (logger.equals(NETWORK) && message.contains("clientId=" + KafkaBacklog.CLIENT_ID + "]")
        && message.contains("could not be established")) {
      return FilterReply.DENY;
    }
    return FilterReply.NEUTRAL;
  }
}
