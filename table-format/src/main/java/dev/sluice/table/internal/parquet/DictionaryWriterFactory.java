package dev.sluice.table.internal.parquet;

import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.Encoding;
import org.apache.parquet.column.ParquetProperties;
import org.apache.parquet.column.values.ValuesWriter;
import org.apache.parquet.column.values.dictionary.DictionaryValuesWriter;
import org.apache.parquet.column.values.factory.DefaultValuesWriterFactory;
import org.apache.parquet.column.values.factory.ValuesWriterFactory;
import org.apache.parquet.column.values.fallback.FallbackValuesWriter;
import org.apache.parquet.column.values.plain.PlainValuesWriter;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;

/**
 * Parquet's default values writers (format v1, the one Sluice writes), except that a dictionary-encoded BINARY column
 * gets {@link BinaryDictionaryWriter} and an INT64 one {@link LongDictionaryWriter}: same encodings, same fall-back to
 * plain, a faster dictionary. One instance per {@link ParquetProperties}: parquet initialises the factory with the
 * properties it belongs to.
 */
final class DictionaryWriterFactory implements ValuesWriterFactory {
  private final DefaultValuesWriterFactory defaults = new DefaultValuesWriterFactory();
  private ParquetProperties props;

  @Override
  public void initialize(ParquetProperties properties) {
    this.props = properties;
    defaults.initialize(properties);
  }

  @Override
  public ValuesWriter newValuesWriter(ColumnDescriptor column) {
    PrimitiveTypeName type = column.getPrimitiveType().getPrimitiveTypeName();
    if ((type != PrimitiveTypeName.BINARY && type != PrimitiveTypeName.INT64)
        || props.getWriterVersion() != ParquetProperties.WriterVersion.PARQUET_1_0
        || !props.isDictionaryEnabled(column)
        || (type == PrimitiveTypeName.INT64 && props.isByteStreamSplitEnabled(column))) {
      return defaults.newValuesWriter(column);
    }
    int maxBytes = props.getDictionaryPageSizeThreshold();
    Encoding encoding = Encoding.PLAIN_DICTIONARY;
    DictionaryValuesWriter dictionary = type == PrimitiveTypeName.BINARY
        ? new BinaryDictionaryWriter(maxBytes, encoding, encoding, props.getAllocator())
        : new LongDictionaryWriter(maxBytes, encoding, encoding, props.getAllocator());
    return FallbackValuesWriter.of(dictionary,
        new PlainValuesWriter(props.getInitialSlabSize(), props.getPageSizeThreshold(), props.getAllocator()));
  }
}
