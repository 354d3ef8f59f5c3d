/**
 * Binding and evaluation behind {@link dev.sluice.table.expressions.Predicate}: the bound expression
 * tree in negation normal form, value ordering per Delta type, and Delta's text form of typed values.
 */
package dev.sluice.table.internal.expressions;
