package dev.sluice.table.internal.parquet;

import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.Encoding;
import org.apache.parquet.column.ParquetProperties;
import org.apache.parquet.column.values.ValuesWriter;
import org.apache.parquet.column.values.dictionary.DictionaryValuesWriter;
import org.apache.parquet.column.values.factory.DefaultV1ValuesWriterFactory;
import org.apache.parquet.column.values.factory.DefaultV2ValuesWriterFactory;
import org.apache.parquet.column.values.factory.ValuesWriterFactory;
import org.apache.parquet.column.values.fallback.FallbackValuesWriter;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;

/**
 * Parquet's default values writers (format v1, the one Sluice writes), except that a dictionary-encoded BINARY column
 * gets {@link BinaryDictionaryWriter} and an INT64 one {@link LongDictionaryWriter}, falling back to {@link PlainWriter},
 * and such a column written without a dictionary gets {@link PlainWriter} alone: the same encodings and bytes, a faster
 * dictionary and plain writer. One instance per {@link ParquetProperties}: parquet
 * initialises the factory with the properties it belongs to.
 */
final class DictionaryWriterFactory implements ValuesWriterFactory {
  /**
   * Parquet's default writers for the other columns, this factory's own: {@code DefaultValuesWriterFactory} delegates to
   * one static factory per format version, which keeps the properties it was last initialised with, so files written
   * at once built their other columns' writers with whichever file started last (its allocator, its dictionary
   * settings: a file's dictionary hints could be read from another's).
   */
  private ValuesWriterFactory defaults;
  private ParquetProperties props;

  @Override
  public void initialize(ParquetProperties properties) {
    this.props = properties;
    defaults = properties.getWriterVersion() == ParquetProperties.WriterVersion.PARQUET_1_0
        ? new DefaultV1ValuesWriterFactory() : new DefaultV2ValuesWriterFactory();
    defaults.initialize(properties);
  }

  @Override
  public ValuesWriter newValuesWriter(ColumnDescriptor column) {
    PrimitiveTypeName type = column.getPrimitiveType().getPrimitiveTypeName();
    if ((type != PrimitiveTypeName.BINARY && type != PrimitiveTypeName.INT64)
        || props.getWriterVersion() != ParquetProperties.WriterVersion.PARQUET_1_0
        || (type == PrimitiveTypeName.INT64 && props.isByteStreamSplitEnabled(column))) {
      return defaults.newValuesWriter(column);
    }
    if (!props.isDictionaryEnabled(column)) {
      // A column DictionaryHints writes plain from the start (ids, event times): parquet's PlainValuesWriter, ~6 %
      // of bronze's encoder samples, against the same bytes from this one.
      return new PlainWriter(props.getInitialSlabSize());
    }
    int maxBytes = props.getDictionaryPageSizeThreshold();
    Encoding encoding = Encoding.PLAIN_DICTIONARY;
    DictionaryValuesWriter dictionary = type == PrimitiveTypeName.BINARY
        ? new BinaryDictionaryWriter(maxBytes, encoding, encoding, props.getAllocator())
        : new LongDictionaryWriter(maxBytes, encoding, encoding, props.getAllocator());
    return FallbackValuesWriter.of(dictionary, new PlainWriter(props.getInitialSlabSize()));
  }
}
