/**
 * SQL expression strings (filters, derived columns, conditions) parsed once, bound to a schema and
 * evaluated per row: start at {@link dev.sluice.ingestion.expr.Expressions}.
 */
package dev.sluice.ingestion.expr;
