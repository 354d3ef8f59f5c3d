package dev.sluice.table.types;

/** {@code decimal(precision, scale)}; precision 1..38. */
public record DecimalType(int precision, int scale) implements DataType {
  public DecimalType {
    if (precision < 1 || precision > 38 || scale < 0 || scale > precision) {
      throw new IllegalArgumentException(
          "decimal(" + precision + "," + scale + ") is not a valid decimal: need 1 <= precision <= 38 and 0 <= scale <= precision");
    }
  }

  public static DecimalType of(int precision, int scale) {
    return new DecimalType(precision, scale);
  }

  @Override
  public String typeName() {
    return "decimal(" + precision + "," + scale + ")";
  }

  @Override
  public boolean isOrderable() {
    return true;
  }

  @Override
  public String toString() {
    return typeName();
  }
}
