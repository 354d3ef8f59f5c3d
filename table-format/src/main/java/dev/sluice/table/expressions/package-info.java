/**
 * Row predicates over column names: built with the static factories on {@link
 * dev.sluice.table.expressions.Predicate}, bound to a schema, evaluated with SQL's three-valued logic.
 */
package dev.sluice.table.expressions;
