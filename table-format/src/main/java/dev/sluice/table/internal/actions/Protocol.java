package dev.sluice.table.internal.actions;

import java.util.List;

/**
 * {@code protocol}: the reader and writer versions a client needs. Feature lists are non-null only at
 * reader 3 / writer 7 respectively.
 */
public record Protocol(int minReaderVersion, int minWriterVersion, List<String> readerFeatures, List<String> writerFeatures)
    implements Action {
  public Protocol {
    readerFeatures = readerFeatures == null ? null : List.copyOf(readerFeatures);
    writerFeatures = writerFeatures == null ? null : List.copyOf(writerFeatures);
  }

  public static Protocol of(int minReaderVersion, int minWriterVersion) {
    return new Protocol(minReaderVersion, minWriterVersion, null, null);
  }
}
