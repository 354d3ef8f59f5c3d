package dev.sluice.ingestion.source.internal.files;

import dev.sluice.table.exceptions.StorageException;
import dev.sluice.table.internal.parquet.StoreInputFile;
import dev.sluice.table.storage.ObjectStore;
import dev.sluice.table.types.ArrayType;
import dev.sluice.table.types.DataType;
import dev.sluice.table.types.DecimalType;
import dev.sluice.table.types.MapType;
import dev.sluice.table.types.PrimitiveType;
import dev.sluice.table.types.StructField;
import dev.sluice.table.types.StructType;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.schema.GroupType;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.LogicalTypeAnnotation.DecimalLogicalTypeAnnotation;
import org.apache.parquet.schema.LogicalTypeAnnotation.IntLogicalTypeAnnotation;
import org.apache.parquet.schema.Type;

/**
 * The schema of a Parquet file as Sluice types, read from its footer. Lists and maps follow the
 * Parquet spec's LIST/MAP annotations (with the legacy two-level forms); an unannotated repeated
 * field is an array.
 */
final class ParquetSchemas {
  private ParquetSchemas() {}

  static StructType read(ObjectStore store, String key, long size) {
    try (ParquetFileReader reader = ParquetFileReader.open(new StoreInputFile(store, key, size))) {
      return struct(reader.getFooter().getFileMetaData().getSchema());
    } catch (IOException e) {
      throw new StorageException("Reading the Parquet footer of " + store.uriOf(key) + " failed: " + e.getMessage(), e);
    }
  }

  static StructType struct(GroupType group) {
    List<StructField> fields = new ArrayList<>();
    for (Type t : group.getFields()) {
      DataType type = t.isRepetition(Type.Repetition.REPEATED) ? new ArrayType(type(t), false) : type(t);
      fields.add(StructField.of(t.getName(), type, t.isRepetition(Type.Repetition.OPTIONAL)));
    }
    return new StructType(fields);
  }

  private static DataType type(Type t) {
    if (t.isPrimitive()) {
      return primitive(t.asPrimitiveType());
    }
    GroupType g = t.asGroupType();
    LogicalTypeAnnotation logical = g.getLogicalTypeAnnotation();
    if (logical instanceof LogicalTypeAnnotation.ListLogicalTypeAnnotation && g.getFieldCount() == 1) {
      Type repeated = g.getType(0);
      boolean threeLevel = !repeated.isPrimitive() && repeated.asGroupType().getFieldCount() == 1
          && !repeated.getName().equals("array") && !repeated.getName().endsWith("_tuple");
      Type element = threeLevel ? repeated.asGroupType().getType(0) : repeated;
      return new ArrayType(threeLevel ? type(element) : nonRepeated(element), !element.isRepetition(Type.Repetition.REQUIRED)
          && threeLevel);
    }
    if ((logical instanceof LogicalTypeAnnotation.MapLogicalTypeAnnotation
        || logical instanceof LogicalTypeAnnotation.MapKeyValueTypeAnnotation) && g.getFieldCount() == 1
        && !g.getType(0).isPrimitive() && g.getType(0).asGroupType().getFieldCount() == 2) {
      GroupType kv = g.getType(0).asGroupType();
      return new MapType(type(kv.getType(0)), type(kv.getType(1)), !kv.getType(1).isRepetition(Type.Repetition.REQUIRED));
    }
    return struct(g);
  }

  private static DataType nonRepeated(Type element) {
    return element.isPrimitive() ? primitive(element.asPrimitiveType()) : struct(element.asGroupType());
  }

  private static DataType primitive(org.apache.parquet.schema.PrimitiveType p) {
    LogicalTypeAnnotation logical = p.getLogicalTypeAnnotation();
    if (logical instanceof DecimalLogicalTypeAnnotation d) {
      return DecimalType.of(d.getPrecision(), d.getScale());
    }
    return switch (p.getPrimitiveTypeName()) {
      case BOOLEAN -> PrimitiveType.BOOLEAN;
      case INT32 -> {
        if (logical instanceof LogicalTypeAnnotation.DateLogicalTypeAnnotation) {
          yield PrimitiveType.DATE;
        }
        if (logical instanceof IntLogicalTypeAnnotation i && i.getBitWidth() == 8) {
          yield PrimitiveType.BYTE;
        }
        if (logical instanceof IntLogicalTypeAnnotation i && i.getBitWidth() == 16) {
          yield PrimitiveType.SHORT;
        }
        yield PrimitiveType.INTEGER;
      }
      case INT64 -> logical instanceof LogicalTypeAnnotation.TimestampLogicalTypeAnnotation
          ? PrimitiveType.TIMESTAMP : PrimitiveType.LONG;
      case INT96 -> PrimitiveType.TIMESTAMP;
      case FLOAT -> PrimitiveType.FLOAT;
      case DOUBLE -> PrimitiveType.DOUBLE;
      case BINARY -> logical instanceof LogicalTypeAnnotation.StringLogicalTypeAnnotation
          || logical instanceof LogicalTypeAnnotation.EnumLogicalTypeAnnotation
          || logical instanceof LogicalTypeAnnotation.JsonLogicalTypeAnnotation ? PrimitiveType.STRING : PrimitiveType.BINARY;
      case FIXED_LEN_BYTE_ARRAY -> PrimitiveType.BINARY;
    };
  }
}
