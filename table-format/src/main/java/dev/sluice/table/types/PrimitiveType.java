package dev.sluice.table.types;

import java.util.Locale;
import java.util.Optional;

/** Delta's primitive types other than decimal. */
public enum PrimitiveType implements DataType {
  STRING(true),
  LONG(true),
  INTEGER(true),
  SHORT(true),
  BYTE(true),
  DOUBLE(true),
  FLOAT(true),
  BOOLEAN(false),
  BINARY(false),
  DATE(true),
  TIMESTAMP(true),
  /** Needs the {@code timestampNtz} table feature; parsed so that such tables can be refused by name. */
  TIMESTAMP_NTZ(true);

  private final boolean orderable;

  PrimitiveType(boolean orderable) {
    this.orderable = orderable;
  }

  @Override
  public String typeName() {
    return name().toLowerCase(Locale.ROOT);
  }

  @Override
  public boolean isOrderable() {
    return orderable;
  }

  /** The primitive named {@code name} in schema JSON, if it is one. */
  public static Optional<PrimitiveType> fromName(String name) {
    for (PrimitiveType t : values()) {
      if (t.typeName().equals(name)) {
        return Optional.of(t);
      }
    }
    return Optional.empty();
  }

  @Override
  public String toString() {
    return typeName();
  }
}
