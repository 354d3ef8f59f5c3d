package dev.sluice.table.internal.parquet;

import dev.sluice.table.types.ArrayType;
import dev.sluice.table.types.DataType;
import dev.sluice.table.types.MapType;
import dev.sluice.table.types.StructField;
import dev.sluice.table.types.StructType;
import java.util.ArrayList;
import java.util.List;
import org.apache.parquet.schema.GroupType;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.Type;

/**
 * Cuts a file's Parquet schema down to the columns a read schema asks for (matched by name, exact
 * case first), so that only those are decoded. Also knows the list and map layouts other writers use.
 */
final class ParquetProjection {
  private ParquetProjection() {}

  /** The file's fields that {@code want} names, recursively; may have no fields at all. */
  static MessageType clip(StructType want, MessageType file) {
    return new MessageType(file.getName(), clipFields(want, file));
  }

  /** The wanted field that a file field named {@code name} fills, or null. */
  static StructField match(StructType want, String name) {
    return want.field(name).orElse(null);
  }

  private static List<Type> clipFields(StructType want, GroupType file) {
    List<Type> out = new ArrayList<>();
    boolean[] taken = new boolean[want.size()];
    for (Type field : file.getFields()) {
      StructField wanted = match(want, field.getName());
      if (wanted != null && !taken[want.indexOf(wanted.name())]) {
        taken[want.indexOf(wanted.name())] = true;
        out.add(clip(wanted.type(), field));
      }
    }
    return out;
  }

  private static Type clip(DataType want, Type file) {
    if (file.isPrimitive()) {
      return file;
    }
    GroupType group = file.asGroupType();
    if (want instanceof StructType struct) {
      List<Type> kept = clipFields(struct, group);
      // With no wanted child left, keep the whole group: a struct's nullness lives in its leaves.
      return kept.isEmpty() ? group : group.withNewFields(kept);
    }
    if (want instanceof ArrayType array && isList(group)) {
      Type repeated = group.getType(0);
      if (repeatedIsElement(repeated, group.getName(), array.elementType())) {
        return group.withNewFields(clip(array.elementType(), repeated));
      }
      GroupType middle = repeated.asGroupType();
      return group.withNewFields(middle.withNewFields(clip(array.elementType(), middle.getType(0))));
    }
    if (want instanceof MapType map && isMap(group)) {
      GroupType keyValue = group.getType(0).asGroupType();
      if (keyValue.getFieldCount() < 2) {
        return group;
      }
      return group.withNewFields(keyValue.withNewFields(keyValue.getType(0), clip(map.valueType(), keyValue.getType(1))));
    }
    return group;
  }

  /** A LIST-annotated group, or an unannotated one whose only child is repeated (old writers). */
  static boolean isList(GroupType group) {
    if (group.getFieldCount() != 1 || !group.getType(0).isRepetition(Type.Repetition.REPEATED)) {
      return false;
    }
    LogicalTypeAnnotation annotation = group.getLogicalTypeAnnotation();
    return annotation == null || annotation instanceof LogicalTypeAnnotation.ListLogicalTypeAnnotation;
  }

  /** A MAP or MAP_KEY_VALUE group, or an unannotated one whose only child is a repeated key/value group. */
  static boolean isMap(GroupType group) {
    if (group.getFieldCount() != 1 || group.getType(0).isPrimitive()
        || !group.getType(0).isRepetition(Type.Repetition.REPEATED)) {
      return false;
    }
    LogicalTypeAnnotation annotation = group.getLogicalTypeAnnotation();
    return annotation == null
        || annotation instanceof LogicalTypeAnnotation.MapLogicalTypeAnnotation
        || annotation == LogicalTypeAnnotation.MapKeyValueTypeAnnotation.getInstance();
  }

  /**
   * Whether a list's repeated field is the element itself (2-level lists) rather than a middle group
   * holding it (3-level), by the backward-compatibility rules of the Parquet format spec plus
   * Spark's check for single-field struct elements.
   */
  static boolean repeatedIsElement(Type repeated, String listName, DataType elementType) {
    if (repeated.isPrimitive()) {
      return true;
    }
    GroupType group = repeated.asGroupType();
    if (group.getFieldCount() != 1) {
      return true;
    }
    if (group.getName().equals("array") || group.getName().equals(listName + "_tuple")) {
      return true;
    }
    return elementType instanceof StructType struct && struct.size() == 1
        && struct.field(0).name().equals(group.getType(0).getName());
  }
}
