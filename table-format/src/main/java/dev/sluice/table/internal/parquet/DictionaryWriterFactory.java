package dev.sluice.table.internal.parquet;

import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.Encoding;
import org.apache.parquet.column.ParquetProperties;
import org.apache.parquet.column.values.ValuesWriter;
import org.apache.parquet.column.values.factory.DefaultValuesWriterFactory;
import org.apache.parquet.column.values.factory.ValuesWriterFactory;
import org.apache.parquet.column.values.fallback.FallbackValuesWriter;
import org.apache.parquet.column.values.plain.PlainValuesWriter;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;

/**
 * Parquet's default values writers (format v1, the one Sluice writes), except that a dictionary-encoded BINARY column
 * gets {@link BinaryDictionaryWriter}: same encodings, same fall-back to plain, a faster dictionary. One instance per
 * {@link ParquetProperties}: parquet initialises the factory with the properties it belongs to.
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
    if (column.getPrimitiveType().getPrimitiveTypeName() != PrimitiveTypeName.BINARY
        || props.getWriterVersion() != ParquetProperties.WriterVersion.PARQUET_1_0
        || !props.isDictionaryEnabled(column)) {
      return defaults.newValuesWriter(column);
    }
    return FallbackValuesWriter.of(
        new BinaryDictionaryWriter(props.getDictionaryPageSizeThreshold(), Encoding.PLAIN_DICTIONARY,
            Encoding.PLAIN_DICTIONARY, props.getAllocator()),
        new PlainValuesWriter(props.getInitialSlabSize(), props.getPageSizeThreshold(), props.getAllocator()));
  }
}
