/** Parsing, binding and the compiled evaluator tree behind {@link dev.sluice.ingestion.expr.Expressions}. */
package dev.sluice.ingestion.expr.internal;
