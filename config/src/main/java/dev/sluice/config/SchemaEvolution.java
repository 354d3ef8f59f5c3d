package dev.sluice.config;

/** What a bronze pipeline does with input columns that its schema does not have. */
public enum SchemaEvolution {
  /** Add them to the table schema. */
  ADD_NEW_COLUMNS("addNewColumns"),
  /** Keep them, as JSON, in the {@code _rescued_data} column (the default). */
  RESCUE("rescue"),
  /** Stop the pipeline with an error naming them. */
  FAIL_ON_NEW_COLUMNS("failOnNewColumns");

  private final String yamlName;

  SchemaEvolution(String yamlName) {
    this.yamlName = yamlName;
  }

  /** The name written in YAML (camelCase, as in Databricks Auto Loader). */
  public String yamlName() {
    return yamlName;
  }
}
